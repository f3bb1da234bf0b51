//! A lesson's handout: "Print handout" walks the steps, copies each step's key figure as the page
//! draws it (canvases as pictures), and prints the steps one after another, each with its caption,
//! its figure and the link that opens it live; then the page is back at the step it was on.

use super::figures::key_figure;
use super::stepper::Stepper;
use crate::dom::js::{call, number, set};
use crate::dom::page;
use crate::state::lesson::Step;
use leptos::html::Section;
use leptos::portal::Portal;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// Waits `ms` milliseconds without holding the page.
async fn pause(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// The element of `chapter` a handout shows, once its chapter has arrived (split build) and
/// drawn: up to five seconds.
async fn figure_of(chapter: &str) -> Option<web_sys::Element> {
    let selector = key_figure(chapter).1;
    // An anchor's figure is in its chapter.
    let chapter = crate::story::chapter_of(chapter).map_or(chapter, |w| w.id);
    for _ in 0..50 {
        // A chapter draws once near the screen (and, split build, arrives then).
        if let Some(section) = document().get_element_by_id(chapter) {
            section.scroll_into_view();
        }
        let section = document().get_element_by_id(chapter).filter(|s| !s.class_list().contains("widget-loading"));
        if let Some(figure) = section.and_then(|s| s.query_selector(selector).ok().flatten()) {
            figure.scroll_into_view();
            // Charts draw once on screen, in the next frames.
            pause(400).await;
            return Some(figure);
        }
        pause(100).await;
    }
    None
}

/// A copy of `figure` to print: canvases become pictures of what they show, and the copy keeps
/// no id or test id (the page's own stay unique).
fn copy_of(figure: &web_sys::Element) -> Option<web_sys::Element> {
    let copy: web_sys::Element = figure.clone_node_with_deep(true).ok()?.dyn_into().ok()?;
    let (drawn, blank) = (figure.query_selector_all("canvas").ok()?, copy.query_selector_all("canvas").ok()?);
    for i in 0..drawn.length() {
        let (Some(drawn), Some(blank)) = (drawn.item(i), blank.item(i)) else { continue };
        let Ok(drawn) = drawn.dyn_into::<web_sys::HtmlCanvasElement>() else { continue };
        let picture = document().create_element("img").ok()?;
        let _ = picture.set_attribute("src", &drawn.to_data_url().unwrap_or_default());
        let _ = picture.set_attribute("alt", "");
        let class = drawn.get_attribute("class").unwrap_or_default();
        let _ = picture.set_attribute("class", &format!("{class} handout-picture"));
        let _ = picture.set_attribute("width", &number(&drawn, "clientWidth").to_string());
        let _ = picture.set_attribute("height", &number(&drawn, "clientHeight").to_string());
        // Where it sits: a layer over another (the heatmap's cells over its frame) keeps its place.
        // (Through the CSSOM: the page's policy refuses style attributes written as text.)
        if let Ok(picture) = picture.clone().dyn_into::<web_sys::HtmlElement>() {
            web_sys::HtmlElement::style(&picture).set_css_text(&web_sys::HtmlElement::style(&drawn).css_text());
        }
        call(&blank, "replaceWith", &[&picture]);
    }
    for attribute in ["id", "data-testid"] {
        if let Ok(marked) = copy.query_selector_all(&format!("[{attribute}]")) {
            for i in 0..marked.length() {
                if let Some(element) = marked.item(i).and_then(|e| e.dyn_into::<web_sys::Element>().ok()) {
                    let _ = element.remove_attribute(attribute);
                }
            }
        }
        let _ = copy.remove_attribute(attribute);
    }
    Some(copy)
}

/// One step of the handout: its number and caption (in the page's language when the lesson gives
/// it, marked as such; else the page translates it if it can), its figure, its link.
fn step_entry(number: usize, step: &Step, link: &str, figure: Option<web_sys::Element>) -> Option<web_sys::Element> {
    let entry = document().create_element("article").ok()?;
    let _ = entry.set_attribute("class", "handout-step");
    let heading = document().create_element("h2").ok()?;
    let (caption, written_in) = step.caption_in(crate::i18n::current());
    for (text, lang) in [(format!("Step {number}."), None), (" ".to_string(), None), (caption.to_string(), written_in)] {
        let span = document().create_element("span").ok()?;
        set(&span, "textContent", &JsValue::from_str(&text));
        if let Some(lang) = lang {
            let _ = span.set_attribute("lang", lang.as_str());
            let _ = span.set_attribute("translate", "no");
        }
        heading.append_child(&span).ok()?;
    }
    entry.append_child(&heading).ok()?;
    if let Some(figure) = figure {
        entry.append_child(&figure).ok()?;
    }
    let line = document().create_element("p").ok()?;
    let _ = line.set_attribute("class", "handout-link");
    let _ = line.set_attribute("translate", "no");
    set(&line, "textContent", &JsValue::from_str(link));
    entry.append_child(&line).ok()?;
    Some(entry)
}

/// The "Print handout" button, and the handout it builds (printed only, never on screen).
#[component]
pub fn Handout(stepper: Stepper) -> impl IntoView {
    let sheet = NodeRef::<Section>::new();
    let busy = RwSignal::new(false);
    let after = window_event_listener_untyped("afterprint", |_| page::set_document_flag("data-handout", false));
    on_cleanup(move || after.remove());
    let build = move |_| {
        let (Some(sheet), Some(lesson)) = (sheet.get_untracked(), stepper.lesson.get_untracked()) else { return };
        busy.set(true);
        crate::story::fetch_all();
        let was_at = stepper.index.get_untracked();
        leptos::task::spawn_local(async move {
            sheet.set_inner_html("");
            if let Ok(title) = document().create_element("h1") {
                set(&title, "textContent", &JsValue::from_str(&lesson.title));
                let _ = sheet.append_child(&title);
            }
            for (i, step) in lesson.steps.iter().enumerate() {
                stepper.go(i, false);
                let figure = match step.chapter() {
                    Some(chapter) => figure_of(chapter).await.and_then(|f| copy_of(&f)),
                    None => None,
                };
                let link = format!("{}{}", page::address("", false), step.view);
                if let Some(entry) = step_entry(i + 1, step, &link, figure) {
                    let _ = sheet.append_child(&entry);
                }
            }
            stepper.go(was_at, true);
            busy.set(false);
            page::set_document_flag("data-handout", true);
            call(&window(), "print", &[]);
        });
    };
    view! {
        <button type="button" class="lesson-minor lesson-handout-button" disabled=move || busy.get() on:click=build>
            {move || if busy.get() { "Preparing the handout…" } else { "Print handout" }}
        </button>
        <Portal><section class="lesson-handout" aria-hidden="true" node_ref=sheet></section></Portal>
    }
}
