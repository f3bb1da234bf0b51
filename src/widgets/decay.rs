//! The long-term decay widget (`data-widget="decay"`): the RoFormer bound against relative
//! distance for the frequencies in effect, with the value at `r` read out (`decay-bound`).

use super::canvas::use_canvas_chart;
use super::readout::Readout;
use super::{use_dark_mode, use_lab};
use crate::charts::{draw_decay, ChartStyle, DecayChart};
use crate::rope::decay_curve;
use leptos::html::Canvas;
use leptos::prelude::*;

/// Points per curve: plenty for a chart a few hundred pixels wide.
const SAMPLES: usize = 512;
/// The chart always spans at least this many tokens (the range of RoFormer's figure 2).
const MIN_RANGE: f64 = 256.0;

/// The decay bound chart and its readout at `r`.
#[component]
pub fn DecayWidget() -> impl IntoView {
    let lab = use_lab();
    let dark = use_dark_mode();
    let canvas = NodeRef::<Canvas>::new();
    let bound_at_r = lab.select_derived(|d| d.decay_bound_at_r);

    // The chart depends on the frequencies and r only: moving m or n must not redraw it.
    let inv_freq = lab.select_derived(|d| d.frequencies.inv_freq.clone());
    let r = lab.select(|s| s.r);

    use_canvas_chart(
        canvas,
        move || {
            let r = r.get() as f64;
            let range = MIN_RANGE.max((r * 1.25).ceil());
            let step = range / SAMPLES as f64;
            let bound = inv_freq.with(|f| f.as_deref().map(|f| decay_curve(f, 0.0, step, SAMPLES + 1)).unwrap_or_default());
            let distances = (0..bound.len()).map(|i| i as f64 * step).collect();
            let style = if dark.get() { ChartStyle::DARK } else { ChartStyle::LIGHT };
            let chart = DecayChart {
                distances,
                bound,
                cursor: bound_at_r.get().map(|b| (r, b)),
            };
            (chart, style)
        },
        |area, (chart, style), ratio| {
            // A failed draw leaves the previous frame; nothing to report to the user.
            let _ = draw_decay(area, chart, &style.with_scale(ratio));
        },
    );

    view! {
        <section class="widget" data-widget="decay" aria-labelledby="decay-title">
            <h2 id="decay-title">"Long-term decay: the RoFormer bound"</h2>
            <canvas
                class="chart"
                node_ref=canvas
                role="img"
                aria-label="Line chart of the RoFormer decay bound against relative distance n − m, with a marker at r"
            ></canvas>
            <div class="readouts">
                <Readout testid="decay-bound" label="bound at distance r" value=bound_at_r />
            </div>
            <p class="explain">
                "Sⱼ adds up the unit phasors e^(i·r·θₖ) of the first j planes; the bound is the mean of "
                "|Sⱼ| over all d/2 planes. It limits how large |q_m · k_n| can get at distance "
                "r = n − m for the worst q and k: it starts at (d/2 + 1)/2 and falls with distance. It "
                "is a ceiling, not the score you get: real scores need not decay."
            </p>
        </section>
    }
}
