//! Frequencies and wavelengths (`data-widget="frequencies"`): each plane's θᵢ and wavelength
//! 2π·base^(2i/d) against the context length, and the period table.

use super::canvas::use_canvas_chart;
use super::card::WidgetCard;
use super::controls::{slider_value, NumberField};
use super::export::{csv_text, ExportButtons};
use super::readout::Readout;
use super::{use_chart_style, use_lab};
use crate::charts::format::short_number;
use crate::charts::{draw_frequencies, FrequencyChart};
use crate::rope::{turns_within, wavelength};
use crate::state::{param, Change};
use leptos::html::Canvas;
use leptos::prelude::*;
use std::f64::consts::TAU;

/// The context-length slider's range: 2^6 to 2^20 tokens.
const CONTEXT_LOG2: (f64, f64) = (6.0, 20.0);

/// The frequency chart and the period table.
#[component]
pub fn FrequenciesWidget() -> impl IntoView {
    let lab = use_lab();
    let style = use_chart_style();
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
        move || (chart.get(), style.get()),
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
        <WidgetCard id="frequencies" explain="Plane i turns by θᵢ = base^(−2i/d) radians per token, once every 2π/θᵢ tokens. Plane 0 \
            turns once every 2π ≈ 6.3 tokens; the last plane takes almost 2π·base tokens. Planes \
            whose wavelength exceeds the context never complete a turn inside it.">
            <div class="control context-control">
                <label for="context-slider">"context length (tokens) " <span class="unit">"(orig, log scale)"</span></label>
                <div class="control-row">
                    <input id="context-slider" type="range" step="0.5"
                        min=CONTEXT_LOG2.0.to_string() max=CONTEXT_LOG2.1.to_string()
                        aria-valuetext=move || format!("{} tokens", context.get())
                        prop:value=move || (context.get() as f64).log2().to_string()
                        on:input=move |ev| lab.apply(Change::Orig(2f64.powf(slider_value(&ev)).round() as i64)) />
                    <NumberField lab param=&param::ORIG aria_label="context, exact" step="1"
                        value=Signal::derive(move || context.get().to_string()) />
                </div>
            </div>
            <canvas class="chart" node_ref=canvas role="img"
                aria-label="Wavelength (left, log scale) and frequency θᵢ (right, log scale) of each plane, with the context length as a horizontal line"></canvas>
            <div class="readouts">
                <Readout testid="planes-turning" label="planes that turn within the context" integer=true
                    value=Signal::derive(move || Some(counts.get().0 as f64))
                    text=Signal::derive(move || format!("{} of {}", counts.get().0, counts.get().0 + counts.get().1))
                    hint=move || format!("{} never complete a turn in {} tokens", counts.get().1, context.get()) />
                <Readout testid="slowest-wavelength" label="slowest wavelength (tokens)" value=slowest
                    hint=move || format!(
                        "2π·base = {} tokens is its ceiling; with base 10000 about 63,000",
                        short_number(TAU * base.get())
                    ) />
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
                                                on:click=move |_| lab.apply(Change::Plane(i as i64))>
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
        </WidgetCard>
    }
}
