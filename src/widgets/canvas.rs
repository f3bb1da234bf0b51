//! Drawing a plotters chart on a `<canvas>`: sharp on HiDPI screens, redrawn at most once per
//! animation frame however many signals change in between, and again when the window resizes.

use leptos::ev;
use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;

/// Redraws `canvas` whenever the signals read by `data` change; its height comes from CSS.
///
/// `data` runs in a reactive effect and collects what to draw (its reads are tracked);
/// `draw` runs at the next animation frame with the latest data and the device pixel ratio,
/// after the canvas' backing store has been sized to its CSS size times that ratio. Setting a
/// canvas' size clears it, so the size is only set when it changes.
pub fn use_canvas_chart<D, F, G>(canvas: NodeRef<Canvas>, data: F, draw: G)
where
    D: 'static,
    F: Fn() -> D + 'static,
    G: Fn(&DrawingArea<CanvasBackend, Shift>, &D, f64) + 'static,
{
    use_sized_canvas_chart(canvas, data, |_, _| None, draw);
}

/// [`use_canvas_chart`] for a chart whose height follows from its width and data (a grid of
/// clock faces): `height(css_width, data)` returns the CSS height to give the canvas, if any.
pub fn use_sized_canvas_chart<D, F, H, G>(canvas: NodeRef<Canvas>, data: F, height: H, draw: G)
where
    D: 'static,
    F: Fn() -> D + 'static,
    H: Fn(f64, &D) -> Option<f64> + 'static,
    G: Fn(&DrawingArea<CanvasBackend, Shift>, &D, f64) + 'static,
{
    let height = StoredValue::new_local(height);
    let latest = StoredValue::new_local(None::<D>);
    let draw = StoredValue::new_local(draw);
    let frame_pending = StoredValue::new(false);
    let resized = RwSignal::new(0u32);
    let listener = window_event_listener(ev::resize, move |_| resized.update(|n| *n = n.wrapping_add(1)));
    on_cleanup(move || listener.remove());

    Effect::new(move |_| {
        resized.track();
        latest.set_value(Some(data()));
        // Reading the node ref also re-runs this effect once the canvas is mounted.
        if canvas.get().is_none() || frame_pending.get_value() {
            return;
        }
        frame_pending.set_value(true);
        request_animation_frame(move || {
            frame_pending.set_value(false);
            let Some(element) = canvas.get_untracked() else { return };
            let ratio = window().device_pixel_ratio();
            let ratio = if ratio.is_finite() && ratio > 0.0 { ratio } else { 1.0 };
            let wanted = latest.with_value(|d| {
                d.as_ref().and_then(|d| height.with_value(|h| h(element.client_width() as f64, d)))
            });
            if let Some(wanted) = wanted.filter(|h| h.is_finite() && *h > 0.0) {
                if (element.client_height() as f64 - wanted).abs() >= 1.0 {
                    let _ = web_sys::HtmlElement::style(&element).set_property("height", &format!("{}px", wanted.ceil()));
                }
            }
            let (css_width, css_height) = (element.client_width(), element.client_height());
            if css_width <= 0 || css_height <= 0 {
                return;
            }
            let width = (css_width as f64 * ratio).round() as u32;
            let height = (css_height as f64 * ratio).round() as u32;
            if element.width() != width {
                element.set_width(width);
            }
            if element.height() != height {
                element.set_height(height);
            }
            // Start from a clear canvas, so that a chart can be a transparent layer over another.
            if let Ok(Some(context)) = element.get_context("2d") {
                if let Ok(context) = context.dyn_into::<web_sys::CanvasRenderingContext2d>() {
                    context.clear_rect(0.0, 0.0, width as f64, height as f64);
                }
            }
            let Some(backend) = CanvasBackend::with_canvas_object(element) else { return };
            let area = backend.into_drawing_area();
            latest.with_value(|d| {
                if let Some(d) = d {
                    draw.with_value(|draw| draw(&area, d, ratio));
                }
            });
        });
    });
}
