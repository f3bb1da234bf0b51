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
use leptos::prelude::*;

/// The four parts the chapters come in. In the split release build (`--cfg split`, see the
/// Makefile and `.ci/split.mjs`) each part is a `#[lazy]` function whose code wasm-split moves to
/// a module of its own: a first visit downloads the page's frame and the opening chapters, and
/// the other parts follow one after the other, in the order a reader meets them. Everywhere else
/// (`trunk serve`, the tests) a part is an ordinary function.
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

#[cfg_attr(split, leptos::lazy)]
fn opening(slot: u8) -> AnyView {
    match slot {
        0 => view! { <CountingWidget /> }.into_any(),
        1 => view! { <PeRotationWidget /> }.into_any(),
        _ => view! { <AddOrRotateWidget /> }.into_any(),
    }
}

#[cfg_attr(split, leptos::lazy)]
fn rotation(slot: u8) -> AnyView {
    match slot {
        0 => view! { <HeatmapWidget /> }.into_any(),
        1 => view! { <ClocksWidget /> }.into_any(),
        2 => view! { <ComplexWidget /> }.into_any(),
        _ => view! { <FrequenciesWidget /> }.into_any(),
    }
}

#[cfg_attr(split, leptos::lazy)]
fn analysis(slot: u8) -> AnyView {
    match slot {
        0 => view! { <DecayWidget /> }.into_any(),
        _ => view! { <LayoutsWidget /> }.into_any(),
    }
}

#[cfg_attr(split, leptos::lazy)]
fn beyond(slot: u8) -> AnyView {
    match slot {
        0 => view! { <ScalingWidget /> }.into_any(),
        1 => view! { <Rope2dWidget /> }.into_any(),
        2 => view! { <PrecisionWidget /> }.into_any(),
        3 => view! { <ScoresWidget /> }.into_any(),
        REFERENCES_SLOT => view! { <References /> }.into_any(),
        EMBED_SHEET_SLOT => view! { <EmbedSheet /> }.into_any(),
        _ => view! { <ShortcutSheet /> }.into_any(),
    }
}

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
fn part_view(part: Part, slot: u8, _in_order: bool, _placeholder: impl Fn() -> AnyView + Send + Sync + 'static) -> AnyView {
    match part {
        Part::Frame => frame_chapter(),
        Part::Opening => opening(slot),
        Part::Rotation => rotation(slot),
        Part::Analysis => analysis(slot),
        Part::Beyond => beyond(slot),
    }
}

/// Waits for `part`'s module; `in_order` (the full page), for the parts before it too, so that
/// a first visit fetches them in the order a reader meets them.
#[cfg(split)]
async fn arrive(part: Part, in_order: bool) {
    if in_order {
        if matches!(part, Part::Rotation | Part::Analysis | Part::Beyond) { __preload_opening().await; }
        if matches!(part, Part::Analysis | Part::Beyond) { __preload_rotation().await; }
        if matches!(part, Part::Beyond) { __preload_analysis().await; }
    }
    match part {
        Part::Frame => {}
        Part::Opening => __preload_opening().await,
        Part::Rotation => __preload_rotation().await,
        Part::Analysis => __preload_analysis().await,
        Part::Beyond => __preload_beyond().await,
    }
}

/// A part's view at `slot`, once its module is here; until then `placeholder`.
#[cfg(split)]
fn part_view(part: Part, slot: u8, in_order: bool, placeholder: impl Fn() -> AnyView + Send + Sync + 'static) -> AnyView {
    if matches!(part, Part::Frame) {
        return frame_chapter();
    }
    let arrived = RwSignal::new(false);
    leptos::task::spawn_local(async move {
        arrive(part, in_order).await;
        arrived.set(true);
    });
    // Once the part is here, calling into it is immediate (the Suspend resolves at once).
    view! {
        <Show when=move || arrived.get() fallback=placeholder>
            {Suspend::new(async move {
                match part {
                    Part::Frame => frame_chapter(),
                    Part::Opening => opening(slot).await,
                    Part::Rotation => rotation(slot).await,
                    Part::Analysis => analysis(slot).await,
                    Part::Beyond => beyond(slot).await,
                }
            })}
        </Show>
    }
    .into_any()
}

/// The chapter, once its part's module is here (split build); until then a placeholder with the
/// chapter's id and title, so the table of contents and a deep link find it. On the full page a
/// part waits for the parts before it (the opening chapters come first); an embed loads its own.
fn chapter(widget: &'static Widget) -> AnyView {
    let in_order = use_context::<FullPage>().is_some();
    let heading = format!("{}-title", widget.id);
    let title = if in_order { widget.page_title() } else { widget.title };
    let placeholder = move || loading_section(widget.id, heading.clone(), title, "Loading this chapter…");
    part_view(widget.part, widget.slot, in_order, placeholder)
}

/// A section still on its way: its id and heading already there for the contents and deep links.
fn loading_section(id: &'static str, heading: String, title: &'static str, saying: &'static str) -> AnyView {
    let labelled_by = heading.clone();
    view! {
        <section class="widget widget-loading" id=id aria-labelledby=labelled_by aria-busy="true">
            <div class="widget-head"><h2 id=heading>{title}</h2></div>
            <p class="explain">{saying}</p>
        </section>
    }
    .into_any()
}

/// The page's references, the last section: with the last part of the chapters.
pub fn references() -> AnyView {
    part_view(Part::Beyond, REFERENCES_SLOT, true, || loading_section("references", "references-title".to_string(), "References", "Loading the references…"))
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
    part_view(Part::Beyond, slot, false, || view! { <p class="explain">"Loading…"</p> }.into_any())
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
