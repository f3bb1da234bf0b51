//! Where each chapter makes its point, and bringing it on screen: a lesson step shows its
//! chapter's key figure above the lesson bar, with as much of the chapter's text above it as fits,
//! without the teacher scrolling (issue 39: the permalinks opened at the heading, the point below
//! the fold at 1280×720 in presenter mode).

use leptos::prelude::*;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The first and last element of a chapter's key figure (CSS selectors inside its section): what
/// a step on that chapter must show whole.
pub fn key_figure(chapter: &str) -> (&'static str, &'static str) {
    match chapter {
        "order" => (".outputs-table", ".outputs-table"),
        "counting" => (".code-columns", ".code-columns"),
        "pe-rotation" => (".pe-dials", ".pe-dials"),
        "add-or-rotate" => (".add-rotate-grid", ".add-rotate-grid"),
        "heatmap" => (".heatmap-layers", ".heatmap-layers"),
        "clocks" => (".clock-layers", ".clock-layers"),
        "layouts" => (".listings", ".readouts"),
        "frequencies" => ("canvas.chart", "canvas.chart"),
        "decay" => (".decay-plot", ".decay-plot"),
        // The heads of the model shown; SmolLM2's section, with its offer, until it is loaded.
        "model" => MODEL_FIGURE,
        "scaling" => (".wavelength-figure", ".wavelength-figure"),
        "scaling-compare" => (".compare-figure", ".compare-figure"),
        "rope2d" => (".patch-figures", ".patch-figures"),
        "precision" => (".precision-controls", ".readouts"),
        _ => (".readouts", ".readouts"),
    }
}

/// The model chapter's key figure.
const MODEL_FIGURE: (&str, &str) =
    (":is(.model-heads, .smollm2:not(:has(.model-heads)))", ":is(.model-heads, .smollm2:not(:has(.model-heads)))");

thread_local! {
    /// Which bringing is current: a new step's replaces the one before.
    static CURRENT: Cell<u32> = const { Cell::new(0) };
}

/// Brings `chapter`'s key figure on screen above the element `.lesson-bar`, and keeps it there
/// while the chapter arrives (split build) and the cards above take their real height, for up to
/// three seconds or until the reader scrolls, taps or presses a key.
pub fn bring_on_screen(chapter: String) {
    let ticket = CURRENT.with(|c| c.get().wrapping_add(1));
    CURRENT.with(|c| c.set(ticket));
    let moved_by_reader = Arc::new(AtomicBool::new(false));
    let listeners = ["wheel", "touchstart", "pointerdown", "keydown"]
        .into_iter()
        .map(|event| {
            let moved = moved_by_reader.clone();
            window_event_listener_untyped(event, move |_| moved.store(true, Ordering::Relaxed))
        })
        .collect();
    fn settle(chapter: String, ticket: u32, moved: Arc<AtomicBool>, listeners: Vec<WindowListenerHandle>, tries: u32) {
        if tries == 0 || moved.load(Ordering::Relaxed) || CURRENT.with(Cell::get) != ticket {
            listeners.into_iter().for_each(WindowListenerHandle::remove);
            return;
        }
        if let Some(by) = offset(&chapter) {
            if by.abs() > 2.0 {
                crate::dom::js::call(&window(), "scrollBy", &[&0.into(), &by.into()]);
            }
        }
        set_timeout(move || settle(chapter, ticket, moved, listeners, tries - 1), Duration::from_millis(100));
    }
    settle(chapter, ticket, moved_by_reader, listeners, 30);
}

/// How far to scroll for the key figure of `chapter` to sit above the lesson bar: the chapter's
/// heading too when all of it fits, else the figure's bottom just above the bar (the text before
/// it in view), else its top at the top.
fn offset(chapter: &str) -> Option<f64> {
    // An anchor inside a chapter (`scaling-compare`) is its figure's heading; the figure is
    // looked for in its chapter.
    let section = document().get_element_by_id(crate::story::chapter_of(chapter).map_or(chapter, |w| w.id))?;
    let (first, last) = key_figure(chapter);
    let top_element = section.query_selector(first).ok().flatten();
    let bottom_element = section.query_selector(last).ok().flatten();
    let heading = document().get_element_by_id(chapter).unwrap_or(section).get_bounding_client_rect().top();
    let top = top_element.as_ref().map_or(heading, |e| e.get_bounding_client_rect().top());
    let bottom = bottom_element.or(top_element).map_or(heading, |e| e.get_bounding_client_rect().bottom());
    let screen = window().inner_height().ok()?.as_f64()?;
    let bar = document().query_selector(".lesson-bar").ok().flatten().map_or(0.0, |b| b.get_bounding_client_rect().height());
    let room = screen - bar;
    const MARGIN: f64 = 8.0;
    Some(if bottom - heading + 2.0 * MARGIN <= room {
        heading - MARGIN
    } else if bottom - top + 2.0 * MARGIN <= room {
        bottom - room + MARGIN
    } else {
        top - MARGIN
    })
}
