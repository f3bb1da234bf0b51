//! The shell every chapter shares: a titled section carrying its `data-widget` id.

use super::embed::EmbedButton;
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
    view! {
        <section class=format!("widget {class}") id=id data-widget=id aria-labelledby=labelled_by>
            <div class="widget-head">
                <h2 id=heading>{title}</h2>
                <EmbedButton id title=alone.unwrap_or(title) />
            </div>
            {explain.map(|text| view! { <p class="explain">{text}</p> })}
            {children()}
        </section>
    }
}
