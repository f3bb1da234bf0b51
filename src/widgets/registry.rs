//! Every widget, listed once (as egui's demo list): its id (`embed=<id>`, `data-widget`), its
//! title, and how to show it. The full page shows them in this order, embed mode looks the id
//! up here, and the tests iterate this list, so a new widget is one entry.

use super::add_or_rotate::AddOrRotateWidget;
use super::clocks::ClocksWidget;
use super::complex::ComplexWidget;
use super::counting::CountingWidget;
use super::layouts::LayoutsWidget;
use super::order::OrderWidget;
use super::pe_rotation::PeRotationWidget;
use super::precision::PrecisionWidget;
use super::rope2d::Rope2dWidget;
use super::decay::DecayWidget;
use super::frequencies::FrequenciesWidget;
use super::heatmap::HeatmapWidget;
use super::scaling::ScalingWidget;
use super::scores::ScoresWidget;
use super::embed::EmbedSheet;
use super::references::References;
use crate::app::tools::ShortcutSheet;
use leptos::html::Section;
use leptos::prelude::*;

/// The four parts the chapters come in. In the split release build (`--cfg split`, see the
/// Makefile and `.ci/split.mjs`) each part is a function whose code wasm-split moves to a module
/// of its own: a first visit downloads the page's frame only, and a part is fetched when the
/// reader nears one of its chapters (or shows they are going there: the focus, a jump, a search,
/// printing). Everywhere else (`trunk serve`, the tests) a part is an ordinary function.
#[derive(Debug, Clone, Copy)]
enum Part {
    /// Why order matters: the first chapter, in the page's frame itself, so that a first visit
    /// can use it as soon as the frame is there (issue 9: the first control within 300 ms).
    Frame,
    /// Counting, sinusoids as rotations, add or rotate.
    Opening,
    /// The heatmap, the rotation lab, the complex view, frequencies.
    Rotation,
    /// Decay, layouts.
    Analysis,
    /// Context extension, images, precision, the scores; the references and the dialogs' sheets
    /// (embed, shortcuts), which nothing needs on the first screen.
    Beyond,
}

#[cfg_attr(split, leptos::wasm_split::wasm_split(opening_1, wasm_split_path = ::leptos::wasm_split, preload(#[doc(hidden)] #[allow(non_snake_case)] __preload_opening), fallible))]
fn opening(slot: u8) -> PartView {
    Ok(match slot {
        0 => view! { <CountingWidget /> }.into_any(),
        1 => view! { <PeRotationWidget /> }.into_any(),
        _ => view! { <AddOrRotateWidget /> }.into_any(),
    })
}

#[cfg_attr(split, leptos::wasm_split::wasm_split(rotation_2, wasm_split_path = ::leptos::wasm_split, preload(#[doc(hidden)] #[allow(non_snake_case)] __preload_rotation), fallible))]
fn rotation(slot: u8) -> PartView {
    Ok(match slot {
        0 => view! { <HeatmapWidget /> }.into_any(),
        1 => view! { <ClocksWidget /> }.into_any(),
        2 => view! { <ComplexWidget /> }.into_any(),
        _ => view! { <FrequenciesWidget /> }.into_any(),
    })
}

#[cfg_attr(split, leptos::wasm_split::wasm_split(analysis_3, wasm_split_path = ::leptos::wasm_split, preload(#[doc(hidden)] #[allow(non_snake_case)] __preload_analysis), fallible))]
fn analysis(slot: u8) -> PartView {
    Ok(match slot {
        0 => view! { <DecayWidget /> }.into_any(),
        _ => view! { <LayoutsWidget /> }.into_any(),
    })
}

#[cfg_attr(split, leptos::wasm_split::wasm_split(beyond_4, wasm_split_path = ::leptos::wasm_split, preload(#[doc(hidden)] #[allow(non_snake_case)] __preload_beyond), fallible))]
fn beyond(slot: u8) -> PartView {
    Ok(match slot {
        0 => view! { <ScalingWidget /> }.into_any(),
        1 => view! { <Rope2dWidget /> }.into_any(),
        2 => view! { <PrecisionWidget /> }.into_any(),
        3 => view! { <ScoresWidget /> }.into_any(),
        REFERENCES_SLOT => view! { <References /> }.into_any(),
        EMBED_SHEET_SLOT => view! { <EmbedSheet /> }.into_any(),
        _ => view! { <ShortcutSheet /> }.into_any(),
    })
}

/// What a part's function gives: the view at a slot, or (split build) why its module could not be
/// fetched (offline, say): the page shows that and offers to try again, instead of the module
/// aborting, which a panic across the split's boundary would do.
type PartView = Result<AnyView, leptos::wasm_split::SplitLoaderError>;

/// What shows while a part is on its way, given the element to watch and what it says: boxed, so
/// that the code around it is compiled once, not once per caller.
type Placeholder = Box<dyn Fn(NodeRef<Section>, AnyView) -> AnyView + Send + Sync>;

/// Where the beyond part keeps what is not a chapter.
const REFERENCES_SLOT: u8 = 4;
const EMBED_SHEET_SLOT: u8 = 5;
const SHORTCUT_SHEET_SLOT: u8 = 6;

/// The first chapter: in the page's frame in every build.
fn frame_chapter() -> AnyView {
    view! { <OrderWidget /> }.into_any()
}

/// A part's view at `slot`, at once: every build but the split one.
#[cfg(not(split))]
fn part_view(part: Part, slot: u8, _on_approach: bool, _saying: &'static str, _placeholder: Placeholder) -> AnyView {
    let view = match part {
        Part::Frame => return frame_chapter(),
        Part::Opening => opening(slot),
        Part::Rotation => rotation(slot),
        Part::Analysis => analysis(slot),
        Part::Beyond => beyond(slot),
    };
    // Nothing to fetch: always Ok.
    view.unwrap_or_else(|_| ().into_any())
}


/// The split build's parts: fetched when asked for ([`parts::request`]).
#[cfg(split)]
mod parts;

/// A part's view at `slot`, once its module is here; until then `placeholder`, given the
/// element to watch and what it says (`saying`, or that the fetch failed, with a button to try
/// again). On the full page (`on_approach`) the part is fetched when the placeholder nears the
/// screen; an embed or a dialog asks for it at once.
#[cfg(split)]
fn part_view(part: Part, slot: u8, on_approach: bool, saying: &'static str, placeholder: Placeholder) -> AnyView {
    if matches!(part, Part::Frame) {
        return frame_chapter();
    }
    if !on_approach {
        parts::request(part);
    }
    let (arrived, failed) = parts::state(part);
    let waiting = NodeRef::<Section>::new();
    if on_approach {
        let observer = StoredValue::new_local(None::<web_sys::IntersectionObserver>);
        Effect::new(move |_| {
            let Some(element) = waiting.get() else { return };
            if let Some(previous) = observer.get_value() {
                previous.disconnect();
            }
            observer.set_value(parts::request_on_approach(&element, part));
        });
        on_cleanup(move || {
            if let Some(Some(observer)) = observer.try_get_value() {
                observer.disconnect();
            }
        });
    }
    let status = move || {
        view! {
            <p class="explain" role="status">
                {move || if failed.get() { "This part of the page could not be downloaded (is the network down?)." } else { saying }}
                " "
                <button type="button" hidden=move || !failed.get() on:click=move |_| parts::request(part)>"Try again"</button>
            </p>
            <p class="explain print-only">"This part was still on its way when the page was printed: print again in a moment."</p>
        }
        .into_any()
    };
    // Once the part is here, calling into it is immediate (the Suspend resolves at once).
    view! {
        <Show when=move || arrived.get() fallback=move || placeholder(waiting, status())>
            {Suspend::new(async move {
                let view = match part {
                    Part::Frame => Ok(frame_chapter()),
                    Part::Opening => opening(slot).await,
                    Part::Rotation => rotation(slot).await,
                    Part::Analysis => analysis(slot).await,
                    Part::Beyond => beyond(slot).await,
                };
                // Here already: the call does not fetch again.
                view.unwrap_or_else(|_| ().into_any())
            })}
        </Show>
    }
    .into_any()
}

/// In the split build, every part: the browser's search of the page (Ctrl+F, ⌘F; the page's
/// shortcuts call this) should find the chapters a reader has not scrolled to yet. Elsewhere,
/// nothing.
pub fn fetch_all() {
    #[cfg(split)]
    parts::request_all();
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
            let Some(next) = target.closest("section.widget").ok().flatten().and_then(|chapter| chapter.next_element_sibling()) else { return };
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
    part_view(widget.part, widget.slot, full_page, "Loading this chapter…", Box::new(placeholder))
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
    part_view(Part::Beyond, REFERENCES_SLOT, true, "Loading the references…", Box::new(|waiting, status| loading_section("references", "references-title".to_string(), "References", waiting, status)))
}

/// A dialog's content.
#[derive(Debug, Clone, Copy)]
pub enum Sheet {
    Embed,
    Shortcuts,
}

/// A dialog's content: on the full page the part that holds it is on its way from the first
/// visit; a dialog opened before it arrives says "Loading…" until then (split build).
pub fn sheet(which: Sheet) -> AnyView {
    let slot = match which {
        Sheet::Embed => EMBED_SHEET_SLOT,
        Sheet::Shortcuts => SHORTCUT_SHEET_SLOT,
    };
    part_view(Part::Beyond, slot, false, "Loading…", Box::new(|_, status| status))
}

/// One widget of the registry.
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

    /// Its heading on the full page, where the scores chapter shows only the numbers (the
    /// rotation lab shows the scores there): the table of contents names it so.
    pub fn page_title(&self) -> &'static str {
        if self.id == "scores" { SCORES_PAGE_TITLE } else { self.title }
    }
}

/// The scores chapter's heading on the full page.
pub const SCORES_PAGE_TITLE: &str = "The numbers: vectors and frequencies";

/// The widgets in the order the full page shows them: the chapters of the story, from why
/// attention needs positions to RoPE's layouts, context extension and its variants, images, and
/// precision at long positions; the scores last.
pub static WIDGETS: [Widget; 14] = [
    Widget { id: "order", title: "Attention cannot see order", part: Part::Frame, slot: 0 },
    Widget { id: "counting", title: "Counting positions", part: Part::Opening, slot: 0 },
    Widget { id: "pe-rotation", title: "Sinusoids hide a rotation", part: Part::Opening, slot: 1 },
    Widget { id: "add-or-rotate", title: "Add or rotate?", part: Part::Opening, slot: 2 },
    Widget {
        id: "heatmap",
        title: "The score for every pair of positions: none, added, rotated",
        part: Part::Rotation, slot: 0,
    },
    Widget {
        id: "clocks",
        title: "The rotation lab: every plane of q and k is a clock",
        part: Part::Rotation, slot: 1,
    },
    Widget { id: "complex", title: "The same in complex numbers, step by step", part: Part::Rotation, slot: 2 },
    Widget { id: "frequencies", title: "Frequencies and wavelengths", part: Part::Rotation, slot: 3 },
    Widget {
        id: "decay",
        title: "Long-term decay: RoFormer's bounds, and what scores do",
        part: Part::Analysis, slot: 0,
    },
    Widget { id: "layouts", title: "Two pairings, one idea: interleaved and rotate_half", part: Part::Analysis, slot: 1 },
    Widget {
        id: "scaling",
        title: "Stretching the context: PI, NTK, YaRN, Llama 3, LongRoPE on real models",
        part: Part::Beyond, slot: 0,
    },
    Widget { id: "rope2d", title: "Beyond one dimension: RoPE for images", part: Part::Beyond, slot: 1 },
    Widget {
        id: "precision",
        title: "Beyond f32: what bf16 and fp16 do to long positions",
        part: Part::Beyond, slot: 2,
    },
    Widget { id: "scores", title: "Scores: q at position m, k at position n", part: Part::Beyond, slot: 3 },
];

/// The widget with id `id`.
pub fn find(id: &str) -> Option<&'static Widget> {
    WIDGETS.iter().find(|w| w.id == id)
}

/// Every id, in order (for `embed=` validation and its notice).
pub fn ids() -> Vec<&'static str> {
    WIDGETS.iter().map(|w| w.id).collect()
}

/// Present in context on the full page, where the rotation lab already shows the scores.
#[derive(Debug, Clone, Copy)]
pub struct FullPage;
