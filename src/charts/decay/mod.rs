//! Long-term decay against relative distance: RoFormer's bound (section 3.4.3, figure 2) on
//! the left axis, and on the right axis, in cosine units (score ÷ |q||k|), what scores actually
//! do: the current q and k, q = k (the mean of cos(rθᵢ)), and random zero-mean q and k (0).

mod absolute;
mod axis;
mod frame;

use super::format::short_number;
use super::{palette, ChartStyle, LegendEntry, Mark};
pub use absolute::{draw_absolute, AbsoluteChart};
use frame::decay_frame;
pub use frame::{draw_decay_frame, headroom, DecayFrame, DecayPlot};
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the decay chart shows; every curve is sampled at `distances`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DecayChart {
    /// Relative distances, increasing.
    pub distances: Vec<f64>,
    /// The bound for the frequencies in effect.
    pub bound: Vec<f64>,
    /// The bound for other bases: (base, curve).
    pub compare: Vec<(f64, Vec<f64>)>,
    /// With context extension on: the bound for the original θᵢ, before scaling; else empty.
    pub unscaled: Vec<f64>,
    /// q · R(r) k ÷ (|q||k|) for the current q and k; not drawn when empty.
    pub score: Vec<f64>,
    /// The mean of cos(r θᵢ): q = k with the same length in every plane; not drawn when empty.
    pub q_equals_k: Vec<f64>,
    /// The same with xPos's decay, ζᵢ^(r/scale_base)·cos(rθᵢ) averaged; not drawn when empty.
    pub xpos: Vec<f64>,
    /// The distance and bound read out (`r` and `decay-bound`).
    pub cursor: Option<(f64, f64)>,
    /// Distances on a log scale (from 1).
    pub log_x: bool,
}

impl DecayChart {
    /// What each curve is, in the colours [`draw_decay`] draws it with `style`.
    pub fn legend(&self, style: &ChartStyle) -> Vec<LegendEntry> {
        let bases: Vec<f64> = self.compare.iter().map(|(base, _)| *base).collect();
        Self::legend_for(
            &bases,
            !self.unscaled.is_empty(),
            !self.score.is_empty(),
            !self.q_equals_k.is_empty(),
            !self.xpos.is_empty(),
            style,
        )
    }

    /// The legend of a chart comparing `bases`, with or without the cosine curves: known
    /// before the curves are computed, so a legend does not make a chart out of view compute.
    pub fn legend_for(bases: &[f64], unscaled: bool, score: bool, q_equals_k: bool, xpos: bool, style: &ChartStyle) -> Vec<LegendEntry> {
        let mut entries = vec![LegendEntry::new("relative bound (1/(d/2))·Σₜ|Sₜ| (left axis)", style.bound, Mark::Line)];
        if unscaled {
            entries.push(LegendEntry::new("relative bound, original θᵢ before context extension", style.faded(ORIGINAL_SHARE), Mark::Line));
        }
        for (base, colour) in bases.iter().zip(COMPARE) {
            entries.push(LegendEntry::new(format!("relative bound, base {}", short_number(*base)), colour, Mark::Line));
        }
        if score || q_equals_k {
            entries.push(LegendEntry::new("random zero-mean q, k: expected 0 (right axis)", style.faded(ZERO_SHARE), Mark::Dashed));
        }
        if q_equals_k {
            entries.push(LegendEntry::new(
                "mean of cos(rθᵢ): q = k, the same length in every plane (right axis)",
                style.phasor,
                Mark::Line,
            ));
        }
        if xpos {
            entries.push(LegendEntry::new("xPos: mean of ζᵢ^(r/scale_base)·cos(rθᵢ), key r tokens back (right axis)", style.k, Mark::Line));
        }
        if score {
            entries.push(LegendEntry::new("this q and k (right axis)", style.text, Mark::Line));
        }
        entries
    }
}

/// Shades of the bound's green for compared bases.
/// How strongly the reference lines show, as a share of the text colour: the original θᵢ's
/// bound (solid) and the expected 0 of random q and k (dashed).
const ORIGINAL_SHARE: f64 = 0.45;
const ZERO_SHARE: f64 = 0.6;
const COMPARE: [RGBColor; 3] = [palette::COMPARE[0].light, palette::COMPARE[1].light, palette::COMPARE[2].light];

/// One line of the decay chart in the chart's coordinates (x on the distance axis, log10 of
/// the distance on a log axis; y on the left axis, or the right one for cosines), with its
/// colour and its width in the style's pixels before scaling.
#[derive(Debug, Clone, PartialEq)]
pub struct DecayLine {
    pub points: Vec<(f64, f64)>,
    pub right_axis: bool,
    pub colour: RGBAColor,
    pub width: f64,
    pub dashed: bool,
}

impl DecayChart {
    /// Every line [`draw_decay`] draws, in its order: compared bases, the original θᵢ's bound,
    /// the bound, the expected 0, the cosine curves, and the cursor's line.
    pub fn lines(&self, frame: &DecayFrame, style: &ChartStyle) -> Vec<DecayLine> {
        let axis = frame.axis;
        let (x_min, x_max) = axis.range();
        let points = |curve: &[f64]| axis.points(&self.distances, curve, |y| y);
        let line = |points, right_axis, colour: RGBAColor, width| DecayLine { points, right_axis, colour, width, dashed: false };
        let mut lines = Vec::new();
        for ((_, curve), colour) in self.compare.iter().zip(COMPARE) {
            lines.push(line(points(curve), false, colour.to_rgba(), 1.5));
        }
        if !self.unscaled.is_empty() {
            lines.push(line(points(&self.unscaled), false, style.faded(ORIGINAL_SHARE).to_rgba(), 1.5));
        }
        lines.push(line(points(&self.bound), false, style.bound.to_rgba(), 2.0));
        if frame.has_cosines {
            lines.push(DecayLine { dashed: true, ..line(vec![(x_min, 0.0), (x_max, 0.0)], true, style.faded(ZERO_SHARE).to_rgba(), 1.5) });
        }
        if !self.q_equals_k.is_empty() {
            lines.push(line(points(&self.q_equals_k), true, style.phasor.to_rgba(), 1.5));
        }
        if !self.xpos.is_empty() {
            lines.push(line(points(&self.xpos), true, style.k.to_rgba(), 1.5));
        }
        if !self.score.is_empty() {
            lines.push(line(points(&self.score), true, style.text.mix(0.85), 1.2));
        }
        if let Some((x, _)) = self.cursor_dot(frame) {
            lines.push(line(vec![(x, 0.0), (x, frame.y_max)], false, style.cursor.to_rgba(), 1.0));
        }
        lines
    }

    /// The cursor's dot on the bound, in the chart's coordinates (left axis).
    pub fn cursor_dot(&self, frame: &DecayFrame) -> Option<(f64, f64)> {
        let (x_min, x_max) = frame.axis.range();
        self.cursor.filter(|(x, y)| x.is_finite() && y.is_finite()).map(|(x, y)| (frame.axis.x_of(x).clamp(x_min, x_max), y))
    }
}

/// A stroke `width` wide (in the style's pixels), in whole pixels of at least 1.
fn stroke(width: f64, style: &ChartStyle) -> u32 {
    ((width * style.scale).round() as u32).max(1)
}

/// The width in pixels [`draw_decay`] strokes `line` with, under `style`.
pub fn line_width(line: &DecayLine, style: &ChartStyle) -> u32 {
    stroke(line.width, style)
}

/// Draws `chart` on `area`: its frame, then its lines and the cursor's dot.
pub fn draw_decay<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &DecayChart,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let frame = DecayFrame::of(chart);
    let mut ctx = decay_frame(area, &frame, style)?;
    let (radius, (dash, gap)) = DecayPlot::marks(style);
    for line in chart.lines(&frame, style) {
        let pen = line.colour.stroke_width(line_width(&line, style));
        match (line.right_axis, line.dashed) {
            (false, _) => {
                ctx.draw_series(LineSeries::new(line.points, pen))?;
            }
            (true, false) => {
                ctx.draw_secondary_series(LineSeries::new(line.points, pen))?;
            }
            (true, true) => {
                ctx.draw_secondary_series(DashedLineSeries::new(line.points, dash, gap, pen))?;
            }
        }
    }
    if let Some(dot) = chart.cursor_dot(&frame) {
        ctx.draw_series(std::iter::once(Circle::new(dot, radius, style.cursor.filled())))?;
    }
    area.present()
}
