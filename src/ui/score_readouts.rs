//! The three scores of q at position m and k at position n, and why the first two agree: shown
//! once per page, by the rotation lab on the full page and by the scores chapter when embedded.

use crate::charts::format::whole_number;
use crate::dom::size::{use_in_view, while_in_view};
use crate::lab::use_lab;
use crate::rope::Scores;
use crate::ui::readout::Readout;
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
            "The first two are the same number: rotating q by m·θᵢ and k by n·θᵢ in each plane i leaves only "
            "the difference of the angles, (n − m)·θᵢ, in their dot product. Here n − m = "
            <strong>{move || distance.get()}</strong>
            ". Move m and n together and the score does not change."
        </p>
    }
}
