//! The context-extension chapter's two SVG charts: every plane's wavelength before and after
//! scaling, and the q = k score against distance for the original frequencies, method A and
//! method B (or xPos), with their difference. SVG rather than canvas: a few hundred elements,
//! crisp at any zoom, styled by the page's colours, and a text alternative in `aria-label`.

use crate::charts::format::{fixed, short_number};
use crate::charts::svg::{text, vertical_title};
use crate::dom::size::{use_in_view, while_in_view};
use crate::rope::{mean_cos_by_distance, PlaneChange, PlaneStretch, ScalingMethod};
use crate::state::{fmt_number, Plain};
use leptos::prelude::*;
use std::fmt::Write;

/// The q = k score against distance (per unit norm, equal-length pairs: the mean of cos(Δθᵢ))
/// for the original frequencies, method A, and method B or xPos, sampled at `distances`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Comparison {
    /// Distances Δ in tokens, increasing from 1 (a log axis).
    pub distances: Vec<f64>,
    pub original: Vec<f64>,
    pub a: Vec<f64>,
    /// Method B's curve and name; without B the difference is A − original.
    pub b: Option<(Vec<f64>, &'static str)>,
    /// xPos with the original θᵢ (`xpos=1`).
    pub xpos: Option<Vec<f64>>,
    pub orig: u64,
    pub target: u64,
}

impl Comparison {
    /// The plotted difference: A − B, or A − original without B.
    pub fn difference(&self) -> Vec<f64> {
        let other = self.b.as_ref().map_or(&self.original, |(b, _)| b);
        self.a.iter().zip(other).map(|(a, b)| a - b).collect()
    }

    /// The largest |difference| over the distances shown.
    pub fn largest_gap(&self) -> f64 {
        self.difference().iter().filter(|v| v.is_finite()).fold(0.0, |m, v| m.max(v.abs()))
    }

    pub fn facts(&self) -> CompareFacts {
        CompareFacts {
            target: self.target,
            a_near: self.a.first().copied(),
            original_near: self.original.first().copied(),
            largest_gap: self.largest_gap(),
            b_name: self.b.as_ref().map(|b| b.1),
            xpos: self.xpos.is_some(),
        }
    }
}

/// What the readouts and the chart's description say of a comparison. With nothing to compare
/// (A is the original, no B, no xPos) it needs none of the curves: the chapter's readouts
/// follow every step of base or d without 241 points per curve computed for a chart out of view.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareFacts {
    pub target: u64,
    /// A and the original at distance 1.
    pub a_near: Option<f64>,
    pub original_near: Option<f64>,
    pub largest_gap: f64,
    pub b_name: Option<&'static str>,
    pub xpos: bool,
}

impl CompareFacts {
    /// A is the original (frequencies `inv_freq`), nothing else compared: the gap is 0.
    pub fn unchanged(inv_freq: &[f64], target: u64) -> Self {
        let near = mean_cos_by_distance(inv_freq, &[1.0]).first().copied();
        Self { target, a_near: near, original_near: near, largest_gap: 0.0, b_name: None, xpos: false }
    }

    /// "A (original)" at distance 1.
    pub fn near_text(&self) -> String {
        match (self.a_near, self.original_near) {
            (Some(a), Some(original)) => format!("{} ({})", short_number(a), short_number(original)),
            _ => "—".to_string(),
        }
    }
}

/// The comparison's drawing: markup for its axes, titles and context line, its three labels
/// (the difference's span, both ways, and the difference's title), and each curve's points.
#[derive(Debug, Clone, PartialEq, Default)]
struct Drawing {
    axes: String,
    labels: [String; 3],
    original: String,
    a: String,
    b: Option<String>,
    xpos: Option<String>,
    diff: String,
}

/// Polyline points for `values` at `distances`, skipping what is not finite.
fn polyline(distances: &[f64], values: &[f64], x: impl Fn(f64) -> f64, y: impl Fn(f64) -> f64) -> String {
    distances
        .iter()
        .zip(values)
        .filter(|(d, v)| d.is_finite() && v.is_finite())
        .map(|(d, v)| format!("{},{}", fixed(x(*d), 1), fixed(y(*v), 1)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The comparison: curves above, their difference below, the original and target contexts as
/// vertical lines, distance on a log axis.
#[component]
pub fn CompareChart(comparison: Memo<Option<Comparison>>, facts: Memo<Option<CompareFacts>>, method: Memo<ScalingMethod>) -> impl IntoView {
    // Redrawn only near the screen (dragging base at the top of the page does not rebuild it);
    // its description stays live.
    let figure = NodeRef::<leptos::html::Figure>::new();
    let in_view = use_in_view(figure);
    let drawn = while_in_view(in_view, move || (comparison.get(), method.get()));
    const W: f64 = 420.0;
    const H: f64 = 330.0;
    const LEFT: f64 = 44.0;
    const RIGHT: f64 = 10.0;
    const TOP: f64 = 10.0;
    const CURVES: f64 = 190.0;
    const GAP: f64 = 22.0;
    const DIFF: f64 = 62.0;
    const DIFF_TOP: f64 = TOP + CURVES + GAP;
    // What changes rarely (axes, titles) is markup, set when it changes; the curves are stable
    // polylines whose points follow each step.
    let drawing = Memo::new(move |_| {
        drawn.with(|(c, method)| {
            let mut d = Drawing::default();
            let Some(c) = c.as_ref() else { return d };
            let Some(last) = c.distances.last().copied().filter(|d| *d > 1.0) else { return d };
            let hi = last.log10();
            let x = move |d: f64| LEFT + d.max(1.0).log10() / hi * (W - LEFT - RIGHT);
            let curves = [Some(&c.original), Some(&c.a), c.b.as_ref().map(|b| &b.0), c.xpos.as_ref()];
            let low = curves.iter().flatten().flat_map(|v| v.iter()).copied().filter(|v| v.is_finite()).fold(0.0f64, f64::min);
            let y_lo = (low * 10.0).floor() / 10.0;
            let y = move |v: f64| TOP + (1.0 - v) / (1.0 - y_lo) * CURVES;
            let span = c.largest_gap().max(0.05);
            let dy = move |v: f64| DIFF_TOP + DIFF / 2.0 - v / span * (DIFF / 2.0);
            let svg = &mut d.axes;
            for e in 0..=hi.floor() as i32 {
                let at = x(10f64.powi(e));
                let x = fixed(at, 1);
                let _ = write!(svg, r#"<line class="grid" x1="{x}" x2="{x}" y1="{TOP}" y2="{}"/>"#, Plain(DIFF_TOP + DIFF));
                text(svg, "tick", at, DIFF_TOP + DIFF + 14.0, "middle", &short_number(10f64.powi(e)));
            }
            for v in [1.0, 0.5, 0.0, -0.5, -1.0].into_iter().filter(|v| *v >= y_lo) {
                let at = fixed(y(v), 1);
                let _ = write!(svg, r#"<line class="grid" x1="{}" x2="{}" y1="{at}" y2="{at}"/>"#, Plain(LEFT), Plain(W - RIGHT));
                text(svg, "tick", LEFT - 5.0, y(v) + 4.0, "end", &fmt_number(v));
            }
            if c.orig as f64 <= last {
                let at = x(c.orig as f64);
                let x = fixed(at, 1);
                let _ = write!(svg, r#"<line class="orig-line" x1="{x}" x2="{x}" y1="{}" y2="{}"/>"#, Plain(TOP), Plain(DIFF_TOP + DIFF));
                text(svg, "orig-line-label", at - 3.0, TOP + 12.0, "end", &format!("orig {}", short_number(c.orig as f64)));
            }
            let zero = fixed(dy(0.0), 1);
            let _ = write!(svg, r#"<line class="zero" x1="{}" x2="{}" y1="{zero}" y2="{zero}"/>"#, Plain(LEFT), Plain(W - RIGHT));
            text(svg, "axis-title", LEFT + (W - LEFT - RIGHT) / 2.0, H - 6.0, "middle", "distance |n − m| (tokens, log scale)");
            vertical_title(svg, 12.0, TOP + CURVES / 2.0, "q = k score ÷ |q|²");
            let span_label = fmt_number((span * 100.0).round() / 100.0);
            let b_name = c.b.as_ref().map_or("original", |b| b.1);
            d.labels = [format!("+{span_label}"), format!("−{span_label}"), format!("difference: {} − {b_name}", method.as_str())];
            d.original = polyline(&c.distances, &c.original, x, y);
            d.a = polyline(&c.distances, &c.a, x, y);
            d.b = c.b.as_ref().map(|(b, _)| polyline(&c.distances, b, x, y));
            d.xpos = c.xpos.as_ref().map(|v| polyline(&c.distances, v, x, y));
            d.diff = polyline(&c.distances, &c.difference(), x, dy);
            d
        })
    });
    let axes = Memo::new(move |_| drawing.with(|d| d.axes.clone()));
    let points = move |curve: fn(&Drawing) -> Option<&String>| move || drawing.with(|d| curve(d).cloned().unwrap_or_default());
    let label = move |i: usize| move || drawing.with(|d| d.labels[i].clone());
    let b_name = Memo::new(move |_| facts.with(|f| f.as_ref().and_then(|f| f.b_name)));
    let with_xpos = Memo::new(move |_| facts.with(|f| f.as_ref().is_some_and(|f| f.xpos)));
    let has = move |curve: fn(&Drawing) -> bool| Memo::new(move |_| drawing.with(curve));
    let (has_b, has_xpos, has_curves) = (has(|d| d.b.is_some()), has(|d| d.xpos.is_some()), has(|d| !d.a.is_empty()));
    let summary = move || {
        facts.with(|f| match f {
            Some(f) => {
                let b = f.b_name.unwrap_or("the original frequencies");
                let near = |v: Option<f64>| v.map_or_else(|| "—".to_string(), short_number);
                format!(
                    "Score of q = k (equal-length pairs) against distance from 1 to {} tokens, log scale: at distance 1 the original frequencies give {}, {} gives {}; the largest difference between {} and {b} is {}.",
                    f.target, near(f.original_near), method.get().as_str(), near(f.a_near), method.get().as_str(), short_number(f.largest_gap)
                )
            }
            None => "Score against distance: not available for these settings.".to_string(),
        })
    };
    view! {
        <figure class="wavelength-figure compare-figure" node_ref=figure>
            <svg class="wavelength-chart compare-chart" viewBox=format!("0 0 {W} {H}") role="img" aria-label=summary>
                <g inner_html=axes></g>
                <polyline class="curve original" points=points(|d| Some(&d.original)) />
                {move || has_xpos.get().then(|| view! { <polyline class="curve xpos" points=points(|d| d.xpos.as_ref()) /> })}
                {move || has_b.get().then(|| view! { <polyline class="curve b" points=points(|d| d.b.as_ref()) /> })}
                <polyline class="curve a" points=points(|d| Some(&d.a)) />
                <polyline class="curve diff" points=points(|d| Some(&d.diff)) />
                <Show when=move || has_curves.get()>
                    <text class="tick" x=LEFT - 5.0 y=DIFF_TOP + 8.0 text-anchor="end">{label(0)}</text>
                    <text class="tick" x=LEFT - 5.0 y=DIFF_TOP + DIFF text-anchor="end">{label(1)}</text>
                    <text class="panel-title" x=LEFT + 4.0 y=DIFF_TOP - 5.0>{label(2)}</text>
                </Show>
            </svg>
            <figcaption class="legend">
                <span><span class="legend-mark line original"></span>" original θᵢ"</span>
                <span><span class="legend-mark line a"></span>" A: "<span translate="no">{move || method.get().as_str()}</span></span>
                {move || b_name.get().map(|name| view! {
                    <span><span class="legend-mark line b"></span>" B: "<span translate="no">{name}</span></span>
                })}
                {move || with_xpos.get().then(|| view! {
                    <span><span class="legend-mark line xpos"></span>" xPos (original θᵢ)"</span>
                })}
                <span><span class="legend-mark line diff"></span>" difference"</span>
            </figcaption>
        </figure>
    }
}

/// Each rotating plane's largest angle in training ((orig − 1)·θᵢ) and within the target context
/// ((target − 1)·θ′ᵢ), the planes that go beyond training marked, in a folded table.
#[component]
pub fn PlaneAngles(planes: Memo<Option<Vec<PlaneStretch>>>) -> impl IntoView {
    // The rows exist while the table is open: closed, dragging base or d rebuilds nothing here.
    let open = RwSignal::new(false);
    let on_toggle = move |ev: leptos::ev::Event| {
        let element = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
        open.set(element.is_some_and(|e| e.has_attribute("open")));
    };
    view! {
    <details class="plane-angles" on:toggle=on_toggle>
        <summary>"Each plane's largest angle: in training, and within the target context"</summary>
        <div class="period-table">
            <table data-testid="scaling-plane-angles">
                <thead><tr>
                    <th scope="col">"plane i"</th>
                    <th scope="col">"wavelength before → after"</th>
                    <th scope="col">"largest angle in training, (orig − 1)·θᵢ"</th>
                    <th scope="col">"within the target, (target − 1)·θ′ᵢ"</th>
                    <th scope="col">"beyond training"</th>
                </tr></thead>
                <tbody>
                    // The rotating planes (partial rotary and p-RoPE leave the others still).
                    {move || open.get().then(|| planes.with(|p| p.as_deref().unwrap_or_default().iter().enumerate().filter(|(_, s)| s.change != PlaneChange::Still).map(|(i, s)| {
                        // A plane that does not turn (partial rotary, p-RoPE) has no wavelength.
                        let n = |v: f64| if v.is_finite() { short_number(v) } else { "no turn".to_string() };
                        let beyond = if s.unseen() { format!("{}×", super::times(s.overshoot())) } else { "no".to_string() };
                        view! {
                            <tr class:unseen=s.unseen()>
                                <td>{i}</td>
                                <td>{format!("{} → {}", n(s.wavelength_before), n(s.wavelength_after))}</td>
                                <td>{format!("{} rad", n(s.trained_angle))}</td>
                                <td>{format!("{} rad", n(s.target_angle))}</td>
                                <td>{beyond}</td>
                            </tr>
                        }
                    }).collect_view()))}
                </tbody>
            </table>
        </div>
    </details>
    }
}
