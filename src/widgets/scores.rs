//! The first live widget (`data-widget="scores"`): the attention score of q at position m and
//! k at position n, computed two ways, the unrotated score, and the vectors behind them.

use super::readout::{ListReadout, Readout};
use super::use_lab;
use leptos::prelude::*;

/// Scores and vectors for the current parameters.
#[component]
pub fn ScoresWidget() -> impl IntoView {
    let lab = use_lab();
    let scores = move |f: fn(&crate::rope::Scores) -> f64| Signal::derive(move || lab.with_derived(|d| f(&d.scores)));
    let list = move |f: fn(&crate::state::Derived) -> Vec<f64>| {
        Signal::derive(move || lab.with_derived(f).unwrap_or_default())
    };
    let distance = move || lab.state.with(|s| s.n - s.m);

    view! {
        <section class="widget" data-widget="scores" aria-labelledby="scores-title">
            <h2 id="scores-title">"Scores: q at position m, k at position n"</h2>
            <div class="readouts">
                <Readout testid="score" label="q rotated to m · k rotated to n"
                    value=scores(|s| s.score) />
                <Readout testid="score-relative" label="q · k rotated by n − m"
                    value=scores(|s| s.score_relative) />
                <Readout testid="score-unrotated" label="q · k, no rotation"
                    value=scores(|s| s.score_unrotated) />
                <Readout testid="attention-factor" label="attention factor"
                    value=Signal::derive(move || lab.with_derived(|d| d.frequencies.attention_factor))
                    hint="multiplies cos and sin; not folded into the scores" />
            </div>
            <p class="explain">
                "The first two numbers are the same number: rotating q by mθ and k by nθ leaves "
                "only the difference of the angles, (n − m)θ, in their dot product. Here n − m = "
                <strong>{distance}</strong>
                ". Move m and n together and the score does not change."
            </p>
            {move || lab.derived.with(|d| d.as_ref().err().map(|e| view! {
                <p class="error" role="alert">{format!("These parameters cannot be computed: {e}")}</p>
            }))}
            <div class="lists">
                <ListReadout testid="q-rot" label="q rotated to m" values=list(|d| d.scores.q_rot.clone()) />
                <ListReadout testid="k-rot" label="k rotated to n" values=list(|d| d.scores.k_rot.clone()) />
                <ListReadout testid="inv-freq" label="inverse frequencies θᵢ (radians per token)"
                    values=list(|d| d.frequencies.inv_freq.clone()) />
            </div>
        </section>
    }
}
