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

/// What is never translated: code, keys and formulas, the reader's own text, and what says so.
const KEEP: &str = "code, pre, kbd, math, textarea, script, style, noscript, [translate=no]";
/// The attributes that are words a reader (or a screen reader) meets.
const ATTRIBUTES: [&str; 5] = ["aria-label", "aria-valuetext", "title", "placeholder", "alt"];
/// Where a node keeps its English text, the text put in its place, and whether the catalogue
/// had it (what `e2e/i18n.spec.mjs` reads to list what a language leaves in English).
const ENGLISH: &str = "ropeLabEnglish";
const SHOWN: &str = "ropeLabShown";
const FOUND: &str = "ropeLabFound";

mod sentence;
use sentence::{kept, pieces_of, render, translate_unit, unit_of, worded, MISSING};

thread_local! {
    static OBSERVER: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// Puts the page in `lang` (fetching its catalogue first unless English); `done(false)` if its
/// words could not be had, the page left as it was.
#[cfg_attr(split, leptos::wasm_split::wasm_split(speak_8, wasm_split_path = ::leptos::wasm_split, fallible))]
pub fn speak(lang: Lang, done: fn(bool)) -> Result<(), leptos::wasm_split::SplitLoaderError> {
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
                i18n::say_with(drawn);
                translate_page();
                observe();
                crate::dom::size::words().update(|n| *n += 1);
            }
            done(installed);
        }),
    );
    Ok(())
}

/// Where the page notes the texts it drew on a canvas that the catalogue lacks, as templates
/// (what `e2e/i18n.spec.mjs` lists with the rest).
const UNSAID: &str = "ropeLabUnsaid";

/// A text a canvas draws (an axis, a legend, a take-away's caption), in the installed language:
/// [`i18n::translate_caption`], noting each part it lacks.
fn drawn(english: &str) -> Option<String> {
    i18n::translate_caption(english, &mut |part| {
        if !worded(part) {
            return;
        }
        let window = JsValue::from(window());
        let mut unsaid = get(&window, UNSAID);
        if unsaid.is_undefined() {
            unsaid = js_sys::Set::new(&JsValue::UNDEFINED).into();
            set(&window, UNSAID, &unsaid);
        }
        call(&unsaid, "add", &[&JsValue::from_str(&i18n::normalize(part.trim()).0)]);
    })
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

/// Translates one attribute of an element, as [`translate_unit`] does a sentence (unless it
/// shows what was put there already and `again` is false).
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
    // An attribute is the page's words even on code or a text field (a listing's accessible name),
    // unless the element says `translate="no"`.
    if !call(element, "closest", &[&JsValue::from_str("[translate=no]")]).is_null() {
        return;
    }
    // A value without words (a number alone), or code (a JSON example as a placeholder), is as
    // the page wrote it.
    let code = english.trim_start().starts_with(['{', '[']);
    let (text, found) = if worded(&english) && !code { render(&english) } else { (english.clone(), true) };
    set(element, &english_key, &JsValue::from_str(&english));
    set(element, &shown_key, &JsValue::from_str(&text));
    set(element, &found_key, &JsValue::from_bool(found));
    let missing = (!found).then(|| i18n::normalize(english.trim()).0);
    set(element, &format!("{MISSING}-{name}"), &missing.map_or(JsValue::UNDEFINED, |m| JsValue::from_str(&m)));
    if text != value {
        call(element, "setAttribute", &[&JsValue::from_str(name), &JsValue::from_str(&text)]);
    }
}

/// Every text and translated attribute within `root` (an element), in the installed language.
fn translate_within(root: &JsValue) {
    // The sentences with a text within `root`, each with its text nodes in order.
    let mut units: Vec<(JsValue, Vec<JsValue>)> = Vec::new();
    let index = js_sys::Map::new();
    let walker = call(&document(), "createTreeWalker", &[root, &JsValue::from_f64(4.0)]);
    loop {
        let node = call(&walker, "nextNode", &[]);
        if node.is_null() || node.is_undefined() {
            break;
        }
        let parent = get(&node, "parentElement");
        if kept(&parent) {
            continue;
        }
        let unit = unit_of(&parent);
        match index.get(&unit).as_f64() {
            Some(i) => units[i as usize].1.push(node),
            None => {
                index.set(&unit, &JsValue::from_f64(units.len() as f64));
                units.push((unit, vec![node]));
            }
        }
    }
    for (unit, nodes) in units {
        // A sentence that begins outside `root` (an inline element added to it): all of it.
        let whole = call(root, "contains", &[&unit]).as_bool() == Some(true);
        translate_unit(&if whole { nodes } else { pieces_of(&unit) });
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

/// The whole page in the installed language: its body and its title.
fn translate_page() {
    if let Some(body) = document().body() {
        translate_within(&body);
    }
    if let Ok(Some(title)) = document().query_selector("title") {
        translate_within(&title);
    }
}

/// Follows what the page writes from now on: each new or changed text or name is translated.
fn observe() {
    if OBSERVER.with_borrow(Option::is_some) {
        return;
    }
    let changed = Closure::<dyn Fn(Array)>::new(|records: Array| {
        // Each sentence a text changed in, once; and each element added, whole.
        let (sentences, added) = (js_sys::Set::new(&JsValue::UNDEFINED), js_sys::Set::new(&JsValue::UNDEFINED));
        let sentence_of = |node: &JsValue| {
            let parent = get(node, "parentElement");
            if !kept(&parent) {
                sentences.add(&unit_of(&parent));
            }
        };
        for record in records.iter() {
            let target = get(&record, "target");
            match get(&record, "type").as_string().as_deref() {
                Some("characterData") => sentence_of(&target),
                Some("attributes") => {
                    if let Some(name) = get(&record, "attributeName").as_string() {
                        attribute(&target, &name, false);
                    }
                }
                _ => {
                    for node in Array::from(&get(&record, "addedNodes")).iter() {
                        match get(&node, "nodeType").as_f64() {
                            Some(3.0) => sentence_of(&node),
                            Some(1.0) => {
                                added.add(&node);
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        added.for_each(&mut |element, _, _| {
            if get(&element, "isConnected").as_bool() == Some(true) {
                translate_within(&element);
            }
        });
        sentences.for_each(&mut |unit, _, _| {
            if !unit.is_null() && get(&unit, "isConnected").as_bool() == Some(true) {
                translate_unit(&pieces_of(&unit));
            }
        });
        // What was just put in place is not news.
        OBSERVER.with_borrow(|observer| {
            if let Some(observer) = observer {
                call(observer, "takeRecords", &[]);
            }
        });
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
    translate_page();
    crate::dom::size::words().update(|n| *n += 1);
}
