//! The precision chapter's two SVG charts, both with a log axis of radians: every plane's angle
//! error at m in the chosen format, and the largest error so far against position, up to 2²⁰
//! tokens, for each format and fix. The second is computed only while in view (it evaluates
//! every plane at 160 positions for five pipelines), and again only when b or d move.

use crate::charts::format::{log_tick, push_fixed, sci, whole_number};
use crate::charts::svg::circle;
use crate::dom::size::{use_in_view, while_in_view};
use crate::rope::{angle_gap, log_positions, plane_angle_errors, ErrorSource, Format, Pipeline};
use leptos::html::Div;
use leptos::prelude::*;

/// The chart's and the slider's last position: 2²⁰ = 1,048,576 tokens.
pub const LAST_POSITION: u64 = 1 << 20;

const W: f64 = 420.0;
const LEFT: f64 = 52.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 34.0;
/// The error axis: 10⁻⁹ (an error of 0 sits on it) to 10¹ radians (π is the most).
const LOW: f64 = -9.0;
const HIGH: f64 = 1.0;

/// The y of an error on the log axis of a chart `height` tall.
fn error_y(error: f64, height: f64) -> f64 {
    let e = error.max(10f64.powf(LOW)).log10();
    TOP + (HIGH - e) / (HIGH - LOW) * (height - TOP - BOTTOM)
}

/// Grid lines and labels of the error axis, every three decades.
fn error_axis(height: f64) -> impl IntoView {
    [-9, -6, -3, 0]
        .into_iter()
        .map(move |e| {
            let y = error_y(10f64.powi(e), height);
            view! {
                <line class="grid" x1=LEFT x2=W - RIGHT y1=y y2=y />
                <text class="tick" x=LEFT - 6.0 y=y + 4.0 text-anchor="end">{log_tick(10f64.powi(e))}</text>
            }
        })
        .collect_view()
}

fn y_title(height: f64, text: &'static str) -> impl IntoView {
    let middle = TOP + (height - TOP - BOTTOM) / 2.0;
    view! { <text class="axis-title" x=14 y=middle text-anchor="middle" transform=format!("rotate(-90 14 {middle})")>{text}</text> }
}

/// Every plane's angle error at m: the whole pipeline in the format, and the position alone.
type PlaneErrorLists = (Vec<f64>, Vec<f64>);

/// Every plane's angle error at m: the whole pipeline in the format (dots), and the position
/// rounded alone (rings).
#[component]
pub fn PlaneErrors(inv_freq: Memo<Option<Vec<f64>>>, format: Memo<Format>, m: Memo<i64>) -> impl IntoView {
    const H: f64 = 220.0;
    let figure = NodeRef::<leptos::html::Figure>::new();
    let in_view = use_in_view(figure);
    // Redrawn while in view only: it is d/2 dots and rings, on the m slider's path.
    let errors = Memo::new(move |previous: Option<&Option<PlaneErrorLists>>| {
        if !in_view.get() {
            return previous.cloned().flatten();
        }
        let (m, format) = (m.get() as f64, format.get());
        inv_freq.with(|f| {
            let f = f.as_ref()?;
            let whole = plane_angle_errors(Pipeline::All(format), m, f);
            let stored = format.round(m);
            let position_only = f
                .iter()
                .map(|theta| if stored.is_finite() { angle_gap(stored * theta, m * theta) } else { std::f64::consts::PI })
                .collect::<Vec<_>>();
            Some((whole, position_only))
        })
    });
    // Two paths, rings and dots, each all its circles: elements that stay while m moves (a
    // rebuilt element has every attribute rewritten), d/2 circles of each on the m slider's path.
    let circles = move |pick: fn(&PlaneErrorLists) -> &Vec<f64>, scale: f64| {
        move || {
            errors.with(|e| {
                let values = pick(e.as_ref()?);
                let col = (W - LEFT - RIGHT) / values.len().max(1) as f64;
                let r = (col * 0.35).clamp(1.0, 3.5) * scale;
                let mut path = String::with_capacity(values.len() * 48);
                for (i, v) in values.iter().enumerate() {
                    circle(&mut path, LEFT + (i as f64 + 0.5) * col, error_y(*v, H), r);
                }
                Some(path)
            })
        }
    };
    let summary = move || {
        let format = format.get().as_str();
        errors.with(|e| match e {
            Some((whole, _)) => {
                let lost = whole.iter().filter(|v| **v > 1.0).count();
                format!(
                    "Angle error of each of {} planes at position {} in {format}, log scale: {lost} planes off by more than one radian.",
                    whole.len(),
                    whole_number(m.get())
                )
            }
            None => "Angle error of each plane at m: drawn when scrolled into view.".to_string(),
        })
    };
    view! {
        <figure class="precision-figure" node_ref=figure>
            <svg class="precision-chart" viewBox=format!("0 0 {W} {H}") role="img" aria-label=summary>
                {error_axis(H)}
                <path class="ring" d=circles(|e| &e.1, 1.0) />
                <path class="dot" d=circles(|e| &e.0, 0.8) />
                <text class="axis-title" x=LEFT + (W - LEFT - RIGHT) / 2.0 y=H - 8.0 text-anchor="middle">"plane i (fast → slow)"</text>
                {y_title(H, "angle error (rad)")}
            </svg>
            <figcaption class="legend">
                <span><span class="legend-mark dot"></span>" the whole pipeline in the format"</span>
                <span><span class="legend-mark ring"></span>" the position rounded alone"</span>
                <span>" (an error below 10⁻⁹, or none, sits on the bottom line)"</span>
            </figcaption>
        </figure>
    }
}

/// The chart's curves: (class, legend, what is measured).
const CURVES: [(&str, &str, ErrorSource); 5] = [
    ("bf16", "bf16 throughout", ErrorSource::Angle(Pipeline::All(Format::Bf16))),
    ("fp16", "fp16 throughout", ErrorSource::Angle(Pipeline::All(Format::Fp16))),
    ("integer", "bf16, positions exact integers (on top of bf16)", ErrorSource::Angle(Pipeline::IntegerPositions(Format::Bf16))),
    ("f32", "f32 throughout", ErrorSource::Angle(Pipeline::All(Format::F32))),
    ("table", "f32 tables cast to bf16 (error of cos, sin: no unit)", ErrorSource::TableCast(Format::Bf16)),
];

/// The largest error so far against position, on log axes, for each of [`CURVES`]; the chosen
/// format's curve drawn heavier, and m marked.
#[component]
pub fn ErrorByPosition(inv_freq: Memo<Option<Vec<f64>>>, format: Memo<Format>, m: Memo<i64>) -> impl IntoView {
    const H: f64 = 280.0;
    let figure = NodeRef::<Div>::new();
    let in_view = use_in_view(figure);
    let positions = log_positions(LAST_POSITION, 160);
    let top = (LAST_POSITION as f64).log10();
    let x = move |p: f64| LEFT + p.max(1.0).log10() / top * (W - LEFT - RIGHT);
    let curves = Memo::new(move |previous: Option<&Option<Vec<Vec<f64>>>>| {
        if !in_view.get() {
            return previous.cloned().flatten();
        }
        inv_freq.with(|f| f.as_ref().map(|f| CURVES.iter().map(|(_, _, source)| source.envelope(&positions, f)).collect()))
    });
    let positions_for_draw = log_positions(LAST_POSITION, 160);
    // One polyline per curve, made once: each step of b or d rewrites its points only.
    let lines = CURVES
        .iter()
        .enumerate()
        .map(|(i, (class, _, _))| {
            let positions = positions_for_draw.clone();
            let points = move || {
                curves.with(|c| {
                    let values = c.as_ref()?.get(i)?;
                    let mut points = String::with_capacity(values.len() * 12);
                    for (p, v) in positions.iter().zip(values) {
                        push_fixed(&mut points, x(*p), 1);
                        points.push(',');
                        push_fixed(&mut points, error_y(*v, H), 1);
                        points.push(' ');
                    }
                    Some(points.trim_end().to_string())
                })
            };
            let chosen = move || match format.get() {
                Format::Bf16 => *class == "bf16",
                Format::Fp16 => *class == "fp16",
                Format::F32 => *class == "f32",
                Format::F64 => false,
            };
            view! { <polyline class=format!("curve {class}") class:chosen=chosen points=points /> }
        })
        .collect_view();
    let ticks = (0..=6)
        .map(|e| {
            let p = 10f64.powi(e);
            view! {
                <line class="grid" x1=x(p) x2=x(p) y1=TOP y2=H - BOTTOM />
                <text class="tick" x=x(p) y=H - BOTTOM + 16.0 text-anchor="middle">{log_tick(p)}</text>
            }
        })
        .collect_view();
    // The m line moves only near the screen, like the curves.
    let marked = while_in_view(in_view, move || m.get());
    // The m line and its label stay; they move, and hide beyond the axis.
    let at = move || {
        let m = marked.get();
        (1..=LAST_POSITION as i64).contains(&m).then(|| x(m as f64))
    };
    // The label sits low, where the curves have not yet risen, on the roomier side.
    let label_x = move || at().map(|at| if at > W - 110.0 { at - 4.0 } else { at + 4.0 });
    let anchor = move || if at().is_some_and(|at| at > W - 110.0) { "end" } else { "start" };
    let summary = move || {
        curves.with(|c| match c {
            Some(c) => {
                let last = CURVES
                    .iter()
                    .zip(c)
                    .map(|((class, legend, _), v)| {
                        let unit = if *class == "table" { "" } else { " rad" };
                        format!("{legend}: {}{unit}", sci(v.last().copied().unwrap_or(0.0), 2))
                    })
                    .collect::<Vec<_>>()
                    .join("; ");
                format!("Largest angle error up to each position, 1 to 1,048,576 tokens, log scales. At the end: {last}. f64 is the reference (0).")
            }
            None => "Largest angle error against position: drawn when scrolled into view.".to_string(),
        })
    };
    view! {
        <div class="precision-figure" node_ref=figure>
            <figure>
                <svg class="precision-chart by-position" viewBox=format!("0 0 {W} {H}") role="img" aria-label=summary>
                    {error_axis(H)}{ticks}{lines}
                    <line class="m-line" hidden=move || at().is_none() x1=at x2=at y1=TOP y2=H - BOTTOM />
                    <text class="m-label" hidden=move || at().is_none() x=label_x y=H - BOTTOM - 6.0 text-anchor=anchor>
                        {move || format!("m = {}", whole_number(marked.get()))}
                    </text>
                    <text class="axis-title" x=LEFT + (W - LEFT - RIGHT) / 2.0 y=H - 4.0 text-anchor="middle">"position (tokens, log scale)"</text>
                    {y_title(H, "largest error so far (rad; cos/sin)")}
                </svg>
                <figcaption class="legend">
                    {CURVES.iter().map(|(class, legend, _)| view! {
                        <span><span class=format!("line-swatch {class}")></span>" "{*legend}</span>
                    }).collect_view()}
                    <span class="legend-note">"(each against f64)"</span>
                </figcaption>
            </figure>
        </div>
    }
}
