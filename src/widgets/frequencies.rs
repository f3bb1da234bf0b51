//! Frequencies and wavelengths (`data-widget="frequencies"`): each plane's θᵢ and wavelength
//! 2π·base^(2i/d) against the context length, and the period table.

use super::canvas::use_canvas_chart;
use super::export::{csv_text, ExportButtons};
use super::{use_dark_mode, use_lab};
use crate::charts::format::short_number;
use crate::charts::{draw_frequencies, ChartStyle, FrequencyChart};
use crate::rope::{turns_within, wavelength};
use crate::state::fmt_f64;
use leptos::html::Canvas;
use leptos::prelude::*;
use std::f64::consts::TAU;

/// The context-length slider's range: 2^6 to 2^20 tokens.
const CONTEXT_LOG2: (f64, f64) = (6.0, 20.0);

/// The frequency chart and the period table.
#[component]
pub fn FrequenciesWidget() -> impl IntoView {
    let lab = use_lab();
    let dark = use_dark_mode();
    let inv_freq = lab.select_derived(|d| d.frequencies.inv_freq.clone());
    let context = lab.select(|s| s.orig);
    let selected = lab.select(|s| s.plane);
    let base = lab.select(|s| s.base);
    let chart = Memo::new(move |_| FrequencyChart {
        inv_freq: inv_freq.get().unwrap_or_default(),
        context: context.get() as f64,
        selected: Some(selected.get()),
    });
    let counts = Memo::new(move |_| chart.with(FrequencyChart::turning_within_context));
    let slowest = Memo::new(move |_| {
        inv_freq.with(|f| f.as_ref().and_then(|f| f.iter().copied().filter(|x| *x > 0.0).reduce(f64::min)).and_then(wavelength))
    });

    let canvas = NodeRef::<Canvas>::new();
    use_canvas_chart(
        canvas,
        move || (chart.get(), if dark.get() { ChartStyle::DARK } else { ChartStyle::LIGHT }),
        |area, (chart, style), ratio| {
            let _ = draw_frequencies(area, chart, &style.with_scale(ratio));
        },
    );
    let csv = move || {
        let context = context.get_untracked() as f64;
        inv_freq.with_untracked(|f| {
            csv_text(
                &["plane", "theta_rad_per_token", "wavelength_tokens", "turns_within_context"],
                f.iter().flatten().enumerate().map(|(i, theta)| {
                    vec![i as f64, *theta, wavelength(*theta).unwrap_or(0.0), turns_within(*theta, context)]
                }),
            )
        })
    };

    view! {
        <section class="widget" data-widget="frequencies" aria-labelledby="frequencies-title">
            <h2 id="frequencies-title">"Frequencies and wavelengths"</h2>
            <p class="explain">
                "Plane i turns by θᵢ = base^(−2i/d) radians per token, once every 2π/θᵢ tokens. Plane 0 "
                "turns once every 2π ≈ 6.3 tokens; the last plane takes almost 2π·base tokens. Planes "
                "whose wavelength exceeds the context never complete a turn inside it."
            </p>
            <div class="control context-control">
                <label for="context-slider">"context length (tokens) " <span class="unit">"(orig, log scale)"</span></label>
                <div class="control-row">
                    <input id="context-slider" type="range" step="0.5"
                        min=CONTEXT_LOG2.0.to_string() max=CONTEXT_LOG2.1.to_string()
                        aria-valuetext=move || format!("{} tokens", context.get())
                        prop:value=move || (context.get() as f64).log2().to_string()
                        on:input=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                                lab.set("orig", &(2f64.powf(v).round() as u64).to_string());
                            }
                        } />
                    <input class="number-field" type="number" step="1" min="2" aria-label="context, exact"
                        prop:value=move || context.get().to_string()
                        on:change=move |ev| lab.set("orig", &event_target_value(&ev)) />
                </div>
            </div>
            <canvas class="chart" node_ref=canvas role="img"
                aria-label="Wavelength (left, log scale) and frequency θᵢ (right, log scale) of each plane, with the context length as a horizontal line"></canvas>
            <div class="readouts">
                <div class="readout">
                    <span class="readout-label">"planes that turn within the context"</span>
                    <output class="readout-value" data-testid="planes-turning"
                        data-value=move || counts.get().0.to_string()>
                        {move || format!("{} of {}", counts.get().0, counts.get().0 + counts.get().1)}
                    </output>
                    <span class="readout-hint">{move || format!("{} never complete a turn in {} tokens", counts.get().1, context.get())}</span>
                </div>
                <div class="readout">
                    <span class="readout-label">"slowest wavelength (tokens)"</span>
                    <output class="readout-value" data-testid="slowest-wavelength"
                        data-value=move || slowest.get().map(fmt_f64)>
                        {move || slowest.get().map_or_else(|| "—".to_string(), short_number)}
                    </output>
                    <span class="readout-hint">{move || format!(
                        "2π·base = {} tokens is its ceiling; with base 10000 about 63,000",
                        short_number(TAU * base.get())
                    )}</span>
                </div>
            </div>
            <ExportButtons canvas name="frequencies" csv />
            <div class="period-table" tabindex="0" role="region" aria-label="period table">
                <table>
                    <caption class="visually-hidden">"Each plane's frequency, wavelength and turns within the context"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"plane i"</th>
                            <th scope="col">"θᵢ (rad/token)"</th>
                            <th scope="col">"wavelength (tokens)"</th>
                            <th scope="col">"turns in context"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            let context = context.get() as f64;
                            inv_freq.get().unwrap_or_default().into_iter().enumerate().map(|(i, theta)| {
                                let turns = turns_within(theta, context);
                                view! {
                                    <tr class:selected=move || selected.get() == i class:no-turn=turns < 1.0>
                                        <th scope="row">
                                            <button type="button" class="row-select"
                                                aria-pressed=move || (selected.get() == i).to_string()
                                                on:click=move |_| lab.set("plane", &i.to_string())>
                                                {i}
                                            </button>
                                        </th>
                                        <td>{short_number(theta)}</td>
                                        <td>{wavelength(theta).map_or_else(|| "no turn".to_string(), short_number)}</td>
                                        <td>{short_number(turns)}</td>
                                    </tr>
                                }
                            }).collect_view()
                        }}
                    </tbody>
                </table>
            </div>
        </section>
    }
}
