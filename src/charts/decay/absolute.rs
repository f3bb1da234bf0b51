//! The absolute decay chart: RoFormer's bound on |score| for the current q and k, beside |score|
//! itself, on a log axis; it shares the distance axis of the relative chart.

use super::axis::{draw_distance_mesh, DistanceAxis};
use crate::charts::{ChartStyle, LegendEntry, Mark};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The absolute bound on |score| for the current q and k beside |score| itself, both in score
/// units, on a log axis (the bound is loose: often ten times |score| or more).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AbsoluteChart {
    pub distances: Vec<f64>,
    /// (maxᵢ |hᵢ₊₁ − hᵢ|)·Σₜ|Sₜ| at each distance.
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
            LegendEntry::new("absolute bound (maxᵢ|hᵢ₊₁ − hᵢ|)·Σₜ|Sₜ|", style.bound, Mark::Line),
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
    let axis = DistanceAxis::of(&chart.distances, chart.log_x);
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
    let y_label = |y: &f64| crate::charts::format::log_tick(10f64.powf(*y));
    draw_distance_mesh(&mut ctx.configure_mesh(), axis, "score units (log scale)", &x_label, &y_label, style)?;
    let points = |curve: &[f64]| axis.points(&chart.distances, curve, |y| y.clamp(bottom, top).log10());
    ctx.draw_series(LineSeries::new(points(&chart.score), style.text.mix(0.85).stroke_width(width(1.2))))?;
    ctx.draw_series(LineSeries::new(points(&chart.bound), style.bound.stroke_width(width(2.0))))?;
    if let Some(x) = chart.cursor.filter(|x| x.is_finite()) {
        let x = axis.x_of(x).clamp(x_min, x_max);
        ctx.draw_series(LineSeries::new([(x, y_min), (x, y_max)], style.cursor.stroke_width(width(1.0))))?;
    }
    area.present()
}
