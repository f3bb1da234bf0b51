//! Animated GIFs of the charts, for slides and posts that cannot embed the page: each frame
//! drawn by the chart's own drawing function on a canvas that is not on the page, at the
//! chart's size on the page in CSS pixels, with a caption line below it; read back
//! (`getImageData`) and written by the encoder ([`crate::charts::gif`]). The frame loop and the
//! encoder are a part of their own (`gif_6`), fetched the first time a GIF is asked for. A frame
//! at a time, with the main thread given back between frames, so the page stays usable while a
//! GIF is made.

use crate::charts::gif::GifWriter;
use crate::charts::{ChartStyle, LegendEntry, Mark};
use crate::dom::backend::MeasuredCanvas;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea};
use wasm_bindgen::prelude::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The caption line's height below the chart, in CSS pixels.
pub const CAPTION_HEIGHT: u32 = 22;
/// The height of a row of the legend (between the chart and the caption), in CSS pixels.
const LEGEND_ROW: u32 = 20;

/// Draws frame `i` of an animation on the chart's area.
pub type DrawFrame = Box<dyn Fn(usize, &DrawingArea<MeasuredCanvas, Shift>)>;

/// An animation of a chart, from a copy of the state taken when it was asked for: the page can
/// move on while its frames are drawn.
pub struct Animation {
    /// The chart's size in CSS pixels: the GIF's width, and its height without the caption.
    pub width: u32,
    pub height: u32,
    pub frames: usize,
    /// Each frame's time, in hundredths of a second.
    pub delay: u16,
    /// What the GIF shows, on the caption line's left ("RoPE Lab · …").
    pub caption: String,
    /// Frame `i`'s own words on the caption line's right ("base 12,345").
    pub label: Box<dyn Fn(usize) -> String>,
    pub draw: DrawFrame,
    /// The chart's colours (the caption's text and background).
    pub style: ChartStyle,
    /// What each hand or curve is, in its colour, as the page's legend says it (a GIF without
    /// one left a reader guessing which hand is q's): rows between the chart and the caption.
    pub legend: Vec<LegendEntry>,
}

/// How making a GIF ended.
pub enum Outcome {
    Done(Vec<u8>),
    Cancelled,
    Failed(String),
}

/// A GIF being made: what the part that makes GIFs hands back.
type Making = std::pin::Pin<Box<dyn std::future::Future<Output = Outcome>>>;

/// Starts making the GIF of `animation`: in the split build, the part that makes GIFs (the
/// frame loop and the encoder) is fetched first, once; an `Err` says that fetch failed.
#[cfg_attr(split, leptos::wasm_split::wasm_split(gif_6, wasm_split_path = ::leptos::wasm_split, fallible))]
fn gif_maker(
    animation: Animation,
    progress: Box<dyn Fn(f64)>,
    cancelled: Box<dyn Fn() -> bool>,
) -> Result<Making, leptos::wasm_split::SplitLoaderError> {
    Ok(Box::pin(make(animation, progress, cancelled)))
}

/// Makes the GIF of `animation`, a frame per task, telling `progress` the share done after
/// each frame, until `cancelled` says to stop.
pub async fn encode(animation: Animation, progress: Box<dyn Fn(f64)>, cancelled: Box<dyn Fn() -> bool>) -> Outcome {
    #[cfg(split)]
    let making = gif_maker(animation, progress, cancelled).await;
    #[cfg(not(split))]
    let making = gif_maker(animation, progress, cancelled);
    match making {
        Ok(making) => making.await,
        Err(_) => Outcome::Failed("The GIF maker could not be downloaded (is the network down?).".to_string()),
    }
}

/// The frame loop, in the part that makes GIFs.
async fn make(animation: Animation, progress: Box<dyn Fn(f64)>, cancelled: Box<dyn Fn() -> bool>) -> Outcome {
    let failed = |why: &str| Outcome::Failed(format!("The GIF could not be made: {why}."));
    let width = animation.width.max(1);
    let Some(mut canvas) = FrameCanvas::new(width) else {
        return failed("this browser gave no canvas to draw it on");
    };
    let legend = canvas.lay_out(&animation.legend);
    let rows = legend.last().map_or(0, |entry| entry.row + 1);
    let height = animation.height.max(1) + rows * LEGEND_ROW + CAPTION_HEIGHT;
    canvas.set_height(height);
    let mut writer = match GifWriter::new(width, height) {
        Ok(writer) => writer,
        Err(error) => return failed(error.0),
    };
    for i in 0..animation.frames {
        if cancelled() {
            return Outcome::Cancelled;
        }
        let Some(rgba) = canvas.draw(&animation, &legend, i) else {
            return failed("a frame could not be read back");
        };
        if let Err(error) = writer.add_frame(&rgba, animation.delay) {
            return failed(error.0);
        }
        progress((i + 1) as f64 / animation.frames.max(1) as f64);
        next_task().await;
    }
    if cancelled() {
        return Outcome::Cancelled;
    }
    match writer.finish() {
        Ok(bytes) => Outcome::Done(bytes),
        Err(error) => failed(error.0),
    }
}

/// A canvas off the page, read back often.
struct FrameCanvas {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
    width: u32,
    height: u32,
}

/// Where a legend entry goes: its row, and its left edge in that row.
struct Placed<'a> {
    entry: &'a LegendEntry,
    row: u32,
    left: f64,
}

/// The legend's type, and the room a mark takes before its label.
const LEGEND_FONT: &str = "12px sans-serif";
const MARK_WIDTH: f64 = 18.0;

impl FrameCanvas {
    fn new(width: u32) -> Option<Self> {
        let canvas: HtmlCanvasElement = document().create_element("canvas").ok()?.dyn_into().ok()?;
        canvas.set_width(width);
        // Read back every frame: kept in memory, not on the GPU.
        let options = js_sys::Object::new();
        js_sys::Reflect::set(&options, &"willReadFrequently".into(), &JsValue::TRUE).ok()?;
        let context = canvas.get_context_with_context_options("2d", &options).ok()??.dyn_into().ok()?;
        Some(Self { canvas, context, width, height: 1 })
    }

    fn set_height(&mut self, height: u32) {
        self.canvas.set_height(height);
        self.height = height;
    }

    /// The legend's entries in rows across the width, each its mark then its label.
    fn lay_out<'a>(&self, legend: &'a [LegendEntry]) -> Vec<Placed<'a>> {
        self.context.set_font(LEGEND_FONT);
        let (mut row, mut left) = (0, 8.0);
        legend
            .iter()
            .map(|entry| {
                let label = self.context.measure_text(&crate::i18n::say(&entry.label)).map_or(80.0, |m| m.width());
                let wide = MARK_WIDTH + 4.0 + label;
                if left > 8.0 && left + wide > f64::from(self.width) - 8.0 {
                    (row, left) = (row + 1, 8.0);
                }
                let placed = Placed { entry, row, left };
                left += wide + 16.0;
                placed
            })
            .collect()
    }

    /// Frame `i`: the chart, its legend and caption below it, as RGBA pixels.
    fn draw(&self, animation: &Animation, legend: &[Placed], i: usize) -> Option<Vec<u8>> {
        let c = &self.context;
        let colour = |rgb: plotters::style::RGBColor| format!("rgb({},{},{})", rgb.0, rgb.1, rgb.2);
        c.set_fill_style_str(&colour(animation.style.background));
        c.fill_rect(0.0, 0.0, self.width as f64, self.height as f64);
        let chart = MeasuredCanvas::on(c.clone(), (self.width, animation.height.max(1))).into_drawing_area();
        (animation.draw)(i, &chart);
        drop(chart);
        c.set_font(LEGEND_FONT);
        c.set_text_baseline("middle");
        c.set_text_align("left");
        for placed in legend {
            let middle = f64::from(animation.height) + f64::from(placed.row * LEGEND_ROW) + f64::from(LEGEND_ROW) / 2.0;
            let ink = colour(placed.entry.colour);
            c.set_stroke_style_str(&ink);
            c.set_fill_style_str(&ink);
            c.set_line_width(2.0);
            c.begin_path();
            let centre = placed.left + MARK_WIDTH / 2.0;
            match placed.entry.mark {
                Mark::Line | Mark::Dashed => {
                    let dashes = if placed.entry.mark == Mark::Dashed { vec![4.0, 3.0] } else { Vec::new() };
                    let dashes: js_sys::Array = dashes.into_iter().map(JsValue::from_f64).collect();
                    let _ = c.set_line_dash(&dashes);
                    c.move_to(placed.left, middle);
                    c.line_to(placed.left + MARK_WIDTH, middle);
                    c.stroke();
                    let _ = c.set_line_dash(&js_sys::Array::new());
                }
                Mark::Dot => {
                    let _ = c.arc(centre, middle, 4.0, 0.0, std::f64::consts::TAU);
                    c.fill();
                }
                Mark::Ring => {
                    let _ = c.arc(centre, middle, 4.0, 0.0, std::f64::consts::TAU);
                    c.stroke();
                }
            }
            c.set_fill_style_str(&colour(animation.style.text));
            let _ = c.fill_text(&crate::i18n::say(&placed.entry.label), placed.left + MARK_WIDTH + 4.0, middle);
        }
        let rows = legend.last().map_or(0, |placed| placed.row + 1);
        let line = f64::from(animation.height + rows * LEGEND_ROW) + f64::from(CAPTION_HEIGHT) / 2.0;
        c.set_fill_style_str(&colour(animation.style.text));
        c.set_font("12px sans-serif");
        c.set_text_baseline("middle");
        c.set_text_align("left");
        let _ = c.fill_text(&crate::i18n::say(&animation.caption), 8.0, line);
        c.set_text_align("right");
        let _ = c.fill_text(&crate::i18n::say(&(animation.label)(i)), self.width as f64 - 8.0, line);
        let image = c.get_image_data(0.0, 0.0, self.width as f64, self.height as f64).ok()?;
        Some(image.data().0)
    }
}

/// Resolves in a task of its own (a zero timeout): the browser handles input and paints between.
/// Through Leptos' `set_timeout`, as the page's other timers: no bindings of its own.
pub fn next_task() -> impl std::future::Future<Output = ()> {
    use std::cell::RefCell;
    use std::rc::Rc;
    use std::task::{Poll, Waker};
    // None until the timeout fires; then the task is woken.
    let state: Rc<RefCell<(bool, Option<Waker>)>> = Rc::default();
    let fired = state.clone();
    set_timeout(
        move || {
            let mut fired = fired.borrow_mut();
            fired.0 = true;
            if let Some(waker) = fired.1.take() {
                waker.wake();
            }
        },
        std::time::Duration::ZERO,
    );
    std::future::poll_fn(move |cx| {
        let mut state = state.borrow_mut();
        if state.0 {
            Poll::Ready(())
        } else {
            state.1 = Some(cx.waker().clone());
            Poll::Pending
        }
    })
}

/// Downloads `bytes` as `file_name` (a GIF): a Blob and its object URL (a data: URL as the PNGs
/// use is limited to 2 MB in Chromium). `URL.createObjectURL` and `revokeObjectURL` are called
/// by name, through the glue the page has already.
pub fn download_gif(bytes: &[u8], file_name: &str) {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    // Typed, so that the file is saved as a GIF wherever the name alone does not say it (a blob
    // without a type was saved as a file of no type).
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("image/gif");
    let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options) else { return };
    let Some(url) = url_api("createObjectURL", &blob).and_then(|url| url.as_string()) else { return };
    if let Ok(link) = document().create_element("a").and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().map_err(Into::into)) {
        link.set_href(&url);
        link.set_download(file_name);
        link.click();
    }
    // The download has its own copy once it starts; the URL can go a little later.
    set_timeout(
        move || {
            url_api("revokeObjectURL", &url.into());
        },
        std::time::Duration::from_secs(30),
    );
}

/// `URL.<name>(argument)`.
fn url_api(name: &str, argument: &JsValue) -> Option<JsValue> {
    let url = js_sys::Reflect::get(&window(), &"URL".into()).ok()?;
    let function: js_sys::Function = js_sys::Reflect::get(&url, &name.into()).ok()?.dyn_into().ok()?;
    function.call1(&url, argument).ok()
}
