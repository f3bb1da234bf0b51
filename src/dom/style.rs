//! Style sheets that come with a part of the page rather than with its first visit (the lesson
//! bar, the dialogs): linked the first time something asks, with whether they are here yet.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

thread_local! {
    /// Per style sheet asked for: whether it is here (loaded, or failed: the page goes on).
    static SHEETS: std::cell::RefCell<Vec<(&'static str, ArcRwSignal<bool>)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Links the style sheet at `href` (relative to the page) once; true once it has loaded (or
/// could not be: offline, say), so that what it styles can wait for it. Reference-counted, not
/// owned by whoever asked first: a sheet is asked for from effects and closures that come and
/// go (a part's placeholder asks only once the part has arrived, so that a first visit does not
/// download the last part's sheet).
pub fn style_sheet(href: &'static str) -> ArcRwSignal<bool> {
    if let Some(here) = SHEETS.with(|s| s.borrow().iter().find(|(h, _)| *h == href).map(|(_, here)| here.clone())) {
        return here;
    }
    let here = ArcRwSignal::new(false);
    SHEETS.with(|s| s.borrow_mut().push((href, here.clone())));
    let Ok(link) = document().create_element("link") else {
        here.set(true);
        return here;
    };
    let _ = link.set_attribute("rel", "stylesheet");
    let _ = link.set_attribute("href", href);
    for event in ["load", "error"] {
        let here = here.clone();
        let done = wasm_bindgen::closure::Closure::once_into_js(move || here.set(true));
        let _ = link.add_event_listener_with_callback(event, done.unchecked_ref());
    }
    if let Ok(Some(head)) = document().query_selector("head") {
        let _ = head.append_child(&link);
    }
    here
}
