//! "Embed": every widget's button opens one dialog with the ready `<iframe>` snippet for the
//! current state (and the lines that size the frame to the widget), a live preview of it, and
//! a button that copies it.

use super::dialog::{copy_text, Dialog};
use crate::lab::use_lab;
use leptos::prelude::*;

/// The chapter the embed dialog is for: its id and title, handed over by its card's button.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Embedded {
    pub id: &'static str,
    pub title: &'static str,
}

/// Which chapter the embed dialog is for, and what brings the dialog (its part, in the release
/// build); provided by the full page only (an embedded widget has no button of its own).
#[derive(Clone, Copy)]
pub struct EmbedRequest(pub RwSignal<Option<Embedded>>, pub fn());

/// Where the app is served from, and the address of the page showing a widget alone with
/// `query`: (the app's folder, the widget's address).
fn embed_urls(query: &str) -> (String, String) {
    let location = window().location();
    let origin = location.origin().unwrap_or_default();
    let path = location.pathname().unwrap_or_default();
    let folder = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    (format!("{origin}{folder}"), format!("{origin}{path}?{query}"))
}

/// The button in a widget's heading.
#[component]
pub fn EmbedButton(id: &'static str, title: &'static str) -> impl IntoView {
    use_context::<EmbedRequest>().map(|EmbedRequest(request, fetch_dialog)| {
        view! {
            <button type="button" class="embed-button" aria-haspopup="dialog"
                aria-label=format!("Embed “{title}” in a page") on:click=move |_| {
                    // The dialog comes with the last part: asked for now if the reader has not brought it.
                    fetch_dialog();
                    request.set(Some(Embedded { id, title }));
                }>
                "Embed"
            </button>
        }
    })
}

/// The dialog, once for the page, showing the chapter its buttons set in the [`EmbedRequest`],
/// with the [`EmbedSheet`]: in the release build both come with the last part (on its way from
/// the first visit), not with the page's frame.
#[component]
pub fn EmbedDialog() -> impl IntoView {
    let EmbedRequest(request, _) = expect_context::<EmbedRequest>();
    // Open while a widget is asked for; closing (Esc, Close) forgets it.
    let title = Signal::derive(move || {
        let name = request.get().map_or("", |chapter| chapter.title);
        format!("Embed “{name}”")
    });
    view! {
        <Dialog open=Signal::derive(move || request.with(Option::is_some)) close=Callback::new(move |_| request.set(None))
            title id="embed-dialog">
            <EmbedSheet />
        </Dialog>
    }
}

/// The embed dialog's content: the snippet for the widget asked for, a button that copies it,
/// and a live preview.
#[component]
pub fn EmbedSheet() -> impl IntoView {
    let lab = use_lab();
    let EmbedRequest(request, _) = expect_context::<EmbedRequest>();
    // The state as it is, shown by this widget alone (compact: without its secondary panels).
    let compact = RwSignal::new(false);
    let url = Memo::new(move |_| {
        let id = request.get()?.id;
        let compact = compact.get();
        let query = lab.state.with(|s| {
            let mut alone = s.clone();
            alone.embed = Some(id.to_string());
            alone.compact = compact;
            alone.to_query()
        });
        Some(embed_urls(&query))
    });
    let snippet = move || {
        let (Some(Embedded { title, .. }), Some((folder, url))) = (request.get(), url.get()) else { return String::new() };
        // No style attribute and no inline script: the code works on hosts with a strict CSP
        // (which must allow this origin in frame-src and script-src, or serve the script itself).
        format!(
            "<iframe src=\"{}\" title=\"RoPE Lab: {}\"\n        width=\"100%\" height=\"480\" loading=\"lazy\"></iframe>\n\
             <!-- once per page: fits each RoPE Lab frame to its widget -->\n\
             <script src=\"{folder}assets/embed-resize.js\"></script>",
            url.replace('&', "&amp;"),
            title.replace('"', "&quot;")
        )
    };
    let status = RwSignal::new("");
    let link_status = RwSignal::new("");
    // The whole page at this chapter, in this state: what the header's "Copy link" cannot say,
    // being at the top of the page.
    let chapter_link = move || {
        let Some(Embedded { id, .. }) = request.get() else { return String::new() };
        let query = lab.state.with(|s| s.to_query());
        let location = window().location();
        let (origin, path) = (location.origin().unwrap_or_default(), location.pathname().unwrap_or_default());
        format!("{origin}{path}{}{query}#{id}", if query.is_empty() { "" } else { "?" })
    };
    // A new dialog starts without the last one's "Copied.".
    Effect::new(move |_| {
        request.track();
        status.set("");
        link_status.set("");
    });
    view! {
        <p class="explain">"Paste this where the widget should appear: it shows the widget in its current state, and the script (once per page) sizes each frame to its widget. It has no inline script or style, so it also works on pages with a strict Content-Security-Policy."</p>
        <label>
            <input type="checkbox" prop:checked=compact on:change=move |ev| compact.set(event_target_checked(&ev)) />
            " compact: the figure, its controls and readouts, without explanations or secondary panels (for a narrow column)"
        </label>
        <textarea class="embed-snippet" readonly rows="9" spellcheck="false" data-testid="embed-snippet"
            aria-label="embed code" prop:value=snippet></textarea>
        <div class="dialog-actions">
            <button type="button" on:click=move |_| copy_text(snippet(), status)>"Copy the code"</button>
            <span class="copy-status" role="status">{move || status.get()}</span>
        </div>
        <p class="explain">
            "Or link to this chapter of the whole page, in this state (where a page cannot embed): "
            <code class="chapter-link" data-testid="chapter-link">{chapter_link}</code>
            " "
            <button type="button" on:click=move |_| copy_text(chapter_link(), link_status)>"Copy the link"</button>
            <span class="copy-status" role="status">{move || link_status.get()}</span>
        </p>
        <p class="explain">"Preview:"</p>
        <iframe class="embed-preview" title="Preview of the embedded widget" src=move || url.get().map(|u| u.1).unwrap_or_default()></iframe>
    }
}
