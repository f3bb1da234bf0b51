//! Long-term decay against relative distance: RoFormer's bound (section 3.4.3, figure 2) on
//! the left axis, and on the right axis, in cosine units (score ÷ |q||k|), what scores actually
//! do: the current q and k, q = k (the mean of cos(rθᵢ)), and random zero-mean q and k (0).

use super::format::short_number;
use super::{palette, ChartStyle, LegendEntry, Mark};
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
    /// The mean of cos(r θᵢ): q = k with equal pairs; not drawn when empty.
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
        Self::legend_for(&bases, !self.unscaled.is_empty(), !self.score.is_empty(), !self.q_equals_k.is_empty(), !self.xpos.is_empty(), style)
    }

    /// The legend of a chart comparing `bases`, with or without the cosine curves: known
    /// before the curves are computed, so a legend does not make a chart out of view compute.
    pub fn legend_for(bases: &[f64], unscaled: bool, score: bool, q_equals_k: bool, xpos: bool, style: &ChartStyle) -> Vec<LegendEntry> {
        let mut entries = vec![LegendEntry::new("relative bound (1/(d/2))·Σⱼ|Sⱼ| (left axis)", style.bound, Mark::Line)];
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
            entries.push(LegendEntry::new("mean of cos(rθᵢ): q = k with equal-length pairs (right axis)", style.phasor, Mark::Line));
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

/// The distance axis both decay charts share: on a log axis a chart plots log10(distance),
/// from distance 1. Returns the axis' range and the points of `curve` in its coordinates
/// (non-finite values, and distances below 1 on a log axis, left out).
struct DistanceAxis<'a> {
    distances: &'a [f64],
    log_x: bool,
}

impl DistanceAxis<'_> {
    fn x_of(&self, d: f64) -> f64 {
        if self.log_x { d.max(1.0).log10() } else { d }
    }

    fn range(&self) -> (f64, f64) {
        let last = self.distances.last().copied().filter(|x| x.is_finite() && *x > 0.0).unwrap_or(1.0);
        if self.log_x { (0.0, self.x_of(last).max(0.5)) } else { (0.0, last) }
    }

    /// A tick of the axis, in tokens.
    fn label(&self, x: f64) -> String {
        if self.log_x { short_number(10f64.powf(x).round()) } else { short_number(x) }
    }

    /// The axis' title.
    fn title(&self) -> &'static str {
        if self.log_x { "relative distance n − m (tokens, log scale)" } else { "relative distance n − m (tokens)" }
    }

    fn points(&self, curve: &[f64], y_of: impl Fn(f64) -> f64) -> Vec<(f64, f64)> {
        self.distances
            .iter()
            .zip(curve)
            .filter(|(x, y)| x.is_finite() && y.is_finite() && (!self.log_x || **x >= 1.0))
            .map(|(x, y)| (self.x_of(*x), y_of(*y)))
            .collect()
    }
}

/// Draws `chart` on `area`. The left axis starts at 0 and leaves headroom above the largest
/// bound (f(0) = (d/2 + 1)/2 is the peak), so no curve is clipped.
pub fn draw_decay<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &DecayChart,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&style.background)?;
    let axis = DistanceAxis { distances: &chart.distances, log_x: chart.log_x };
    let (x_min, x_max) = axis.range();
    let y_max = chart
        .bound
        .iter()
        .chain(chart.compare.iter().flat_map(|(_, c)| c))
        .chain(&chart.unscaled)
        .copied()
        .filter(|y| y.is_finite())
        .fold(0.0_f64, f64::max)
        .max(1.0)
        * 1.08;
    let s = style.scale;
    let font = |size: f64| style.font(size);
    let width = |w: f64| ((w * s).round() as u32).max(1);
    let x_label = |x: &f64| axis.label(*x);
    let has_cosines = !chart.score.is_empty() || !chart.q_equals_k.is_empty() || !chart.xpos.is_empty();

    let mut builder = ChartBuilder::on(area);
    builder
        .margin((10.0 * s) as u32)
        .x_label_area_size((38.0 * s) as u32)
        .y_label_area_size((46.0 * s) as u32)
        .caption("RoFormer's relative bound, and scores", font(14.0));
    if has_cosines {
        builder.right_y_label_area_size((52.0 * s) as u32);
    }
    let mut ctx = builder
        .build_cartesian_2d(x_min..x_max, 0.0..y_max)?
        .set_secondary_coord(x_min..x_max, -1.05..1.05);
    ctx.configure_mesh()
        .x_desc(axis.title())
        .y_desc("relative bound")
        .x_labels(6)
        .y_labels(5)
        .x_label_formatter(&x_label)
        .y_label_formatter(&|y| short_number(*y))
        .label_style(font(11.0))
        .axis_desc_style(font(12.0))
        .light_line_style(style.grid.mix(0.5))
        .bold_line_style(style.grid)
        .axis_style(style.text.mix(0.6))
        .draw()?;
    if has_cosines {
        ctx.configure_secondary_axes()
            .y_desc("score ÷ |q||k| (cosine)")
            .y_labels(5)
            .y_label_formatter(&|y| short_number(*y))
            .label_style(font(11.0))
            .axis_desc_style(font(12.0))
            .draw()?;
    }

    let points = |curve: &[f64]| axis.points(curve, |y| y);
    for ((_, curve), colour) in chart.compare.iter().zip(COMPARE) {
        ctx.draw_series(LineSeries::new(points(curve), colour.stroke_width(width(1.5))))?;
    }
    if !chart.unscaled.is_empty() {
        ctx.draw_series(LineSeries::new(points(&chart.unscaled), style.faded(ORIGINAL_SHARE).stroke_width(width(1.5))))?;
    }
    ctx.draw_series(LineSeries::new(points(&chart.bound), style.bound.stroke_width(width(2.0))))?;
    if has_cosines {
        ctx.draw_secondary_series(DashedLineSeries::new(
            [(x_min, 0.0), (x_max, 0.0)],
            (6.0 * s) as i32,
            (4.0 * s) as i32,
            style.faded(ZERO_SHARE).stroke_width(width(1.5)),
        ))?;
    }
    if !chart.q_equals_k.is_empty() {
        ctx.draw_secondary_series(LineSeries::new(points(&chart.q_equals_k), style.phasor.stroke_width(width(1.5))))?;
    }
    if !chart.xpos.is_empty() {
        ctx.draw_secondary_series(LineSeries::new(points(&chart.xpos), style.k.stroke_width(width(1.5))))?;
    }
    if !chart.score.is_empty() {
        ctx.draw_secondary_series(LineSeries::new(points(&chart.score), style.text.mix(0.85).stroke_width(width(1.2))))?;
    }

    if let Some((x, y)) = chart.cursor.filter(|(x, y)| x.is_finite() && y.is_finite()) {
        let x = axis.x_of(x).clamp(x_min, x_max);
        ctx.draw_series(LineSeries::new([(x, 0.0), (x, y_max)], style.cursor.stroke_width(width(1.0))))?;
        ctx.draw_series(std::iter::once(Circle::new((x, y), (4.0 * s) as i32, style.cursor.filled())))?;
    }
    area.present()
}

/// The absolute bound on |score| for the current q and k beside |score| itself, both in score
/// units, on a log axis (the bound is loose: often ten times |score| or more).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AbsoluteChart {
    pub distances: Vec<f64>,
    /// (maxᵢ |hᵢ₊₁ − hᵢ|)·Σⱼ|Sⱼ| at each distance.
    pub bound: Vec<f64>,
    /// |q · R(r) k| at each distance.
    pub score: Vec<f64>,
    pub log_x: bool,
    /// The distance `r` read out.
    pub cursor: Option<f64>,
}

impl AbsoluteChart {
    pub fn legend(style: &ChartStyle) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new("absolute bound (maxᵢ|hᵢ₊₁ − hᵢ|)·Σⱼ|Sⱼ|", style.bound, Mark::Line),
            LegendEntry::new("|score| of this q and k", style.text, Mark::Line),
        ]
    }
}

/// Draws `chart` on `area`: log y from well below the smallest |score| shown to above the bound.
pub fn draw_absolute<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &AbsoluteChart,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&style.background)?;
    let axis = DistanceAxis { distances: &chart.distances, log_x: chart.log_x };
    let (x_min, x_max) = axis.range();
    let finite_positive = |v: &&f64| v.is_finite() && **v > 0.0;
    let top = chart.bound.iter().filter(finite_positive).copied().fold(0.0_f64, f64::max).max(1e-12) * 1.5;
    let low = chart.score.iter().filter(finite_positive).copied().fold(f64::INFINITY, f64::min);
    let bottom = if low.is_finite() { low.max(top * 1e-5) } else { top * 1e-3 } / 1.5;
    let s = style.scale;
    let font = |size: f64| style.font(size);
    let width = |w: f64| ((w * s).round() as u32).max(1);
    let x_label = |x: &f64| axis.label(*x);
    // The y axis plots log10 of the value (the same linear coordinates as every other chart,
    // rather than a log coordinate type that would compile a second copy of plotters' axes).
    let (y_min, y_max) = (bottom.log10(), top.log10());
    let mut ctx = ChartBuilder::on(area)
        .margin((10.0 * s) as u32)
        .x_label_area_size((38.0 * s) as u32)
        .y_label_area_size((52.0 * s) as u32)
        .caption("The bound on |score| against |score|, this q and k", font(14.0))
        .build_cartesian_2d(x_min..x_max, y_min..y_max)?;
    ctx.configure_mesh()
        .x_desc(axis.title())
        .y_desc("score units (log scale)")
        .x_labels(6)
        .y_labels(5)
        .x_label_formatter(&x_label)
        .y_label_formatter(&|y| super::format::log_tick(10f64.powf(*y)))
        .label_style(font(11.0))
        .axis_desc_style(font(12.0))
        .light_line_style(style.grid.mix(0.5))
        .bold_line_style(style.grid)
        .axis_style(style.text.mix(0.6))
        .draw()?;
    let points = |curve: &[f64]| axis.points(curve, |y| y.clamp(bottom, top).log10());
    ctx.draw_series(LineSeries::new(points(&chart.score), style.text.mix(0.85).stroke_width(width(1.2))))?;
    ctx.draw_series(LineSeries::new(points(&chart.bound), style.bound.stroke_width(width(2.0))))?;
    if let Some(x) = chart.cursor.filter(|x| x.is_finite()) {
        let x = axis.x_of(x).clamp(x_min, x_max);
        ctx.draw_series(LineSeries::new([(x, y_min), (x, y_max)], style.cursor.stroke_width(width(1.0))))?;
    }
    area.present()
}
