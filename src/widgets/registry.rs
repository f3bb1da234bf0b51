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
use leptos::prelude::*;

/// One widget of the registry.
pub struct Widget {
    /// Its id in `embed=` and `data-widget`; never changes meaning once published.
    pub id: &'static str,
    /// Its title, the heading of its card.
    pub title: &'static str,
    /// The widget, reading the shared state from context.
    pub view: fn() -> AnyView,
}

/// The widgets in the order the full page shows them: the chapters of the story, from why
/// attention needs positions to RoPE's layouts, context extension and its variants, images, and
/// precision at long positions; the scores last.
pub static WIDGETS: [Widget; 14] = [
    Widget { id: "order", title: "Attention cannot see order", view: || view! { <OrderWidget /> }.into_any() },
    Widget { id: "counting", title: "Counting positions", view: || view! { <CountingWidget /> }.into_any() },
    Widget { id: "pe-rotation", title: "Sinusoids hide a rotation", view: || view! { <PeRotationWidget /> }.into_any() },
    Widget { id: "add-or-rotate", title: "Add or rotate?", view: || view! { <AddOrRotateWidget /> }.into_any() },
    Widget {
        id: "heatmap",
        title: "The score for every pair of positions: none, added, rotated",
        view: || view! { <HeatmapWidget /> }.into_any(),
    },
    Widget {
        id: "clocks",
        title: "The rotation lab: every plane of q and k is a clock",
        view: || view! { <ClocksWidget /> }.into_any(),
    },
    Widget { id: "complex", title: "The same in complex numbers, step by step", view: || view! { <ComplexWidget /> }.into_any() },
    Widget { id: "frequencies", title: "Frequencies and wavelengths", view: || view! { <FrequenciesWidget /> }.into_any() },
    Widget {
        id: "decay",
        title: "Long-term decay: RoFormer's bounds, and what scores do",
        view: || view! { <DecayWidget /> }.into_any(),
    },
    Widget { id: "layouts", title: "Two pairings, one idea: interleaved and rotate_half", view: || view! { <LayoutsWidget /> }.into_any() },
    Widget {
        id: "scaling",
        title: "Stretching the context: PI, NTK, YaRN, Llama 3, LongRoPE on real models",
        view: || view! { <ScalingWidget /> }.into_any(),
    },
    Widget { id: "rope2d", title: "Beyond one dimension: RoPE for images", view: || view! { <Rope2dWidget /> }.into_any() },
    Widget {
        id: "precision",
        title: "Beyond f32: what bf16 and fp16 do to long positions",
        view: || view! { <PrecisionWidget /> }.into_any(),
    },
    Widget { id: "scores", title: "Scores: q at position m, k at position n", view: || view! { <ScoresWidget /> }.into_any() },
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
