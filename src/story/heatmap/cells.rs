//! The heatmap's cells: the window's scores, kept one per distance wherever n − m alone sets
//! them, and their drawing on the 256 × 256 cells canvas. With RoPE (and without position) a
//! step of base or d colours the 511 distances, not 65,536 cells, and each row of the canvas is
//! a run of those colours. And where the window sits: it follows (m, n) only when they near its
//! edge.

use crate::charts::heatmap_rgba;
use crate::dom::canvas::context_2d;
use crate::rope::MAX_POSITION;
use wasm_bindgen::Clamped;
use web_sys::HtmlCanvasElement;

/// The scores of a `size` × `size` window: rows are m, columns n.
#[derive(Debug, Clone, PartialEq)]
pub enum Scores {
    /// One per distance: cell (row, col) is value col − row + size − 1 (RoPE, no position).
    Diagonals(Vec<f64>),
    /// One per cell, row-major (sinusoids added: the cross terms depend on m and n).
    Cells(Vec<f64>),
}

impl Scores {
    /// The score of cell (row, col), if it is in the window.
    pub fn at(&self, row: i64, col: i64, size: usize) -> Option<f64> {
        let size = size as i64;
        if !(0..size).contains(&row) || !(0..size).contains(&col) {
            return None;
        }
        match self {
            Scores::Diagonals(d) => d.get((col - row + size - 1) as usize).copied(),
            Scores::Cells(c) => c.get((row * size + col) as usize).copied(),
        }
    }

    /// Every value the window holds (each distance appears in it at least once).
    pub fn values(&self) -> &[f64] {
        match self {
            Scores::Diagonals(v) | Scores::Cells(v) => v,
        }
    }

    /// One value per cell, row-major.
    pub fn grid(&self, size: usize) -> Vec<f64> {
        match self {
            Scores::Cells(c) => c.clone(),
            Scores::Diagonals(_) => (0..size * size).map(|i| self.at((i / size) as i64, (i % size) as i64, size).unwrap_or(0.0)).collect(),
        }
    }
}

/// Colours ready to draw: one RGBA pixel per cell, row-major.
pub struct Pixels {
    rgba: Vec<u8>,
}

/// The colours of `scores` on the diverging scale ±`limit`, one pixel per cell of the `size` ×
/// `size` window. Per distance, each row is a run of the distances' colours (row m holds
/// distances −m … size − 1 − m), so the window is `size` copies out of one coloured strip.
pub fn pixels(scores: &Scores, limit: f64, size: usize) -> Pixels {
    let rgba = heatmap_rgba(scores.values(), limit);
    match scores {
        Scores::Cells(_) => Pixels { rgba },
        Scores::Diagonals(_) => {
            let mut cells = Vec::with_capacity(size * size * 4);
            for row in 0..size {
                let first = (size - 1 - row) * 4;
                cells.extend_from_slice(rgba.get(first..first + size * 4).unwrap_or_default());
            }
            Pixels { rgba: cells }
        }
    }
}

/// Draws `pixels` on the `size` × `size` cells canvas `element`, one canvas pixel per cell: one
/// `putImageData`. (A strip of the distances drawn sheared along the diagonals wrote fewer
/// bytes, but rasterizing the sheared image cost the main thread about 0.5 ms a step.)
pub fn draw(element: &HtmlCanvasElement, pixels: Pixels, size: usize) {
    let Some(context) = context_2d(element) else { return };
    if pixels.rgba.len() != size * size * 4 {
        return;
    }
    if let Ok(image) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(Clamped(&pixels.rgba), size as u32, size as u32) {
        let _ = context.put_image_data(&image, 0.0, 0.0);
    }
}

/// Rows and columns of the window.
pub const WINDOW: usize = 256;

/// How close to the window's edge (m, n) may come before the window recentres on it.
pub const MARGIN: i64 = 32;

/// The first m and n of the window: kept while (m, n) stays at least `margin` cells inside it,
/// so that moving a slider moves only the marker, else centred on (m, n) where possible.
pub fn window_origin(previous: Option<(i64, i64)>, m: i64, n: i64, margin: i64) -> (i64, i64) {
    let size = WINDOW as i64;
    let start = |p: i64| (p - size / 2).clamp(0, MAX_POSITION + 1 - size);
    let keep = |origin: i64, p: i64| {
        let inside = p - origin;
        (inside >= margin || origin == 0) && (inside < size - margin || origin == MAX_POSITION + 1 - size) && (0..size).contains(&inside)
    };
    match previous {
        Some((m0, n0)) if keep(m0, m) && keep(n0, n) => (m0, n0),
        _ => (start(m), start(n)),
    }
}
