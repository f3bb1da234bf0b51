//! The RoFormer long-term decay bound against relative distance (RoFormer section 3.4.3,
//! figure 2), with a cursor at the distance read out on the page.

use super::format::short_number;
use super::ChartStyle;
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the decay chart shows: the bound sampled at `distances`, and a cursor.
#[derive(Debug, Clone, PartialEq)]
pub struct DecayChart {
    /// Relative distances, increasing.
    pub distances: Vec<f64>,
    /// The bound at each distance.
    pub bound: Vec<f64>,
    /// The distance and value read out (`r` and `decay-bound`).
    pub cursor: Option<(f64, f64)>,
}

/// Draws `chart` on `area`. The y axis starts at 0 and leaves headroom above the largest value
/// (f(0) = (d/2 + 1)/2 is the peak), so the curve is never clipped.
pub fn draw_decay<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &DecayChart,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&style.background)?;
    let x_max = chart.distances.last().copied().filter(|x| x.is_finite() && *x > 0.0).unwrap_or(1.0);
    let y_max = chart
        .bound
        .iter()
        .copied()
        .filter(|y| y.is_finite())
        .fold(0.0_f64, f64::max)
        .max(1.0)
        * 1.08;

    let font = |size: f64| ("sans-serif", style.px(size)).into_font().color(&style.text);
    let mut builder = ChartBuilder::on(area);
    builder
        .margin(style.px(10.0))
        .x_label_area_size(style.px(38.0))
        .y_label_area_size(style.px(46.0))
        .caption("RoFormer decay bound against relative distance", font(14.0));
    let mut ctx = builder.build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    ctx.configure_mesh()
        .x_desc("relative distance n − m (tokens)")
        .y_desc("bound")
        .x_labels(6)
        .y_labels(5)
        .x_label_formatter(&|x| short_number(*x))
        .y_label_formatter(&|y| short_number(*y))
        .label_style(font(11.0))
        .axis_desc_style(font(12.0))
        .light_line_style(style.grid.mix(0.5))
        .bold_line_style(style.grid)
        .axis_style(style.text.mix(0.6))
        .draw()?;

    let points = chart
        .distances
        .iter()
        .zip(&chart.bound)
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .map(|(x, y)| (*x, *y));
    ctx.draw_series(LineSeries::new(points, style.bound.stroke_width(style.px(2.0))))?;

    if let Some((x, y)) = chart.cursor.filter(|(x, y)| x.is_finite() && y.is_finite()) {
        let x = x.clamp(0.0, x_max);
        ctx.draw_series(LineSeries::new([(x, 0.0), (x, y_max)], style.cursor.stroke_width(style.px(1.0))))?;
        ctx.draw_series(std::iter::once(Circle::new((x, y), style.px(4.0), style.cursor.filled())))?;
    }
    area.present()
}
