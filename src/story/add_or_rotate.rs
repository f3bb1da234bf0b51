//! Chapter 4 (`data-widget="add-or-rotate"`): add a code to x, or rotate q and k? Adding changes
//! lengths and mixes content with position, so a score depends on where two tokens are, not
//! only on their distance; rotating keeps lengths and moves only angles (a·b = |a||b| cos), so
//! the score depends on n − m alone. Also: where RoPE sits in a layer, and why never on v.

use crate::charts::format::{fixed, short_number, whole_number};
use crate::dom::size::{use_in_view, while_in_view};
use crate::lab::use_lab;
use crate::quiz;
use crate::rope::{add_encoding, dot, norm, PositionMode, RopeParams, TinyAttention, VectorName, SENTENCE};
use crate::ui::card::WidgetCard;
use crate::ui::check::Check;
use crate::ui::formulas::{self, Formula};
use crate::ui::math::{block, matrix, mn, sub};
use crate::ui::readout::Readout;
use leptos::prelude::*;
use std::sync::Arc;

/// The chapter's id (`embed=add-or-rotate`, `data-widget`): never changes meaning once published.
pub const ID: &str = "add-or-rotate";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "Add or rotate?";

/// R(m)ᵀR(n) = R(n − m), block by block, and what it does to the score: static MathML.
const RELATIVE: &str = "<math display=\"block\"><mrow>\
<mo>(</mo><mi>R</mi><mo>(</mo><mi>m</mi><mo>)</mo><mi>q</mi><mo>)</mo><mo>·</mo><mo>(</mo><mi>R</mi><mo>(</mo><mi>n</mi><mo>)</mo><mi>k</mi><mo>)</mo>\
<mo>=</mo><msup><mi>q</mi><mi>T</mi></msup><mi>R</mi><msup><mrow><mo>(</mo><mi>m</mi><mo>)</mo></mrow><mi>T</mi></msup><mi>R</mi><mo>(</mo><mi>n</mi><mo>)</mo><mi>k</mi>\
<mo>=</mo><msup><mi>q</mi><mi>T</mi></msup><mi>R</mi><mo>(</mo><mi>n</mi><mo>−</mo><mi>m</mi><mo>)</mo><mi>k</mi>\
</mrow></math>";

/// How far "shift both" moves m and n in the comparison.
const SHIFT: i64 = 100;

/// The largest difference between two passes' outputs.
fn output_gap(a: &crate::rope::AttentionPass, b: &crate::rope::AttentionPass) -> f64 {
    a.outputs.iter().flatten().zip(b.outputs.iter().flatten()).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

/// The numbers of the chapter for one state.
#[derive(Debug, Clone, PartialEq, Default)]
struct AddOrRotate {
    norm_q: f64,
    norm_added: f64,
    norm_rotated: f64,
    /// (q + PE(m))·(k + PE(n)) at (m, n) and at (m + SHIFT, n + SHIFT).
    added: (f64, f64),
    /// R(m)q · R(n)k at the same two pairs of positions.
    rotated: (f64, f64),
    /// The selected plane's pairs: q, q + PE(m), R(m)q.
    pairs: [(f64, f64); 3],
}

#[component]
pub fn AddOrRotateWidget() -> impl IntoView {
    let lab = use_lab();
    let positions = lab.select(|s| (s.m, s.n, s.plane, s.base, s.dim));
    let vectors = lab.vectors;
    let numbers = Memo::new(move |_| {
        let (m, n, plane, base, dim) = positions.get();
        vectors.with(|v| {
            let v = v.as_ref()?;
            let params = RopeParams::new(base, dim).ok()?;
            let rotate = |x: &[f64], p: i64, name| v.rotary.rotate(name, x, p).ok();
            let added = |m: i64, n: i64| dot(&add_encoding(&v.q, params, m as f64), &add_encoding(&v.k, params, n as f64));
            let rotated = |m: i64, n: i64| Some(dot(&rotate(&v.q, m, VectorName::Query)?, &rotate(&v.k, n, VectorName::Key)?));
            let q_added = add_encoding(&v.q, params, m as f64);
            let q_rotated = rotate(&v.q, m, VectorName::Query)?;
            let (a, b) = v.rotary.plane_dims(plane.min(v.rotary.planes() - 1));
            let pair = |x: &[f64]| Some((*x.get(a)?, *x.get(b)?));
            Some(AddOrRotate {
                norm_q: norm(&v.q),
                norm_added: norm(&q_added),
                norm_rotated: norm(&q_rotated),
                added: (added(m, n), added(m + SHIFT, n + SHIFT)),
                rotated: (rotated(m, n)?, rotated(m + SHIFT, n + SHIFT)?),
                pairs: [pair(&v.q)?, pair(&q_added)?, pair(&q_rotated)?],
            })
        })
    });
    let value = move |f: fn(&AddOrRotate) -> f64| Signal::derive(move || numbers.with(|n| n.as_ref().map(f)));
    let base = lab.select(|s| s.base);
    // The tiny attention of chapter 1 with RoPE, its sentence starting at 0 and at 100, with v
    // left alone (RoPE) and with v rotated too.
    // The model's seeded weights are drawn once, not on every step of base.
    let model = StoredValue::new(TinyAttention::default());
    let values_test = Memo::new(move |_| {
        let b = base.get();
        model.with_value(|model| {
            let run = |start: f64, rotate_v: bool| model.run_with(&SENTENCE, PositionMode::Rope, b, start, rotate_v);
            (output_gap(&run(0.0, false), &run(SHIFT as f64, false)), output_gap(&run(0.0, true), &run(SHIFT as f64, true)))
        })
    });
    let plane = lab.select(|s| s.plane);
    let m = lab.select(|s| s.m);
    let dim = lab.select(|s| s.dim);
    // The arrows follow m only near the screen: out of view they keep their last drawing.
    let figure = NodeRef::<leptos::html::Div>::new();
    let in_view = use_in_view(figure);
    let pairs = while_in_view(in_view, move || numbers.with(|n| n.as_ref().map(|n| n.pairs)));
    // The drawing's numbers: the ring's radius, then the tips of q, q + PE(m) and R(m)q, each
    // scaled so that the longest arrow reaches 1. The SVG stays; its attributes follow.
    let geometry = Memo::new(move |_| {
        pairs.with(|pairs| {
            let pairs = pairs.as_ref()?;
            let longest = pairs.iter().map(|(x, y)| x.hypot(*y)).fold(1e-9, f64::max);
            let end = |(x, y): (f64, f64)| (fixed(x / longest, 3), fixed(-y / longest, 3));
            Some((fixed(pairs[0].0.hypot(pairs[0].1) / longest, 3), pairs.map(end)))
        })
    });
    // The caption and the score table: their text follows the state only near the screen too
    // (this chapter sits just above the heatmap, where its text would cost every step layout
    // and paint); the readable values beside them follow every step.
    let caption = while_in_view(in_view, move || format!("Plane {} of q at m = {}: ", plane.get(), whole_number(m.get())));
    let table = NodeRef::<leptos::html::Div>::new();
    let scores =
        while_in_view(use_in_view(table), move || numbers.with(|n| n.as_ref().map(|n| [n.added.0, n.added.1, n.rotated.0, n.rotated.1])));
    let score = move |i: usize| move || scores.with(|s| s.map(|s| short_number(s[i])));
    let tip = move |arrow: usize, y: bool| {
        move || geometry.with(|g| g.as_ref().map(|(_, tips)| if y { tips[arrow].1.clone() } else { tips[arrow].0.clone() }))
    };
    // The selected plane's block of R^d_{Θ,m} with its numbers, while on screen.
    let rotation_box = NodeRef::<leptos::html::Div>::new();
    let rotation = while_in_view(use_in_view(rotation_box), move || {
        let (m, plane) = (m.get(), plane.get());
        vectors.with(|v| {
            let Some(v) = v.as_ref() else { return (String::new(), String::new()) };
            let i = plane.min(v.rotary.planes().saturating_sub(1));
            let angle = m as f64 * v.rotary.inv_freq().get(i).copied().unwrap_or(0.0);
            let (c, s) = (angle.cos(), angle.sin());
            let title = format!("Its block for plane i = {i} at m = {}: the angle m·θᵢ = {} rad", whole_number(m), short_number(angle));
            let cells = [[mn(c), mn(-s)], [mn(s), mn(c)]];
            (title, block(&format!("<mi>R</mi><mo>(</mo><mi>m</mi>{}<mo>)</mo><mo>=</mo>{}", sub("θ", "i"), matrix(cells))))
        })
    });
    let arrows = view! {
        <svg viewBox="-1.25 -1.25 2.5 2.5" class="pair-arrows" aria-hidden="true" hidden=move || geometry.with(Option::is_none)>
            <circle class="dial-ring" r=move || geometry.with(|g| g.as_ref().map(|(ring, _)| ring.clone())) />
            <line class="hand-q" x1="0" y1="0" x2=tip(0, false) y2=tip(0, true) />
            <line class="hand-added" x1="0" y1="0" x2=tip(1, false) y2=tip(1, true) />
            <line class="hand-rotated" x1="0" y1="0" x2=tip(2, false) y2=tip(2, true) />
            <circle class="dot-q" r="0.06" cx=tip(0, false) cy=tip(0, true) />
            <circle class="dot-added" r="0.06" cx=tip(1, false) cy=tip(1, true) />
            <circle class="dot-rotated" r="0.06" cx=tip(2, false) cy=tip(2, true) />
        </svg>
    };

    view! {
        <WidgetCard id=ID title=TITLE explain="The original transformer adds the sinusoidal code to each token vector x. \
            That changes the vector's length and mixes content with position: the score of two tokens then depends \
            on where they are, not only on how far apart. RoPE rotates q and k instead. A rotation keeps lengths and \
            moves only the angle, and since a·b = |a||b| cos(angle), the score can only see the difference of the \
            two angles: (n − m)θᵢ in each plane (the one line of algebra behind it is below the table).">
            <p class="explain">
                "Until here the examples used the tiny attention of the first chapter: five words, d = 8, fixed "
                "weights. From here on q and k are one query and one key of d numbers each (d = " {move || dim.get()}
                ", the head dimension set in the panel), drawn at random from the seed (the rotation lab, two "
                "chapters on, lets you choose them). Why the switch: one query and one key make each score a "
                "single number to follow, and random vectors of the panel's d (64 by default) show what any q and k "
                "do, not what four planes and five fixed words happen to do: no plane is special. The end of this "
                "chapter goes back to the tiny attention, to look at v."
            </p>
            <p class="explain">
                "R(m)q is q rotated to position m: each plane i of q turned by the angle m·θᵢ (its matrix is in "
                "RoFormer's formulas below)."
            </p>
            <div class="add-rotate-grid">
                <div class="pair-figure" role="img" node_ref=figure
                    aria-label=move || format!("Plane {} of q: q itself, q + PE(m), and q rotated to m", plane.get())>
                    {arrows}
                    <p class="pair-caption">
                        {move || caption.get()}
                        <span class="legend-q">"q"</span>", "
                        <span class="legend-added">"q + PE(m)"</span>", "
                        <span class="legend-rotated">"R(m)q"</span>" (on q's circle)"
                    </p>
                </div>
                <div class="readouts readouts-column">
                    <Readout testid="norm-q" label="|q|" value=value(|n| n.norm_q) />
                    <Readout testid="norm-q-plus-pe" label="|q + PE(m)|: added" value=value(|n| n.norm_added)
                        hint="changes with m through q·PE(m)" />
                    <Readout testid="norm-q-rot" label="|R(m) q|: rotated" value=value(|n| n.norm_rotated)
                        hint="|q|, whatever m is" />
                </div>
            </div>
            <div class="table-scroll" tabindex="0" role="region" aria-label="scores, added against rotated" node_ref=table>
                <table class="compare-table">
                    <caption>{format!("Move both tokens {SHIFT} positions later: the distance n − m stays the same")}</caption>
                    <thead><tr><th scope="col">"score"</th><th scope="col">"at m, n"</th><th scope="col">{format!("at m + {SHIFT}, n + {SHIFT}")}</th></tr></thead>
                    <tbody>
                        <tr>
                            <th scope="row">"added: (q + PE(m))·(k + PE(n))"</th>
                            <td class="mono">{score(0)}</td>
                            <td class="mono">{score(1)}</td>
                        </tr>
                        <tr>
                            <th scope="row">"rotated: R(m)q · R(n)k"</th>
                            <td class="mono">{score(2)}</td>
                            <td class="mono">{score(3)}</td>
                        </tr>
                    </tbody>
                </table>
            </div>
            <p class="explain">
                "Expanded, the added score is q·k + q·PE(n) + PE(m)·k + PE(m)·PE(n). Here PE is added to q and k "
                "directly (as if W_q and W_k were the identity), so the last term depends on n − m alone; the two "
                "cross terms depend on m and n separately. In a real layer PE is added to x, and even the position "
                "term becomes PE(m)·W_q·W_kᵀ·PE(n), which in general is not a function of n − m. Rotating q and k "
                "leaves only q·R(n − m)k, by one line of algebra: each block of R(m) is a 2D rotation, 2D rotations "
                "commute and a rotation's transpose is its inverse, R(φ)ᵀ = R(−φ), so block by block "
                "R(m)ᵀR(n) = R(−mθᵢ)R(nθᵢ) = R((n − m)θᵢ):"
            </p>
            <div class="math" inner_html=RELATIVE></div>
            <p class="explain">
                "The heatmap below shows each of the three ways, and two that add a bias to the "
                "score by n − m instead (T5's and ALiBi's)."
            </p>
            <Formula math=formulas::ADD_OR_ROTATE />
            <h3>"RoFormer's formulas"</h3>
            <p class="explain">
                "Su et al. (RoFormer, section 3.1) ask for a query f_q and a key f_k whose inner product depends on the "
                "two tokens' content and on their distance only (they write it m − n; this page writes n − m, the same "
                "information), and answer with a rotation: each plane of W_q·x_m turns by m·θᵢ, which stacks "
                "into one block-diagonal matrix (their equations 13 to 15; they count planes from 1, this page from 0):"
            </p>
            <Formula math=formulas::ROFORMER />
            <div class="rotation-live" node_ref=rotation_box>
                <p class="explain">{move || rotation.with(|r| r.0.clone())}</p>
                <div class="math" inner_html=move || rotation.with(|r| r.1.clone())></div>
            </div>
            <h3>"Where RoPE goes in a layer"</h3>
            <ul class="explain-list">
                <li>"On q and k, after the projections W_q and W_k, in every attention layer (a few models leave some layers without it: Llama 4 and SmolLM3 skip every fourth); never on x, never on v."</li>
                <li>"It has no learned parameters: the angles come from the positions, the base b, the head "
                    "dimension d and, in a model with a context extension (a later chapter), that extension's settings; "
                    "nothing in them is trained."</li>
                <li>"In generation a model keeps the keys and values of the tokens so far (the KV cache), so that each "
                    "new token does not recompute them: each key is rotated once, at its own position, when it enters "
                    "the cache; a new query is rotated to its position and scored against the cached keys."</li>
            </ul>
            <p class="explain">
                "Why not v? The values are what attention returns. Rotated, they would carry their absolute positions "
                "into the output. In the tiny attention of the first chapter, with RoPE on q and k, starting the "
                "sentence at position 100 instead of 0 changes no output (up to rounding); rotate v too and it does:"
            </p>
            <div class="readouts">
                <Readout testid="v-shift-gap-rope" label="outputs moved by starting at 100: RoPE on q, k"
                    value=Signal::derive(move || Some(values_test.get().0)) />
                <Readout testid="v-shift-gap-rotated-v" label="the same with v rotated too"
                    value=Signal::derive(move || Some(values_test.get().1)) />
            </div>
            <Check name="shift-added" look="the table of scores above (its first row)" ask=Arc::new(move || {
                let (m, n, _, base, dim) = positions.get();
                vectors.with(|v| {
                    let v = v.as_ref()?;
                    Some(quiz::early::shift_added(&v.q, &v.k, RopeParams::new(base, dim).ok()?, m, n, SHIFT))
                }).unwrap_or_default()
            }) />
            <Check name="shift-rope" look="the table of scores above (its second row)" ask=Arc::new(move || {
                let (m, n, ..) = positions.get();
                vectors.with(|v| v.as_ref().map(|v| quiz::early::shift_rope(v, m, n, SHIFT))).unwrap_or_default()
            }) />
        </WidgetCard>
    }
}
