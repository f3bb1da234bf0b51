//! Drawing on a `<canvas>`: sharp on HiDPI screens, redrawn at most once per animation frame
//! however many signals change in between, and again when the canvas resizes. Charts draw
//! through plotters ([`MeasuredCanvas`]); scenes of many small shapes through [`CanvasPainter`]
//! inside [`use_canvas_frames`].
//!
//! A chart is drawn on an OffscreenCanvas and handed to its `<canvas>` as a bitmap (a
//! `bitmaprenderer` context), where browsers have them. Chromium compositing in software (no
//! GPU, as on the test machine) copies every 2D canvas on screen into the compositor on every
//! frame, changed or not: about 0.25 ms a frame for a 700 × 620 chart, four times that at a
//! device pixel ratio of 2, on every step of any slider while the chart is in view. A bitmap
//! handed over is not copied again.

use crate::charts::painter::Painter;
use crate::dom::backend::MeasuredCanvas;
use crate::dom::size::{use_element_size, use_in_view};
use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageBitmapRenderingContext, OffscreenCanvas};

/// A canvas' size when it is drawn: CSS pixels (for layout and hit tests) and the device
/// pixel ratio that turns them into backing pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CanvasSize {
    pub width: f64,
    pub height: f64,
    pub ratio: f64,
}

/// Redraws `canvas` with plotters whenever the signals read by `data` change; its height comes
/// from CSS. Returns the canvas' CSS size as its ResizeObserver reports it.
pub fn use_canvas_chart<D, F, G>(canvas: NodeRef<Canvas>, data: F, draw: G) -> ReadSignal<(f64, f64)>
where
    D: 'static,
    F: Fn() -> D + 'static,
    G: Fn(&DrawingArea<MeasuredCanvas, Shift>, &D, f64) + 'static,
{
    use_sized_canvas_chart(canvas, data, |_, _| None, draw)
}

/// [`use_canvas_chart`] for a chart whose height follows from its width and data (a grid of
/// clock faces): `height(css_width, data)` returns the CSS height to give the canvas, if any.
pub fn use_sized_canvas_chart<D, F, H, G>(canvas: NodeRef<Canvas>, data: F, height: H, draw: G) -> ReadSignal<(f64, f64)>
where
    D: 'static,
    F: Fn() -> D + 'static,
    H: Fn(f64, &D) -> Option<f64> + 'static,
    G: Fn(&DrawingArea<MeasuredCanvas, Shift>, &D, f64) + 'static,
{
    use_canvas_frames(canvas, data, height, move |surface, d, size| {
        draw(&surface.backend().into_drawing_area(), d, size.ratio);
    })
}

/// The scheduling shared by every canvas: `data` runs in a reactive effect (its reads are
/// tracked); at the next animation frame the canvas is sized to its CSS size times the device
/// pixel ratio (only when that changes, since sizing clears it), cleared, and `render` draws
/// the latest data. `height(css_width, data)` may set the CSS height first. The CSS size comes
/// from a ResizeObserver (returned), so no frame reads layout; nothing runs while the canvas is
/// out of view.
pub fn use_canvas_frames<D, F, H, R>(canvas: NodeRef<Canvas>, data: F, height: H, render: R) -> ReadSignal<(f64, f64)>
where
    D: 'static,
    F: Fn() -> D + 'static,
    H: Fn(f64, &D) -> Option<f64> + 'static,
    R: Fn(&Surface, &D, CanvasSize) + 'static,
{
    // Only this thin layer is generic; the scheduling below is compiled once for every canvas
    // rather than once per chart (a smaller download).
    let (height, render) = (Rc::new(height), Rc::new(render));
    canvas_frames(
        canvas,
        Box::new(move || {
            let data = Rc::new(data());
            let (height, render, for_height) = (height.clone(), render.clone(), data.clone());
            Frame {
                height: Box::new(move |width| height(width, &for_height)),
                render: Box::new(move |surface, size| render(surface, &data, size)),
            }
        }),
    )
}

/// Draws a frame on a surface of the given size.
type Render = Box<dyn Fn(&Surface, CanvasSize)>;

/// One frame's data, ready to size and draw the canvas with.
struct Frame {
    height: Box<dyn Fn(f64) -> Option<f64>>,
    render: Render,
}

/// What a frame is drawn on: a clear 2D context of `size` backing pixels.
pub struct Surface {
    context: CanvasRenderingContext2d,
    size: (u32, u32),
}

impl Surface {
    /// A plotters backend on it.
    pub fn backend(&self) -> MeasuredCanvas {
        MeasuredCanvas::on(self.context.clone(), self.size)
    }
}

/// Where a chart is drawn, and how what was drawn reaches its `<canvas>`.
enum Presenter {
    /// On an OffscreenCanvas, handed over as a bitmap.
    Offscreen { canvas: OffscreenCanvas, context: CanvasRenderingContext2d, shown: ImageBitmapRenderingContext },
    /// On the `<canvas>` itself, where the browser has no OffscreenCanvas with a 2D context.
    Direct(CanvasRenderingContext2d),
}

impl Presenter {
    fn for_canvas(element: &HtmlCanvasElement) -> Option<Self> {
        let offscreen = || {
            let canvas = OffscreenCanvas::new(1, 1).ok()?;
            // Its 2D context has the methods of a `<canvas>`'s, which web-sys calls by name.
            let context = canvas.get_context("2d").ok()??.unchecked_into::<CanvasRenderingContext2d>();
            let shown = element.get_context("bitmaprenderer").ok()??.unchecked_into::<ImageBitmapRenderingContext>();
            Some(Presenter::Offscreen { canvas, context, shown })
        };
        offscreen().or_else(|| context_2d(element).map(Presenter::Direct))
    }

    /// A clear surface of `width` × `height` backing pixels for the next frame.
    fn surface(&self, width: u32, height: u32) -> Surface {
        let context = match self {
            // Blank already: handing the bitmap over leaves the OffscreenCanvas empty, and so
            // does resizing it.
            Presenter::Offscreen { canvas, context, .. } => {
                if canvas.width() != width {
                    canvas.set_width(width);
                }
                if canvas.height() != height {
                    canvas.set_height(height);
                }
                context
            }
            // Cleared, so that a drawing can be a transparent layer over another.
            Presenter::Direct(context) => {
                context.clear_rect(0.0, 0.0, width as f64, height as f64);
                context
            }
        };
        Surface { context: context.clone(), size: (width, height) }
    }

    /// Shows what was drawn since [`Presenter::surface`].
    fn show(&self) {
        if let Presenter::Offscreen { canvas, context, shown } = self {
            match canvas.transfer_to_image_bitmap() {
                Ok(bitmap) => shown.transfer_from_image_bitmap(&bitmap),
                // Nothing handed over: leave the OffscreenCanvas blank for the next frame.
                Err(_) => context.clear_rect(0.0, 0.0, canvas.width() as f64, canvas.height() as f64),
            }
        }
    }
}

fn canvas_frames(canvas: NodeRef<Canvas>, prepare: Box<dyn Fn() -> Frame>) -> ReadSignal<(f64, f64)> {
    let latest = StoredValue::new_local(None::<Frame>);
    let prepare = StoredValue::new_local(prepare);
    let frame_pending = StoredValue::new(false);
    // The canvas drawn on last and how (made once: a canvas keeps the first kind of context).
    let presenter = StoredValue::new_local(None::<(HtmlCanvasElement, Rc<Presenter>)>);
    let css_size = use_element_size(canvas);
    // Out of view (beyond a margin of 5% of a screen), a chart neither computes nor draws: the
    // effect returns before `data` runs, so it does not even subscribe to what the chart shows,
    // and coming back into view runs it again with the latest state.
    let in_view = use_in_view(canvas);

    let printing = crate::dom::size::printing();
    let words = crate::dom::size::words();
    Effect::new(move |_| {
        css_size.track();
        words.track();
        if !in_view.get() {
            return;
        }
        latest.set_value(Some(prepare.with_value(|prepare| prepare())));
        // On paper, at once (the print will not wait for a frame), at the size the canvas has
        // then: a chart never scrolled to, or in a folded list, had drawn nothing and printed blank.
        if printing.get() {
            if let Some(element) = canvas.get() {
                let rect = element.get_bounding_client_rect();
                draw(&element, (rect.width(), rect.height()), latest, presenter, true);
            }
            return;
        }
        // Reading the node ref also re-runs this effect once the canvas is mounted.
        if canvas.get().is_none() || frame_pending.get_value() {
            return;
        }
        frame_pending.set_value(true);
        request_animation_frame(move || {
            if frame_pending.try_set_value(false).is_some() {
                return; // the component is gone
            }
            let (Some(element), Some(size)) = (canvas.get_untracked(), css_size.try_get_untracked()) else {
                return;
            };
            draw(&element, size, latest, presenter, false);
        });
    });

    css_size
}

/// Sizes the canvas for `latest` at its CSS size (`css_width`, `css_height`) and draws it; a
/// chart whose height follows from its width is given that height first, and drawn once the
/// observer reports it (or at once, `now`, for paper, which will not wait).
fn draw(
    element: &HtmlCanvasElement,
    (css_width, mut css_height): (f64, f64),
    latest: StoredValue<Option<Frame>, LocalStorage>,
    presenter: StoredValue<Option<(HtmlCanvasElement, Rc<Presenter>)>, LocalStorage>,
    now: bool,
) {
    let ratio = window().device_pixel_ratio();
    let ratio = if ratio.is_finite() && ratio > 0.0 { ratio } else { 1.0 };
    let wanted = latest.with_value(|frame| frame.as_ref().and_then(|frame| (frame.height)(css_width)));
    if let Some(wanted) = wanted.filter(|h| h.is_finite() && *h > 0.0) {
        if (css_height - wanted.ceil()).abs() >= 1.0 {
            // The observer reports the new height and this runs again with it.
            let _ = web_sys::HtmlElement::style(element).set_property("height", &format!("{}px", wanted.ceil() as i64));
            if !now {
                return;
            }
            css_height = wanted.ceil();
        }
    }
    if css_width <= 0.0 || css_height <= 0.0 {
        return;
    }
    let width = (css_width * ratio).round() as u32;
    let height = (css_height * ratio).round() as u32;
    if element.width() != width {
        element.set_width(width);
    }
    if element.height() != height {
        element.set_height(height);
    }
    if !presenter.with_value(|p| p.as_ref().is_some_and(|(drawn_on, _)| drawn_on == element)) {
        presenter.set_value(Presenter::for_canvas(element).map(|p| (element.clone(), Rc::new(p))));
    }
    let Some((_, presenter)) = presenter.get_value() else { return };
    let surface = presenter.surface(width, height);
    let size = CanvasSize { width: css_width, height: css_height, ratio };
    latest.with_value(|frame| {
        if let Some(frame) = frame {
            (frame.render)(&surface, size);
        }
    });
    presenter.show();
}

/// Where a mouse or pointer event lies in its target, in CSS pixels, to the fraction: the
/// `offsetX` getters of web-sys round to integers, differently for pointer and click events,
/// which put a click one cell away from what the hover had read.
pub fn pointer_offset(ev: &web_sys::MouseEvent) -> (f64, f64) {
    let read = |name: &str| js_sys::Reflect::get(ev, &name.into()).ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    (read("offsetX"), read("offsetY"))
}

/// The canvas' 2D context.
pub fn context_2d(element: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    element.get_context("2d").ok().flatten()?.dyn_into().ok()
}

/// Shapes waiting to be drawn, grouped by style: (colour, width) → polylines or circles.
type Batch<T> = Vec<((u8, u8, u8), f64, Vec<T>)>;

fn batch_for<T>(batches: &mut Batch<T>, colour: RGBColor, width: f64) -> &mut Vec<T> {
    let key = (colour.0, colour.1, colour.2);
    let index = match batches.iter().position(|(c, w, _)| *c == key && *w == width) {
        Some(index) => index,
        None => {
            batches.push((key, width, Vec::new()));
            batches.len() - 1
        }
    };
    &mut batches[index].2
}

/// A [`Painter`] that draws every shape of one style as a single canvas path at [`flush`]:
/// strokes first (in the order their styles first appeared), then rings, then dots on top.
///
/// [`flush`]: CanvasPainter::flush
pub struct CanvasPainter {
    context: CanvasRenderingContext2d,
    strokes: Batch<Vec<(f64, f64)>>,
    rings: Batch<((f64, f64), f64)>,
    dots: Batch<((f64, f64), f64)>,
}

impl CanvasPainter {
    pub fn for_surface(surface: &Surface) -> Self {
        Self { context: surface.context.clone(), strokes: Vec::new(), rings: Vec::new(), dots: Vec::new() }
    }

    /// Draws everything batched so far.
    pub fn flush(self) {
        let c = &self.context;
        let colour = |(r, g, b): (u8, u8, u8)| format!("rgb({r},{g},{b})");
        c.set_line_cap("round");
        c.set_line_join("round");
        for (rgb, width, lines) in &self.strokes {
            c.set_stroke_style_str(&colour(*rgb));
            c.set_line_width(*width);
            c.begin_path();
            for line in lines {
                if let Some((first, rest)) = line.split_first() {
                    c.move_to(first.0, first.1);
                    for point in rest {
                        c.line_to(point.0, point.1);
                    }
                }
            }
            c.stroke();
        }
        let circles = |batch: &Batch<((f64, f64), f64)>, fill: bool| {
            for (rgb, width, circles) in batch {
                c.begin_path();
                for ((x, y), r) in circles {
                    c.move_to(x + r, *y);
                    let _ = c.arc(*x, *y, *r, 0.0, std::f64::consts::TAU);
                }
                if fill {
                    c.set_fill_style_str(&colour(*rgb));
                    c.fill();
                } else {
                    c.set_stroke_style_str(&colour(*rgb));
                    c.set_line_width(*width);
                    c.stroke();
                }
            }
        };
        circles(&self.rings, false);
        circles(&self.dots, true);
    }
}

impl Painter for CanvasPainter {
    fn polyline(&mut self, points: &[(f64, f64)], colour: RGBColor, width: f64) {
        batch_for(&mut self.strokes, colour, width).push(points.to_vec());
    }

    fn dot(&mut self, center: (f64, f64), radius: f64, colour: RGBColor) {
        batch_for(&mut self.dots, colour, 0.0).push((center, radius));
    }

    fn ring(&mut self, center: (f64, f64), radius: f64, colour: RGBColor, width: f64) {
        batch_for(&mut self.rings, colour, width).push((center, radius));
    }
}
