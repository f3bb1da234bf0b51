//! The decay chart's lines, as an SVG layer over its canvas. The canvas holds the frame (axes,
//! grid, titles), which a step of base, m or n leaves as it is; the lines follow every step.
//! Redrawing and re-uploading the whole canvas for each step had cost the main thread about
//! 2 ms (software compositing rasterizes a canvas on it; an SVG path is rasterized off it).
//! The lines are put at the pixels plotters would draw them at ([`DecayPlot::pixel`], checked
//! natively against plotters' own drawing), in the canvas' backing pixels.

use crate::charts::format::push_int;
use crate::charts::{line_width, ChartStyle, DecayChart, DecayFrame, DecayPlot};
use leptos::prelude::*;
use plotters::style::Color;
use wasm_bindgen::JsCast;

/// Paths kept in the layer: three compared bases, the original θᵢ's bound, the bound, the
/// expected 0, three cosine curves and the cursor's line.
const SLOTS: usize = 10;

/// What the frame drawn last says about the plot, and the device pixel ratio it was drawn at.
pub type Drawn = Option<(DecayPlot, f64)>;

/// The attributes of the layer's paths (d, stroke, stroke-width, stroke-dasharray), slot by
/// slot, and of the cursor's dot (cx, cy, r, fill); an unused slot is all empty.
#[derive(Debug, Clone, PartialEq, Default)]
struct Layer {
    view_box: String,
    paths: Vec<[String; 4]>,
    dot: [String; 4],
}

impl Layer {
    fn of(chart: &DecayChart, plot: &DecayPlot, style: &ChartStyle) -> Layer {
        let frame = DecayFrame::of(chart);
        let (radius, (dash, gap)) = DecayPlot::marks(style);
        let paths = chart
            .lines(&frame, style)
            .iter()
            .map(|line| {
                let mut d = String::with_capacity(line.points.len() * 9);
                for (i, point) in line.points.iter().enumerate() {
                    let (x, y) = plot.pixel(*point, line.right_axis);
                    d.push(if i == 0 { 'M' } else { 'L' });
                    push_int(&mut d, x);
                    d.push(' ');
                    push_int(&mut d, y);
                }
                let dash = if line.dashed { format!("{dash} {gap}") } else { "none".to_string() };
                [d, rgba(line.colour), line_width(line, style).to_string(), dash]
            })
            .collect();
        let dot = chart.cursor_dot(&frame).map_or_else(Default::default, |p| {
            let (x, y) = plot.pixel(p, false);
            [x.to_string(), y.to_string(), radius.to_string(), rgba(style.cursor.to_rgba())]
        });
        Layer { view_box: format!("0 0 {} {}", plot.size.0, plot.size.1), paths, dot }
    }
}

fn rgba(colour: plotters::style::RGBAColor) -> String {
    format!("rgba({},{},{},{})", colour.0, colour.1, colour.2, colour.3)
}

/// The layer: `chart` over the frame the canvas drew last (`drawn`), in the page's `style`.
/// While the canvas has not yet drawn the frame `chart` needs (a step of d moves the axes),
/// the layer keeps what it showed, so that lines and axes change in the same frame.
#[component]
pub fn DecayLines(chart: Memo<DecayChart>, drawn: ReadSignal<Drawn>, style: Memo<ChartStyle>) -> impl IntoView {
    let svg = NodeRef::<leptos::svg::Svg>::new();
    // One effect writes what changed, attribute by attribute, on elements that stay: a step of
    // base rewrites a few `d`s, not ten paths' every attribute.
    Effect::new(move |shown: Option<Layer>| {
        let fresh = drawn.with(|drawn| {
            let (plot, ratio) = drawn.as_ref()?;
            chart.with(|chart| plot.fits(&DecayFrame::of(chart)).then(|| Layer::of(chart, plot, &style.get().with_scale(*ratio))))
        });
        let Some(now) = fresh else { return shown.unwrap_or_default() };
        let Some(svg) = svg.get() else { return shown.unwrap_or_default() };
        let svg: web_sys::Element = svg.unchecked_into();
        let before = shown.unwrap_or_default();
        // Writes the attributes of `element` that differ from what it had.
        let update = |element: Option<web_sys::Element>, names: [&str; 4], new: Option<&[String; 4]>, old: Option<&[String; 4]>| {
            let (Some(element), blank) = (element, Default::default()) else { return };
            for ((name, new), old) in names.iter().zip(new.unwrap_or(&blank)).zip(old.unwrap_or(&blank)) {
                if new != old {
                    let _ = element.set_attribute(name, new);
                }
            }
        };
        if now.view_box != before.view_box {
            let _ = svg.set_attribute("viewBox", &now.view_box);
        }
        let paths = svg.get_elements_by_tag_name("path");
        for slot in 0..SLOTS {
            update(
                paths.item(slot as u32),
                ["d", "stroke", "stroke-width", "stroke-dasharray"],
                now.paths.get(slot),
                before.paths.get(slot),
            );
        }
        update(svg.get_elements_by_tag_name("circle").item(0), ["cx", "cy", "r", "fill"], Some(&now.dot), Some(&before.dot));
        now
    });
    view! {
        <svg class="decay-lines" aria-hidden="true" preserveAspectRatio="none" node_ref=svg>
            {(0..SLOTS).map(|_| view! { <path fill="none" stroke-miterlimit="10"></path> }).collect_view()}
            <circle r="0"></circle>
        </svg>
    }
}
