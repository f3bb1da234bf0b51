//! Keyboard shortcuts that work anywhere on the page, except while the reader types in a text
//! field: `[` and `]` shift the query and the key together by one token.

use crate::widgets::Lab;
use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Whether a key press on `target` is typing: text inputs, text areas and editable content
/// take the keys themselves. Sliders, menus, radio buttons and checkboxes do not use `[` `]`.
fn typing_in(target: Option<web_sys::EventTarget>) -> bool {
    let Some(element) = target.and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else {
        return false;
    };
    if element.is_content_editable() || element.tag_name() == "TEXTAREA" {
        return true;
    }
    element.dyn_into::<web_sys::HtmlInputElement>().is_ok_and(|input| {
        !matches!(input.type_().as_str(), "range" | "checkbox" | "radio" | "button" | "submit" | "reset" | "color")
    })
}

/// Installs the page's shortcuts for as long as the page lives.
pub fn use_page_shortcuts(lab: Lab) {
    let keys = window_event_listener(ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || typing_in(ev.target()) {
            return;
        }
        let by = match ev.key().as_str() {
            "]" => 1,
            "[" => -1,
            _ => return,
        };
        ev.prevent_default();
        lab.shift(by, true);
    });
    on_cleanup(move || keys.remove());
}
