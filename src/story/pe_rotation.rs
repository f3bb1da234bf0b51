//! Chapter 3 (`data-widget="pe-rotation"`): sinusoids hide a rotation. Each (sin, cos) pair of
//! the sinusoidal encoding sits on a unit circle at angle p·θᵢ; shifting the position by Δ turns
//! it by Δ·θᵢ whatever p is, so one fixed matrix M_Δ (a 2 × 2 rotation per plane) carries PE(p)
//! onto PE(p + Δ). (The shift is Δ, not k: k is the key vector everywhere else.) Vaswani et al. 2017 (section 3.5) hint at it; Fleetwood (Hugging Face, 2024)
//! spells it out.

use crate::charts::format::{fixed, short_number};
use crate::dom::indexed::indexed;
use crate::dom::size::{use_in_view, while_in_view};
use crate::lab::use_lab;
use crate::quiz;
use crate::rope::{pe_rotation_error, pe_shift_blocks, sinusoidal_encoding, RopeParams, MAX_CODE_POSITION};
use crate::state::{param, Change};
use crate::ui::card::WidgetCard;
use crate::ui::check::Check;
use crate::ui::controls::FinePositionControl;
use crate::ui::export::{base_and_dim, ExportButtons};
use crate::ui::math::{block, column, matrix, mn};
use crate::ui::readout::Readout;
use leptos::prelude::*;
use std::f64::consts::TAU;
use std::sync::Arc;

/// The chapter's id (`embed=pe-rotation`, `data-widget`): never changes meaning once published.
pub const ID: &str = "pe-rotation";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "Sinusoids hide a rotation";

/// Dials shown: planes spread from the fastest to the slowest.
const DIALS: usize = 8;

/// `count` plane indices spread evenly over `0..planes`.
fn spread(planes: usize, count: usize) -> Vec<usize> {
    if planes <= count {
        return (0..planes).collect();
    }
    let mut picked: Vec<usize> = (0..count).map(|j| (j * (planes - 1) + (count - 1) / 2) / (count - 1)).collect();
    picked.dedup();
    picked
}

/// An SVG arc on the unit circle (radius `r`, centre 0) from angle `a` turning by `turn`
/// (counter-clockwise on screen for positive turns: y is flipped).
fn arc(r: f64, a: f64, turn: f64) -> String {
    let turn = turn.rem_euclid(TAU);
    let (x0, y0) = (r * a.cos(), -r * a.sin());
    let (x1, y1) = (r * (a + turn).cos(), -r * (a + turn).sin());
    let large = if turn > std::f64::consts::PI { 1 } else { 0 };
    let [x0, y0, x1, y1] = [x0, y0, x1, y1].map(|v| fixed(v, 3));
    let r = fixed(r, 3);
    format!("M {x0} {y0} A {r} {r} 0 {large} 0 {x1} {y1}")
}

#[component]
pub fn PeRotationWidget() -> impl IntoView {
    let lab = use_lab();
    let p = lab.select(|s| s.p);
    let shift = lab.select(|s| s.shift);
    let (p_i64, shift_i64) = (lab.select(|s| i64::from(s.p)), lab.select(|s| i64::from(s.shift)));
    let params = lab.select(|s| RopeParams::new(s.base, s.dim).ok());
    let plane = lab.select(|s| s.plane);
    let error = Memo::new(move |_| params.get().map(|params| pe_rotation_error(params, p.get() as f64, shift.get() as f64)));
    let dials = Memo::new(move |_| {
        let Some(params) = params.get() else { return Vec::new() };
        let (p, delta) = (p.get() as f64, shift.get() as f64);
        let theta = |i: usize| params.base().powf(-2.0 * i as f64 / params.dim() as f64);
        spread(params.planes(), DIALS).into_iter().map(|i| (i, p * theta(i), delta * theta(i))).collect::<Vec<_>>()
    });
    // The dials' SVG is rebuilt with every step of p, Δ, base or d: only while it is on screen.
    let dials_box = NodeRef::<leptos::html::Div>::new();
    let shown = while_in_view(use_in_view(dials_box), move || dials.get());
    // The selected plane's M_Δ, PE(p) and PE(p + Δ), as MathML (parsed anew on each change: only
    // while on screen).
    let formula_box = NodeRef::<leptos::html::Div>::new();
    let formula = while_in_view(use_in_view(formula_box), move || {
        let Some(params) = params.get() else { return String::new() };
        let i = plane.get().min(params.planes() - 1);
        let (p, delta) = (p.get() as f64, shift.get() as f64);
        let m = pe_shift_blocks(params, delta)[i];
        let (before, after) = (sinusoidal_encoding(params, p), sinusoidal_encoding(params, p + delta));
        let pair = |v: &[f64]| column(mn(v[2 * i]), mn(v[2 * i + 1]));
        block(&format!(
            "{}<mo>·</mo>{}<mo>=</mo>{}",
            matrix([[mn(m[0][0]), mn(m[0][1])], [mn(m[1][0]), mn(m[1][1])]]),
            pair(&before),
            pair(&after)
        ))
    });

    view! {
        <WidgetCard id=ID title=TITLE explain="Dimensions 2i and 2i + 1 of the sinusoidal code, (sin pθᵢ, cos pθᵢ), are a point \
            on a circle at angle pθᵢ: call such a pair of dimensions a plane, plane i. Move p by a shift Δ (not k: \
            k is the key vector) and every plane turns by Δθᵢ, an angle that does not \
            depend on p. So one fixed matrix M_Δ, a 2 × 2 rotation per plane, turns PE(p) into PE(p + Δ) for every \
            p: relative position is already a rotation. (The dials draw each plane's point at the angle pθᵢ, as \
            (cos, sin); the code stores it as (sin, cos), so in its own coordinates M_Δ turns the other way: rows \
            (cos Δθᵢ, sin Δθᵢ) and (−sin Δθᵢ, cos Δθᵢ).)">
            <div class="chapter-controls">
                <FinePositionControl lab param=&param::P label="position p" change=Change::P value=p_i64
                    max=MAX_CODE_POSITION as i64 id="p-slider-rotation" />
                <FinePositionControl lab param=&param::SHIFT label="shift Δ" change=Change::Shift value=shift_i64 max=MAX_CODE_POSITION as i64 id="shift-slider" />
            </div>
            <div class="pe-dials" node_ref=dials_box role="img"
                aria-label=move || format!("{} planes of the sinusoidal code, fast to slow: each point at angle pθᵢ turns by Δθᵢ to (p+Δ)θᵢ", dials.with(Vec::len))>
                // The dials stay while their number does; a step moves their hands.
                {indexed(move || shown.with(Vec::len), move |j, active| view! {
                    <Dial active dial=Memo::new(move |_| shown.with(|dials| dials.get(j).copied().unwrap_or_default())) />
                })}
            </div>
            <p class="legend-line">
                <span class="q-text">"● PE(p)"</span> " turned by Δθᵢ to " <span class="k-text">"● PE(p + Δ)"</span>
                " (angles shown modulo 2π, in radians)"
            </p>
            <ExportButtons name="pe-rotation" figure=".pe-dials, .legend-line"
                caption=Callback::new(move |()| lab.state.with_untracked(|s| format!(
                    "Sinusoidal code as rotations: each plane of PE(p) turned by Δθᵢ to PE(p + Δ), p = {}, Δ = {}, {}", s.p, s.shift, base_and_dim(s.base, s.dim)))) />
            <div class="math pe-formula" node_ref=formula_box>
                <p class="pe-formula-title">{move || format!("Plane {} (the plane selected in the rotation lab, three chapters on):", plane.get())}</p>
                <div inner_html=move || formula.get()></div>
            </div>
            <div class="readouts">
                <Readout testid="pe-rotation-error" label="max |M_Δ·PE(p) − PE(p + Δ)|"
                    value=Signal::derive(move || error.get())
                    hint="rounding only: exact in real numbers; f64 rounds each angle p·θᵢ to about 1e-16 of its size" />
            </div>
            <p class="explain">
                "This is why sinusoids suit attention: a fixed, position-independent transformation links any "
                "position to the one Δ tokens later. RoPE takes the hint literally: instead of adding the code "
                "to the token and hoping attention recovers the rotation, it rotates the query q and the key k "
                "themselves, as the next chapter shows."
            </p>
            <Check name="pe-dot" look="the dials: each plane turns by Δθᵢ whatever p is" ask=Arc::new(move || {
                params.get().map_or_else(Default::default, |params| quiz::early::pe_dot(params, p.get(), shift.get()))
            }) />
        </WidgetCard>
    }
}

/// One dial: plane `i`'s point at angle `from` = pθᵢ, turned by `turn` = Δθᵢ.
/// Hidden while not `active` (when d has fewer planes than dials).
#[component]
fn Dial(active: Signal<bool>, dial: Memo<(usize, f64, f64)>) -> impl IntoView {
    let at =
        move |angle: fn(f64, f64) -> f64, part: fn(f64) -> f64| move || dial.with(|(_, from, turn)| fixed(part(angle(*from, *turn)), 3));
    let (from, to) = (|from: f64, _: f64| from, |from: f64, turn: f64| from + turn);
    let (x, y) = (f64::cos, |a: f64| -a.sin());
    view! {
        <figure class="pe-dial" hidden=move || !active.get()>
            <svg viewBox="-1.3 -1.3 2.6 2.6" aria-hidden="true">
                <circle class="dial-ring" r="1" />
                <path class="dial-turn" d=move || dial.with(|(_, from, turn)| arc(0.72, *from, *turn)) />
                <line class="hand-p" x1="0" y1="0" x2=at(from, x) y2=at(from, y) />
                <line class="hand-pk" x1="0" y1="0" x2=at(to, x) y2=at(to, y) />
                <circle class="dot-p" r="0.12" cx=at(from, x) cy=at(from, y) />
                <circle class="dot-pk" r="0.12" cx=at(to, x) cy=at(to, y) />
            </svg>
            <figcaption>{move || format!("i = {}", dial.get().0)}<br />{move || format!("Δθ = {}", short_number(dial.get().2.rem_euclid(TAU)))}</figcaption>
        </figure>
    }
}
