//! The complex view as a stepper (`data-widget="complex"`), after the rotation lab: one plane's
//! parts of q and k as complex numbers, turned by e^{jmθ} and e^{jnθ}, multiplied with the conjugate, and
//! the real part that is the plane's share of the score (RoFormer section 3.2), each step with
//! the live numbers of the selected plane; then the whole share in one line (it was the rotation
//! lab's plane detail). The imaginary unit is written j (as Python's 1j), so that i is always the
//! plane index.

use crate::charts::format::whole_number;
use crate::dom::size::{use_in_view, while_in_view};
use crate::lab::use_lab;
use crate::quiz;
use crate::ui::card::WidgetCard;
use crate::ui::check::Check;
use crate::ui::math::{block, exp, mn, sub};
use leptos::prelude::*;
use std::sync::Arc;

/// The chapter's id (`embed=complex`, `data-widget`): never changes meaning once published.
pub const ID: &str = "complex";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "The same in complex numbers, step by step";

/// a + bj as MathML (j the imaginary unit).
fn complex(re: f64, im: f64) -> String {
    let sign = if im < 0.0 { "−" } else { "+" };
    format!("<mrow>{}<mo>{sign}</mo>{}<mi>j</mi></mrow>", mn(re), mn(im.abs()))
}

/// The plane's share of the score in one line, as MathML: static, so it is laid out once.
const SHARE: &str = "<math display=\"block\"><mrow>\
<mi>Re</mi><mo>[</mo>\
<msub><mover accent=\"true\"><mi>q</mi><mo>~</mo></mover><mi>i</mi></msub>\
<msup><mi>e</mi><mrow><mi>j</mi><mi>m</mi><msub><mi>θ</mi><mi>i</mi></msub></mrow></msup>\
<mo>·</mo><msup><mrow><mo>(</mo><msub><mover accent=\"true\"><mi>k</mi><mo>~</mo></mover><mi>i</mi></msub>\
<msup><mi>e</mi><mrow><mi>j</mi><mi>n</mi><msub><mi>θ</mi><mi>i</mi></msub></mrow></msup><mo>)</mo></mrow><mo>*</mo></msup>\
<mo>]</mo><mo>=</mo><mi>Re</mi><mo>[</mo>\
<msub><mover accent=\"true\"><mi>q</mi><mo>~</mo></mover><mi>i</mi></msub>\
<msubsup><mover accent=\"true\"><mi>k</mi><mo>~</mo></mover><mi>i</mi><mo>*</mo></msubsup>\
<msup><mi>e</mi><mrow><mo>−</mo><mi>j</mi><mo>(</mo><mi>n</mi><mo>−</mo><mi>m</mi><mo>)</mo><msub><mi>θ</mi><mi>i</mi></msub></mrow></msup>\
<mo>]</mo></mrow></math>";

/// (re, im) products.
fn times((a, b): (f64, f64), (c, d): (f64, f64)) -> (f64, f64) {
    (a * c - b * d, a * d + b * c)
}

fn conj((a, b): (f64, f64)) -> (f64, f64) {
    (a, -b)
}

/// The five steps' numbers.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Steps {
    plane: usize,
    dims: (usize, usize),
    theta: f64,
    m: i64,
    n: i64,
    zq: (f64, f64),
    zk: (f64, f64),
    zq_m: (f64, f64),
    zk_n: (f64, f64),
    product: (f64, f64),
    score: f64,
}

const TITLES: [&str; 5] = [
    "Read q's and k's parts in plane i as complex numbers q̃ᵢ and k̃ᵢ",
    "Rotate q: multiply by e^(jmθᵢ)",
    "Rotate k: multiply by e^(jnθᵢ)",
    "Multiply q's by the conjugate of k's",
    "The real part is the plane's share of the score",
];

#[component]
pub fn ComplexWidget() -> impl IntoView {
    let lab = use_lab();
    let at = lab.select(|s| (s.m, s.n, s.plane));
    let vectors = lab.vectors;
    let step = RwSignal::new(0_usize);
    let steps = Memo::new(move |_| {
        let (m, n, plane) = at.get();
        vectors.with(|v| {
            let v = v.as_ref()?;
            let plane = plane.min(v.rotary.planes().checked_sub(1)?);
            let dims = v.rotary.plane_dims(plane);
            let pair = |x: &[f64]| (x[dims.0], x[dims.1]);
            let theta = v.rotary.inv_freq()[plane];
            let turn = |angle: f64| (angle.cos(), angle.sin());
            let (zq, zk) = (pair(&v.q), pair(&v.k));
            let zq_m = times(zq, turn(m as f64 * theta));
            let zk_n = times(zk, turn(n as f64 * theta));
            let product = times(zq_m, conj(zk_n));
            Some(Steps { plane, dims, theta, m, n, zq, zk, zq_m, zk_n, product, score: product.0 })
        })
    });
    // The formulas and notes (MathML through innerHTML) change only near the screen; the
    // readable share below follows every step.
    let list = NodeRef::<leptos::html::Ol>::new();
    let shown = while_in_view(use_in_view(list), move || steps.get());
    let formula = move |index: usize| {
        shown.with(|s| {
            let Some(s) = s else { return String::new() };
            let (q, k) = (sub("q̃", "i"), sub("k̃", "i"));
            let theta = sub("θ", "i");
            let body = match index {
                0 => format!(
                    "{q}<mo>=</mo><msub><mi>q</mi><mn>{a}</mn></msub><mo>+</mo><mi>j</mi><msub><mi>q</mi><mn>{b}</mn></msub><mo>=</mo>{}\
                     <mspace width=\"1em\"/>{k}<mo>=</mo>{}",
                    complex(s.zq.0, s.zq.1), complex(s.zk.0, s.zk.1), a = s.dims.0, b = s.dims.1
                ),
                // The product in parentheses: a + bj · e^(jφ) would read as a + (bj·e^(jφ)).
                1 => format!(
                    "{q}{}<mo>=</mo><mo>(</mo>{}<mo>)</mo><mo>·</mo>{}<mo>=</mo>{}",
                    exp(&format!("<mi>j</mi><mi>m</mi>{theta}")), complex(s.zq.0, s.zq.1),
                    exp(&format!("<mi>j</mi><mo>·</mo>{}", mn(s.m as f64 * s.theta))), complex(s.zq_m.0, s.zq_m.1)
                ),
                2 => format!(
                    "{k}{}<mo>=</mo><mo>(</mo>{}<mo>)</mo><mo>·</mo>{}<mo>=</mo>{}",
                    exp(&format!("<mi>j</mi><mi>n</mi>{theta}")), complex(s.zk.0, s.zk.1),
                    exp(&format!("<mi>j</mi><mo>·</mo>{}", mn(s.n as f64 * s.theta))), complex(s.zk_n.0, s.zk_n.1)
                ),
                3 => format!(
                    "{q}{}<mo>·</mo><msup><mrow><mo>(</mo>{k}{}<mo>)</mo></mrow><mo>*</mo></msup><mo>=</mo>{q}<msubsup><mi>k̃</mi><mi>i</mi><mo>*</mo></msubsup>{}<mo>=</mo>{}",
                    exp(&format!("<mi>j</mi><mi>m</mi>{theta}")), exp(&format!("<mi>j</mi><mi>n</mi>{theta}")),
                    exp(&format!("<mi>j</mi><mo>(</mo><mi>m</mi><mo>−</mo><mi>n</mi><mo>)</mo>{theta}")), complex(s.product.0, s.product.1)
                ),
                _ => format!(
                    "<mi>Re</mi><mo>[</mo>{}<mo>]</mo><mo>=</mo>{}",
                    complex(s.product.0, s.product.1), mn(s.score)
                ),
            };
            block(&body)
        })
    };
    let note = move |index: usize| {
        shown.with(|s| {
            let Some(s) = s else { return String::new() };
            match index {
                0 => format!(
                    "Plane {} pairs dimensions {} and {} ({} layout).",
                    s.plane,
                    s.dims.0,
                    s.dims.1,
                    if s.dims.1 == s.dims.0 + 1 { "interleaved" } else { "half" }
                ),
                1 => format!("m = {}: q̃ᵢ turns by m·θᵢ; its length does not change.", whole_number(s.m)),
                2 => format!("n = {}: k̃ᵢ turns by n·θᵢ.", whole_number(s.n)),
                3 => format!(
                    "The turns meet as e^(j(m−n)θᵢ): the absolute positions cancel, only n − m = {} is left.",
                    whole_number(s.n - s.m)
                ),
                _ => {
                    "Re[z·w*] is the dot product of q's and k's turned parts in the plane as 2D vectors; the shares of all planes add up to the score.".to_string()
                }
            }
        })
    };

    view! {
        <WidgetCard id=ID title=TITLE explain="The same computation in complex numbers, as RoFormer derives it (section 3.2): \
            read plane i's two numbers (a, b) as one complex number a + jb; then turning it by an angle φ is \
            multiplying it by e^(jφ) = cos φ + j sin φ. This page writes the imaginary unit j (j² = −1, as Python's \
            1j) so that i stays the plane index; RoFormer writes i for both. Step through the selected plane \
            (pick another on the clocks).">
            <div class="stepper-controls">
                <button type="button" on:click=move |_| step.update(|s| *s = s.saturating_sub(1)) disabled=move || step.get() == 0>"◀ Back"</button>
                <span class="stepper-position" aria-live="polite">{move || format!("Step {} of 5", step.get() + 1)}
                    // The title is announced with the step; on screen it heads the step below. A
                    // sentence of its own, so that both translate whatever the step.
                    " "<span class="visually-hidden sentence">{move || TITLES[step.get()]}</span></span>
                <button type="button" on:click=move |_| step.update(|s| *s = (*s + 1).min(4)) disabled=move || step.get() == 4>"Next ▶"</button>
                <button type="button" on:click=move |_| step.set(4)>"Show all"</button>
            </div>
            <ol class="steps" node_ref=list>
                {(0..5).map(|index| view! {
                    <li class="step" hidden=move || { index > step.get() }>
                        <p class="step-title">{TITLES[index]}</p>
                        <div class="math" inner_html=move || formula(index)></div>
                        <p class="explain">{move || note(index)}</p>
                    </li>
                }).collect_view()}
            </ol>
            <output class="visually-hidden" data-testid="complex-share"
                data-value=move || steps.with(|s| s.map(|s| crate::state::fmt_f64(s.score)))></output>
            <h3>"The whole share in one line"</h3>
            <div class="math" inner_html=SHARE></div>
            <p class="explain">
                "Rotating by mθᵢ multiplies q̃ᵢ by e^(jmθᵢ); the product with the conjugate of k̃ᵢ·e^(jnθᵢ) keeps only "
                "e^(−j(n−m)θᵢ): the plane's share depends on n − m alone. The rotation lab draws this share for the "
                "selected plane as an angle between two hands; the shares of all planes add up to the score."
            </p>
            <Check name="turn-length" look="step 2: q̃ᵢ before and after the turn" ask=Arc::new(move || {
                steps.with(|s| s.map(|s| quiz::early::turn_length(s.zq, s.m, s.theta))).unwrap_or_default()
            }) />
        </WidgetCard>
    }
}
