//! plotters' canvas backend, with text measured by the canvas itself.
//!
//! plotters measures text on the web by adding a `<span>` with a `style` attribute to the page
//! and reading its `offsetWidth` and `offsetHeight`. Under a strict Content-Security-Policy
//! (`style-src 'self'`) that attribute is blocked, so labels were measured in the wrong font
//! size and the console filled with violations; and each measurement forced a synchronous
//! layout of the whole page (the `offsetHeight` time in issue 9's profile). Here text is
//! measured with the 2D context's `measureText`: no DOM, no layout, no style attribute.

use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// A [`CanvasBackend`] whose text sizes come from the canvas' own `measureText`.
pub struct MeasuredCanvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
}

impl MeasuredCanvas {
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = canvas.get_context("2d").ok()??.dyn_into::<CanvasRenderingContext2d>().ok()?;
        Some(Self { inner: CanvasBackend::with_canvas_object(canvas)?, context })
    }
}

type Error = <CanvasBackend as DrawingBackend>::ErrorType;

impl DrawingBackend for MeasuredCanvas {
    type ErrorType = Error;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, path: I, style: &S) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, vert: I, style: &S) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, pos: BackendCoord) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_text(text, style, pos)
    }

    /// The width `measureText` gives in the font `draw_text` sets, and the font's line box
    /// (ascent + descent) as the height, as a span's offsetHeight would be.
    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> Result<(u32, u32), DrawingErrorKind<Error>> {
        self.context.set_font(&format!("{} {}px {}", style.style().as_str(), style.size(), style.family().as_str()));
        let size = style.size().max(0.0);
        match self.context.measure_text(text) {
            Ok(metrics) => {
                let height = metrics.font_bounding_box_ascent() + metrics.font_bounding_box_descent();
                let height = if height.is_finite() && height > 0.0 { height } else { size * 1.15 };
                Ok((metrics.width().max(0.0).ceil() as u32, height.ceil() as u32))
            }
            // A rough size rather than no label: half an em per character, one line high.
            Err(_) => Ok(((text.chars().count() as f64 * size * 0.55).ceil() as u32, (size * 1.15).ceil() as u32)),
        }
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.blit_bitmap(pos, size, src)
    }
}
