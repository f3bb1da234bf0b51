//! The page's own address and the flags on `<html>` the style sheet follows: what the app, a
//! lesson and the address bar share.

use leptos::prelude::*;
use wasm_bindgen::JsValue;

/// Sets (or removes) a flag attribute on `<html>` that the style sheet follows (`data-present`).
pub fn set_document_flag(name: &str, on: bool) {
    if let Some(root) = document().document_element() {
        let _ = if on { root.set_attribute(name, "") } else { root.remove_attribute(name) };
    }
}

/// Runs `change` (one that reflows the page: presenter mode's larger type) and scrolls so that
/// what the reader was reading stays where it was on the screen: the element under a point two
/// fifths down the screen, in the middle, is found before and brought back to its offset after
/// (at once, and again on the next frame, once canvases have taken their new size).
pub fn keeping_reading_position(change: impl FnOnce()) {
    let (Ok(width), Ok(height)) = (window().inner_width(), window().inner_height()) else { return change() };
    let (x, y) = (width.as_f64().unwrap_or(0.0) / 2.0, height.as_f64().unwrap_or(0.0) * 0.4);
    let anchor = document().element_from_point(x as f32, y as f32);
    let before = anchor.as_ref().map(|a| a.get_bounding_client_rect().top());
    change();
    let (Some(anchor), Some(before)) = (anchor, before) else { return };
    let restore = move || {
        let moved = anchor.get_bounding_client_rect().top() - before;
        if moved.abs() >= 1.0 {
            window().scroll_by_with_x_and_y(0.0, moved);
        }
    };
    let again = restore.clone();
    restore();
    request_animation_frame(again);
}

/// This page's address with `query` (a state's [`to_query`](crate::state::LabState::to_query)),
/// and the fragment if `with_hash`.
pub fn address(query: &str, with_hash: bool) -> String {
    let location = window().location();
    let origin = location.origin().unwrap_or_default();
    let path = location.pathname().unwrap_or_default();
    let hash = if with_hash { location.hash().unwrap_or_default() } else { String::new() };
    let query = if query.is_empty() { String::new() } else { format!("?{query}") };
    format!("{origin}{path}{query}{hash}")
}

/// Replaces the address (no new history entry) with `query` and `fragment`, at once.
pub fn replace_address(query: &str, fragment: Option<&str>) {
    let mut address = address(query, false);
    if let Some(fragment) = fragment {
        address.push('#');
        address.push_str(fragment);
    }
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&address));
    }
}

thread_local! {
    /// What the address bar adds after the state's query: the lesson playing and its step
    /// (`lesson=intro&step=3`), so that a reload or a copied link opens the same step.
    static URL_TAIL: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Sets what the address bar adds after the state's query ("" for nothing).
pub fn set_url_tail(tail: String) {
    URL_TAIL.with(|t| *t.borrow_mut() = tail);
}

/// The page's query for a state's `query`: the state's own, then the lesson's tail.
pub fn with_tail(query: String) -> String {
    URL_TAIL.with(|tail| match (query.is_empty(), tail.borrow().is_empty()) {
        (_, true) => query,
        (true, false) => tail.borrow().clone(),
        (false, false) => format!("{query}&{}", tail.borrow()),
    })
}

/// Marks the page's root element with `data-behind` while chapters far from the screen are behind
/// the state (`crate::lab::Sleeper`), and clears it once they have caught up: a script or a test
/// reading a `data-value` off screen waits for `html:not([data-behind])`.
pub fn mark_behind(behind: bool) {
    let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) else { return };
    let _ = if behind { root.set_attribute("data-behind", "") } else { root.remove_attribute("data-behind") };
}
