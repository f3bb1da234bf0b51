//! plotters' canvas backend, with text measured by the canvas itself.
//!
//! plotters measures text on the web by adding a `<span>` with a `style` attribute to the page
//! and reading its `offsetWidth` and `offsetHeight`. Under a strict Content-Security-Policy
//! (`style-src 'self'`) that attribute is blocked, so labels were measured in the wrong font
//! size and the console filled with violations; and each measurement forced a synchronous
//! layout of the whole page (the `offsetHeight` time in issue 9's profile). Here text is
//! measured with the 2D context's `measureText`: no DOM, no layout, no style attribute.
//!
//! It draws on any 2D context: a page's `<canvas>` (an exported picture), or the
//! OffscreenCanvas a chart is drawn on before it is shown ([`crate::dom::canvas`]). Its drawing is
//! plotters-canvas' own (`CanvasBackend`, MIT), which only accepts a `<canvas>` element.

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind, FontTransform};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// A plotters backend on a 2D context of `size` backing pixels, text measured by the context.
pub struct MeasuredCanvas {
    context: CanvasRenderingContext2d,
    size: (u32, u32),
}

/// A call on the context that threw (a chart that fails to draw keeps its last picture; no
/// one reads the reason).
#[derive(Debug)]
pub struct CanvasError;

impl std::fmt::Display for CanvasError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a canvas call failed")
    }
}

impl std::error::Error for CanvasError {}

type Error = CanvasError;

fn error_cast(_: JsValue) -> DrawingErrorKind<Error> {
    DrawingErrorKind::DrawingError(CanvasError)
}

fn colour(color: BackendColor) -> String {
    let (r, g, b) = color.rgb;
    format!("rgba({r},{g},{b},{})", crate::charts::format::fixed(color.alpha, 3))
}

impl MeasuredCanvas {
    /// On a `<canvas>` element, sized as it is.
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = canvas.get_context("2d").ok()??.dyn_into::<CanvasRenderingContext2d>().ok()?;
        Some(Self::on(context, (canvas.width(), canvas.height())))
    }

    /// On `context`, whose canvas is `size` backing pixels.
    pub fn on(context: CanvasRenderingContext2d, size: (u32, u32)) -> Self {
        Self { context, size }
    }

    fn set_line_style(&self, style: &impl BackendStyle) {
        self.context.set_stroke_style_str(&colour(style.color()));
        self.context.set_line_width(style.stroke_width() as f64);
    }

    /// Strokes (or fills) the path `points` traces.
    fn trace(&self, points: impl IntoIterator<Item = BackendCoord>, close: bool) {
        self.context.begin_path();
        let mut points = points.into_iter();
        if let Some(start) = points.next() {
            self.context.move_to(f64::from(start.0), f64::from(start.1));
            for next in points {
                self.context.line_to(f64::from(next.0), f64::from(next.1));
            }
            if close {
                self.context.close_path();
            }
        }
    }
}

/// A one-pixel horizontal or vertical line drawn sharp: on the pixel's centre, not its edge.
fn fine_hor_ver_lines(from: BackendCoord, end: BackendCoord) -> ((f64, f64), (f64, f64)) {
    let mut from = (from.0 as f64, from.1 as f64);
    let mut end = (end.0 as f64, end.1 as f64);
    if from.0 == end.0 {
        from.0 -= 0.5;
        end.0 -= 0.5;
    }
    if from.1 == end.1 {
        from.1 -= 0.5;
        end.1 -= 0.5;
    }
    (from, end)
}

impl DrawingBackend for MeasuredCanvas {
    type ErrorType = Error;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Error>> {
        Ok(())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Error>> {
        Ok(())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), DrawingErrorKind<Error>> {
        if color.alpha > 0.0 {
            self.context.set_fill_style_str(&colour(color));
            self.context.fill_rect(f64::from(point.0), f64::from(point.1), 1.0, 1.0);
        }
        Ok(())
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result<(), DrawingErrorKind<Error>> {
        if style.color().alpha > 0.0 {
            let (from, to) = fine_hor_ver_lines(from, to);
            self.set_line_style(style);
            self.context.begin_path();
            self.context.move_to(from.0, from.1);
            self.context.line_to(to.0, to.1);
            self.context.stroke();
        }
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Error>> {
        if style.color().alpha > 0.0 {
            let (x, y) = (f64::from(upper_left.0), f64::from(upper_left.1));
            let (w, h) = (f64::from(bottom_right.0 - upper_left.0), f64::from(bottom_right.1 - upper_left.1));
            if fill {
                self.context.set_fill_style_str(&colour(style.color()));
                self.context.fill_rect(x, y, w, h);
            } else {
                self.set_line_style(style);
                self.context.stroke_rect(x, y, w, h);
            }
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Error>> {
        if style.color().alpha > 0.0 {
            self.set_line_style(style);
            self.trace(path, false);
            self.context.stroke();
        }
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Error>> {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        if fill {
            self.context.set_fill_style_str(&colour(style.color()));
        } else {
            self.set_line_style(style);
        }
        self.context.begin_path();
        self.context.arc(f64::from(center.0), f64::from(center.1), f64::from(radius), 0.0, std::f64::consts::TAU).map_err(error_cast)?;
        if fill {
            self.context.fill();
        } else {
            self.context.stroke();
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Error>> {
        if style.color().alpha > 0.0 {
            self.context.set_fill_style_str(&colour(style.color()));
            self.trace(vert, true);
            self.context.fill();
        }
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, pos: BackendCoord) -> Result<(), DrawingErrorKind<Error>> {
        let text = &crate::i18n::say(text);
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let turn = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 0.25,
            FontTransform::Rotate180 => 0.5,
            FontTransform::Rotate270 => 0.75,
        } * std::f64::consts::TAU;
        let (mut x, mut y) = (f64::from(pos.0), f64::from(pos.1));
        if turn != 0.0 {
            self.context.save();
            self.context.translate(x, y).map_err(error_cast)?;
            self.context.rotate(turn).map_err(error_cast)?;
            (x, y) = (0.0, 0.0);
        }
        self.context.set_text_baseline(match style.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        });
        self.context.set_text_align(match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        });
        self.context.set_fill_style_str(&colour(color));
        self.context.set_font(&format!("{} {}px {}", style.style().as_str(), style.size(), style.family().as_str()));
        self.context.fill_text(text, x, y).map_err(error_cast)?;
        if turn != 0.0 {
            self.context.restore();
        }
        Ok(())
    }

    /// The width `measureText` gives in the font `draw_text` sets, and the font's line box
    /// (ascent + descent) as the height, as a span's offsetHeight would be.
    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> Result<(u32, u32), DrawingErrorKind<Error>> {
        let text = &crate::i18n::say(text);
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
}
