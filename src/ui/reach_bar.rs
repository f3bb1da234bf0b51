//! The bar of m and n at the bottom of a phone's screen. Its code comes with the chapters, not
//! with the page's first download: the first chapter to arrive on the full page brings it.

use crate::lab::{use_lab, FullPage, Lab};
use crate::state::Change;
use leptos::portal::Portal;
use leptos::prelude::*;
use std::cell::Cell;

thread_local! {
    /// Whether the page has its bar already.
    static SHOWN: Cell<bool> = const { Cell::new(false) };
}

/// The bar, the first time a chapter of the full page asks (elsewhere, and after that, nothing):
/// in `<body>`, outside the chapter, whose containment would otherwise clip a fixed element.
pub fn reach_bar_once() -> Option<AnyView> {
    if use_context::<FullPage>().is_none() || SHOWN.replace(true) {
        return None;
    }
    let lab = use_lab();
    Some(view! { <Portal><ReachBar lab /></Portal> }.into_any())
}

/// Opens the folded parameters panel (a phone's), which the bar's link leads to.
fn unfold_parameters() {
    if let Ok(Some(details)) = document().query_selector("#parameters details") {
        let _ = details.set_attribute("open", "");
    }
}

/// On a phone the parameters panel is far above most chapters: a bar fixed at the bottom keeps
/// m and n a tap away, and a link to all parameters (which unfolds them). The style sheet shows
/// it once the chapter that first turns q and k by m and n (add or rotate) has come on screen:
/// before it, m and n mean nothing yet.
#[component]
fn ReachBar(lab: Lab) -> impl IntoView {
    let at = lab.select(|s| (s.m, s.n));
    let playing = lab.playing;
    // The chapters, read from the page when the menu is opened (the chapters' parts arrive as the
    // reader scrolls; their placeholders carry the same ids and titles).
    let chapters = RwSignal::new(Vec::<(String, String)>::new());
    let read_chapters = move || {
        let Ok(found) = document().query_selector_all("main section.widget[id]") else { return };
        let list = (0..found.length())
            .filter_map(|i| found.item(i))
            .filter_map(|node| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(node).ok())
            .filter_map(|section| {
                let title = section.query_selector("h2").ok().flatten()?.text_content()?;
                Some((section.id(), title.trim().to_string()))
            })
            .collect::<Vec<_>>();
        if chapters.with_untracked(|c| *c != list) {
            chapters.set(list);
        }
    };
    let jump = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if !id.is_empty() {
            let _ = window().location().set_hash(&id);
        }
        // Back to its label, so that the same chapter can be chosen again.
        if let Some(select) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlSelectElement>(t).ok()) {
            select.set_value("");
        }
    };
    let step = move |query: bool, by: i64| {
        let (m, n) = at.get_untracked();
        lab.apply(if query { Change::M((m + by).max(0)) } else { Change::N((n + by).max(0)) });
    };
    view! {
        <nav class="reach-bar" aria-label="Quick controls">
            <span class="reach-group"><span class="q-text">"m "{move || at.get().0}</span>
                <button type="button" aria-label="step m back" on:click=move |_| step(true, -1)>"−"</button>
                <button type="button" aria-label="step m forward" on:click=move |_| step(true, 1)>"+"</button>
            </span>
            <span class="reach-group"><span class="k-text">"n "{move || at.get().1}</span>
                <button type="button" aria-label="step n back" on:click=move |_| step(false, -1)>"−"</button>
                <button type="button" aria-label="step n forward" on:click=move |_| step(false, 1)>"+"</button>
            </span>
            // While the lab plays, a way to stop it wherever the reader is (on a phone the faces and
            // their Play button are a screen apart).
            <Show when=move || playing.get()>
                <button type="button" class="reach-pause" aria-label="pause the rotation lab" on:click=move |_| playing.set(false)>"❚❚"</button>
            </Show>
            // Every chapter a tap away on a page of forty thousand pixels.
            <select class="reach-chapters" aria-label="Go to a chapter" on:focus=move |_| read_chapters()
                on:pointerdown=move |_| read_chapters() on:change=jump>
                <option value="">"☰"</option>
                {move || chapters.get().into_iter().map(|(id, title)| view! { <option value=id>{title}</option> }).collect_view()}
            </select>
            // On a narrow screen a gear stands for the word, so that long positions leave it room.
            <a href="#parameters" aria-label="Parameters" on:click=|_| unfold_parameters()>
                <span class="reach-icon" aria-hidden="true">"⚙"</span><span class="reach-label">"Parameters"</span>
            </a>
        </nav>
    }
}
