//! The split build's parts of the chapters: each one's module is fetched once, when something
//! first asks for it (the reader nearing a chapter of it, or showing they are going there), and
//! what its chapters read while it is on its way, has arrived, or could not be fetched.

use super::Part;
use leptos::prelude::*;
use std::cell::Cell;

thread_local! {
    /// Per part: whether it is being fetched or here; whether it is here (what its chapters
    /// read); whether its fetch failed (offline, say: asking again tries again).
    static PARTS: [(Cell<bool>, RwSignal<bool>, RwSignal<bool>); 5] =
        std::array::from_fn(|_| (Cell::new(false), RwSignal::new(false), RwSignal::new(false)));
}

/// Whether `part` is here, and whether its fetch failed.
pub fn state(part: Part) -> (RwSignal<bool>, RwSignal<bool>) {
    PARTS.with(|parts| (parts[part as usize].1, parts[part as usize].2))
}

/// Fetches `part`'s module unless it is here or on its way; after a failure, tries again.
pub fn request(part: Part) {
    if matches!(part, Part::Frame) || PARTS.with(|parts| parts[part as usize].0.replace(true)) {
        return;
    }
    let (arrived, failed) = state(part);
    failed.set(false);
    leptos::task::spawn_local(async move {
        let fetched = match part {
            Part::Frame => Ok(()),
            Part::Opening => super::__preload_opening().await,
            Part::Rotation => super::__preload_rotation().await,
            Part::Analysis => super::__preload_analysis().await,
            Part::Beyond => super::__preload_beyond().await,
        };
        match fetched {
            Ok(()) => arrived.set(true),
            Err(_) => {
                PARTS.with(|parts| parts[part as usize].0.set(false));
                failed.set(true);
            }
        }
    });
}

/// Every part: a search of the page (Ctrl+F, ⌘F) should find the chapters a reader has not
/// scrolled to yet.
pub fn request_all() {
    for part in [Part::Opening, Part::Rotation, Part::Analysis, Part::Beyond] {
        request(part);
    }
}

/// How far below the screen a chapter still on its way asks for its part: about a screen of
/// reading ahead of the reader, so that a reader scrolling at reading speed never sees it wait,
/// while one who reads the first chapter downloads only the page's frame.
const APPROACH: &str = "0px 0px 600px 0px";

/// Asks for `part` once `element` comes within [`APPROACH`] of the screen (or above it: a deep
/// link or a jump from the contents lands past it).
pub(super) fn request_on_approach(element: &web_sys::Element, part: Part) -> Option<web_sys::IntersectionObserver> {
    use std::cell::OnceCell;
    use std::rc::Rc;
    use wasm_bindgen::prelude::*;
    let watching = Rc::new(OnceCell::<web_sys::IntersectionObserver>::new());
    let callback = Closure::<dyn Fn(js_sys::Array)>::new({
        let watching = watching.clone();
        move |entries: js_sys::Array| {
            let near = entries.iter().any(|entry| {
                entry.dyn_into::<web_sys::IntersectionObserverEntry>().is_ok_and(|entry| {
                    entry.is_intersecting() || entry.bounding_client_rect().bottom() < 0.0
                })
            });
            if near {
                if let Some(observer) = watching.get() {
                    observer.disconnect();
                }
                request(part);
            }
        }
    });
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin(APPROACH);
    let observer = web_sys::IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options).ok()?;
    // Called at most until the observer is disconnected; a few bytes per chapter, kept.
    callback.forget();
    observer.observe(element);
    let _ = watching.set(observer.clone());
    Some(observer)
}
