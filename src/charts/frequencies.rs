//! Each plane's wavelength (tokens per turn, 2π·base^(2i/d)) and frequency θᵢ on log axes,
//! with the context length drawn across: positions 0 to L − 1 reach (L − 1)·θᵢ, so a plane
//! completes a turn within the context only when its wavelength is at most L − 1.

use super::format::{log_tick, short_number};
use super::{ChartStyle, LegendEntry, Mark};
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the frequency chart shows.
#[derive(Debug, Clone, PartialEq)]
pub struct FrequencyChart {
    /// θᵢ per plane, radians per token (transformers' `inv_freq`; 0 for a plane that does not rotate).
    pub inv_freq: Vec<f64>,
    /// The context length in tokens.
    pub context: f64,
    pub selected: Option<usize>,
}

impl FrequencyChart {
    /// (planes that turn at least once within the context, planes that do not): positions 0 to
    /// L − 1 reach (L − 1)·θᵢ, so a plane turns when its wavelength is at most L − 1.
    pub fn turning_within_context(&self) -> (usize, usize) {
        let turning = self.inv_freq.iter().filter(|f| crate::rope::wavelength(**f).is_some_and(|w| w <= self.context - 1.0)).count();
        (turning, self.inv_freq.len() - turning)
    }

    /// What each mark is, in the colours [`draw_frequencies`] draws it with `style`.
    pub fn legend(&self, style: &ChartStyle) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new("wavelength: turns within the context (left axis)", style.bound, Mark::Dot),
            LegendEntry::new("wavelength: no full turn within the context", style.bound, Mark::Ring),
            LegendEntry::new("θᵢ (right axis)", style.phasor, Mark::Line),
            LegendEntry::new(format!("context: {} tokens", short_number(self.context)), style.cursor, Mark::Line),
        ]
    }
}

/// Draws wavelengths (left axis, tokens, filled dots: planes that turn within the context, a
/// wavelength of at most L − 1; rings: planes that do not) and θᵢ (right axis, radians per token), both log scale, and the
/// context length as a horizontal line.
pub fn draw_frequencies<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &FrequencyChart,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&style.background)?;
    let points: Vec<(f64, f64, f64)> =
        chart.inv_freq.iter().enumerate().filter_map(|(i, f)| crate::rope::wavelength(*f).map(|w| (i as f64, w, *f))).collect();
    let planes = chart.inv_freq.len().max(1) as f64;
    let context = if chart.context.is_finite() && chart.context > 1.0 { chart.context } else { 4096.0 };
    let (w_min, w_max) = points.iter().fold((context, context), |(lo, hi), p| (lo.min(p.1), hi.max(p.1)));
    let (f_min, f_max) = points.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p.2), hi.max(p.2)));
    let (f_min, f_max) = if f_min <= f_max { (f_min, f_max) } else { (1e-9, 1.0) };
    let font = |size: f64| style.font(size);

    let mut ctx = ChartBuilder::on(area)
        .margin((10.0 * style.scale) as u32)
        .x_label_area_size((36.0 * style.scale) as u32)
        .y_label_area_size((56.0 * style.scale) as u32)
        .right_y_label_area_size((56.0 * style.scale) as u32)
        .caption("Wavelength and frequency of each plane", font(14.0))
        .build_cartesian_2d(-0.5..planes - 0.5, (w_min / 1.5..w_max * 1.5).log_scale())?
        .set_secondary_coord(-0.5..planes - 0.5, (f_min / 1.5..f_max * 1.5).log_scale());
    ctx.configure_mesh()
        .x_desc("plane i")
        .y_desc("wavelength (tokens per turn)")
        // Planes are whole numbers: no label between two of them (d = 2 has only plane 0).
        .x_labels((planes as usize + 1).min(8))
        .y_labels(6)
        .x_label_formatter(&|x| if (x - x.round()).abs() < 1e-6 { short_number(x.round()) } else { String::new() })
        .y_label_formatter(&|y| log_tick(*y))
        .label_style(font(11.0))
        .axis_desc_style(font(12.0))
        .light_line_style(style.grid.mix(0.4))
        .bold_line_style(style.grid)
        .axis_style(style.text.mix(0.6))
        .draw()?;
    ctx.configure_secondary_axes()
        .y_desc("θᵢ (radians per token)")
        .y_labels(6)
        .y_label_formatter(&|y| log_tick(*y))
        .label_style(font(11.0))
        .axis_desc_style(font(12.0))
        .draw()?;

    let dot = (3.0 * style.scale).round() as i32;
    ctx.draw_secondary_series(LineSeries::new(points.iter().map(|p| (p.0, p.2)), style.phasor.stroke_width((1.5 * style.scale) as u32)))?;
    if points.len() == 1 {
        // One plane (d = 2): a line of one point draws nothing, so mark it.
        ctx.draw_secondary_series(
            points.iter().map(|p| Cross::new((p.0, p.2), dot * 2, style.phasor.stroke_width((1.5 * style.scale) as u32))),
        )?;
    }
    ctx.draw_series(points.iter().map(|p| {
        if p.1 <= context - 1.0 {
            Circle::new((p.0, p.1), dot, style.bound.filled())
        } else {
            Circle::new((p.0, p.1), dot, style.bound.stroke_width((1.5 * style.scale) as u32))
        }
    }))?;
    ctx.draw_series(LineSeries::new([(-0.5, context), (planes - 0.5, context)], style.cursor.stroke_width((1.5 * style.scale) as u32)))?;
    if let Some(p) = chart.selected.and_then(|s| points.iter().find(|p| p.0 as usize == s)) {
        ctx.draw_series(std::iter::once(Circle::new((p.0, p.1), dot * 2, style.cursor.stroke_width((2.0 * style.scale) as u32))))?;
    }
    area.present()
}
