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
            // On a narrow screen a gear stands for the word, so that long positions leave it room.
            <a href="#parameters" aria-label="Parameters" on:click=|_| unfold_parameters()>
                <span class="reach-icon" aria-hidden="true">"⚙"</span><span class="reach-label">"Parameters"</span>
            </a>
        </nav>
    }
}
