//! The page translated where it stands (issue 49): a part of its own (`speak_8`), fetched the
//! first time a language other than English is asked for, so that English readers download
//! none of it. It fetches the language's catalogue, installs it ([`crate::i18n`]), then puts
//! every text and accessible name of the page in that language, and each one Leptos writes
//! afterwards (a MutationObserver): the views stay in English and know nothing of it. Back in
//! English, each node gets its own English text back. Code, formulas, the reader's own text and
//! whatever says `translate="no"` stay as they are.
//!
//! Calls the browser through [`crate::dom::js`], not web-sys bindings: bindings used only here
//! would add their glue to every first visit.

use crate::dom::js::{call, get, set};
use crate::i18n::{self, Lang};
use js_sys::{Array, Function, Object, Reflect};
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// What is never translated: code and formulas, the reader's own text, and what says so.
const KEEP: &str = "code, pre, math, textarea, script, style, [translate=no]";
/// The attributes that are words a reader (or a screen reader) meets.
const ATTRIBUTES: [&str; 5] = ["aria-label", "aria-valuetext", "title", "placeholder", "alt"];
/// Where a node keeps its English text, the text put in its place, and whether the catalogue
/// had it (what `e2e/i18n.spec.mjs` reads to list what a language leaves in English).
const ENGLISH: &str = "ropeLabEnglish";
const SHOWN: &str = "ropeLabShown";
const FOUND: &str = "ropeLabFound";

thread_local! {
    static OBSERVER: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// Puts the page in `lang` (fetching its catalogue first unless English); `done(false)` if its
/// words could not be had, the page left as it was.
#[cfg_attr(split, leptos::wasm_split::wasm_split(speak_8, wasm_split_path = ::leptos::wasm_split, fallible))]
pub fn speak(lang: Lang, done: Box<dyn FnOnce(bool)>) -> Result<(), leptos::wasm_split::SplitLoaderError> {
    if lang == Lang::En {
        stop();
        done(true);
        return Ok(());
    }
    fetch_text(
        &format!("locales/{}.txt", lang.as_str()),
        Box::new(move |text| {
            let installed = text.is_some_and(|text| i18n::install(lang, &text).is_ok());
            if installed {
                if let Some(body) = document().body() {
                    translate_within(&body);
                }
                observe();
            }
            done(installed);
        }),
    );
    Ok(())
}

/// `fetch(path)`'s text, or `None` if the fetch failed or did not succeed.
fn fetch_text(path: &str, done: Box<dyn FnOnce(Option<String>)>) {
    let done = Rc::new(RefCell::new(Some(done)));
    let finish = move |text: Option<String>| {
        if let Some(done) = done.borrow_mut().take() {
            done(text);
        }
    };
    let (on_text, on_failure) = (finish.clone(), finish);
    let response =
        Closure::once_into_js(
            move |response: JsValue| {
                if get(&response, "ok").as_bool() == Some(true) {
                    call(&response, "text", &[])
                } else {
                    JsValue::NULL
                }
            },
        );
    let text = Closure::once_into_js(move |text: JsValue| on_text(text.as_string()));
    let failed = Closure::once_into_js(move |_: JsValue| on_failure(None));
    let fetched = call(&window(), "fetch", &[&JsValue::from_str(path)]);
    call(&call(&fetched, "then", &[&response]), "then", &[&text, &failed]);
}

/// Whether `node` (a text node or an element) is somewhere that is never translated.
fn kept(element: &JsValue) -> bool {
    element.is_null() || element.is_undefined() || !call(element, "closest", &[&JsValue::from_str(KEEP)]).is_null()
}

/// A text as the page should show it now, and whether the catalogue had it: `english` in the
/// installed language, or itself.
fn render(english: &str) -> (String, bool) {
    match i18n::translate(english) {
        Some(text) => (text, true),
        None => (english.to_string(), false),
    }
}

/// Translates one text node, unless it shows what was put there already (`again`: the
/// language changed, translate from its English).
fn text_node(node: &JsValue, again: bool) {
    let Some(data) = get(node, "data").as_string() else { return };
    let shown = get(node, SHOWN).as_string();
    let english = match (&shown, get(node, ENGLISH).as_string()) {
        (Some(shown), Some(english)) if *shown == data => {
            if !again {
                return;
            }
            english
        }
        _ => data.clone(),
    };
    if kept(&get(node, "parentElement")) {
        return;
    }
    let (text, found) = render(&english);
    set(node, ENGLISH, &JsValue::from_str(&english));
    set(node, SHOWN, &JsValue::from_str(&text));
    set(node, FOUND, &JsValue::from_bool(found));
    if text != data {
        set(node, "data", &JsValue::from_str(&text));
    }
}

/// Translates one attribute of an element, as [`text_node`] does a text.
fn attribute(element: &JsValue, name: &str, again: bool) {
    let Some(value) = call(element, "getAttribute", &[&JsValue::from_str(name)]).as_string() else { return };
    let (english_key, shown_key, found_key) = (format!("{ENGLISH}-{name}"), format!("{SHOWN}-{name}"), format!("{FOUND}-{name}"));
    let shown = get(element, &shown_key).as_string();
    let english = match (&shown, get(element, &english_key).as_string()) {
        (Some(shown), Some(english)) if *shown == value => {
            if !again {
                return;
            }
            english
        }
        _ => value.clone(),
    };
    if kept(element) {
        return;
    }
    let (text, found) = render(&english);
    set(element, &english_key, &JsValue::from_str(&english));
    set(element, &shown_key, &JsValue::from_str(&text));
    set(element, &found_key, &JsValue::from_bool(found));
    if text != value {
        call(element, "setAttribute", &[&JsValue::from_str(name), &JsValue::from_str(&text)]);
    }
}

/// Every text and translated attribute within `root` (an element), in the installed language.
fn translate_within(root: &JsValue) {
    let walker = call(&document(), "createTreeWalker", &[root, &JsValue::from_f64(4.0)]);
    loop {
        let node = call(&walker, "nextNode", &[]);
        if node.is_null() || node.is_undefined() {
            break;
        }
        text_node(&node, true);
    }
    for name in ATTRIBUTES {
        let selector = JsValue::from_str(&format!("[{name}]"));
        if call(root, "matches", &[&selector]).as_bool() == Some(true) {
            attribute(root, name, true);
        }
        let found = Array::from(&call(root, "querySelectorAll", &[&selector]));
        for element in found.iter() {
            attribute(&element, name, true);
        }
    }
}

/// Follows what the page writes from now on: each new or changed text or name is translated.
fn observe() {
    if OBSERVER.with_borrow(Option::is_some) {
        return;
    }
    let changed = Closure::<dyn Fn(Array)>::new(|records: Array| {
        for record in records.iter() {
            let target = get(&record, "target");
            match get(&record, "type").as_string().as_deref() {
                Some("characterData") => text_node(&target, false),
                Some("attributes") => {
                    if let Some(name) = get(&record, "attributeName").as_string() {
                        attribute(&target, &name, false);
                    }
                }
                _ => {
                    for node in Array::from(&get(&record, "addedNodes")).iter() {
                        match get(&node, "nodeType").as_f64() {
                            Some(3.0) => text_node(&node, false),
                            Some(1.0) => translate_within(&node),
                            _ => {}
                        }
                    }
                }
            }
        }
    });
    let Ok(constructor) = get(&window(), "MutationObserver").dyn_into::<Function>() else { return };
    let Ok(observer) = Reflect::construct(&constructor, &Array::of1(changed.as_ref())) else { return };
    // The observer lives as long as the page speaks another language; its callback with it.
    changed.forget();
    let options = Object::new();
    for flag in ["subtree", "childList", "characterData", "attributes"] {
        set(&options, flag, &JsValue::TRUE);
    }
    let filter: Array = ATTRIBUTES.iter().map(|a| JsValue::from_str(a)).collect();
    set(&options, "attributeFilter", &filter);
    if let Some(body) = document().body() {
        call(&observer, "observe", &[&body, &options]);
    }
    OBSERVER.set(Some(observer));
}

/// Back to English: the observer stops, and every node the page translated gets its English back.
fn stop() {
    if let Some(observer) = OBSERVER.take() {
        call(&observer, "disconnect", &[]);
    }
    let _ = i18n::install(Lang::En, "");
    if let Some(body) = document().body() {
        translate_within(&body);
    }
}
