//! Long-term decay against relative distance: RoFormer's bound (section 3.4.3, figure 2) on
//! the left axis, and on the right axis, in cosine units (score ÷ |q||k|), what scores actually
//! do: the current q and k, q = k (the mean of cos(rθᵢ)), and random zero-mean q and k (0).

mod absolute;

use super::format::short_number;
use super::{palette, ChartStyle, LegendEntry, Mark};
pub use absolute::{draw_absolute, AbsoluteChart};
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

/// The distance axis both decay charts share: on a log axis a chart plots log10(distance),
/// from distance 1. Gives the axis' range and the points of a curve in its coordinates
/// (non-finite values, and distances below 1 on a log axis, left out).
#[derive(Debug, Clone, Copy, PartialEq)]
struct DistanceAxis {
    /// The largest distance shown.
    last: f64,
    log_x: bool,
}

impl DistanceAxis {
    fn of(distances: &[f64], log_x: bool) -> Self {
        Self { last: distances.last().copied().filter(|x| x.is_finite() && *x > 0.0).unwrap_or(1.0), log_x }
    }

    fn x_of(&self, d: f64) -> f64 {
        if self.log_x {
            d.max(1.0).log10()
        } else {
            d
        }
    }

    fn range(&self) -> (f64, f64) {
        if self.log_x {
            (0.0, self.x_of(self.last).max(0.5))
        } else {
            (0.0, self.last)
        }
    }

    /// A tick of the axis, in tokens.
    fn label(&self, x: f64) -> String {
        if self.log_x {
            short_number(10f64.powf(x).round())
        } else {
            short_number(x)
        }
    }

    /// The axis' title.
    fn title(&self) -> &'static str {
        if self.log_x {
            "relative distance n − m (tokens, log scale)"
        } else {
            "relative distance n − m (tokens)"
        }
    }

    fn points(&self, distances: &[f64], curve: &[f64], y_of: impl Fn(f64) -> f64) -> Vec<(f64, f64)> {
        distances
            .iter()
            .zip(curve)
            .filter(|(x, y)| x.is_finite() && y.is_finite() && (!self.log_x || **x >= 1.0))
            .map(|(x, y)| (self.x_of(*x), y_of(*y)))
            .collect()
    }
}

/// What the decay chart's frame (axes, grid, titles) depends on. Its left axis starts at 0 and
/// leaves headroom above the largest bound (f(0) = (d/2 + 1)/2 is the peak), so no curve is
/// clipped; a step of base, m or n leaves it as it is (only the curves move). The top is the
/// next power of 1.1 above the peak plus 5% (5 to 16% of headroom), so that most steps of d
/// leave the frame as it is too (a step of 2 at d = 128 moves the peak by 1.5%).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecayFrame {
    axis: DistanceAxis,
    y_max: f64,
    has_cosines: bool,
}

/// The top of the left axis for a largest value `peak` (at least 1): the smallest power of
/// 1.1 at or above 1.05 × `peak`.
pub fn headroom(peak: f64) -> f64 {
    const STEP: f64 = 1.1;
    let top = STEP.powf(((peak * 1.05).ln() / STEP.ln()).ceil());
    // ln and powf round: never below the 5% asked for.
    if top < peak * 1.05 {
        top * STEP
    } else {
        top
    }
}

impl DecayFrame {
    pub fn of(chart: &DecayChart) -> Self {
        let y_max = chart
            .bound
            .iter()
            .chain(chart.compare.iter().flat_map(|(_, c)| c))
            .chain(&chart.unscaled)
            .copied()
            .filter(|y| y.is_finite())
            .fold(0.0_f64, f64::max)
            .max(1.0);
        let y_max = headroom(y_max);
        let has_cosines = !chart.score.is_empty() || !chart.q_equals_k.is_empty() || !chart.xpos.is_empty();
        Self { axis: DistanceAxis::of(&chart.distances, chart.log_x), y_max, has_cosines }
    }
}

/// The right axis' range, in cosine units.
const COSINE_RANGE: (f64, f64) = (-1.05, 1.05);

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

/// Where [`draw_decay_frame`] put the plot, in the backend's pixels: what a layer over the
/// canvas needs to draw the lines where [`draw_decay`] would.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecayPlot {
    /// The whole drawing's size.
    pub size: (u32, u32),
    /// The plotting area: x from `x0` to `x1`, y from `y0` (top) to `y1`, ends excluded.
    rect: (i32, i32, i32, i32),
    frame: DecayFrame,
}

impl DecayPlot {
    /// The pixel of `point`, rounded as plotters rounds it (its primary coordinates leave out
    /// the area's last row and column, its secondary ones do not).
    pub fn pixel(&self, (x, y): (f64, f64), right_axis: bool) -> (i32, i32) {
        let (x0, x1, y0, y1) = self.rect;
        let (x_min, x_max) = self.frame.axis.range();
        let ((y_lo, y_hi), inset) = if right_axis { (COSINE_RANGE, 0) } else { ((0.0, self.frame.y_max), 1) };
        (map(x, (x_min, x_max), (x0, x1 - inset)), map(y, (y_lo, y_hi), (y1 - inset, y0)))
    }

    /// Whether this plot is the one drawn for `frame`.
    pub fn fits(&self, frame: &DecayFrame) -> bool {
        self.frame == *frame
    }

    /// The cursor dot's radius and the dash pattern, in pixels, for `style`.
    pub fn marks(style: &ChartStyle) -> (i32, (i32, i32)) {
        let s = style.scale;
        ((4.0 * s) as i32, ((6.0 * s) as i32, (4.0 * s) as i32))
    }
}

/// plotters' mapping of `v` in `range` to pixels `limit` (its `Ranged::map` for f64).
fn map(v: f64, range: (f64, f64), limit: (i32, i32)) -> i32 {
    if range.1 == range.0 {
        return (limit.1 - limit.0) / 2;
    }
    let t = (v - range.0) / (range.1 - range.0);
    let length = limit.1 - limit.0;
    if length == 0 || !t.is_finite() {
        return if t.is_sign_negative() { limit.0 } else { limit.1 };
    }
    if length > 0 {
        limit.0 + (f64::from(length) * t + 1e-3).floor() as i32
    } else {
        limit.0 + (f64::from(length) * t - 1e-3).ceil() as i32
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

type Linear = plotters::coord::types::RangedCoordf64;
type DecayContext<'a, DB> = plotters::chart::DualCoordChartContext<'a, DB, Cartesian2d<Linear, Linear>, Cartesian2d<Linear, Linear>>;

/// The grid both decay charts draw: the distance axis below with six ticks, `y_title` and five
/// ticks written by `y_label` on the left, in the page's type and colours.
fn draw_distance_mesh<'b, DB: DrawingBackend>(
    mesh: &mut plotters::chart::MeshStyle<'_, 'b, Linear, Linear, DB>,
    axis: DistanceAxis,
    y_title: &str,
    x_label: &'b dyn Fn(&f64) -> String,
    y_label: &'b dyn Fn(&f64) -> String,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    mesh.x_desc(axis.title())
        .y_desc(y_title)
        .x_labels(6)
        .y_labels(5)
        .x_label_formatter(x_label)
        .y_label_formatter(y_label)
        .label_style(style.font(11.0))
        .axis_desc_style(style.font(12.0))
        .light_line_style(style.grid.mix(0.5))
        .bold_line_style(style.grid)
        .axis_style(style.text.mix(0.6))
        .draw()
}

/// The frame on `area`: background, caption, grid, both axes with their ticks and titles.
fn decay_frame<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    frame: &DecayFrame,
    style: &ChartStyle,
) -> Result<DecayContext<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&style.background)?;
    let axis = frame.axis;
    let (x_min, x_max) = axis.range();
    let s = style.scale;
    let font = |size: f64| style.font(size);
    let x_label = |x: &f64| axis.label(*x);

    let mut builder = ChartBuilder::on(area);
    builder
        .margin((10.0 * s) as u32)
        .x_label_area_size((38.0 * s) as u32)
        .y_label_area_size((46.0 * s) as u32)
        .caption("RoFormer's relative bound, and scores", font(14.0));
    if frame.has_cosines {
        builder.right_y_label_area_size((52.0 * s) as u32);
    }
    let mut ctx =
        builder.build_cartesian_2d(x_min..x_max, 0.0..frame.y_max)?.set_secondary_coord(x_min..x_max, COSINE_RANGE.0..COSINE_RANGE.1);
    draw_distance_mesh(&mut ctx.configure_mesh(), axis, "relative bound", &x_label, &|y| short_number(*y), style)?;
    if frame.has_cosines {
        ctx.configure_secondary_axes()
            .y_desc("score ÷ |q||k| (cosine)")
            .y_labels(5)
            .y_label_formatter(&|y| short_number(*y))
            .label_style(font(11.0))
            .axis_desc_style(font(12.0))
            .draw()?;
    }
    Ok(ctx)
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

/// Draws only the frame of a decay chart on `area` (a layer over it draws the lines, see
/// [`DecayChart::lines`]), and says where the plot is.
pub fn draw_decay_frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    frame: &DecayFrame,
    style: &ChartStyle,
) -> Result<DecayPlot, DrawingAreaErrorKind<DB::ErrorType>> {
    let ctx = decay_frame(area, frame, style)?;
    let (x, y) = ctx.plotting_area().get_pixel_range();
    drop(ctx);
    area.present()?;
    Ok(DecayPlot { size: area.dim_in_pixel(), rect: (x.start, x.end, y.start, y.end), frame: *frame })
}
