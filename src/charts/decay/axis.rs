//! The distance axis both decay charts share (linear or log, from distance 1), and the grid
//! they draw along it.

use super::super::format::short_number;
use super::super::ChartStyle;
use plotters::prelude::*;

pub(super) type Linear = plotters::coord::types::RangedCoordf64;

/// The distance axis both decay charts share: on a log axis a chart plots log10(distance),
/// from distance 1. Gives the axis' range and the points of a curve in its coordinates
/// (non-finite values, and distances below 1 on a log axis, left out).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct DistanceAxis {
    /// The largest distance shown.
    pub(super) last: f64,
    pub(super) log_x: bool,
}

impl DistanceAxis {
    pub(super) fn of(distances: &[f64], log_x: bool) -> Self {
        Self { last: distances.last().copied().filter(|x| x.is_finite() && *x > 0.0).unwrap_or(1.0), log_x }
    }

    pub(super) fn x_of(&self, d: f64) -> f64 {
        if self.log_x {
            d.max(1.0).log10()
        } else {
            d
        }
    }

    pub(super) fn range(&self) -> (f64, f64) {
        if self.log_x {
            (0.0, self.x_of(self.last).max(0.5))
        } else {
            (0.0, self.last)
        }
    }

    /// A tick of the axis, in tokens.
    pub(super) fn label(&self, x: f64) -> String {
        if self.log_x {
            short_number(10f64.powf(x).round())
        } else {
            short_number(x)
        }
    }

    /// The axis' title.
    pub(super) fn title(&self) -> &'static str {
        if self.log_x {
            "relative distance n − m (tokens, log scale)"
        } else {
            "relative distance n − m (tokens)"
        }
    }

    pub(super) fn points(&self, distances: &[f64], curve: &[f64], y_of: impl Fn(f64) -> f64) -> Vec<(f64, f64)> {
        distances
            .iter()
            .zip(curve)
            .filter(|(x, y)| x.is_finite() && y.is_finite() && (!self.log_x || **x >= 1.0))
            .map(|(x, y)| (self.x_of(*x), y_of(*y)))
            .collect()
    }
}

/// The grid both decay charts draw: the distance axis below with six ticks, `y_title` and five
/// ticks written by `y_label` on the left, in the page's type and colours.
pub(super) fn draw_distance_mesh<'b, DB: DrawingBackend>(
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
