//! The lesson player: the bar at the bottom with the step (`lesson-step`, "k/N"), its caption
//! (`lesson-caption`), Back and Next; PageDown and PageUp (what a presentation clicker sends)
//! step too, and Escape leaves the lesson with the view it showed. Each step puts the page in
//! the state its view names (presenter mode and the theme stay the presenter's unless the view
//! sets them) and brings its chapter's key figure on screen. The address bar holds the step, so a
//! reload opens the same one.

use super::handout::Handout;
use super::stepper::{write_address, Stepper};
use super::{Lessons, Playing};
use crate::dom::js::{call, get, number};
use crate::dom::keys::{typing_in, within};
use crate::dom::page::{set_document_flag, set_url_tail};
use crate::lab::Lab;
use crate::state::lesson::{step_index, Lesson, LessonSource};
use crate::state::query::encode;
use crate::state::Notice;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Says why the lesson cannot play, and the page goes on without it. The address keeps what it
/// asked for (`lesson=`, `step=`) while the notice stands, so that a reload, once the file is
/// mended, tries again ([`super::LessonPart`] drops it with the notice).
fn give_up(lab: Lab, lessons: Lessons, message: String, asked: String) {
    lab.notices.update(|all| all.push(Notice { param: "lesson", message, in_effect: String::new() }));
    KEPT.with(|kept| *kept.borrow_mut() = asked);
    lessons.playing.set(0);
}

thread_local! {
    /// The address's tail of a lesson that could not play, kept once its player is gone.
    static KEPT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// What the address says of the lesson asked for: `lesson=…` and the step, if one was named.
fn asked_tail(lesson: &str, step: Option<&str>) -> String {
    match step {
        Some(step) => format!("lesson={}&step={}", encode(lesson), encode(step)),
        None => format!("lesson={}", encode(lesson)),
    }
}

/// Reads a lesson file beside the page: its text, or why not.
async fn fetch_lesson(path: &str) -> Result<Lesson, String> {
    let cannot = |why: String| format!("the lesson file '{path}' could not be read: {why}; showing the page without a lesson");
    let asked =
        call(&window(), "fetch", &[&JsValue::from_str(path)]).dyn_into::<js_sys::Promise>().map_err(|_| cannot("no fetch".into()))?;
    let response = JsFuture::from(asked).await.map_err(|_| cannot("the network refused it".into()))?;
    if get(&response, "ok").as_bool() != Some(true) {
        let status = get(&response, "statusText").as_string().unwrap_or_default();
        return Err(cannot(format!("the server answered {} {status}", number(&response, "status"))));
    }
    // Same origin only: a server's redirect elsewhere is refused.
    let origin = window().location().origin().unwrap_or_default();
    if !get(&response, "url").as_string().unwrap_or_default().starts_with(&format!("{origin}/")) {
        return Err(cannot("it is not on this page's site".into()));
    }
    let text = call(&response, "text", &[]).dyn_into::<js_sys::Promise>().map_err(|_| cannot("no text".into()))?;
    let text = JsFuture::from(text).await.map_err(|_| cannot("its text did not arrive".into()))?;
    Lesson::parse(&text.as_string().unwrap_or_default())
        .map_err(|why| format!("the lesson file '{path}' is not a lesson: {why}; showing the page without a lesson"))
}

/// The lesson bar, while a lesson plays.
#[component]
pub fn Player() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let lessons = expect_context::<Lessons>();
    let stepper = Stepper { lab, lesson: RwSignal::new(None), index: RwSignal::new(0), source: StoredValue::new(None) };
    let start = move |lesson: Lesson, step: Option<String>| {
        let (index, notice) = step_index(step.as_deref(), lesson.steps.len());
        stepper.lesson.set(Some(lesson));
        stepper.go(index, true);
        if let Some(message) = notice {
            lab.notices.update(|all| all.push(Notice { param: "step", message, in_effect: String::new() }));
        }
    };
    match lessons.take() {
        Some(Playing::Named { lesson, step }) => match LessonSource::parse(&lesson) {
            Ok(source) => {
                let asked = asked_tail(&lesson, step.as_deref());
                stepper.source.set_value(Some(source.text().to_string()));
                match source {
                    LessonSource::Intro => start(Lesson::intro(), step),
                    LessonSource::File(path) => leptos::task::spawn_local(async move {
                        match fetch_lesson(&path).await {
                            Ok(lesson) => start(lesson, step),
                            Err(message) => give_up(lab, lessons, message, asked),
                        }
                    }),
                }
            }
            // Not while the player is being made: the lesson ends a moment later.
            Err(message) => {
                let asked = asked_tail(&lesson, step.as_deref());
                leptos::task::spawn_local(async move { give_up(lab, lessons, message, asked) })
            }
        },
        Some(Playing::Built(lesson)) => start(lesson, None),
        None => {}
    }
    set_document_flag("data-lesson", true);
    let leave = move || lessons.playing.set(0);
    on_cleanup(move || {
        set_document_flag("data-lesson", false);
        set_url_tail(KEPT.with(|kept| kept.take()));
        write_address(lab, window().location().hash().ok().as_deref().and_then(|h| h.strip_prefix('#')).filter(|h| !h.is_empty()));
    });
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        let key = ev.key();
        if !matches!(key.as_str(), "PageDown" | "PageUp" | "Escape") || ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let target = ev.target();
        if typing_in(target.as_ref()) || within(target.as_ref(), "dialog[open], select") {
            return;
        }
        match key.as_str() {
            "PageDown" => stepper.step(1),
            "PageUp" => stepper.step(-1),
            _ => leave(),
        }
        ev.prevent_default();
    });
    on_cleanup(move || keys.remove());

    let count = move || stepper.count();
    let number = move || stepper.index.get() + 1;
    // In the page's language if the lesson gives it, as written (marked with its language); else
    // the caption in English, which the page translates if its catalogue has it (the built-in lesson).
    let words = crate::dom::size::words();
    let caption = Memo::new(move |_| {
        words.track();
        let lang = crate::i18n::current();
        stepper.lesson.with(|l| {
            let step = l.as_ref().and_then(|l| l.steps.get(stepper.index.get()))?;
            let (text, written_in) = step.caption_in(lang);
            Some((text.to_string(), written_in.map(|l| l.as_str())))
        })
    });
    let caption_text = move || caption.get().map(|(text, _)| text);
    let caption_lang = move || caption.get().and_then(|(_, lang)| lang);
    let at_start = move || number() <= 1;
    let at_end = move || number() >= count();
    let title = move || stepper.lesson.with(|l| l.as_ref().map(|l| l.title.clone()));
    view! {
        <div class="lesson-bar" role="region" aria-label="Lesson">
            <button type="button" class="lesson-back" disabled=at_start on:click=move |_| stepper.step(-1)>
                "Back" <span class="key-hint">" (PgUp)"</span>
            </button>
            <div class="lesson-text">
                <p class="lesson-meta">
                    <span data-testid="lesson-step" data-value=move || format!("{}/{}", number(), count())>
                        {move || if count() == 0 { "Loading the lesson…".to_string() } else { format!("Step {} of {}", number(), count()) }}
                    </span>
                    <span class="lesson-title">{move || title().map(|t| format!(" · {t}"))}</span>
                    <Handout stepper />
                    <button type="button" class="lesson-minor lesson-leave" on:click=move |_| leave()>
                        "Leave lesson" <span class="key-hint">" (Esc)"</span>
                    </button>
                </p>
                <p class="lesson-caption" data-testid="lesson-caption" aria-live="polite" lang=caption_lang
                    translate=move || caption_lang().map(|_| "no")>{caption_text}</p>
            </div>
            // At the last step it says the lesson is over, and cannot be pressed.
            <button type="button" class="lesson-next" disabled=at_end on:click=move |_| stepper.step(1)>
                {move || if at_end() && count() > 0 {
                    view! { "The end" }.into_any()
                } else {
                    view! { "Next" <span class="key-hint">" (PgDn)"</span> }.into_any()
                }}
            </button>
        </div>
    }
}
