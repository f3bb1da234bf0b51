//! "Make a lesson": a teacher explores, adds each view worth showing with a caption ("Add this
//! view to a lesson", in a panel that stays on screen while they scroll),
//! and takes the lesson away as a file (`lessons/<name>.json` beside the page, played by
//! `?lesson=lessons/<name>.json`) or plays it at once. The steps are kept in the browser
//! (localStorage) until the teacher clears them, so a reload or a closed panel loses nothing.

use super::{Lessons, Playing};
use crate::dom::js::{call, get};
use crate::dom::page;
use crate::lab::Lab;
use crate::state::lesson::{Lesson, Step};
use crate::state::query::encode;
use crate::story;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// Where the steps are kept between visits.
const STORAGE_KEY: &str = "rope-lab-lesson";

fn storage() -> JsValue {
    get(&window(), "localStorage")
}

/// The lesson kept from before, or an empty one.
fn kept() -> Lesson {
    call(&storage(), "getItem", &[&JsValue::from_str(STORAGE_KEY)])
        .as_string()
        .and_then(|text| Lesson::parse(&text).ok())
        .unwrap_or_else(|| Lesson { title: "My lesson".to_string(), steps: Vec::new() })
}

/// The chapter at the top of the screen: the first whose bottom is below the header's height.
fn chapter_on_screen() -> Option<&'static story::Widget> {
    story::WIDGETS.iter().find(|w| document().get_element_by_id(w.id).is_some_and(|e| e.get_bounding_client_rect().bottom() > 80.0))
}

/// The chapter a view added now is of: the one on screen, unless the page's header is (the
/// teacher scrolled back up to press "Make a lesson"): then the one they last worked in.
fn chapter_of_view() -> Option<&'static story::Widget> {
    let header_shown =
        document().query_selector(".site-header").ok().flatten().is_some_and(|h| h.get_bounding_client_rect().bottom() > 0.0);
    if header_shown {
        story::worked_in().or_else(chapter_on_screen)
    } else {
        chapter_on_screen()
    }
}

/// `view` with its chapter (`#id`) replaced by `chapter`, or dropped for "".
fn with_chapter(view: &str, chapter: &str) -> String {
    let query = view.split('#').next().unwrap_or_default();
    if chapter.is_empty() {
        query.to_string()
    } else {
        format!("{query}#{chapter}")
    }
}

/// The lesson file's name as typed, made safe for a path: letters, digits, `-` and `_`.
fn file_stem(typed: &str) -> String {
    let stem: String = typed.trim().chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect();
    if stem.trim_matches('-').is_empty() {
        "mine".to_string()
    } else {
        stem
    }
}

/// The panel that collects views into a lesson.
#[component]
pub fn Editor() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let lessons = expect_context::<Lessons>();
    let lesson = RwSignal::new(kept());
    let name = RwSignal::new("mine".to_string());
    // Kept on every change; a step without a caption still has its chapter's title.
    Effect::new(move |_| {
        let text = lesson.with(Lesson::to_json);
        call(&storage(), "setItem", &[&JsValue::from_str(STORAGE_KEY), &JsValue::from_str(&text)]);
    });
    let add_view = move || {
        let query = lab.state.with_untracked(|s| s.to_query());
        let chapter = chapter_of_view();
        let view = format!(
            "{}{}",
            if query.is_empty() { String::new() } else { format!("?{query}") },
            chapter.map_or(String::new(), |w| format!("#{}", w.id))
        );
        let caption = chapter.map_or("This view".to_string(), |w| w.page_title().to_string());
        lesson.update(|l| l.steps.push(Step { view, caption, captions: Vec::new() }));
    };
    let download = move |_| {
        let text = lesson.with_untracked(Lesson::to_json);
        let Ok(link) = document().create_element("a") else { return };
        let Ok(link) = link.dyn_into::<web_sys::HtmlAnchorElement>() else { return };
        link.set_href(&format!("data:application/json;charset=utf-8,{}", String::from(js_sys::encode_uri_component(&text))));
        link.set_download(&format!("{}.json", file_stem(&name.get_untracked())));
        link.click();
    };
    let play = move |_| {
        let built = lesson.get_untracked();
        if !built.steps.is_empty() {
            lessons.editing.set(0);
            lessons.play(Playing::Built(built));
        }
    };
    let link = move || page::address(&format!("lesson={}", encode(&format!("lessons/{}.json", file_stem(&name.get())))), false);
    let count = move || lesson.with(|l| l.steps.len());
    // The chapter step i opens at ("" for none).
    // (An anchor inside a chapter, `#scaling-compare`, shows as its chapter.)
    let at = move |i: usize| {
        lesson.with(|l| {
            let id = l.steps.get(i).and_then(|s| s.chapter()).unwrap_or_default();
            crate::story::chapter_of(id).map_or(id, |w| w.id).to_string()
        })
    };
    let has_steps = move || count() > 0;
    view! {
        <aside class="lesson-editor" role="dialog" aria-label="Your lesson" data-testid="lesson-editor">
            <div class="lesson-editor-head">
                <h2>"Your lesson"</h2>
                <button type="button" on:click=move |_| lessons.editing.set(0)>"Close"</button>
            </div>
            <label class="control">"Title"
                <input type="text" prop:value=move || lesson.with(|l| l.title.clone())
                    on:change=move |ev| lesson.update(|l| l.title = event_target_value(&ev)) />
            </label>
            <ol class="lesson-editor-steps">
                {move || (0..count()).map(|i| view! {
                    <li>
                        <code class="lesson-editor-view">{move || lesson.with(|l| l.steps.get(i).map(|s| s.view.clone()))}</code>
                        // The chapter the step opens at, the teacher's to change.
                        <label class="control">{format!("Chapter of step {}", i + 1)}
                            <select on:change=move |ev| {
                                    let chapter = event_target_value(&ev);
                                    lesson.update(|l| if let Some(step) = l.steps.get_mut(i) {
                                        step.view = with_chapter(&step.view, &chapter);
                                    });
                                }>
                                <option value="" prop:selected=move || at(i).is_empty()>"(the top of the page)"</option>
                                {story::WIDGETS.iter().map(|w| view! {
                                    <option value=w.id prop:selected=move || at(i) == w.id>{w.page_title()}</option>
                                }).collect_view()}
                            </select>
                        </label>
                        <label class="control">{format!("Caption of step {}", i + 1)}
                            <textarea rows="2" prop:value=move || lesson.with(|l| l.steps.get(i).map(|s| s.caption.clone()))
                                on:change=move |ev| lesson.update(|l| if let Some(step) = l.steps.get_mut(i) {
                                    step.caption = event_target_value(&ev);
                                })></textarea>
                        </label>
                        // In another order: up or down one place.
                        <button type="button" disabled=move || i == 0 on:click=move |_| lesson.update(|l| if i > 0 && i < l.steps.len() {
                            l.steps.swap(i - 1, i);
                        })>{format!("Move step {} up", i + 1)}</button>
                        <button type="button" disabled=move || { i + 1 >= count() } on:click=move |_| lesson.update(|l| if i + 1 < l.steps.len() {
                            l.steps.swap(i, i + 1);
                        })>{format!("Move step {} down", i + 1)}</button>
                        <button type="button" on:click=move |_| lesson.update(|l| { if i < l.steps.len() { l.steps.remove(i); } })>
                            {format!("Remove step {}", i + 1)}
                        </button>
                    </li>
                }).collect_view()}
            </ol>
            <p class="explain" hidden=has_steps>"Scroll to a chapter, set it up, then add this view: each view becomes a step. This panel stays while you explore."</p>
            <div class="lesson-editor-actions">
                <button type="button" on:click=move |_| add_view()>"Add this view to a lesson"</button>
                <button type="button" disabled=move || count() == 0 on:click=play>"Play it"</button>
                <button type="button" disabled=move || count() == 0 on:click=download>"Download the lesson file"</button>
                <button type="button" disabled=move || count() == 0 on:click=move |_| lesson.update(|l| l.steps.clear())>"Clear"</button>
            </div>
            <label class="control">"File name"
                <input type="text" prop:value=move || name.get() on:change=move |ev| name.set(event_target_value(&ev)) />
            </label>
            <p class="explain">
                "Save the file as " <code>{move || format!("lessons/{}.json", file_stem(&name.get()))}</code>
                " beside the page; this link then plays it: " <code class="lesson-editor-link">{link}</code>
            </p>
        </aside>
    }
}
