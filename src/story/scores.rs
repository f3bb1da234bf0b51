//! The scores (`data-widget="scores"`): the attention score of q at position m and k at
//! position n, computed two ways, the unrotated score, the attention factor, and the vectors and
//! frequencies behind them. Since issue 45 it is not a chapter of the full page (its parts live
//! where they are explained: q and k rotated and its question in the rotation lab, θᵢ in the
//! frequencies chapter, the attention factor in context extension); it stays whole for
//! `embed=scores`.

use crate::lab::use_lab;
use crate::quiz;
use crate::state::Derived;
use crate::ui::card::WidgetCard;
use crate::ui::check::Check;
use crate::ui::readout::{ListReadout, Readout};
use crate::ui::score_readouts::ScoreReadouts;
use leptos::prelude::*;
use std::sync::Arc;

/// The shift of the question: both positions this much later.
const SHIFT: i64 = 100;

/// The chapter's id (`embed=scores`, `data-widget`): never changes meaning once published.
pub const ID: &str = "scores";
/// Its title, the heading of its card.
pub const TITLE: &str = "Scores: q at position m, k at position n";

/// Scores, attention factor, vectors and frequencies for the current parameters.
#[component]
pub fn ScoresWidget() -> impl IntoView {
    let lab = use_lab();
    let list = move |f: fn(&Derived) -> Vec<f64>| {
        let values = lab.select_derived(f);
        Signal::derive(move || values.get().unwrap_or_default())
    };
    let planes = lab.select(|s| s.dim / 2);
    let at = lab.select(|s| (s.m, s.n));

    view! {
        <WidgetCard id=ID title=TITLE>
            <ScoreReadouts />
            <div class="readouts">
                <Readout testid="attention-factor" label="attention factor"
                    value=lab.select_derived(|d| d.frequencies.attention_factor)
                    hint="transformers' attention_factor: 1 without a context extension; some (YaRN, LongRoPE) set it, and it \
                        multiplies cos and sin, so both q and k, and the logit by its square (the full page's chapter on \
                        stretching the context says why); not folded into the scores shown" />
            </div>
            {move || lab.derived.with(|d| d.as_ref().err().map(|e| view! {
                <p class="error" role="alert">{format!("These parameters cannot be computed: {e}")}</p>
            }))}
            // Folded by default: walls of numbers are detail, and a closed list costs the browser
            // no layout or paint while a slider moves (its data-value stays current).
            <details class="lists">
                <summary>{move || format!("The vectors: q and k rotated, and the {} frequencies θᵢ", planes.get())}</summary>
                <ListReadout testid="q-rot" label="q rotated to m" values=list(|d| d.scores.q_rot.clone()) />
                <ListReadout testid="k-rot" label="k rotated to n" values=list(|d| d.scores.k_rot.clone()) />
                <ListReadout testid="inv-freq" label="θᵢ, radians per token (transformers' inv_freq)"
                    values=list(|d| d.frequencies.inv_freq.clone()) />
            </details>
            <Check name="shift-both" look="the lists of q and k rotated, and the score" ask=Arc::new(move || {
                let (m, n) = at.get();
                lab.vectors.with(|v| v.as_ref().map(|v| quiz::early::shift_both(v, m, n, SHIFT))).unwrap_or_default()
            }) />
        </WidgetCard>
    }
}
