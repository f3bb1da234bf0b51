//! The few places the app touches the browser directly: the address bar, the colour scheme,
//! and messages to an embedding page.

use crate::dom::settle::Settle;
use crate::dom::size::observe_size;
use crate::lab::Lab;
use leptos::prelude::*;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The page's query string, `?...` (empty when there is none).
pub fn query_string() -> String {
    window().location().search().unwrap_or_default()
}

/// Whether the system asks for dark colours, following changes while the page is open.
pub fn system_prefers_dark() -> Signal<bool> {
    let Ok(Some(query)) = window().match_media("(prefers-color-scheme: dark)") else {
        return Signal::stored(false);
    };
    let dark = RwSignal::new(query.matches());
    let list = query.clone();
    let on_change = Closure::<dyn Fn()>::new(move || dark.set(list.matches()));
    if query.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref()).is_ok() {
        // The listener lives as long as the page, like the app itself.
        on_change.forget();
    }
    dark.into()
}

/// Whether the screen is wide enough for the parameters panel beside the chapters (the style
/// sheet's breakpoint, 860 px): there it starts open, on a phone folded.
pub fn wide_screen() -> bool {
    window().match_media("(min-width: 861px)").ok().flatten().is_some_and(|query| query.matches())
}

/// Whether any of the element with this id is on screen.
pub fn on_screen(id: &str) -> bool {
    let height = window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
    document().get_element_by_id(id).is_some_and(|element| {
        let rect = element.get_bounding_client_rect();
        rect.bottom() > 0.0 && rect.top() < height
    })
}

/// Sets `data-theme` on `<html>`, which the style sheet's colours follow.
pub fn set_document_theme(dark: bool) {
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("data-theme", if dark { "dark" } else { "light" });
    }
}

/// How long the state must stay still before the address bar follows it. Replacing the history
/// entry is not cheap: Chromium spends 1 to 10 ms on it and fetches and decodes the favicon
/// again, so while a slider is dragged or an animation plays the URL waits (a throttle that
/// wrote it every 300 ms made those spikes part of a drag).
const URL_SETTLE_MS: f64 = 400.0;

/// The page's query for `lab`'s state, with a lesson's step after it.
pub fn page_query(lab: Lab) -> String {
    crate::dom::page::with_tail(lab.state.with_untracked(|s| s.to_query()))
}

/// Keeps the URL following the state, with `history.replaceState` (no history entry per
/// slider step), once the state has stayed still for [`URL_SETTLE_MS`]. Returns the query
/// last written (the state's at first).
pub fn sync_url_with(lab: Lab) -> ReadSignal<String> {
    let (written, write) = signal(page_query(lab));
    let settle = Settle::new(URL_SETTLE_MS, move || {
        let query = page_query(lab);
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&crate::dom::page::address(&query, true)));
        }
        write.set(query);
    });
    Effect::new(move |first_run: Option<()>| {
        lab.state.track();
        if first_run.is_some() {
            settle.poke();
        }
    });
    written
}

/// Posts `{ type: "rope-lab:resize", widget, height }` to the embedding page whenever the
/// height of `root` changes (its ResizeObserver says so), so the host can size its iframe.
/// Nothing is posted when the page is not in a frame (its parent is itself), nor for a zero
/// height (the root detached while the document is replaced).
///
/// The first height waits until the widget is whole and still (issue 46): while a compact
/// embed's style sheet or its chapter's part is on its way (a placeholder), the trained
/// model's weights are downloading, or its figures are still taking their size, each height
/// would move the host's frame, and the post's text under it, once more (a compact embed went 300 → 718 → 986 → 2,543 px). So the
/// frame keeps the host's own height until then and grows once; after that every change is
/// posted at once, for the reader's own clicks.
pub fn post_height_on_resize(root: NodeRef<leptos::html::Main>, widget: &'static str) {
    // A compact embed's rules come in a sheet of their own (no other reader downloads them),
    // linked here whether or not the page is in a frame.
    let compact = document().document_element().is_some_and(|html| html.has_attribute("data-compact"));
    let styled = if compact { RwSignal::from(crate::dom::style::style_sheet("assets/compact.css")) } else { RwSignal::new(true) };
    let Ok(Some(parent)) = window().parent() else { return };
    if js_sys::Object::is(&parent, &window()) {
        return;
    }
    let last_height = StoredValue::new(0i32);
    let first_posted = StoredValue::new(false);
    observe_size(root, move |_, height| {
        let height = height.ceil() as i32;
        if !first_posted.get_value() || height <= 0 || height == last_height.get_value() {
            return;
        }
        last_height.set_value(height);
        send_height(widget, height);
    });
    post_first_height(root, widget, (last_height, first_posted, styled), 0, 0, 0);
}

/// How often the first height is looked at, how many looks in a row it must hold still, and
/// after how many it is posted anyway (a part that cannot be fetched stays a placeholder).
const FIRST_HEIGHT_POLL_MS: u64 = 100;
const FIRST_HEIGHT_STILL_LOOKS: u32 = 3;
const FIRST_HEIGHT_MAX_LOOKS: u32 = 100;

/// Looks at `root` every [`FIRST_HEIGHT_POLL_MS`]: once nothing in it is still arriving and its
/// height has not changed for [`FIRST_HEIGHT_STILL_LOOKS`] looks, posts that height, the first.
fn post_first_height(
    root: NodeRef<leptos::html::Main>,
    widget: &'static str,
    (last_height, first_posted, styled): (StoredValue<i32>, StoredValue<bool>, RwSignal<bool>),
    seen: i32,
    still: u32,
    looks: u32,
) {
    set_timeout(
        move || {
            // Gone with the page's root: nothing to post.
            let Some(Some(main)) = root.try_get_untracked() else { return };
            let main: &web_sys::Element = main.as_ref();
            let height = main.get_bounding_client_rect().height().ceil() as i32;
            // A compact embed's sheet may still be on its way; a chapter still on its way is a
            // placeholder; the model shows its status while its weights download (and keeps it,
            // marked missing, when they cannot come).
            let arriving = !styled.try_get_untracked().unwrap_or(true)
                || matches!(main.query_selector(".widget-loading, .model-status:not([hidden]):not(.model-missing)"), Ok(Some(_)));
            let still = if height > 0 && height == seen && !arriving { still + 1 } else { 0 };
            if still >= FIRST_HEIGHT_STILL_LOOKS || (looks >= FIRST_HEIGHT_MAX_LOOKS && height > 0) {
                first_posted.set_value(true);
                last_height.set_value(height);
                send_height(widget, height);
            } else {
                post_first_height(root, widget, (last_height, first_posted, styled), height, still, looks + 1);
            }
        },
        Duration::from_millis(FIRST_HEIGHT_POLL_MS),
    );
}

/// The message the host's resize script (assets/embed-resize.js) reads.
fn send_height(widget: &'static str, height: i32) {
    let Ok(Some(parent)) = window().parent() else { return };
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &"rope-lab:resize".into());
    let _ = js_sys::Reflect::set(&message, &"widget".into(), &widget.into());
    let _ = js_sys::Reflect::set(&message, &"height".into(), &height.into());
    let _ = parent.post_message(&message, "*");
}

/// Scrolls to the element the URL's fragment names, if any (a chapter's deep link), and keeps
/// it at the top while the cards above take their real height (cards out of view are sized by
/// `content-visibility` until drawn, and a chapter still loading is a placeholder), for up to
/// three seconds or until the reader scrolls, taps or presses a key.
pub fn scroll_to_hash() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let hash = window().location().hash().unwrap_or_default();
    let Some(id) = hash.strip_prefix('#').filter(|id| !id.is_empty()).map(str::to_string) else { return };
    crate::story::fetch_part_of(&id);
    let stop = Arc::new(AtomicBool::new(false));
    let listeners: Vec<WindowListenerHandle> = vec![
        window_event_listener(leptos::ev::wheel, {
            let stop = stop.clone();
            move |_| stop.store(true, Ordering::Relaxed)
        }),
        window_event_listener(leptos::ev::touchstart, {
            let stop = stop.clone();
            move |_| stop.store(true, Ordering::Relaxed)
        }),
        window_event_listener(leptos::ev::keydown, {
            let stop = stop.clone();
            move |_| stop.store(true, Ordering::Relaxed)
        }),
        window_event_listener(leptos::ev::pointerdown, {
            let stop = stop.clone();
            move |_| stop.store(true, Ordering::Relaxed)
        }),
    ];
    // Looked up by id each time: a chapter still on its way (the split build) is a placeholder
    // with its id, replaced by the chapter when its part arrives.
    fn settle(id: String, stop: Arc<AtomicBool>, listeners: Vec<WindowListenerHandle>, tries: u32) {
        if tries == 0 || stop.load(Ordering::Relaxed) {
            listeners.into_iter().for_each(WindowListenerHandle::remove);
            return;
        }
        if let Some(element) = document().get_element_by_id(&id) {
            if element.get_bounding_client_rect().top().abs() > 2.0 {
                element.scroll_into_view();
            }
        }
        set_timeout(move || settle(id, stop, listeners, tries - 1), Duration::from_millis(100));
    }
    settle(id, stop, listeners, 30);
}
