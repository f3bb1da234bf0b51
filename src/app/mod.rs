//! The page: reads the URL once into the shared state, keeps the URL following it, applies
//! the theme and the page-wide shortcuts, and shows either every widget of the registry or,
//! with `embed=<id>`, one widget alone.

mod browser;
mod language;
mod shortcuts;
mod tools;

use crate::lab::{DarkMode, FullPage, Lab};
use crate::state::{Change, LabState, Theme};
use crate::story::lesson::Lessons;
use crate::story::LessonViews;
use crate::story::{self, Widget};
use crate::ui::controls::Controls;
use crate::ui::embed::EmbedRequest;
use crate::ui::shortcut_sheet::ShortcutsOpen;
use language::LanguageSwitch;
use leptos::prelude::*;
use tools::PageTools;
use wasm_bindgen::JsCast;

/// RoPE Lab.
#[component]
pub fn App() -> impl IntoView {
    let query = browser::query_string();
    let mut parsed = LabState::from_query(&query);
    parsed.notices.extend(language::take_notice());
    parsed.notices.extend(parsed.state.check_embed(&story::ids()));
    let lessons = Lessons::from_query(&query);
    let embed = parsed.state.embed.as_deref().and_then(story::find);
    // An embed with `compact=1`: the style sheet hides the widget's secondary panels. Nothing
    // changes it once the page is open (reset keeps it), so it is set once.
    if embed.is_some() && parsed.state.compact {
        crate::dom::page::set_document_flag("data-compact", true);
    }
    let lab = Lab::new(parsed.state, parsed.notices);
    provide_context(lab);

    let system_dark = browser::system_prefers_dark();
    // A memo, not a derived signal: drawings that read it must not wake on every state change.
    // Two flags rather than the theme itself: selections of bool exist already (code is
    // compiled once per type of selection).
    let (chosen, chosen_dark) = (lab.select(|s| s.theme.is_some()), lab.select(|s| s.theme == Some(Theme::Dark)));
    let dark = Memo::new(move |_| if chosen.get() { chosen_dark.get() } else { system_dark.get() });
    provide_context(DarkMode(dark.into()));
    Effect::new(move |_| browser::set_document_theme(dark.get()));
    let settled_query = browser::sync_url_with(lab);
    // The shortcuts sheet: the key ? and the header's button open it.
    let help = RwSignal::new(false);
    shortcuts::use_page_shortcuts(lab, help);
    let present = lab.select(|s| s.present);
    // Pressing P (or the button) keeps the reader's place: the larger type moved it.
    Effect::new(move |first: Option<()>| {
        let on = present.get();
        let flag = move || crate::dom::page::set_document_flag("data-present", on);
        if first.is_none() {
            flag();
        } else {
            crate::dom::page::keeping_reading_position(flag);
        }
    });

    // The chapters exist only once the app has rendered: a deep link (#decay) is followed then.
    // A lesson brings its step's figure on screen itself.
    if lessons.playing.get_untracked() == 0 {
        request_animation_frame(browser::scroll_to_hash);
    }
    match embed {
        Some(widget) => view! { <Embed widget settled_query /> }.into_any(),
        None => view! { <Page help settled_query lessons /> }.into_any(),
    }
}

/// The whole lab: header, controls, every widget of the registry, footer. `settled_query` is
/// the query the address bar shows.
#[component]
fn Page(help: RwSignal<bool>, settled_query: ReadSignal<String>, lessons: Lessons) -> impl IntoView {
    provide_context(FullPage);
    provide_context(ShortcutsOpen(help));
    provide_context(EmbedRequest(RwSignal::new(None), story::fetch_dialogs));

    // The release build fetches a part of the chapters as the reader nears it (or shows where
    // they are going), and a jump from the contents is followed while the chapter arrives.
    story::fetch_parts_ahead();
    story::track_work();
    let jumps = window_event_listener(leptos::ev::hashchange, |_| browser::scroll_to_hash());
    on_cleanup(move || jumps.remove());
    let lab = expect_context::<Lab>();
    // The address of this view, printed on a handout (print style sheet): the one the address
    // bar shows, not rebuilt on every step of a drag.
    let printed_url = Memo::new(move |_| settled_query.with(|query| crate::dom::page::address(query, false)));
    view! {
        <a class="skip-link" href="#main">"Skip to the lab"</a>
        <header class="site-header">
            <div class="brand">
                <h1 translate="no">"RoPE Lab"</h1>
                <p class="tagline">"See why rotating queries and keys makes attention scores depend on content and relative position, and not on absolute position."</p>
            </div>
            <div class="header-tools">
                <PageTools lab help lessons />
                <LanguageSwitch lab />
                <ThemeToggle />
            </div>
        </header>
        {story::dialog(story::Sheet::Embed)}
        <Notices />
        <main id="main" class="lab" tabindex="-1">
            // One text per sentence group, not one per source line: a translation takes it whole.
            <p class="intro">
                "Rotary Positional Embeddings (RoPE) tell attention where each token is by cutting a query q and a \
                key k into planes, pairs of dimensions, and turning each plane by an angle proportional to the token's \
                position: plane i turns by m·θᵢ at position m, with θᵢ = b^(−2i/d) for a base b. The chapters below build it from \
                the ground up. Every figure is computed live, in your browser, by the same Rust code the tests \
                check against Hugging Face transformers and Meta's Llama, and every setting is in the address bar."
            </p>
            <nav class="toc" aria-label="Chapters">
                <h2 class="toc-title">"Chapters"</h2>
                <ol>
                    {story::WIDGETS.iter().map(|widget| view! {
                        <li><a href=format!("#{}", widget.id)>{widget.page_title()}</a></li>
                    }).collect_view()}
                    <li><a href="#references">"References"</a></li>
                </ol>
            </nav>
            <div class="lab-grid">
                // On a phone the panel starts folded: its controls would otherwise fill two
                // screens before the first chapter, and most of them mean nothing yet.
                <aside class="panel" id="parameters" aria-label="Parameters">
                    <details class="panel-fold" open=browser::wide_screen()>
                        <summary class="panel-summary">"Parameters " <span class="unit">"b, d, m, n, layout, context extension"</span></summary>
                        <Controls />
                    </details>
                </aside>
                <div class="widgets">
                    {story::WIDGETS.iter().map(|widget| widget.view()).collect_view()}
                    {story::references()}
                </div>
            </div>
        </main>
        <footer class="site-footer">
            <p>
                "RoPE Lab. Sources: Su et al., RoFormer (2021); Hugging Face transformers "
                <code>"modeling_rope_utils"</code>"; Meta Llama. Every setting is in the address bar: copy it to share exactly this view."
            </p>
            <p class="print-url">"This view: " <span translate="no">{move || printed_url.get()}</span></p>
        </footer>
        <LessonViews lessons />
    }
}

/// One widget alone for an iframe: its controls and the widget, no header or footer, and the
/// content height posted to the host page whenever it changes.
#[component]
fn Embed(widget: &'static Widget, settled_query: ReadSignal<String>) -> impl IntoView {
    let root = NodeRef::<leptos::html::Main>::new();
    browser::post_height_on_resize(root, widget.id);
    // The whole explainer in this state, at this widget's chapter: the address bar's query
    // without `embed` (and `compact`, which only an embed shows).
    let full_page_at = move |chapter: &str| {
        let mut href = String::from("./");
        settled_query.with(|query| {
            for pair in query.split('&').filter(|p| !p.is_empty() && !p.starts_with("embed=") && !p.starts_with("compact=")) {
                href.push(if href.len() == 2 { '?' } else { '&' });
                href.push_str(pair);
            }
        });
        href + "#" + chapter
    };
    let full_page = move || full_page_at(widget.id);
    // A link of the widget's text to a chapter the embed does not hold ("see the frequencies
    // chapter") opens the whole explainer there, in a new tab, rather than doing nothing.
    let elsewhere = move |ev: leptos::ev::MouseEvent| {
        let Some(link) =
            ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|t| t.closest("a[href^='#']").ok().flatten())
        else {
            return;
        };
        let id = link.get_attribute("href").unwrap_or_default().trim_start_matches('#').to_string();
        if id.is_empty() || document().get_element_by_id(&id).is_some() {
            return;
        }
        ev.prevent_default();
        let _ = window().open_with_url_and_target_and_features(&full_page_at(&id), "_blank", "noopener");
    };

    view! {
        <main id="main" class="embed" tabindex="-1" node_ref=root on:click=elsewhere>
            <Notices />
            <details class="embed-controls">
                <summary>"Parameters"</summary>
                <Controls />
            </details>
            {widget.view()}
            <a class="embed-home" href=full_page target="_blank" rel="noopener">"Open in RoPE Lab ↗"</a>
        </main>
    }
}

/// What was corrected in the input, said politely and dismissible.
#[component]
fn Notices() -> impl IntoView {
    let lab = expect_context::<Lab>();
    view! {
        <Show when=move || lab.notices.with(|n| !n.is_empty())>
            <div class="notice" data-testid="notice" role="status" aria-live="polite">
                <ul>
                    {move || lab.notices.with(|notices| {
                        notices.iter().map(|n| view! { <li>{n.message.clone()}</li> }).collect_view()
                    })}
                </ul>
                <button type="button" class="notice-dismiss" on:click=move |_| {
                    lab.notices.set(Vec::new());
                    // The button is gone: keep the keyboard where the reader was, at the content.
                    if let Some(main) = document().get_element_by_id("main") {
                        let _ = main.unchecked_into::<web_sys::HtmlElement>().focus();
                    }
                }>
                    "Dismiss"
                </button>
            </div>
        </Show>
    }
}

/// Switches between light and dark; the choice goes into the URL (`theme=`). Its name says
/// what it does next, so it reads right in both themes.
#[component]
fn ThemeToggle() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let dark = expect_context::<DarkMode>().0;
    view! {
        <button
            type="button"
            class="theme-toggle"
            on:click=move |_| {
                let theme = if dark.get_untracked() { Theme::Light } else { Theme::Dark };
                lab.apply(Change::Theme(Some(theme)));
            }
        >
            {move || if dark.get() { "Switch to light theme" } else { "Switch to dark theme" }}
        </button>
    }
}

/// Mounts RoPE Lab in `<body>`: at once in English; in another language once its words are
/// here (the page is translated as it is built, so a first visit in Japanese does not show
/// English first).
pub fn start() {
    language::start(|| leptos::mount::mount_to_body(App));
}
