//! The selected plane: its two hands and the angle between them, with its numbers in plain real
//! terms. The same share as a complex product (RoFormer section 3.2) is the complex chapter's,
//! which comes after the lab: the lab only points there.

use crate::charts::format::{fixed, short_number, whole_number};
use crate::charts::{draw_plane_view, ClockFace, PlaneView};
use crate::dom::canvas::use_canvas_chart;
use crate::dom::size::{use_in_view, while_in_view};
use crate::lab::use_chart_style;
use crate::state::fmt_f64;
use leptos::html::Canvas;
use leptos::prelude::*;

/// A pair (a, b), short, with typographic minus signs.
fn pair((a, b): (f64, f64)) -> String {
    format!("({}, {})", short_number(a), short_number(b))
}

/// A plane's index as subscript digits, for θ₇: θ is never written without its plane's index.
fn subscript(index: usize) -> String {
    index.to_string().chars().map(|c| char::from_u32(0x2080 + c.to_digit(10).unwrap_or(0)).unwrap_or(c)).collect()
}

/// A position exactly ("10,000,000"), or to two decimals while the animation is between tokens.
fn position_text(position: f64) -> String {
    if position.fract() == 0.0 && position.abs() < 9e15 {
        whole_number(position as i64)
    } else {
        fixed(position, 2)
    }
}

/// q's and k's pairs of a face at rest (before the turn by m·θ and n·θ).
fn pairs_at_rest(face: &ClockFace) -> ((f64, f64), (f64, f64)) {
    let h = &face.hands;
    let rest = |length: f64, angle: f64, turn: f64| (length * (angle - turn).cos(), length * (angle - turn).sin());
    (rest(h.q_length, h.q_angle, h.q_turn), rest(h.k_length, h.k_angle, h.k_turn))
}

/// The selected plane: its two hands, the angle (n − m)θ between them on the unit circle, and its numbers.
#[component]
pub fn PlaneDetail(
    /// Every plane's face at the drawn positions.
    faces: Memo<Vec<ClockFace>>,
    /// The longest pair of q or k.
    longest: Memo<f64>,
    /// The drawn (possibly fractional, while animating) positions m and n.
    positions: Memo<(f64, f64)>,
    /// θᵢ, one per plane (radians per token).
    inv_freq: Memo<Vec<f64>>,
    selected: Memo<usize>,
) -> impl IntoView {
    let style = use_chart_style();
    let canvas = NodeRef::<Canvas>::new();
    let face = Memo::new(move |_| faces.with(|f| f.get(selected.get()).copied()));
    let theta = Memo::new(move |_| inv_freq.with(|f| f.get(selected.get()).copied().unwrap_or(0.0)));

    use_canvas_chart(
        canvas,
        move || {
            let (m, n) = positions.get();
            let view =
                face.get().map(|face| PlaneView { hands: face.hands, relative_angle: -(n - m) * theta.get(), longest: longest.get() });
            (view, style.get())
        },
        |area, (view, style), ratio| {
            if let Some(view) = view {
                let _ = draw_plane_view(area, view, &style.with_scale(ratio));
            }
        },
    );

    let pairs = Memo::new(move |_| face.get().map(|f| pairs_at_rest(&f)));
    // The numbers' text follows the state only near the screen (it is just below the heatmap,
    // where changing text would cost every step layout and paint); the readable value does not wait.
    let formula = NodeRef::<leptos::html::Div>::new();
    let text = while_in_view(use_in_view(formula), move || {
        let (m, n) = positions.get();
        let theta = theta.get();
        [
            // θ with the plane's index in digits stays as it is in every language (`translate="no"`
            // in the view), the words around it are translated: see the title below.
            format!(" = {} rad per token", short_number(theta)),
            pairs
                .get()
                .map(|(q, k)| format!("q's part in this plane {},   k's part {} (before turning)", pair(q), pair(k)))
                .unwrap_or_default(),
            format!(
                "(n − m)·θᵢ = ({} − {}) × {} = {} rad",
                position_text(n),
                position_text(m),
                short_number(theta),
                short_number((n - m) * theta)
            ),
            face.get().map_or_else(|| "—".to_string(), |f| short_number(f.hands.contribution)),
        ]
    });
    let line = move |i: usize| move || text.with(|t| t[i].clone());
    view! {
        <div class="plane-detail">
            <canvas
                class="plane-canvas"
                node_ref=canvas
                role="img"
                aria-label=move || {
                    let (m, n) = positions.get();
                    let share = face.get().map_or_else(|| "—".to_string(), |f| short_number(f.hands.contribution));
                    format!(
                        "Plane {0}: q's and k's parts in it turned to m and n, and the angle −(n − m)·θᵢ = {1} rad on the unit circle; the plane's share of the score is {share}",
                        selected.get(), short_number(-(n - m) * theta.get())
                    )
                }
            ></canvas>
            <div class="plane-formula" node_ref=formula>
                <p class="plane-formula-title">
                    "Plane "{move || selected.get()}": "<span translate="no">{move || format!("θ{}", subscript(selected.get()))}</span>{line(0)}
                </p>
                <p class="plane-numbers">
                    {line(1)}
                    <br />
                    {line(2)}
                </p>
                <p class="explain">
                    "The plane's share of the score is the dot product of q's and k's parts in it after the turns: their "
                    "lengths times the cosine of the angle between them, to which the turns add (n − m)·θᵢ, so the share depends on "
                    "n − m alone (the chapter on complex numbers, two chapters on, writes the same share as one "
                    "product). Its share is "
                    <output
                        data-testid="plane-contribution"
                        data-value=move || face.get().map(|f| fmt_f64(f.hands.contribution))
                    >
                        {line(3)}
                    </output>
                    "."
                </p>
            </div>
        </div>
    }
}
