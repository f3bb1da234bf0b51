//! A few drawing primitives for scenes with many small shapes (hundreds of clock hands per
//! frame). Drawing code written against [`Painter`] runs on any plotters backend through
//! [`PlottersPainter`] (SVG in native tests), and in the browser on a painter that batches
//! shapes of one style into one canvas path: a frame is then a handful of strokes instead of
//! hundreds, each with its own style changes and calls across the wasm boundary.

use plotters::coord::Shift;
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;

/// Coordinates are device pixels; widths and radii too.
pub trait Painter {
    fn polyline(&mut self, points: &[(f64, f64)], colour: RGBColor, width: f64);
    fn line(&mut self, from: (f64, f64), to: (f64, f64), colour: RGBColor, width: f64) {
        self.polyline(&[from, to], colour, width);
    }
    /// A filled circle.
    fn dot(&mut self, center: (f64, f64), radius: f64, colour: RGBColor);
    /// A stroked circle.
    fn ring(&mut self, center: (f64, f64), radius: f64, colour: RGBColor, width: f64);
}

/// [`Painter`] on a plotters drawing area, one element per shape.
pub struct PlottersPainter<'a, DB: DrawingBackend> {
    area: &'a DrawingArea<DB, Shift>,
    /// The first error met; later shapes are skipped.
    pub error: Option<DrawingAreaErrorKind<DB::ErrorType>>,
}

impl<'a, DB: DrawingBackend> PlottersPainter<'a, DB> {
    pub fn new(area: &'a DrawingArea<DB, Shift>) -> Self {
        Self { area, error: None }
    }

    fn draw<E>(&mut self, element: &E)
    where
        for<'b> &'b E: PointCollection<'b, (i32, i32)>,
        E: Drawable<DB>,
    {
        if self.error.is_none() {
            if let Err(e) = self.area.draw(element) {
                self.error = Some(e);
            }
        }
    }
}

fn px(point: (f64, f64)) -> (i32, i32) {
    (point.0.round() as i32, point.1.round() as i32)
}

fn width_px(width: f64) -> u32 {
    (width.round() as u32).max(1)
}

impl<DB: DrawingBackend> Painter for PlottersPainter<'_, DB> {
    fn polyline(&mut self, points: &[(f64, f64)], colour: RGBColor, width: f64) {
        let points: Vec<(i32, i32)> = points.iter().copied().map(px).collect();
        self.draw(&PathElement::new(points, colour.stroke_width(width_px(width))));
    }

    fn dot(&mut self, center: (f64, f64), radius: f64, colour: RGBColor) {
        self.draw(&Circle::new(px(center), radius.round() as i32, colour.filled()));
    }

    fn ring(&mut self, center: (f64, f64), radius: f64, colour: RGBColor, width: f64) {
        self.draw(&Circle::new(px(center), radius.round() as i32, colour.stroke_width(width_px(width))));
    }
}
