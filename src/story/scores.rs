//! The scores (`data-widget="scores"`): the attention score of q at position m and k at
//! position n, computed two ways, the unrotated score, and the vectors behind them.

use crate::lab::{use_lab, FullPage};
use crate::state::Derived;
use crate::ui::card::WidgetCard;
use crate::ui::readout::{ListReadout, Readout};
use crate::ui::score_readouts::ScoreReadouts;
use leptos::prelude::*;

/// The chapter's id (`embed=scores`, `data-widget`): never changes meaning once published.
pub const ID: &str = "scores";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "Scores: q at position m, k at position n";
/// Its heading on the full page, where it shows only the numbers (the rotation lab shows the
/// scores there): the table of contents names it so.
pub const PAGE_TITLE: &str = "The numbers: vectors and frequencies";

/// Scores, attention factor and vectors for the current parameters. On the full page only the
/// attention factor and the vectors: the rotation lab shows the scores there.
#[component]
pub fn ScoresWidget() -> impl IntoView {
    let without_scores = use_context::<FullPage>().is_some();
    let lab = use_lab();
    let list = move |f: fn(&Derived) -> Vec<f64>| {
        let values = lab.select_derived(f);
        Signal::derive(move || values.get().unwrap_or_default())
    };
    let planes = lab.select(|s| s.dim / 2);
    let title = if without_scores { PAGE_TITLE } else { TITLE };

    view! {
        <WidgetCard id=ID title=title alone=TITLE>
            {(!without_scores).then(|| view! { <ScoreReadouts /> })}
            <div class="readouts">
                <Readout testid="attention-factor" label="attention factor"
                    value=lab.select_derived(|d| d.frequencies.attention_factor)
                    hint="multiplies cos and sin of both q and k, so the logit by its square; not folded into the scores shown" />
            </div>
            {move || lab.derived.with(|d| d.as_ref().err().map(|e| view! {
                <p class="error" role="alert">{format!("These parameters cannot be computed: {e}")}</p>
            }))}
            // Folded by default: walls of numbers are detail, and a closed list costs the browser
            // no layout or paint while a slider moves (its data-value stays current).
            <details class="lists">
                <summary>{move || format!("The vectors: q and k rotated, and the {} inverse frequencies", planes.get())}</summary>
                <ListReadout testid="q-rot" label="q rotated to m" values=list(|d| d.scores.q_rot.clone()) />
                <ListReadout testid="k-rot" label="k rotated to n" values=list(|d| d.scores.k_rot.clone()) />
                <ListReadout testid="inv-freq" label="inverse frequencies θᵢ (radians per token)"
                    values=list(|d| d.frequencies.inv_freq.clone()) />
            </details>
        </WidgetCard>
    }
}
