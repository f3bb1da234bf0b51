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

thread_local! {
    /// What to say once the page is mounted: a language asked for whose words did not arrive.
    static UNSAID: RefCell<Option<Notice>> = const { RefCell::new(None) };
    /// The language the page is in (the catalogue itself lives in the part that translates).
    static SPOKEN: std::cell::Cell<Lang> = const { std::cell::Cell::new(Lang::En) };
    /// The language asked for last, and what to do once the page is in it (or could not be).
    static ASKED: RefCell<Option<(Lang, WhenSpoken)>> = const { RefCell::new(None) };
}

/// What to do once the page is in the language asked for (`true`) or could not be put in it.
type WhenSpoken = Box<dyn FnOnce(bool)>;

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

/// Puts the page in `lang` through the part that translates it, then calls `done`: `false` if
/// that part or the language's words could not be fetched. The latest asking wins.
fn speak(lang: Lang, done: WhenSpoken) {
    ASKED.set(Some((lang, done)));
    // Not Leptos' executor: a first visit in another language asks before the page is mounted.
    #[cfg(split)]
    wasm_bindgen_futures::spawn_local(async move {
        if crate::dom::translate::speak(lang, spoken).await.is_err() {
            spoken(false);
        }
    });
    #[cfg(not(split))]
    if crate::dom::translate::speak(lang, spoken).is_err() {
        spoken(false);
    }
}

/// What the part calls once the page is in the language asked for (`true`), or could not be put
/// in it (a plain function: no closure to carry into the part).
fn spoken(ok: bool) {
    if let Some((lang, done)) = ASKED.take() {
        if ok {
            SPOKEN.set(lang);
        }
        done(ok);
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
    // The options as one piece of HTML (cheaper for a first visit than a view per option).
    let current = SPOKEN.get();
    let options: String = Lang::ALL
        .iter()
        .map(|&lang| {
            let (tag, selected) = (lang.as_str(), if lang == current { " selected" } else { "" });
            format!(r#"<option value="{tag}" lang="{tag}"{selected}>{}</option>"#, lang.name())
        })
        .collect();
    view! {
        <select class="language-switch" aria-label="Language" translate="no" on:change=choose inner_html=options></select>
    }
}
