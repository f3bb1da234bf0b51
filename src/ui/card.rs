//! The shell every chapter shares: a titled section carrying its `data-widget` id.

use super::embed::EmbedButton;
use crate::dom::size::{printing, watch_focus, watch_wake};
use crate::lab::{use_lab, Sleeper};
use leptos::html::Section;
use leptos::prelude::*;

/// A chapter's card, with the id and title the chapter owns (its `ID` and `TITLE`).
#[component]
pub fn WidgetCard(
    /// The chapter's id (`data-widget`, `embed=`).
    id: &'static str,
    /// Its heading.
    title: &'static str,
    /// Its title when shown alone (embedded), where that differs from `title`: what the Embed
    /// button and the embed code name.
    #[prop(optional)]
    alone: Option<&'static str>,
    /// A short explanation under the title.
    #[prop(optional)]
    explain: Option<&'static str>,
    /// Extra classes for the section.
    #[prop(optional)]
    class: &'static str,
    children: Children,
) -> impl IntoView {
    let heading = format!("{id}-title");
    let labelled_by = heading.clone();
    let section = NodeRef::<Section>::new();
    // On the full page the chapter sleeps while it is far from the screen (see `Sleeper`), and
    // wakes as it nears it, while the page prints, and while focus is inside it: at once, before
    // the focused element's own handlers (capture), so that a key pressed or a field entered in a
    // chapter the observer has not reported yet acts on, and shows, the current state.
    let focused = RwSignal::new(false);
    if let Some(sleeper) = use_context::<Sleeper>() {
        let (lab, near, printing) = (use_lab(), RwSignal::new(false), printing());
        let awake = sleeper.clone();
        section.on_load(move |element| {
            watch_wake(&element, move |is_near| {
                near.try_set(is_near);
            });
            watch_focus(&element, move || {
                lab.wake(&sleeper, true);
                focused.set(true);
            });
        });
        Effect::new(move |_| lab.wake(&awake, near.get() || printing.get() || focused.get()));
    }
    view! {
        <section
            class=format!("widget {class}")
            id=id
            data-widget=id
            aria-labelledby=labelled_by
            node_ref=section
            on:focusout=move |_| focused.set(false)
        >
            <div class="widget-head">
                <h2 id=heading>{title}</h2>
                <EmbedButton id title=alone.unwrap_or(title) />
            </div>
            {explain.map(|text| view! { <p class="explain">{text}</p> })}
            {children()}
        </section>
    }
}
