//! The score over a window of positions m (rows) and n (columns), as pixels in a diverging,
//! colour-blind-safe scale (purple for negative, white for zero, green for positive: PRGn from
//! ColorBrewer), with axes and a legend. Rotated scores are constant along diagonals: the
//! Toeplitz stripes that say "depends only on n − m".

use super::format::short_number;
use super::ChartStyle;
use plotters::coord::Shift;
use plotters::prelude::*;

/// ColorBrewer PRGn, 9 classes: purple (−1) to white (0) to green (+1).
const PRGN: [(u8, u8, u8); 9] = [
    (64, 0, 75),
    (118, 42, 131),
    (153, 112, 171),
    (194, 165, 207),
    (247, 247, 247),
    (166, 219, 160),
    (90, 174, 97),
    (27, 120, 55),
    (0, 68, 27),
];

/// The colour of `t` in [−1, 1] (clamped; NaN is white), interpolated between PRGn's classes.
pub fn diverging(t: f64) -> (u8, u8, u8) {
    let t = if t.is_finite() { t.clamp(-1.0, 1.0) } else { 0.0 };
    let x = (t + 1.0) / 2.0 * (PRGN.len() - 1) as f64;
    let i = (x.floor() as usize).min(PRGN.len() - 2);
    let f = x - i as f64;
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * f).round() as u8;
    let (a, b) = (PRGN[i], PRGN[i + 1]);
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Steps of the colour table [`heatmap_rgba`] reads: odd, so that 0 has an entry of its own;
/// fine enough that a table colour is within 1 of [`diverging`]'s in every channel.
const TABLE_STEPS: usize = 4097;

/// [`diverging`] at `TABLE_STEPS` evenly spaced points of [−1, 1], as RGBA, built once.
fn colour_table() -> &'static [[u8; 4]] {
    static TABLE: std::sync::OnceLock<Vec<[u8; 4]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        (0..TABLE_STEPS)
            .map(|i| {
                let (r, g, b) = diverging(2.0 * i as f64 / (TABLE_STEPS - 1) as f64 - 1.0);
                [r, g, b, 255]
            })
            .collect()
    })
}

/// RGBA pixels for `values` (row-major), scaled so that ±`limit` are the ends of the scale: a
/// table look-up per pixel (a 256 × 256 window is 65,536 of them on every base step).
pub fn heatmap_rgba(values: &[f64], limit: f64) -> Vec<u8> {
    let limit = if limit.is_finite() && limit > 0.0 { limit } else { 1.0 };
    let table = colour_table();
    let last = (TABLE_STEPS - 1) as f64;
    let mut pixels = vec![0; values.len() * 4];
    for (pixel, v) in pixels.chunks_exact_mut(4).zip(values) {
        let t = v / limit;
        let t = if t.is_finite() { t.clamp(-1.0, 1.0) } else { 0.0 };
        // In [0, last] after the clamp; + 0.5 and truncation round to the nearest entry.
        pixel.copy_from_slice(&table[((t + 1.0) / 2.0 * last + 0.5) as usize]);
    }
    pixels
}

/// The E24 series of preferred numbers: each about 10% above the one before, each written with
/// two digits.
const E24: [f64; 24] =
    [1.0, 1.1, 1.2, 1.3, 1.5, 1.6, 1.8, 2.0, 2.2, 2.4, 2.7, 3.0, 3.3, 3.6, 3.9, 4.3, 4.7, 5.1, 5.6, 6.2, 6.8, 7.5, 8.2, 9.1];

/// The symmetric limit of the colour scale: the largest |value| rounded up to the E24 series
/// (1 if there is none). A limit that follows the largest value exactly would change on every
/// step of base, and with it every colour's meaning and the labels beside the colour bar; this
/// one holds for about 10% of change in the largest score, so that while a slider moves within
/// it, the colours show the scores growing and shrinking, and the labels read as two digits
/// (4.7, not 4.6318). It is 0 to 16% above the largest value.
pub fn heatmap_limit(values: &[f64]) -> f64 {
    let largest = values.iter().filter(|v| v.is_finite()).fold(0.0_f64, |m, v| m.max(v.abs()));
    if !(largest > 0.0 && largest < f64::MAX / 10.0) {
        return if largest > 0.0 { largest } else { 1.0 };
    }
    let power = 10f64.powi(largest.log10().floor() as i32);
    // The first E24 number at or above the largest value, allowing for rounding in `power`.
    let snapped = E24.iter().chain([&10.0]).map(|e| e * power).find(|limit| *limit >= largest * (1.0 - 1e-12));
    snapped.unwrap_or(largest).max(largest)
}

/// Where the cells go, in CSS pixels: a square plot with room for axes left and below and
/// the legend on the right.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeatmapLayout {
    pub left: f64,
    pub top: f64,
    pub side: f64,
    /// How much larger than ordinary the labels are (presenter mode): the margins grow with it.
    pub magnify: f64,
}

// Room for exact positions up to 10,000,000 at the left, and for the m axis' title above.
const LEFT: f64 = 64.0;
const TOP: f64 = 26.0;
const BOTTOM: f64 = 44.0;
const LEGEND: f64 = 84.0;

/// Lays out the plot in a canvas of `width` CSS pixels: as large a square as fits.
pub fn heatmap_layout(width: f64) -> HeatmapLayout {
    heatmap_layout_magnified(width, 1.0)
}

/// [`heatmap_layout`] with margins for labels `magnify` times as large (presenter mode, where
/// the chart's style is [`ChartStyle::magnified`] by the same factor).
pub fn heatmap_layout_magnified(width: f64, magnify: f64) -> HeatmapLayout {
    let width = if width.is_finite() { width } else { 0.0 };
    let magnify = if magnify.is_finite() { magnify.clamp(1.0, 3.0) } else { 1.0 };
    let side = (width - (LEFT + LEGEND) * magnify).clamp(32.0, 560.0);
    HeatmapLayout { left: LEFT * magnify, top: TOP * magnify, side, magnify }
}

impl HeatmapLayout {
    /// The CSS height the canvas needs.
    pub fn height(&self) -> f64 {
        self.top + self.side + BOTTOM * self.magnify
    }

    /// Where the legend's labels start, in CSS pixels: right of the colour bar.
    pub fn legend_label_x(&self) -> f64 {
        self.left + self.side + 34.0 * self.magnify
    }

    /// The height of the legend's label for `t` (+1 at the top of the bar, −1 at its foot).
    pub fn legend_label_y(&self, t: f64) -> f64 {
        self.top + self.side * (1.0 - t) / 2.0
    }

    /// The (row, column) of the cell under (x, y), for a window of `size` cells.
    pub fn cell_at(&self, x: f64, y: f64, size: usize) -> Option<(usize, usize)> {
        let (u, v) = ((x - self.left) / self.side, (y - self.top) / self.side);
        if !(0.0..1.0).contains(&u) || !(0.0..1.0).contains(&v) {
            return None;
        }
        Some(((v * size as f64) as usize, (u * size as f64) as usize))
    }
}

/// What the heatmap frame shows around the cells.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatmapFrame {
    /// First m (top row) and first n (left column).
    pub origin: (i64, i64),
    pub size: usize,
    /// The colour scale's limit, written beside the legend bar; `None` leaves the labels to the
    /// page (text over the canvas, so that a new limit does not repaint the frame).
    pub limit: Option<f64>,
}

/// Draws axes (n across, m down) and the legend bar, leaving the plot
/// square (see [`heatmap_layout`]) for the cells, which the page copies in as pixels.
pub fn draw_heatmap_frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    frame: &HeatmapFrame,
    layout: &HeatmapLayout,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&style.background)?;
    // Positions at the pixel ratio; type and strokes at the style's scale (with presenter mode's).
    let s = style.ratio();
    let px = |v: f64| (v * s).round() as i32;
    let font = |size: f64| style.font(size);
    let (left, top, side) = (layout.left, layout.top, layout.side);
    // Offsets from the plot grow with the labels (presenter mode); positions stay in CSS pixels.
    let grow = layout.magnify;
    let size = frame.size.max(1) as f64;
    let stroke = style.text.mix(0.6).stroke_width((style.scale.round() as u32).max(1));
    area.draw(&Rectangle::new([(px(left - 1.0), px(top - 1.0)), (px(left + side + 1.0), px(top + side + 1.0))], stroke))?;

    // Five ticks along each axis.
    for t in 0..=4 {
        let f = t as f64 / 4.0;
        // Round cells (0, 64, 128, 192) and the last one (255): ticks read as the window's quarters.
        let offset = (f * size).round().min(size - 1.0);
        let along = left + (offset + 0.5) / size * side;
        let down = top + (offset + 0.5) / size * side;
        area.draw(&PathElement::new(vec![(px(along), px(top + side)), (px(along), px(top + side + 5.0 * grow))], stroke))?;
        area.draw(&Text::new(
            // Positions are integers: exact, never rounded to 1.00e7.
            (frame.origin.1 + offset as i64).to_string(),
            (px(along), px(top + side + 8.0 * grow)),
            font(11.0).pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Top,
            )),
        ))?;
        area.draw(&PathElement::new(vec![(px(left - 5.0 * grow), px(down)), (px(left), px(down))], stroke))?;
        area.draw(&Text::new(
            (frame.origin.0 + offset as i64).to_string(),
            (px(left - 8.0 * grow), px(down)),
            font(11.0).pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Right,
                plotters::style::text_anchor::VPos::Center,
            )),
        ))?;
    }
    area.draw(&Text::new("key position n →", (px(left + side / 2.0 - 50.0 * grow), px(top + side + 26.0 * grow)), font(12.0)))?;
    // Above the first row's label, where no tick label goes.
    area.draw(&Text::new("query position m ↓", (px(4.0 * grow), px(top - 22.0 * grow)), font(12.0)))?;

    // The legend: the colour scale from +limit (top) to −limit (bottom).
    let bar_left = left + side + 16.0 * grow;
    let steps = 64;
    for i in 0..steps {
        let t = 1.0 - 2.0 * (i as f64 + 0.5) / steps as f64;
        let (r, g, b) = diverging(t);
        let y0 = top + side * i as f64 / steps as f64;
        let y1 = top + side * (i + 1) as f64 / steps as f64;
        area.draw(&Rectangle::new([(px(bar_left), px(y0)), (px(bar_left + 14.0 * grow), px(y1) + 1)], RGBColor(r, g, b).filled()))?;
    }
    for (t, label) in frame.limit.map(|limit| [(1.0, limit), (0.0, 0.0), (-1.0, -limit)]).into_iter().flatten() {
        area.draw(&Text::new(
            short_number(label),
            (px(layout.legend_label_x()), px(layout.legend_label_y(t))),
            font(11.0).pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Left,
                plotters::style::text_anchor::VPos::Center,
            )),
        ))?;
    }
    area.present()
}
