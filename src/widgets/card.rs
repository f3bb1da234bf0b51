//! The shell every widget shares: a titled section carrying its `data-widget` id.

use super::registry;
use leptos::prelude::*;

/// A widget's card. The title comes from the [`registry`] unless `title` overrides it.
#[component]
pub fn WidgetCard(
    /// The widget's id in the registry (`data-widget`, `embed=`).
    id: &'static str,
    /// A title other than the registry's.
    #[prop(optional_no_strip)]
    title: Option<&'static str>,
    /// A short explanation under the title.
    #[prop(optional)]
    explain: Option<&'static str>,
    /// Extra classes for the section.
    #[prop(optional)]
    class: &'static str,
    children: Children,
) -> impl IntoView {
    let title = title.or_else(|| registry::find(id).map(|w| w.title)).unwrap_or(id);
    let heading = format!("{id}-title");
    let labelled_by = heading.clone();
    view! {
        <section class=format!("widget {class}") id=id data-widget=id aria-labelledby=labelled_by>
            <div class="widget-head">
                <h2 id=heading>{title}</h2>
                <super::embed::EmbedButton id />
            </div>
            {explain.map(|text| view! { <p class="explain">{text}</p> })}
            {children()}
        </section>
    }
}
