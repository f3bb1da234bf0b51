//! The scores (`data-widget="scores"`): the attention score of q at position m and k at
//! position n, computed two ways, the unrotated score, and the vectors behind them.

use crate::lab::{use_lab, FullPage};
use crate::rope::{dot, Trend, VectorName};
use crate::state::Derived;
use crate::ui::card::WidgetCard;
use crate::ui::check::{Check, Question};
use crate::ui::readout::{ListReadout, Readout};
use crate::ui::score_readouts::ScoreReadouts;
use leptos::prelude::*;
use std::sync::Arc;

/// The shift of the question: both positions this much later.
const SHIFT: i64 = 100;

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
    let at = lab.select(|s| (s.m, s.n));
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
            <Check name="shift-both" look="the lists of q and k rotated, and the score" ask=Arc::new(move || {
                let (m, n) = at.get();
                let (turned, score) = lab.vectors.with(|v| {
                    let Some(v) = v.as_ref() else { return (false, Trend::Stays) };
                    let rotated = |x: &[f64], p: i64, name| v.rotary.rotate(name, x, p).unwrap_or_default();
                    let (q0, q1) = (rotated(&v.q, m, VectorName::Query), rotated(&v.q, m + SHIFT, VectorName::Query));
                    let turned = q0.iter().zip(&q1).any(|(a, b)| Trend::of(*a, *b) != Trend::Stays);
                    let score = |m, n| dot(&rotated(&v.q, m, VectorName::Query), &rotated(&v.k, n, VectorName::Key));
                    (turned, Trend::of(score(m, n), score(m + SHIFT, n + SHIFT)))
                });
                let answer = match (turned, score) {
                    (true, Trend::Stays) => "vectors",
                    (_, Trend::Rises | Trend::Falls) => "score",
                    (false, Trend::Stays) => "nothing",
                };
                Question::labelled(
                    format!("Add {SHIFT} to both m and n. Which numbers change?"),
                    &[("vectors", "q and k rotated change; the score does not"), ("score", "the score changes too"), ("nothing", "nothing changes")],
                    answer,
                    format!(
                        "Each plane of q and k turns a further {SHIFT}·θᵢ, so the rotated vectors change; the angle the rotation adds between \
                         them, (n − m)θᵢ, does not change, and neither does the score."
                    ),
                )
            }) />
        </WidgetCard>
    }
}
