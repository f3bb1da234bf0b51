//! Long-term decay (`data-widget="decay"`): the RoFormer bound against relative distance for
//! the frequencies in effect, beside what scores actually do, with the values at `r` read out
//! (`decay-bound`) and other bases overlaid for comparison.

use super::canvas::use_canvas_chart;
use super::card::WidgetCard;
use super::slider::Slider;
use super::export::{csv_text, ExportButtons};
use super::field::{FieldMessage, FieldStatus};
use super::legend::ChartLegend;
use super::readout::Readout;
use super::{use_chart_style, use_lab};
use crate::charts::format::short_number;
use crate::charts::{draw_decay, DecayChart};
use crate::rope::{cosine_by_distance, decay_bound, decay_curve, mean_cos_by_distance, Frequencies, RopeParams};
use crate::state::{fmt_list, param, Change};
use leptos::html::Canvas;
use leptos::prelude::*;

/// Points per curve: plenty for a chart a few hundred pixels wide.
const SAMPLES: usize = 512;
/// Span presets, from RoFormer's figure 2 to a long context.
const RANGES: [u64; 7] = [256, 1024, 4096, 16384, 65536, 262144, 1 << 20];

/// `SAMPLES + 1` distances over `0..=range`, evenly spaced or (log) geometric from 1.
fn distances(range: u64, log: bool) -> Vec<f64> {
    let range = range.max(2) as f64;
    (0..=SAMPLES)
        .map(|i| {
            let t = i as f64 / SAMPLES as f64;
            if log { range.powf(t) } else { range * t }
        })
        .collect()
}

/// The bound at each distance: by the fast recurrence when evenly spaced, else point by point.
fn bound_curve(inv_freq: &[f64], distances: &[f64], log: bool) -> Vec<f64> {
    if log {
        distances.iter().map(|r| decay_bound(inv_freq, *r)).collect()
    } else {
        let step = distances.get(1).copied().unwrap_or(1.0);
        decay_curve(inv_freq, 0.0, step, distances.len())
    }
}

/// The decay chart, its controls and its readouts at `r`.
#[component]
pub fn DecayWidget() -> impl IntoView {
    let lab = use_lab();
    let style = use_chart_style();
    let canvas = NodeRef::<Canvas>::new();
    // The chart depends on the frequencies, q and k, r and its own settings: never on m or n.
    let inv_freq = lab.select_derived(|d| d.frequencies.inv_freq.clone());
    let vectors = lab.vectors;
    let dim = lab.select(|s| s.dim);
    let r = lab.select(|s| s.r);
    let range = lab.select(|s| s.range);
    let log = lab.select(|s| s.log);
    let compare = lab.select(|s| s.compare.clone().unwrap_or_default());
    let bound_at_r = lab.select_derived(|d| d.decay_bound_at_r);

    let chart = Memo::new(move |_| {
        let (range, log) = (range.get(), log.get());
        let distances = distances(range, log);
        let inv_freq = inv_freq.get().unwrap_or_default();
        let bound = bound_curve(&inv_freq, &distances, log);
        let compare = compare
            .get()
            .into_iter()
            .filter_map(|base| {
                let plain = Frequencies::plain(RopeParams::new(base, dim.get()).ok()?);
                Some((base, bound_curve(&plain.inv_freq, &distances, log)))
            })
            .collect();
        let (score, q_equals_k) = vectors.with(|v| match v {
            Some(v) => (
                cosine_by_distance(&v.rotary, &v.q, &v.k, &distances),
                mean_cos_by_distance(v.rotary.inv_freq(), &distances),
            ),
            None => (Vec::new(), Vec::new()),
        });
        DecayChart { distances, bound, compare, score, q_equals_k, cursor: None, log_x: log }
    });
    let at_r = Memo::new(move |_| {
        let r = r.get() as f64;
        vectors.with(|v| {
            v.as_ref().map(|v| {
                (cosine_by_distance(&v.rotary, &v.q, &v.k, &[r])[0], mean_cos_by_distance(v.rotary.inv_freq(), &[r])[0])
            })
        })
    });

    use_canvas_chart(
        canvas,
        move || {
            let mut chart = chart.get();
            chart.cursor = bound_at_r.get().map(|b| (r.get() as f64, b));
            (chart, style.get())
        },
        |area, (chart, style), ratio| {
            // A failed draw leaves the previous frame; nothing to report to the user.
            let _ = draw_decay(area, chart, &style.with_scale(ratio));
        },
    );
    let csv = move || {
        chart.with_untracked(|c| {
            let mut header = vec!["distance".to_string(), "bound".to_string()];
            header.extend(c.compare.iter().map(|(b, _)| format!("bound_base_{}", fmt_list(&[*b]))));
            header.extend(["score_over_norms".to_string(), "q_equals_k".to_string()]);
            let header: Vec<&str> = header.iter().map(String::as_str).collect();
            csv_text(
                &header,
                c.distances.iter().enumerate().map(|(i, d)| {
                    let mut row = vec![*d, c.bound[i]];
                    row.extend(c.compare.iter().map(|(_, curve)| curve[i]));
                    row.push(c.score.get(i).copied().unwrap_or(0.0));
                    row.push(c.q_equals_k.get(i).copied().unwrap_or(0.0));
                    row
                }),
            )
        })
    };
    let compare_text = move || compare.get().iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ");
    // An empty field clears the comparison; anything else is parsed and validated like the URL.
    let set_compare = move |ev: leptos::ev::Event| {
        let raw = event_target_value(&ev);
        if raw.trim().is_empty() {
            lab.apply(Change::Compare(None));
        } else {
            lab.set_text(&param::COMPARE, &raw.replace(' ', ""));
        }
    };
    let compare_status = FieldStatus::new(lab, "compare");
    let presets = move || {
        let mut values = RANGES.to_vec();
        let current = range.get();
        if !values.contains(&current) {
            values.push(current);
            values.sort_unstable();
        }
        values
    };

    view! {
        <WidgetCard id="decay">
            <div class="chart-controls">
                <label class="toolbar-field">
                    "range "
                    <select aria-label="distance range (tokens)"
                        prop:value=move || range.get().to_string()
                        on:change=move |ev| {
                            if let Ok(range) = event_target_value(&ev).parse::<i64>() {
                                lab.apply(Change::Range(range));
                            }
                        }>
                        {move || presets().into_iter().map(|v| view! {
                            <option value=v.to_string() selected=move || range.get() == v>{short_number(v as f64)}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label class="toolbar-field">
                    <input type="checkbox" prop:checked=move || log.get()
                        on:change=move |ev| lab.apply(Change::Log(event_target_checked(&ev))) />
                    " log scale"
                </label>
                <label class="toolbar-field">
                    "compare bases "
                    <input type="text" class="compare-field" placeholder="500000, 1000000" inputmode="decimal"
                        aria-label="compare bases (comma-separated)"
                        aria-invalid=compare_status.invalid() aria-describedby=compare_status.id.clone()
                        prop:value=compare_text
                        on:change=set_compare />
                </label>
                <FieldMessage status=compare_status />
            </div>
            <canvas class="chart decay-chart" node_ref=canvas role="img"
                aria-label="Line chart: the RoFormer decay bound against relative distance (left axis), and on the right axis the cosine score of this q and k, of q = k, and of random q and k, with a marker at r"></canvas>
            <ChartLegend entries=Memo::new(move |_| {
                let cosines = vectors.with(Option::is_some);
                compare.with(|bases| DecayChart::legend_for(bases, cosines, cosines, &style.get()))
            }) />
            <div class="control">
                <label for="r-slider">"cursor distance r"</label>
                <Slider id="r-slider".to_string() min="0" step="1"
                    max=Signal::derive(move || range.get().to_string())
                    value=Signal::derive(move || r.get().to_string())
                    on_value=move |r: f64| lab.apply(Change::R(r as i64)) />
            </div>
            <div class="readouts">
                <Readout testid="decay-bound" label="bound at distance r" value=bound_at_r />
                <Readout testid="decay-score" label="this q and k at r, ÷ |q||k|"
                    value=Signal::derive(move || at_r.get().map(|(score, _)| score)) />
                <Readout testid="decay-q-equals-k" label="q = k at r, mean cos(rθᵢ)"
                    value=Signal::derive(move || at_r.get().map(|(_, mean_cos)| mean_cos)) />
            </div>
            <ExportButtons canvas name="decay" csv />
            <p class="explain">
                "The bound (1/(d/2))·Σⱼ|Sⱼ|, where Sⱼ adds the unit phasors e^(i·r·θₖ) of the first j planes, "
                "caps |q_m · k_n| at distance r for the worst q and k: it starts at (d/2 + 1)/2 and falls. "
                "It is a ceiling, not a prediction. The score of a given q and k need not decay; for random "
                "zero-mean q and k its expectation is 0 at every distance. Barbero et al. (2024, \"Round and "
                "round we go!\") show that decay is not why RoPE works: models use the fast planes to build "
                "positional attention heads and the slow, nearly still planes to carry meaning."
            </p>
        </WidgetCard>
    }
}
