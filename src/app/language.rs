//! The page's language: `lang=`, else the browser's preference; the switch in the header. In
//! English nothing more is fetched. Another language fetches the part that translates the page
//! where it stands (`dom/translate.rs`) and that language's words; a first visit in it mounts
//! the page once they are here, so that it does not show English first.

use crate::dom::js::get;
use crate::i18n::Lang;
use crate::lab::Lab;
use crate::state::query::parse_pairs;
use crate::state::{Change, Notice};
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

thread_local! {
    /// What to say once the page is mounted: a language asked for whose words did not arrive.
    static UNSAID: RefCell<Option<Notice>> = const { RefCell::new(None) };
    /// The language the page is in (the catalogue itself lives in the part that translates).
    static SPOKEN: std::cell::Cell<Lang> = const { std::cell::Cell::new(Lang::En) };
}

/// Calls `mount` in the language the address asks for (or the browser prefers): at once in
/// English, else once the page can be put in that language.
pub fn start(mount: fn()) {
    // A `lang=` the page does not speak is the state's to correct (with its notice).
    let asked = parse_pairs(&super::browser::query_string())
        .into_iter()
        .find_map(|(name, value)| (name == "lang").then(|| Lang::parse(&value)).flatten());
    match asked.unwrap_or_else(browser_preference) {
        Lang::En => mount(),
        lang => speak(
            lang,
            Box::new(move |spoken| {
                if !spoken {
                    UNSAID.set(Some(not_spoken(lang)));
                }
                mark_language();
                mount();
            }),
        ),
    }
}

/// The notice the page starts with, if its language could not be had.
pub fn take_notice() -> Option<Notice> {
    UNSAID.take()
}

fn not_spoken(lang: Lang) -> Notice {
    let message =
        format!("The page in {} could not be downloaded (is the network down?): it stays in {}.", lang.name(), SPOKEN.get().name());
    Notice { param: "lang", message, in_effect: String::new() }
}

/// Puts the page in `lang` through the part that translates it; `done(false)` if that part or
/// the language's words could not be fetched.
fn speak(lang: Lang, done: Box<dyn FnOnce(bool)>) {
    // Shared with the fetch of the part: if that fails, the part never calls it.
    let done = Rc::new(RefCell::new(Some(done)));
    let finish = move |spoken: bool| {
        if let Some(done) = done.borrow_mut().take() {
            if spoken {
                SPOKEN.set(lang);
            }
            done(spoken);
        }
    };
    let part = finish.clone();
    // Not Leptos' executor: a first visit in another language asks before the page is mounted.
    #[cfg(split)]
    wasm_bindgen_futures::spawn_local(async move {
        if crate::dom::translate::speak(lang, Box::new(part)).await.is_err() {
            finish(false);
        }
    });
    #[cfg(not(split))]
    if crate::dom::translate::speak(lang, Box::new(part)).is_err() {
        finish(false);
    }
}

/// `<html lang>`: the language the page is in now.
fn mark_language() {
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("lang", SPOKEN.get().as_str());
    }
}

/// The first of the browser's languages the page speaks (`navigator.languages`), else English.
fn browser_preference() -> Lang {
    let languages = js_sys::Array::from(&get(&window().navigator(), "languages"));
    Lang::preferred(languages.iter().filter_map(|tag| tag.as_string()))
}

/// The switch in the header: the languages by their own names, each marked with its language.
/// Its accessible name says "Language" in every language (the contract) and stays untranslated.
#[component]
pub fn LanguageSwitch(lab: Lab) -> impl IntoView {
    let choose = move |ev: leptos::ev::Event| {
        let select: web_sys::HtmlSelectElement = event_target(&ev);
        let Some(lang) = Lang::parse(&select.value()) else { return };
        speak(
            lang,
            Box::new(move |spoken| {
                if spoken {
                    lab.apply(Change::Lang(Some(lang)));
                } else {
                    select.set_value(SPOKEN.get().as_str());
                    lab.notices.try_update(|all| all.push(not_spoken(lang)));
                }
                mark_language();
            }),
        );
    };
    let current = SPOKEN.get();
    view! {
        <select class="language-switch" aria-label="Language" translate="no" on:change=choose>
            {Lang::ALL.into_iter().map(|lang| view! {
                <option value=lang.as_str() lang=lang.as_str() selected=lang == current>{lang.name()}</option>
            }).collect_view()}
        </select>
    }
}
