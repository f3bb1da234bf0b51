//! The decay chart's frame (background, caption, grid, both axes): what it depends on, drawing
//! it alone for a layer of lines over it, and where it put the plot.

use super::super::format::short_number;
use super::super::ChartStyle;
use super::axis::{draw_distance_mesh, DistanceAxis, Linear};
use super::DecayChart;
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the decay chart's frame (axes, grid, titles) depends on. Its left axis starts at 0 and
/// leaves headroom above the largest bound (f(0) = (d/2 + 1)/2 is the peak), so no curve is
/// clipped; a step of base, m or n leaves it as it is (only the curves move). The top is the
/// next power of 1.1 above the peak plus 5% (5 to 16% of headroom), so that most steps of d
/// leave the frame as it is too (a step of 2 at d = 128 moves the peak by 1.5%).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecayFrame {
    pub(super) axis: DistanceAxis,
    pub(super) y_max: f64,
    pub(super) has_cosines: bool,
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
pub(super) const COSINE_RANGE: (f64, f64) = (-1.05, 1.05);

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

pub(super) type DecayContext<'a, DB> =
    plotters::chart::DualCoordChartContext<'a, DB, Cartesian2d<Linear, Linear>, Cartesian2d<Linear, Linear>>;

/// The frame on `area`: background, caption, grid, both axes with their ticks and titles.
pub(super) fn decay_frame<'a, DB: DrawingBackend>(
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
