//! The story's table of contents: every chapter, listed once (as egui's demo list) in reading
//! order, with its id (`embed=<id>`, `data-widget`), its title and how to show it. The full page
//! shows them in this order, embed mode looks the id up here, and the tests iterate this list,
//! so a new chapter is one module and one entry. Each chapter owns its `ID` and `TITLE`.

pub mod add_or_rotate;
pub mod clocks;
pub mod complex;
pub mod counting;
pub mod decay;
pub mod frequencies;
pub mod heatmap;
pub mod layouts;
pub mod lesson;
pub mod model;
pub mod order;
mod parts;
pub mod pe_rotation;
pub mod precision;
pub mod references;
pub mod rope2d;
pub mod scaling;
pub mod scores;
mod sweep;
pub mod verify;

use crate::lab::{use_lab, FullPage, Sleeper};
use leptos::html::Section;
use leptos::prelude::*;
use parts::{part_view, Part, EMBED_DIALOG_SLOT, REFERENCES_SLOT, SHORTCUTS_DIALOG_SLOT};

/// The chapters in reading order, as the full page shows them: from why attention needs
/// positions to the rotation lab, the two layouts, frequencies, decay, context
/// extension and its variants, images, precision at long positions, and a check of the
/// reader's own implementation. A control or term is
/// used only after the chapter that explains it, or says where it is explained. Each names the part of the split build that holds it.
pub static WIDGETS: [Widget; 15] = [
    Widget { id: order::ID, title: order::TITLE, part: Part::Frame, slot: 0 },
    Widget { id: counting::ID, title: counting::TITLE, part: Part::Opening, slot: 0 },
    Widget { id: pe_rotation::ID, title: pe_rotation::TITLE, part: Part::Opening, slot: 1 },
    Widget { id: add_or_rotate::ID, title: add_or_rotate::TITLE, part: Part::Opening, slot: 2 },
    Widget { id: heatmap::ID, title: heatmap::TITLE, part: Part::Rotation, slot: 0 },
    Widget { id: clocks::ID, title: clocks::TITLE, part: Part::Rotation, slot: 1 },
    Widget { id: layouts::ID, title: layouts::TITLE, part: Part::Rotation, slot: 3 },
    Widget { id: complex::ID, title: complex::TITLE, part: Part::Rotation, slot: 4 },
    Widget { id: frequencies::ID, title: frequencies::TITLE, part: Part::Rotation, slot: 5 },
    Widget { id: decay::ID, title: decay::TITLE, part: Part::Analysis, slot: 0 },
    Widget { id: model::ID, title: model::TITLE, part: Part::Model, slot: 0 },
    Widget { id: scaling::ID, title: scaling::TITLE, part: Part::Beyond, slot: 0 },
    Widget { id: rope2d::ID, title: rope2d::TITLE, part: Part::Beyond, slot: 1 },
    Widget { id: precision::ID, title: precision::TITLE, part: Part::Beyond, slot: 2 },
    Widget { id: verify::ID, title: verify::TITLE, part: Part::Beyond, slot: 3 },
];

/// Views that embed alone (`embed=<id>`) but are not chapters of the full page nor lines of its
/// contents: the scores, whose parts the full page shows where each is explained (q and k
/// rotated and the shift-both question in the rotation lab, θᵢ in frequencies, the attention
/// factor in context extension; issue 45). Its id stays published, showing what it showed.
pub static EMBED_ONLY: [Widget; 1] = [Widget { id: scores::ID, title: scores::TITLE, part: Part::Rotation, slot: 2 }];

/// In the split build, every part: the browser's search of the page (Ctrl+F, ⌘F; the page's
/// shortcuts call this) should find the chapters a reader has not scrolled to yet. Elsewhere,
/// nothing.
pub fn fetch_all() {
    #[cfg(split)]
    parts::request_all();
}

/// Places inside a chapter that a link or a lesson step may open at (`#scaling-compare`), each
/// with its chapter's id: a step whose point lies far down a long chapter brings that point on
/// screen, not the chapter's heading.
pub static ANCHORS: [(&str, &str); 1] = [("scaling-compare", scaling::ID)];

/// The chapter (or embed-only view) `id` names, or the one holding the anchor `id` names.
pub fn chapter_of(id: &str) -> Option<&'static Widget> {
    find(id).or_else(|| ANCHORS.iter().find(|(anchor, _)| *anchor == id).and_then(|(_, chapter)| find(chapter)))
}

/// In the split build: fetches the part holding the chapter `id` names, if it is one, or holding
/// the anchor it names (a deep link such as `#scores`, whose readouts now sit in the rotation lab,
/// must not wait for the reader to scroll there). Elsewhere, nothing.
pub fn fetch_part_of(id: &str) {
    #[cfg(split)]
    if let Some(widget) = chapter_of(id) {
        parts::request(widget.part);
    }
    #[cfg(not(split))]
    let _ = id;
}

thread_local! {
    /// The chapter the reader last worked in (a click, a key, a typed value inside it).
    static WORKED_IN: std::cell::Cell<Option<&'static str>> = const { std::cell::Cell::new(None) };
}

/// Keeps [`worked_in`] current from the page's clicks and inputs (one listener each, on the
/// window, for the page's life).
pub fn track_work() {
    fn note(event: &web_sys::Event) {
        use wasm_bindgen::JsCast;
        let Some(target) = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let Some(id) = target.closest("section.widget[data-widget]").ok().flatten().and_then(|c| c.get_attribute("data-widget")) else {
            return;
        };
        if let Some(widget) = WIDGETS.iter().find(|w| w.id == id) {
            WORKED_IN.with(|w| w.set(Some(widget.id)));
        }
    }
    for event in ["pointerdown", "input", "keydown"] {
        std::mem::forget(window_event_listener_untyped(event, |e| note(&e)));
    }
}

/// The chapter the reader last worked in, if any: what a teacher who scrolled back up to the
/// header to make a lesson was setting up.
pub fn worked_in() -> Option<&'static Widget> {
    WORKED_IN.with(std::cell::Cell::get).and_then(|id| WIDGETS.iter().find(|w| w.id == id))
}

/// In the split build: the focus entering a chapter (the Tab key, a click on a control) fetches
/// the part of the chapter after it, so that Tab moves on into it rather than past placeholders;
/// printing fetches every part (the print itself cannot wait: a chapter still on its way says on
/// paper to print again in a moment). Elsewhere, nothing.
pub fn fetch_parts_ahead() {
    #[cfg(split)]
    {
        use wasm_bindgen::JsCast;
        let focus = window_event_listener(leptos::ev::focusin, |event| {
            let Some(target) = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
            let Some(next) = target.closest("section.widget").ok().flatten().and_then(|chapter| chapter.next_element_sibling()) else {
                return;
            };
            if next.class_list().contains("widget-loading") {
                let id = next.id();
                parts::request(WIDGETS.iter().find(|w| w.id == id).map_or(Part::Beyond, |w| w.part));
            }
        });
        let print = window_event_listener_untyped("beforeprint", |_| parts::request_all());
        on_cleanup(move || {
            focus.remove();
            print.remove();
        });
    }
}

/// The chapter, once its part's module is here (split build); until then a placeholder with the
/// chapter's id and title, so the table of contents and a deep link find it. On the full page a
/// part is fetched as the reader nears its first chapter; an embed fetches its own at once.
fn chapter(widget: &'static Widget) -> AnyView {
    let full_page = use_context::<FullPage>().is_some();
    let heading = format!("{}-title", widget.id);
    let title = if full_page { widget.page_title() } else { widget.title };
    let placeholder = move |waiting, status| loading_section(widget.id, heading.clone(), title, waiting, status);
    let show = move || part_view(widget.part, widget.slot, full_page, "Loading this chapter…", Box::new(placeholder));
    if !full_page {
        return show();
    }
    // Each chapter of the full page sleeps while it is far from the screen (`Sleeper`): its
    // components find their chapter's, and the lab as the chapter sees it, in context, under an
    // owner of its own. The view is built (and its reactive closures created) when the page
    // mounts it, later: the owner is set again then.
    let Some(owner) = Owner::current().map(|o| o.child()) else { return show() };
    let lab = use_lab();
    let view = owner.with(|| {
        provide_context(Sleeper::default());
        provide_context(lab.for_chapter());
        show()
    });
    leptos::tachys::reactive_graph::OwnedView::new_with_owner(view, owner).into_any()
}

/// A section still on its way: its id and heading already there for the contents and deep links.
fn loading_section(id: &'static str, heading: String, title: &'static str, waiting: NodeRef<Section>, status: AnyView) -> AnyView {
    let labelled_by = heading.clone();
    view! {
        <section class="widget widget-loading" id=id aria-labelledby=labelled_by aria-busy="true" node_ref=waiting>
            <div class="widget-head"><h2 id=heading>{title}</h2></div>
            {status}
        </section>
    }
    .into_any()
}

/// The page's references, the last section: with the last part of the chapters.
pub fn references() -> AnyView {
    part_view(
        Part::Beyond,
        REFERENCES_SLOT,
        true,
        "Loading the references…",
        Box::new(|waiting, status| loading_section("references", "references-title".to_string(), "References", waiting, status)),
    )
}

/// The lesson part while a lesson plays or the editor is open: fetched (split build) the first
/// time either is wanted; until it is here, and if it cannot be fetched, a line that says so
/// (with a button to try again).
#[component]
pub fn LessonViews(lessons: lesson::Lessons) -> impl IntoView {
    provide_context(lessons);
    let wanted = move || lessons.playing.get() != 0 || lessons.editing.get() != 0;
    // A lesson that could not play left `lesson=` in the address while its notice stands (the
    // player's give_up); once the notice is closed, the address lets it go.
    let lab = crate::lab::use_lab();
    Effect::new(move |_| {
        use crate::dom::page::{replace_address, set_url_tail, with_tail};
        let said = lab.notices.with(|all| all.iter().any(|n| n.param == "lesson"));
        if !said && lessons.playing.get() == 0 && !with_tail(String::new()).is_empty() {
            set_url_tail(String::new());
            let hash = window().location().hash().unwrap_or_default();
            let chapter = hash.strip_prefix('#').filter(|h| !h.is_empty());
            replace_address(&lab.state.with_untracked(|s| s.to_query()), chapter);
        }
    });
    view! {
        <Show when=wanted>
            {part_view(Part::Lesson, 0, false, "Loading the lesson…", Box::new(|_, status| status))}
        </Show>
    }
}

/// One of the page's two dialogs.
#[derive(Debug, Clone, Copy)]
pub enum Sheet {
    Embed,
    Shortcuts,
}

/// A dialog (the chrome and its content): in the split build it comes with the last part, which
/// the reader brings by nearing its chapters or [`fetch_dialogs`] when a dialog is first asked
/// for; the dialog opens when it arrives. Nothing shows in its place meanwhile.
pub fn dialog(which: Sheet) -> AnyView {
    let slot = match which {
        Sheet::Embed => EMBED_DIALOG_SLOT,
        Sheet::Shortcuts => SHORTCUTS_DIALOG_SLOT,
    };
    part_view(Part::Beyond, slot, true, "", Box::new(|_, _| ().into_any()))
}

/// In the split build, the dialogs' part (a dialog was asked for). Elsewhere, nothing.
pub fn fetch_dialogs() {
    #[cfg(split)]
    parts::request(Part::Beyond);
}

/// One chapter of the table of contents.
pub struct Widget {
    /// Its id in `embed=` and `data-widget`; never changes meaning once published.
    pub id: &'static str,
    /// Its title, the heading of its card.
    pub title: &'static str,
    /// The part of the split build that holds it, and its place there.
    part: Part,
    slot: u8,
}

impl Widget {
    /// The widget, reading the shared state from context.
    pub fn view(&'static self) -> AnyView {
        chapter(self)
    }

    /// Its heading on the full page and its line in the table of contents.
    pub fn page_title(&self) -> &'static str {
        self.title
    }
}

/// The widget with id `id`: a chapter or a view that only embeds.
pub fn find(id: &str) -> Option<&'static Widget> {
    WIDGETS.iter().chain(&EMBED_ONLY).find(|w| w.id == id)
}

/// Every id that embeds, the chapters in order, then the views that only embed (for `embed=`
/// validation and its notice).
pub fn ids() -> Vec<&'static str> {
    WIDGETS.iter().chain(&EMBED_ONLY).map(|w| w.id).collect()
}
