//! A chart's legend as a list beside its canvas: what each curve or mark is, in its colour.

use crate::charts::{LegendEntry, Mark};
use leptos::prelude::*;

/// The legend of one chart.
#[component]
pub fn ChartLegend(#[prop(into)] entries: Signal<Vec<LegendEntry>>) -> impl IntoView {
    view! {
        <ul class="chart-legend">
            {move || entries.get().into_iter().map(|entry| {
                let colour = entry.css_colour();
                let mark = match entry.mark {
                    Mark::Line => "legend-mark line",
                    Mark::Dashed => "legend-mark line dashed",
                    Mark::Dot => "legend-mark dot",
                    Mark::Ring => "legend-mark ring",
                };
                view! {
                    <li>
                        // The colour through the style object (no style attribute: strict CSP).
                        // A static value would be written as a style attribute; a closure is
                        // set with style.setProperty.
                        <span class=mark aria-hidden="true" style:color=move || colour.clone()></span>
                        {entry.label}
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}
