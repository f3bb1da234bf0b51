//! One clock face per rotation plane (small multiples), and the strip of each plane's share
//! of the score. Layout is in CSS pixels, so that the page can hit-test a click; drawing
//! multiplies by the style's scale (the device pixel ratio).

use super::format::short_number;
use super::painter::{Painter, PlottersPainter};
use super::ChartStyle;
use crate::rope::PlaneHands;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// What one face shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClockFace {
    pub plane: usize,
    pub hands: PlaneHands,
    /// Tokens per turn; `None` for a plane that does not rotate.
    pub wavelength: Option<f64>,
}

/// Where the faces go, in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClockGrid {
    pub faces: usize,
    pub columns: usize,
    pub rows: usize,
    /// Width of a cell; its height adds room for the label.
    pub cell: f64,
    /// Whether each face carries its plane number and wavelength (up to 64 faces).
    pub labels: bool,
    /// Room under each face for its two label lines.
    pub label_height: f64,
}

/// Faces above this count become unlabelled small multiples.
const LABELLED_FACES: usize = 64;
/// Two lines of 12 px type under each face (11 px read as 10 in a blog's 720 px column).
const LABEL_HEIGHT: f64 = 33.0;

/// Lays out `faces` faces across `width` CSS pixels: as many columns as fit at a legible
/// size, cells no larger than needed.
pub fn clock_grid(width: f64, faces: usize) -> ClockGrid {
    clock_grid_magnified(width, faces, 1.0)
}

/// [`clock_grid`] with faces and labels `magnify` times as large (presenter mode).
pub fn clock_grid_magnified(width: f64, faces: usize, magnify: f64) -> ClockGrid {
    let magnify = if magnify.is_finite() { magnify.clamp(1.0, 3.0) } else { 1.0 };
    let faces = faces.max(1);
    let labels = faces <= LABELLED_FACES;
    let min_cell = if labels { 78.0 } else { 34.0 } * magnify;
    let width = if width.is_finite() && width > 0.0 { width } else { min_cell };
    let columns = ((width / min_cell).floor() as usize).clamp(1, faces);
    let cell = (width / columns as f64).min(if labels { 132.0 } else { 64.0 } * magnify);
    ClockGrid { faces, columns, rows: faces.div_ceil(columns), cell, labels, label_height: LABEL_HEIGHT * magnify }
}

impl ClockGrid {
    fn cell_height(&self) -> f64 {
        self.cell + if self.labels { self.label_height } else { 0.0 }
    }

    /// The faces of row `row` as indices into the whole grid.
    pub fn row_range(&self, row: usize) -> std::ops::Range<usize> {
        let start = (row * self.columns).min(self.faces);
        start..(start + self.columns).min(self.faces)
    }

    /// Row `row` alone, as a grid of its own: what one canvas of a row draws.
    pub fn row(&self, row: usize) -> ClockGrid {
        ClockGrid { faces: self.row_range(row).len(), rows: 1, ..*self }
    }

    /// Total height in CSS pixels.
    pub fn height(&self) -> f64 {
        self.rows as f64 * self.cell_height()
    }

    /// Centre of face `index` in CSS pixels.
    pub fn center(&self, index: usize) -> (f64, f64) {
        let (row, column) = (index / self.columns, index % self.columns);
        ((column as f64 + 0.5) * self.cell, row as f64 * self.cell_height() + self.cell / 2.0)
    }

    /// Radius of a face in CSS pixels.
    pub fn radius(&self) -> f64 {
        self.cell * 0.42
    }

    /// The face under the point (x, y) in CSS pixels, if any.
    pub fn face_at(&self, x: f64, y: f64) -> Option<usize> {
        if !(x.is_finite() && y.is_finite()) || x < 0.0 || y < 0.0 {
            return None;
        }
        let column = (x / self.cell).floor() as usize;
        let row = (y / self.cell_height()).floor() as usize;
        let index = row * self.columns + column;
        (column < self.columns && index < self.faces).then_some(index)
    }
}

/// The tip of a hand of `length` (0..=1 of the radius) at `angle`, counter-clockwise from
/// 3 o'clock as in the complex plane (screen y grows downwards).
fn tip(center: (f64, f64), radius: f64, angle: f64, length: f64) -> (f64, f64) {
    (center.0 + radius * length * angle.cos(), center.1 - radius * length * angle.sin())
}

fn px(point: (f64, f64), scale: f64) -> (i32, i32) {
    ((point.0 * scale).round() as i32, (point.1 * scale).round() as i32)
}

/// Draws the faces without their hands, the part that does not move with m and n: the dial,
/// the selected plane's ring, the centre, and the plane number and wavelength. Drawn again only
/// when the planes, the selection, the theme or the size change.
pub fn draw_clock_faces<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    faces: &[ClockFace],
    grid: &ClockGrid,
    selected: Option<usize>,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&style.background)?;
    // Positions at the pixel ratio g; strokes and type also magnified (presenter mode).
    let (s, g, magnify) = (style.scale, style.ratio(), style.magnify);
    let stroke = |w: f64| ((w * s).round() as u32).max(1);
    let label_font = style.font(12.0);
    let centered = Pos::new(HPos::Center, VPos::Top);
    let radius = grid.radius();
    for (index, face) in faces.iter().enumerate().take(grid.faces) {
        let center = grid.center(index);
        let c = px(center, g);
        let r = (radius * g).round() as i32;
        area.draw(&Circle::new(c, r, style.grid.stroke_width(stroke(1.5))))?;
        if selected == Some(face.plane) {
            area.draw(&Circle::new(c, r + stroke(3.0) as i32, style.cursor.stroke_width(stroke(2.0))))?;
        }
        if grid.labels {
            // Two short lines that fit the narrowest cell: the plane, then its wavelength.
            let wavelength = face.wavelength.map_or_else(|| "no turn".to_string(), |w| format!("λ {}", short_number(w)));
            let at = px((center.0, center.1 + radius + 4.0 * magnify), g);
            area.draw(&Text::new(format!("i = {}", face.plane), at, label_font.clone().pos(centered)))?;
            let at = px((center.0, center.1 + radius + 18.0 * magnify), g);
            area.draw(&Text::new(wavelength, at, label_font.clone().pos(centered)))?;
        }
    }
    area.present()
}

/// Draws the hands, on a transparent layer over [`draw_clock_faces`]: q's hand (filled dot) and
/// k's hand (hollow ring) turned to m and n, and an arc for the angle between them. Hand lengths
/// are relative to `longest` (the longest pair of q or k), so planes compare at a glance.
pub fn draw_clock_hands<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    faces: &[ClockFace],
    grid: &ClockGrid,
    longest: f64,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let mut painter = PlottersPainter::new(area);
    paint_clock_hands(&mut painter, faces, grid, longest, style);
    match painter.error {
        Some(e) => Err(e),
        None => area.present(),
    }
}

/// [`draw_clock_hands`] on any [`Painter`]: the browser batches these shapes per colour.
pub fn paint_clock_hands(painter: &mut impl Painter, faces: &[ClockFace], grid: &ClockGrid, longest: f64, style: &ChartStyle) {
    let (s, g) = (style.scale, style.ratio());
    let longest = if longest.is_finite() && longest > 0.0 { longest } else { 1.0 };
    let radius = grid.radius();
    let scaled = |p: (f64, f64)| (p.0 * g, p.1 * g);
    let w = |width: f64| (width * s).round().max(1.0);
    for (index, face) in faces.iter().enumerate().take(grid.faces) {
        let center = grid.center(index);
        let c = scaled(center);
        let hands = &face.hands;
        let q_len = (hands.q_length / longest).clamp(0.0, 1.0);
        let k_len = (hands.k_length / longest).clamp(0.0, 1.0);
        if grid.labels && q_len > 0.0 && k_len > 0.0 {
            // The angle from q's hand to k's hand, as an arc near the centre.
            let steps = 12;
            let arc: Vec<(f64, f64)> = (0..=steps)
                .map(|t| hands.q_angle + hands.between * t as f64 / steps as f64)
                .map(|angle| scaled(tip(center, radius, angle, 0.32)))
                .collect();
            painter.polyline(&arc, style.phasor, w(1.5));
        }
        let q_tip = scaled(tip(center, radius, hands.q_angle, q_len));
        let k_tip = scaled(tip(center, radius, hands.k_angle, k_len));
        painter.line(c, k_tip, style.k, w(2.5));
        painter.line(c, q_tip, style.q, w(2.5));
        painter.ring(k_tip, (3.5 * s).round().max(1.0), style.k, w(2.0));
        painter.dot(q_tip, (3.0 * s).round().max(1.0), style.q);
    }
}

/// Draws each plane's share of the score as a bar up (positive) or down (negative) from a
/// zero line, the selected plane's bar outlined.
pub fn draw_contributions<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    contributions: &[f64],
    selected: Option<usize>,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&style.background)?;
    let (width, height) = area.dim_in_pixel();
    let (width, height) = (width as f64, height as f64);
    let n = contributions.len().max(1) as f64;
    let largest = contributions.iter().filter(|c| c.is_finite()).fold(0.0_f64, |m, c| m.max(c.abs()));
    let largest = if largest > 0.0 { largest } else { 1.0 };
    // An axis on the left (the largest share up and down, and 0) and the first and last plane
    // named below: the bars are read as values, not only as shapes.
    let s = style.scale;
    let (left, top, bottom) = ((40.0 * s).min(width / 3.0), 6.0 * s, height - 16.0 * s);
    let zero = (top + bottom) / 2.0;
    let reach = (bottom - top) / 2.0;
    let bar = (width - left) / n;
    let gap = if bar > 4.0 * s { s } else { 0.0 };
    for (i, value) in contributions.iter().enumerate() {
        let value = if value.is_finite() { *value } else { 0.0 };
        let x0 = left + i as f64 * bar + gap / 2.0;
        let x1 = left + (i + 1) as f64 * bar - gap / 2.0;
        let y = zero - value / largest * reach;
        let (y0, y1) = if y < zero { (y, zero) } else { (zero, y) };
        let colour: RGBAColor = if selected == Some(i) { style.cursor.to_rgba() } else { style.text.mix(0.55) };
        let rect = [(x0.round() as i32, y0.round() as i32), (x1.round().max(x0.round() + 1.0) as i32, y1.round() as i32)];
        area.draw(&Rectangle::new(rect, colour.filled()))?;
    }
    let line = |y: f64| {
        PathElement::new(
            vec![(left.round() as i32, y.round() as i32), (width.round() as i32, y.round() as i32)],
            style.grid.stroke_width((s.round() as u32).max(1)),
        )
    };
    area.draw(&line(zero))?;
    area.draw(&line(top))?;
    area.draw(&line(bottom))?;
    let font = style.font(11.0);
    let tick = |text: String, y: f64| {
        Text::new(text, ((left - 4.0 * s).round() as i32, y.round() as i32), font.clone().pos(Pos::new(HPos::Right, VPos::Center)))
    };
    area.draw(&tick(format!("+{}", short_number(largest)), top))?;
    area.draw(&tick("0".to_string(), zero))?;
    area.draw(&tick(format!("−{}", short_number(largest)), bottom))?;
    let below = (bottom + 3.0 * s).round() as i32;
    area.draw(&Text::new("plane 0", (left.round() as i32, below), font.clone().pos(Pos::new(HPos::Left, VPos::Top))))?;
    if contributions.len() > 1 {
        let last = format!("plane {}", contributions.len() - 1);
        area.draw(&Text::new(last, (width.round() as i32, below), font.pos(Pos::new(HPos::Right, VPos::Top))))?;
    }
    area.present()
}
