//! The scores (`data-widget="scores"`): the attention score of q at position m and k at
//! position n, computed two ways, the unrotated score, and the vectors behind them.

use super::card::WidgetCard;
use super::readout::{ListReadout, Readout};
use super::registry::{FullPage, SCORES_PAGE_TITLE};
use super::size::{use_in_view, while_in_view};
use super::use_lab;
use crate::charts::format::whole_number;
use crate::rope::Scores;
use crate::state::Derived;
use leptos::prelude::*;

/// The three scores (`score`, `score-relative`, `score-unrotated`) and why the first two agree.
/// Shown once per page: by the clocks on the full page, by the scores widget when embedded.
#[component]
pub fn ScoreReadouts() -> impl IntoView {
    let lab = use_lab();
    let score = move |f: fn(&Scores) -> f64| lab.select_derived(move |d| f(&d.scores));
    // Near the screen only, as the readouts' own text (their readable values do not wait).
    let explain = NodeRef::<leptos::html::P>::new();
    let distance = lab.select(|s| s.n - s.m);
    let distance = while_in_view(use_in_view(explain), move || whole_number(distance.get()));
    view! {
        <div class="readouts">
            <Readout testid="score" label="q_m · k_n, rotated" value=score(|s| s.score) />
            <Readout testid="score-relative" label="q · R(n−m) k, relative" value=score(|s| s.score_relative) />
            <Readout testid="score-unrotated" label="q · k, unrotated" value=score(|s| s.score_unrotated) />
        </div>
        <p class="explain" node_ref=explain>
            "The first two are the same number: rotating q by mθ and k by nθ leaves only the "
            "difference of the angles, (n − m)θ, in their dot product. Here n − m = "
            <strong>{move || distance.get()}</strong>
            ". Move m and n together and the score does not change."
        </p>
    }
}

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
    let title = without_scores.then_some(SCORES_PAGE_TITLE);

    view! {
        <WidgetCard id="scores" title=title>
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
