//! The heatmap's cells: the window's scores, kept one per distance wherever n − m alone sets
//! them, and their drawing on the 256 × 256 cells canvas. With RoPE (and without position) a
//! step of base or d colours the 511 distances and draws them as a strip sheared along the
//! diagonals, instead of colouring and uploading 65,536 cells.

use super::canvas::context_2d;
use leptos::prelude::document;
use crate::charts::heatmap_rgba;
use std::cell::RefCell;
use wasm_bindgen::{Clamped, JsCast};
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
            Scores::Diagonals(_) => {
                (0..size * size).map(|i| self.at((i / size) as i64, (i % size) as i64, size).unwrap_or(0.0)).collect()
            }
        }
    }
}

/// Colours ready to draw: one pixel per distance (a strip, with its end pixels repeated once
/// on either side) or per cell.
pub struct Pixels {
    rgba: Vec<u8>,
    strip: bool,
}

/// The colours of `scores` on the diverging scale ±`limit`.
pub fn pixels(scores: &Scores, limit: f64) -> Pixels {
    let rgba = heatmap_rgba(scores.values(), limit);
    match scores {
        Scores::Cells(_) => Pixels { rgba, strip: false },
        // Padded: sampling the strip's first pixel at its very edge came out blended with the
        // canvas' outside in Chromium (one corner cell a shade off).
        Scores::Diagonals(_) => {
            let (first, last) = (rgba.get(..4).unwrap_or(&[0; 4]).to_vec(), rgba.get(rgba.len().saturating_sub(4)..).unwrap_or(&[0; 4]).to_vec());
            Pixels { rgba: [first, rgba, last].concat(), strip: true }
        }
    }
}

thread_local! {
    /// The strip's own canvas, (2·size + 1) × 1, made once.
    static STRIP: RefCell<Option<HtmlCanvasElement>> = const { RefCell::new(None) };
}

/// Draws `pixels` on the `size` × `size` cells canvas `element`, one canvas pixel per cell.
pub fn draw(element: &HtmlCanvasElement, pixels: Pixels, size: usize) {
    let Some(context) = context_2d(element) else { return };
    let width = if pixels.strip { 2 * size + 1 } else { size };
    let height = if pixels.strip { 1 } else { size };
    if pixels.rgba.len() != width * height * 4 {
        return;
    }
    let Ok(image) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(Clamped(&pixels.rgba), width as u32, height as u32) else {
        return;
    };
    if !pixels.strip {
        let _ = context.put_image_data(&image, 0.0, 0.0);
        return;
    }
    STRIP.with_borrow_mut(|strip| {
        if strip.is_none() {
            *strip = document().create_element("canvas").ok().and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok());
        }
        let Some(strip) = strip.as_ref() else { return };
        if strip.width() != width as u32 || strip.height() != 1 {
            strip.set_width(width as u32);
            strip.set_height(1);
        }
        let Some(strip_context) = context_2d(strip) else { return };
        let _ = strip_context.put_image_data(&image, 0.0, 0.0);
        // Stretched to size rows and sheared by one pixel per row: x' = x + y − size − ½, so the
        // centre of cell (row, col) samples strip pixel col − row + size (distance col − row +
        // size − 1 after the padding pixel; nearest, exactly at its centre).
        context.set_image_smoothing_enabled(false);
        let _ = context.set_transform(1.0, 0.0, 1.0, 1.0, -(size as f64) - 0.5, 0.0);
        let (w, s) = (width as f64, size as f64);
        let _ = context.draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(strip, 0.0, 0.0, w, 1.0, 0.0, 0.0, w, s);
        let _ = context.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
    });
}
