//! The context-extension chapter's wavelength chart: every plane's wavelength before (rings)
//! and after (dots) scaling on a log axis, each plane's column shaded by what scaling did to it,
//! the original and target contexts as lines. SVG: crisp at any zoom, styled by the page's
//! colours. One path per kind of mark, so a step of base or d rewrites a few attributes.

use crate::charts::format::{fixed, push_fixed};
use crate::charts::svg::{circle, text, vertical_title};
use crate::dom::size::{use_in_view, while_in_view};
use crate::rope::{PlaneChange, PlaneStretch, ScalingMethod};
use leptos::prelude::*;
use std::fmt::Write;

const W: f64 = 420.0;
const H: f64 = 280.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 8.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 34.0;

/// The chart's scale: decades `lo..hi` of wavelength upwards, `col` wide columns rightwards.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Scale {
    lo: f64,
    hi: f64,
    col: f64,
}

impl Scale {
    /// The scale that fits `planes` and both contexts; none when nothing finite is positive.
    fn fit(planes: &[PlaneStretch], contexts: (u64, u64)) -> Option<Scale> {
        let finite = |v: f64| v.is_finite().then_some(v);
        let values = planes.iter().flat_map(|p| [finite(p.wavelength_before), finite(p.wavelength_after)]).flatten();
        let (lo, hi) =
            values.chain([contexts.0 as f64, contexts.1 as f64]).fold((f64::INFINITY, 0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        if !(lo > 0.0 && hi.is_finite()) {
            return None;
        }
        let (lo, hi) = (lo.log10().floor(), hi.log10().ceil().max(lo.log10().floor() + 1.0));
        Some(Scale { lo, hi, col: (W - LEFT - RIGHT) / planes.len().max(1) as f64 })
    }

    fn x(&self, i: usize) -> f64 {
        LEFT + (i as f64 + 0.5) * self.col
    }

    fn y(&self, v: f64) -> f64 {
        TOP + (self.hi - v.log10()) / (self.hi - self.lo) * (H - TOP - BOTTOM)
    }
}

#[component]
pub fn WavelengthChart(planes: Memo<Option<Vec<PlaneStretch>>>, method: Memo<ScalingMethod>, contexts: Memo<(u64, u64)>) -> impl IntoView {
    // Redrawn only near the screen, like the comparison; its description stays live.
    let figure = NodeRef::<leptos::html::Figure>::new();
    let in_view = use_in_view(figure);
    let drawn = while_in_view(in_view, move || (planes.get(), contexts.get()));
    let scale = Memo::new(move |_| drawn.with(|(planes, contexts)| Scale::fit(planes.as_deref()?, *contexts)));
    // What changes rarely (the scale's decades, the contexts) is markup, set when it changes.
    let grid = Memo::new(move |_| {
        let mut svg = String::new();
        if let Some(scale) = scale.get() {
            for e in (scale.lo as i32)..=(scale.hi as i32) {
                let at = scale.y(10f64.powi(e));
                let y = fixed(at, 1);
                let _ = write!(svg, r#"<line class="grid" x1="{LEFT}" x2="{}" y1="{y}" y2="{y}"/>"#, W - RIGHT);
                text(&mut svg, "tick", LEFT - 6.0, at + 4.0, "end", &format!("1e{e}"));
            }
        }
        svg
    });
    let overlay = Memo::new(move |_| {
        let mut svg = String::new();
        let Some(scale) = scale.get() else { return svg };
        let (orig, target) = drawn.with(|(_, contexts)| *contexts);
        // Each label sits above its line; the original context's goes below its own when the
        // target's line is too close above it, and one label names both when they coincide. At
        // the left end, over the fast planes, whose wavelengths lie far below any context (at
        // the right end the slow planes' marks crossed the labels, on screen and in the PNG);
        // unless the fastest plane's mark is near the line there.
        let fastest: Vec<f64> = drawn.with(|(planes, _)| {
            let first = planes.as_deref().and_then(|p| p.first());
            first
                .into_iter()
                .flat_map(|p| [p.wavelength_before, p.wavelength_after])
                .filter(|w| w.is_finite())
                .map(|w| scale.y(w))
                .collect()
        });
        let mut context_line = |v: u64, class: &str, label: &str, below: bool| {
            let at = scale.y(v as f64);
            let y = fixed(at, 1);
            let _ = write!(svg, r#"<line class="{class}" x1="{LEFT}" x2="{}" y1="{y}" y2="{y}"/>"#, W - RIGHT);
            let label_y = at + if below { 14.0 } else { -4.0 };
            let left = fastest.iter().all(|f| (f - label_y).abs() > 24.0);
            let (x, anchor) = if left { (LEFT + 6.0, "start") } else { (W - RIGHT - 4.0, "end") };
            text(&mut svg, &format!("{class}-label"), x, label_y, anchor, label);
        };
        let crowded = target != orig && (scale.y(orig as f64) - scale.y(target as f64)).abs() < 16.0;
        if target == orig {
            context_line(orig, "orig-line", &format!("original context = target {orig}"), false);
        } else {
            context_line(orig, "orig-line", &format!("original context {orig}"), crowded && target > orig);
            context_line(target, "target-line", &format!("target {target}"), crowded && target < orig);
        }
        text(&mut svg, "axis-title", LEFT + (W - LEFT - RIGHT) / 2.0, H - 8.0, "middle", "plane i (fast → slow)");
        vertical_title(&mut svg, 14.0, TOP + (H - TOP - BOTTOM) / 2.0, "wavelength (tokens)");
        svg
    });
    // The planes' marks, one path per kind: a step of base or the factor rewrites five
    // attributes, whatever d is.
    let marks = Memo::new(move |_| drawn.with(|(planes, _)| Marks::of(planes.as_deref().unwrap_or_default(), scale.get())));
    let path = move |kind: fn(&Marks) -> &String| move || marks.with(|m| kind(m).clone());
    let labels = move || match method.get() {
        ScalingMethod::Yarn => ["extrapolated (kept)", "ramp", "interpolated (÷ factor)"],
        ScalingMethod::Llama3 => ["high frequency (kept)", "medium (blended)", "low frequency (÷ factor)"],
        _ => ["kept", "changed otherwise", "divided by factor"],
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
                <path class="band kept" d=path(|m| &m.bands[0]) />
                <path class="band blended" d=path(|m| &m.bands[1]) />
                <path class="band interpolated" d=path(|m| &m.bands[2]) />
                <g inner_html=grid></g>
                <path class="before" d=path(|m| &m.before) />
                <path class="after" d=path(|m| &m.after) />
                <g inner_html=overlay></g>
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

/// The planes' marks as SVG path data: each plane's column, by what scaling did to it (kept,
/// blended, divided by the factor; a plane that does not turn has none), and its wavelength before
/// (rings) and after (dots), where finite.
#[derive(Debug, Clone, PartialEq, Default)]
struct Marks {
    bands: [String; 3],
    before: String,
    after: String,
}

impl Marks {
    fn of(planes: &[PlaneStretch], scale: Option<Scale>) -> Marks {
        let mut marks = Marks::default();
        let Some(scale) = scale else { return marks };
        let r = (scale.col * 0.35).clamp(1.2, 4.0);
        let height = H - TOP - BOTTOM;
        for (i, p) in planes.iter().enumerate() {
            let band = match p.change {
                PlaneChange::Kept => Some(0),
                PlaneChange::Blended => Some(1),
                PlaneChange::Interpolated => Some(2),
                PlaneChange::Still => None,
            };
            if let Some(band) = band {
                let (path, col) = (&mut marks.bands[band], fixed(scale.col, 2));
                path.push('M');
                push_fixed(path, LEFT + i as f64 * scale.col, 2);
                let _ = write!(path, ",{TOP}h{col}v{height}h-{col}z");
            }
            for (v, path, r) in [(p.wavelength_before, &mut marks.before, r), (p.wavelength_after, &mut marks.after, r * 0.8)] {
                if v.is_finite() {
                    circle(path, scale.x(i), scale.y(v), r);
                }
            }
        }
        marks
    }
}
