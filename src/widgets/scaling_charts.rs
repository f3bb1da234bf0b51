//! The context-extension chapter's two SVG charts: every plane's wavelength before and after
//! scaling, and the q = k score against distance for the original frequencies, method A and
//! method B (or xPos), with their difference. SVG rather than canvas: a few hundred elements,
//! crisp at any zoom, styled by the page's colours, and a text alternative in `aria-label`.

use crate::rope::{PlaneChange, PlaneStretch, ScalingMethod};
use super::size::{use_in_view, while_in_view};
use leptos::prelude::*;

/// Every plane's wavelength before (rings) and after (dots) on a log axis, with the original
/// and target contexts as lines, and each plane's column shaded by what scaling did to it.
#[component]
pub fn WavelengthChart(planes: Memo<Option<Vec<PlaneStretch>>>, method: Memo<ScalingMethod>, contexts: Memo<(u64, u64)>) -> impl IntoView {
    const W: f64 = 420.0;
    const H: f64 = 280.0;
    const LEFT: f64 = 56.0;
    const RIGHT: f64 = 8.0;
    const TOP: f64 = 10.0;
    const BOTTOM: f64 = 34.0;
    // Redrawn only near the screen, like the comparison below; its description stays live.
    let figure = NodeRef::<leptos::html::Figure>::new();
    let in_view = use_in_view(figure);
    let drawn = while_in_view(in_view, move || (planes.get(), contexts.get()));
    let labels = move || match method.get() {
        ScalingMethod::Yarn => ["extrapolated (kept)", "ramp", "interpolated (÷ factor)"],
        ScalingMethod::Llama3 => ["high frequency (kept)", "medium (blended)", "low frequency (÷ factor)"],
        _ => ["kept", "changed otherwise", "divided by factor"],
    };
    let drawing = move || {
        drawn.with(|(planes, (orig, target))| {
            let (orig, target) = (*orig, *target);
            let planes = planes.as_ref()?;
            let finite = |v: f64| v.is_finite().then_some(v);
            let values = planes.iter().flat_map(|p| [finite(p.wavelength_before), finite(p.wavelength_after)]).flatten();
            let (lo, hi) = values.chain([orig as f64, target as f64]).fold((f64::INFINITY, 0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
            if !(lo > 0.0 && hi.is_finite()) {
                return None;
            }
            let (lo, hi) = (lo.log10().floor(), hi.log10().ceil().max(lo.log10().floor() + 1.0));
            let n = planes.len().max(1) as f64;
            let col = (W - LEFT - RIGHT) / n;
            let x = move |i: usize| LEFT + (i as f64 + 0.5) * col;
            let y = move |v: f64| TOP + (hi - v.log10()) / (hi - lo) * (H - TOP - BOTTOM);
            let bands = planes.iter().enumerate().filter_map(|(i, p)| {
                let class = match p.change {
                    PlaneChange::Kept => "band kept",
                    PlaneChange::Blended => "band blended",
                    PlaneChange::Interpolated => "band interpolated",
                    PlaneChange::Still => "band still",
                };
                Some(view! { <rect class=class x=format!("{:.1}", LEFT + i as f64 * col) y=TOP width=format!("{:.2}", col) height=H - TOP - BOTTOM /> })
            }).collect_view();
            let r = (col * 0.35).clamp(1.2, 4.0);
            let dots = planes.iter().enumerate().map(|(i, p)| {
                let before = p.wavelength_before.is_finite().then(|| view! { <circle class="before" cx=format!("{:.1}", x(i)) cy=format!("{:.1}", y(p.wavelength_before)) r=r /> });
                let after = p.wavelength_after.is_finite().then(|| view! { <circle class="after" cx=format!("{:.1}", x(i)) cy=format!("{:.1}", y(p.wavelength_after)) r=r * 0.8 /> });
                view! { {before}{after} }
            }).collect_view();
            let ticks = ((lo as i32)..=(hi as i32)).map(|e| {
                let v = 10f64.powi(e);
                view! {
                    <line class="grid" x1=LEFT x2=W - RIGHT y1=y(v) y2=y(v) />
                    <text class="tick" x=LEFT - 6.0 y=y(v) + 4.0 text-anchor="end">{format!("1e{e}")}</text>
                }
            }).collect_view();
            // Each label sits above its line; the original context's goes below its own when the
            // target's line is too close above it, and one label names both when they coincide.
            let context_line = |v: u64, class: &'static str, label: String, below: bool| view! {
                <line class=class x1=LEFT x2=W - RIGHT y1=y(v as f64) y2=y(v as f64) />
                <text class=format!("{class}-label") x=W - RIGHT - 4.0 y=y(v as f64) + if below { 14.0 } else { -4.0 } text-anchor="end">{label}</text>
            };
            let crowded = target != orig && (y(orig as f64) - y(target as f64)).abs() < 16.0;
            let lines = if target == orig {
                context_line(orig, "orig-line", format!("original context = target {orig}"), false).into_any()
            } else {
                view! {
                    {context_line(orig, "orig-line", format!("original context {orig}"), crowded && target > orig)}
                    {context_line(target, "target-line", format!("target {target}"), crowded && target < orig)}
                }.into_any()
            };
            Some(view! {
                {bands}{ticks}
                {dots}
                {lines}
                <text class="axis-title" x=LEFT + (W - LEFT - RIGHT) / 2.0 y=H - 8.0 text-anchor="middle">"plane i (fast → slow)"</text>
                <text class="axis-title" x=14 y=TOP + (H - TOP - BOTTOM) / 2.0 text-anchor="middle"
                    transform=format!("rotate(-90 14 {})", TOP + (H - TOP - BOTTOM) / 2.0)>"wavelength (tokens)"</text>
            })
        })
    };
    let summary = move || {
        let (orig, target) = contexts.get();
        planes.with(|p| {
            let p = p.as_deref().unwrap_or_default();
            let count = |c: PlaneChange| p.iter().filter(|s| s.change == c).count();
            let [kept, blended, divided] = labels();
            format!(
                "Wavelength of each of {} planes before and after scaling, log scale, with the original context {orig} and the target {target}: {} {kept}, {} {blended}, {} {divided}, {} not rotating.",
                p.len(), count(PlaneChange::Kept), count(PlaneChange::Blended), count(PlaneChange::Interpolated), count(PlaneChange::Still)
            )
        })
    };
    view! {
        <figure class="wavelength-figure" node_ref=figure>
            <svg class="wavelength-chart" viewBox=format!("0 0 {W} {H}") role="img" aria-label=summary>
                {drawing}
            </svg>
            <figcaption class="legend">
                <span><span class="legend-mark ring"></span>" before (θᵢ)"</span>
                <span><span class="legend-mark dot"></span>" after (in effect)"</span>
                {move || {
                    let [kept, blended, divided] = labels();
                    view! {
                        <span><span class="swatch kept"></span>" "{kept}</span>
                        <span><span class="swatch blended"></span>" "{blended}</span>
                        <span><span class="swatch interpolated"></span>" "{divided}</span>
                    }
                }}
            </figcaption>
        </figure>
    }
}

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
}

/// Polyline points for `values` at `distances`, skipping what is not finite.
fn polyline(distances: &[f64], values: &[f64], x: impl Fn(f64) -> f64, y: impl Fn(f64) -> f64) -> String {
    distances
        .iter()
        .zip(values)
        .filter(|(d, v)| d.is_finite() && v.is_finite())
        .map(|(d, v)| format!("{:.1},{:.1}", x(*d), y(*v)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The comparison: curves above, their difference below, the original and target contexts as
/// vertical lines, distance on a log axis.
#[component]
pub fn CompareChart(comparison: Memo<Option<Comparison>>, method: Memo<ScalingMethod>) -> impl IntoView {
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
    let drawing = move || {
        drawn.with(|(c, method)| {
            let c = c.as_ref()?;
            let last = c.distances.last().copied().filter(|d| *d > 1.0)?;
            let hi = last.log10();
            let x = move |d: f64| LEFT + d.max(1.0).log10() / hi * (W - LEFT - RIGHT);
            let curves = [Some(&c.original), Some(&c.a), c.b.as_ref().map(|b| &b.0), c.xpos.as_ref()];
            let low = curves.iter().flatten().flat_map(|v| v.iter()).copied().filter(|v| v.is_finite()).fold(0.0f64, f64::min);
            let y_lo = (low * 10.0).floor() / 10.0;
            let y = move |v: f64| TOP + (1.0 - v) / (1.0 - y_lo) * CURVES;
            let diff = c.difference();
            let span = c.largest_gap().max(0.05);
            let diff_top = TOP + CURVES + GAP;
            let dy = move |v: f64| diff_top + DIFF / 2.0 - v / span * (DIFF / 2.0);
            let line = |values: &Vec<f64>, class: &'static str| view! { <polyline class=class points=polyline(&c.distances, values, x, y) /> };
            let ticks = (0..=hi.floor() as i32).map(|e| {
                let at = x(10f64.powi(e));
                view! {
                    <line class="grid" x1=at x2=at y1=TOP y2=diff_top + DIFF />
                    <text class="tick" x=at y=diff_top + DIFF + 14.0 text-anchor="middle">{crate::charts::format::short_number(10f64.powi(e))}</text>
                }
            }).collect_view();
            let y_ticks = [1.0, 0.5, 0.0, -0.5, -1.0].into_iter().filter(|v| *v >= y_lo).map(|v| view! {
                <line class="grid" x1=LEFT x2=W - RIGHT y1=y(v) y2=y(v) />
                <text class="tick" x=LEFT - 5.0 y=y(v) + 4.0 text-anchor="end">{crate::state::fmt_number(v)}</text>
            }).collect_view();
            let context = |v: u64, class: &'static str, label: String| {
                let at = x(v as f64);
                (v as f64 <= last).then(|| view! {
                    <line class=class x1=at x2=at y1=TOP y2=diff_top + DIFF />
                    <text class=format!("{class}-label") x=at - 3.0 y=TOP + 12.0 text-anchor="end">{label}</text>
                })
            };
            let b_name = c.b.as_ref().map_or("original", |b| b.1);
            Some(view! {
                {ticks}{y_ticks}
                {context(c.orig, "orig-line", format!("orig {}", crate::charts::format::short_number(c.orig as f64)))}
                {line(&c.original, "curve original")}
                {c.xpos.as_ref().map(|v| line(v, "curve xpos"))}
                {c.b.as_ref().map(|b| line(&b.0, "curve b"))}
                {line(&c.a, "curve a")}
                <line class="zero" x1=LEFT x2=W - RIGHT y1=dy(0.0) y2=dy(0.0) />
                <polyline class="curve diff" points=polyline(&c.distances, &diff, x, dy) />
                <text class="tick" x=LEFT - 5.0 y=dy(span) + 8.0 text-anchor="end">{format!("+{}", crate::state::fmt_number((span * 100.0).round() / 100.0))}</text>
                <text class="tick" x=LEFT - 5.0 y=dy(-span) text-anchor="end">{format!("−{}", crate::state::fmt_number((span * 100.0).round() / 100.0))}</text>
                <text class="panel-title" x=LEFT + 4.0 y=diff_top - 5.0>{format!("difference: {} − {b_name}", method.as_str())}</text>
                <text class="axis-title" x=LEFT + (W - LEFT - RIGHT) / 2.0 y=H - 6.0 text-anchor="middle">"distance |n − m| (tokens, log scale)"</text>
                <text class="axis-title" x=12 y=TOP + CURVES / 2.0 text-anchor="middle"
                    transform=format!("rotate(-90 12 {})", TOP + CURVES / 2.0)>"q = k score ÷ |q|²"</text>
            })
        })
    };
    let summary = move || {
        comparison.with(|c| match c {
            Some(c) => {
                let b = c.b.as_ref().map_or("the original frequencies", |b| b.1);
                let near = |v: &[f64]| v.first().copied().map_or_else(|| "—".to_string(), |v| crate::charts::format::short_number(v));
                format!(
                    "Score of q = k (equal-length pairs) against distance from 1 to {} tokens, log scale: at distance 1 the original frequencies give {}, {} gives {}; the largest difference between {} and {b} is {}.",
                    c.target, near(&c.original), method.get().as_str(), near(&c.a), method.get().as_str(), crate::charts::format::short_number(c.largest_gap())
                )
            }
            None => "Score against distance: not available for these settings.".to_string(),
        })
    };
    view! {
        <figure class="wavelength-figure compare-figure" node_ref=figure>
            <svg class="wavelength-chart compare-chart" viewBox=format!("0 0 {W} {H}") role="img" aria-label=summary>
                {drawing}
            </svg>
            <figcaption class="legend">
                <span><span class="legend-mark line original"></span>" original θᵢ"</span>
                <span><span class="legend-mark line a"></span>" A: "{move || method.get().as_str()}</span>
                {move || comparison.with(|c| c.as_ref().and_then(|c| c.b.as_ref()).map(|b| view! {
                    <span><span class="legend-mark line b"></span>" B: "{b.1}</span>
                }))}
                {move || comparison.with(|c| c.as_ref().is_some_and(|c| c.xpos.is_some())).then(|| view! {
                    <span><span class="legend-mark line xpos"></span>" xPos (original θᵢ)"</span>
                })}
                <span><span class="legend-mark line diff"></span>" difference"</span>
            </figcaption>
        </figure>
    }
}

/// Each rotating plane's largest angle in training (orig·θᵢ) and within the target context
/// (target·θ′ᵢ), the planes that go beyond training marked, in a folded table.
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
                    <th scope="col">"largest angle in training, orig·θᵢ"</th>
                    <th scope="col">"within the target, target·θ′ᵢ"</th>
                    <th scope="col">"beyond training"</th>
                </tr></thead>
                <tbody>
                    // The rotating planes (partial rotary and p-RoPE leave the others still).
                    {move || open.get().then(|| planes.with(|p| p.as_deref().unwrap_or_default().iter().enumerate().filter(|(_, s)| s.change != PlaneChange::Still).map(|(i, s)| {
                        // A plane that does not turn (partial rotary, p-RoPE) has no wavelength.
                        let n = |v: f64| if v.is_finite() { crate::charts::format::short_number(v) } else { "no turn".to_string() };
                        let beyond = if s.unseen() { format!("{}×", n((s.overshoot() * 100.0).round() / 100.0)) } else { "no".to_string() };
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
