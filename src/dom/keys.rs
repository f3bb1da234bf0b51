//! What a key press is aimed at: a text field typing, an element inside a dialog or a menu.

use wasm_bindgen::JsCast;

/// Whether a key press on `target` is typing: text inputs, text areas and editable content
/// take the keys themselves. Sliders, menus, radio buttons and checkboxes do not use `[` `]`.
pub fn typing_in(target: Option<&web_sys::EventTarget>) -> bool {
    let Some(element) = target.and_then(|t| t.dyn_ref::<web_sys::HtmlElement>()) else {
        return false;
    };
    if element.is_content_editable() || element.tag_name() == "TEXTAREA" {
        return true;
    }
    element
        .dyn_ref::<web_sys::HtmlInputElement>()
        .is_some_and(|input| !matches!(input.type_().as_str(), "range" | "checkbox" | "radio" | "button" | "submit" | "reset" | "color"))
}

/// Whether `target` is an element inside one matching `selector` (or is one).
pub fn within(target: Option<&web_sys::EventTarget>, selector: &str) -> bool {
    target.and_then(|t| t.dyn_ref::<web_sys::Element>()).is_some_and(|e| e.closest(selector).ok().flatten().is_some())
}
