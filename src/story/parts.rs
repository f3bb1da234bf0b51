//! How the chapters come to the page. In the split release build (`--cfg split`, see the
//! Makefile and `.ci/split.mjs`) they come in four parts, each a function whose code wasm-split
//! moves to a module of its own, fetched once, when something first asks for it (the reader
//! nearing one of its chapters, or showing they are going there); a first visit downloads the
//! page's frame only, with the first chapter. Everywhere else (`trunk serve`, the tests) a part
//! is an ordinary function and its view is there at once.

use super::add_or_rotate::AddOrRotateWidget;
use super::clocks::ClocksWidget;
use super::complex::ComplexWidget;
use super::counting::CountingWidget;
use super::decay::DecayWidget;
use super::frequencies::FrequenciesWidget;
use super::heatmap::HeatmapWidget;
use super::layouts::LayoutsWidget;
use super::order::OrderWidget;
use super::pe_rotation::PeRotationWidget;
use super::precision::PrecisionWidget;
use super::references::References;
use super::rope2d::Rope2dWidget;
use super::scaling::ScalingWidget;
use super::scores::ScoresWidget;
use super::verify::VerifyWidget;
use crate::ui::embed::EmbedDialog;
use crate::ui::reach_bar::reach_bar_once;
use crate::ui::shortcut_sheet::ShortcutsDialog;
use leptos::html::Section;
use leptos::prelude::*;
#[cfg(split)]
use std::cell::Cell;

/// The four parts the chapters come in, and the frame. A part is fetched when the reader nears
/// one of its chapters (or shows they are going there: the focus, a jump, a search, printing).
#[derive(Debug, Clone, Copy)]
pub enum Part {
    /// Why order matters: the first chapter, in the page's frame itself, so that a first visit
    /// can use it as soon as the frame is there (issue 9: the first control within 300 ms).
    Frame,
    /// Counting, sinusoids as rotations, add or rotate.
    Opening,
    /// The heatmap, the rotation lab, the two layouts, the complex view, frequencies; and the
    /// scores, which only embed (`embed=scores`).
    Rotation,
    /// Decay.
    Analysis,
    /// Context extension, images, precision, checking your own RoPE; the references and the two dialogs (embed,
    /// shortcuts), which nothing needs on the first screen.
    Beyond,
    /// The lesson player and the lesson editor: fetched only when a lesson is asked for.
    Lesson,
    /// Inside a trained model: the forward pass of stories260K and its chapter, fetched as the
    /// reader nears it (the model's weights are a file of their own, fetched by the chapter).
    Model,
}

#[cfg_attr(split, leptos::wasm_split::wasm_split(opening_1, wasm_split_path = ::leptos::wasm_split, preload(#[doc(hidden)] #[allow(non_snake_case)] __preload_opening), fallible))]
fn opening(slot: u8) -> PartView {
    Ok(with_bar(match slot {
        0 => view! { <CountingWidget /> }.into_any(),
        1 => view! { <PeRotationWidget /> }.into_any(),
        _ => view! { <AddOrRotateWidget /> }.into_any(),
    }))
}

#[cfg_attr(split, leptos::wasm_split::wasm_split(rotation_2, wasm_split_path = ::leptos::wasm_split, preload(#[doc(hidden)] #[allow(non_snake_case)] __preload_rotation), fallible))]
fn rotation(slot: u8) -> PartView {
    Ok(with_bar(match slot {
        0 => view! { <HeatmapWidget /> }.into_any(),
        1 => view! { <ClocksWidget /> }.into_any(),
        2 => view! { <ScoresWidget /> }.into_any(),
        3 => view! { <LayoutsWidget /> }.into_any(),
        4 => view! { <ComplexWidget /> }.into_any(),
        _ => view! { <FrequenciesWidget /> }.into_any(),
    }))
}

#[cfg_attr(split, leptos::wasm_split::wasm_split(analysis_3, wasm_split_path = ::leptos::wasm_split, preload(#[doc(hidden)] #[allow(non_snake_case)] __preload_analysis), fallible))]
fn analysis(_slot: u8) -> PartView {
    Ok(with_bar(view! { <DecayWidget /> }.into_any()))
}

#[cfg_attr(split, leptos::wasm_split::wasm_split(beyond_4, wasm_split_path = ::leptos::wasm_split, preload(#[doc(hidden)] #[allow(non_snake_case)] __preload_beyond), fallible))]
fn beyond(slot: u8) -> PartView {
    Ok(with_bar(match slot {
        0 => view! { <ScalingWidget /> }.into_any(),
        1 => view! { <Rope2dWidget /> }.into_any(),
        2 => view! { <PrecisionWidget /> }.into_any(),
        3 => view! { <VerifyWidget /> }.into_any(),
        REFERENCES_SLOT => view! { <References /> }.into_any(),
        EMBED_DIALOG_SLOT => view! { <EmbedDialog /> }.into_any(),
        _ => view! { <ShortcutsDialog /> }.into_any(),
    }))
}

#[cfg_attr(split, leptos::wasm_split::wasm_split(lesson_5, wasm_split_path = ::leptos::wasm_split, preload(#[doc(hidden)] #[allow(non_snake_case)] __preload_lesson), fallible))]
fn lesson(_slot: u8) -> PartView {
    Ok(view! { <super::lesson::LessonPart /> }.into_any())
}

#[cfg_attr(split, leptos::wasm_split::wasm_split(model_7, wasm_split_path = ::leptos::wasm_split, preload(#[doc(hidden)] #[allow(non_snake_case)] __preload_model), fallible))]
fn model(_slot: u8) -> PartView {
    Ok(with_bar(view! { <super::model::ModelWidget /> }.into_any()))
}

/// A chapter's view, with the phone's bar of m and n if this is the first chapter to arrive on
/// the full page (the bar's code thus comes with the parts, not with the first download).
fn with_bar(view: AnyView) -> AnyView {
    (reach_bar_once(), view).into_any()
}

/// What a part's function gives: the view at a slot, or (split build) why its module could not be
/// fetched (offline, say): the page shows that and offers to try again, instead of the module
/// aborting, which a panic across the split's boundary would do.
type PartView = Result<AnyView, leptos::wasm_split::SplitLoaderError>;

/// What shows while a part is on its way, given the element to watch and what it says: boxed, so
/// that the code around it is compiled once, not once per caller.
pub type Placeholder = Box<dyn Fn(NodeRef<Section>, AnyView) -> AnyView + Send + Sync>;

/// Where the beyond part keeps what is not a chapter.
pub const REFERENCES_SLOT: u8 = 4;
pub const EMBED_DIALOG_SLOT: u8 = 5;
pub const SHORTCUTS_DIALOG_SLOT: u8 = 6;

/// The style sheet a part's chapters need beyond the page's own, linked (once) the first time
/// the part is asked for, so that it arrives beside the part's code: whether it is here (true for
/// a part without one). The rules of each chapter part's own chapters are in its sheet
/// (assets/opening.css, rotation.css, analysis.css, beyond.css), which the first visit does not
/// download; style/main.css keeps the frame's and those that chapters of several parts share.
/// The lesson and model parts link their sheets themselves (src/story/lesson, src/story/model).
fn sheet_of(part: Part) -> Option<ArcRwSignal<bool>> {
    let href = match part {
        Part::Opening => "assets/opening.css",
        Part::Rotation => "assets/rotation.css",
        Part::Analysis => "assets/analysis.css",
        Part::Beyond => "assets/beyond.css",
        Part::Frame | Part::Lesson | Part::Model => return None,
    };
    Some(crate::dom::style::style_sheet(href))
}

/// The first chapter: in the page's frame in every build.
fn frame_chapter() -> AnyView {
    view! { <OrderWidget /> }.into_any()
}

/// A part's view at `slot`, at once: every build but the split one.
#[cfg(not(split))]
pub fn part_view(part: Part, slot: u8, _on_approach: bool, _saying: &'static str, _placeholder: Placeholder) -> AnyView {
    sheet_of(part);
    let view = match part {
        Part::Frame => return frame_chapter(),
        Part::Opening => opening(slot),
        Part::Rotation => rotation(slot),
        Part::Analysis => analysis(slot),
        Part::Beyond => beyond(slot),
        Part::Lesson => lesson(slot),
        Part::Model => model(slot),
    };
    // Nothing to fetch: always Ok.
    view.unwrap_or_else(|_| ().into_any())
}

/// A part's view at `slot`, once its module is here; until then `placeholder`, given the
/// element to watch and what it says (`saying`, or that the fetch failed, with a button to try
/// again). On the full page (`on_approach`) the part is fetched when the placeholder nears the
/// screen; an embed or a dialog asks for it at once.
#[cfg(split)]
pub fn part_view(part: Part, slot: u8, on_approach: bool, saying: &'static str, placeholder: Placeholder) -> AnyView {
    if matches!(part, Part::Frame) {
        return frame_chapter();
    }
    if !on_approach {
        request(part);
    }
    let (arrived, failed) = state(part);
    // Shown once its code and its style sheet are both here: unstyled, a chapter would show for a
    // moment at another height (an embed's frame would grow twice). The sheet is linked when the
    // part is asked for (`request`), not by a placeholder: a first visit does not download it.
    let styled = move || sheet_of(part).is_none_or(|sheet| sheet.get());
    let waiting = NodeRef::<Section>::new();
    if on_approach {
        let observer = StoredValue::new_local(None::<web_sys::IntersectionObserver>);
        Effect::new(move |_| {
            let Some(element) = waiting.get() else { return };
            if let Some(previous) = observer.get_value() {
                previous.disconnect();
            }
            observer.set_value(request_on_approach(&element, part));
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
                <button type="button" hidden=move || !failed.get() on:click=move |_| request(part)>"Try again"</button>
            </p>
            <p class="explain print-only">"This part was still on its way when the page was printed: print again in a moment."</p>
        }
        .into_any()
    };
    // Once the part is here, calling into it is immediate (the Suspend resolves at once).
    view! {
        <Show when=move || arrived.get() && styled() fallback=move || placeholder(waiting, status())>
            {Suspend::new(async move {
                let view = match part {
                    Part::Frame => Ok(frame_chapter()),
                    Part::Opening => opening(slot).await,
                    Part::Rotation => rotation(slot).await,
                    Part::Analysis => analysis(slot).await,
                    Part::Beyond => beyond(slot).await,
                    Part::Lesson => lesson(slot).await,
                    Part::Model => model(slot).await,
                };
                // Here already: the call does not fetch again.
                view.unwrap_or_else(|_| ().into_any())
            })}
        </Show>
    }
    .into_any()
}

#[cfg(split)]
thread_local! {
    /// Per part: whether it is being fetched or here; whether it is here (what its chapters
    /// read); whether its fetch failed (offline, say: asking again tries again).
    static PARTS: [(Cell<bool>, RwSignal<bool>, RwSignal<bool>); 7] =
        std::array::from_fn(|_| (Cell::new(false), RwSignal::new(false), RwSignal::new(false)));
}

#[cfg(split)]
/// Whether `part` is here, and whether its fetch failed.
pub fn state(part: Part) -> (RwSignal<bool>, RwSignal<bool>) {
    PARTS.with(|parts| (parts[part as usize].1, parts[part as usize].2))
}

#[cfg(split)]
/// Fetches `part`'s module unless it is here or on its way; after a failure, tries again.
pub fn request(part: Part) {
    if matches!(part, Part::Frame) || PARTS.with(|parts| parts[part as usize].0.replace(true)) {
        return;
    }
    let (arrived, failed) = state(part);
    failed.set(false);
    sheet_of(part);
    leptos::task::spawn_local(async move {
        let fetched = match part {
            Part::Frame => Ok(()),
            Part::Opening => __preload_opening().await,
            Part::Rotation => __preload_rotation().await,
            Part::Analysis => __preload_analysis().await,
            Part::Beyond => __preload_beyond().await,
            Part::Lesson => __preload_lesson().await,
            Part::Model => __preload_model().await,
        };
        match fetched {
            Ok(()) => arrived.set(true),
            Err(_) => {
                PARTS.with(|parts| parts[part as usize].0.set(false));
                failed.set(true);
            }
        }
    });
}

#[cfg(split)]
/// Every part: a search of the page (Ctrl+F, ⌘F) should find the chapters a reader has not
/// scrolled to yet.
pub fn request_all() {
    for part in [Part::Opening, Part::Rotation, Part::Analysis, Part::Model, Part::Beyond] {
        request(part);
    }
}

#[cfg(split)]
/// How far below the screen a chapter still on its way asks for its part: about a screen of
/// reading ahead of the reader, so that a reader scrolling at reading speed never sees it wait,
/// while one who reads the first chapter downloads only the page's frame.
const APPROACH: &str = "0px 0px 600px 0px";

#[cfg(split)]
/// Asks for `part` once `element` comes within [`APPROACH`] of the screen (or above it: a deep
/// link or a jump from the contents lands past it).
pub(super) fn request_on_approach(element: &web_sys::Element, part: Part) -> Option<web_sys::IntersectionObserver> {
    use std::cell::OnceCell;
    use std::rc::Rc;
    use wasm_bindgen::prelude::*;
    let watching = Rc::new(OnceCell::<web_sys::IntersectionObserver>::new());
    let callback = Closure::<dyn Fn(js_sys::Array)>::new({
        let watching = watching.clone();
        move |entries: js_sys::Array| {
            let near = entries.iter().any(|entry| {
                entry
                    .dyn_into::<web_sys::IntersectionObserverEntry>()
                    .is_ok_and(|entry| entry.is_intersecting() || entry.bounding_client_rect().bottom() < 0.0)
            });
            if near {
                if let Some(observer) = watching.get() {
                    observer.disconnect();
                }
                request(part);
            }
        }
    });
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin(APPROACH);
    let observer = web_sys::IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options).ok()?;
    // Called at most until the observer is disconnected; a few bytes per chapter, kept.
    callback.forget();
    observer.observe(element);
    let _ = watching.set(observer.clone());
    Some(observer)
}
