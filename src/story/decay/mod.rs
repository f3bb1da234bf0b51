//! Long-term decay (`data-widget="decay"`): the take-away first (a ceiling that falls, scores
//! that need not, and why that is fine), the one line of summation by parts that gives
//! RoFormer's bound, then the relative bound against relative distance for the frequencies in
//! effect beside what scores actually do, with the values at `r` read out (`decay-bound`) and
//! other bases overlaid; the bound on this q and k's |score| folded below.

mod curves;
mod envelope;
mod gif;
mod lines;
mod sampling;

use crate::charts::format::short_number;
use crate::charts::{draw_absolute, draw_decay_frame, AbsoluteChart, DecayChart, DecayFrame, DecayPlot};
use crate::dom::canvas::use_canvas_chart;
use crate::dom::settle::Settle;
use crate::dom::size::{use_in_view, while_in_view};
use crate::lab::{use_chart_style, use_lab};
use crate::quiz::planes::score_decays;
use crate::rope::{abel_factor, cosine_by_distance, decay_bound, mean_cos_by_distance, norm, xpos_mean_cos};
use crate::state::{param, Change};
use crate::ui::card::WidgetCard;
use crate::ui::check::Check;
use crate::ui::export::{base_and_dim, ExportButtons};
use crate::ui::field::{FieldMessage, FieldStatus};
use crate::ui::formulas::{self, Formula};
use crate::ui::gif_button::GifButton;
use crate::ui::legend::ChartLegend;
use crate::ui::readout::Readout;
use crate::ui::slider::Slider;
use curves::{chart_at, csv_of, CurveInputs};
use envelope::{Dense, Sources};
use leptos::html::Canvas;
use leptos::prelude::*;
use lines::DecayLines;
use sampling::{distances, SAMPLES};
use std::sync::Arc;

/// The chapter's id (`embed=decay`, `data-widget`): never changes meaning once published.
pub const ID: &str = "decay";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "Long-term decay: RoFormer's bounds, and what scores do";

/// At rest, a linear range longer than the samples, up to this many tokens, is drawn from every
/// distance (the curves turn every few tokens: 513 samples of them alias), reduced to this
/// many columns, once no change has come for this long.
const ENVELOPE_MAX_RANGE: u64 = 65_536;
const ENVELOPE_QUIET_MS: f64 = 250.0;
/// Summation by parts (Abel summation, RoFormer section 3.4.3), the one line behind the bound:
/// with e^(−j·r·θₗ) = S̄ₗ₊₁ − S̄ₗ (S₀ = 0) and h_(d/2) = 0. The imaginary unit is j, as in the
/// complex chapter; the plane index is l.
const SUMMATION_BY_PARTS: &str = r#"<math display="block"><msub><mi>q</mi><mi>m</mi></msub><mo>·</mo><msub><mi>k</mi><mi>n</mi></msub><mo>=</mo><mi>Re</mi><munderover><mo>∑</mo><mrow><mi>l</mi><mo>=</mo><mn>0</mn></mrow><mrow><mi>d</mi><mo>/</mo><mn>2</mn><mo>−</mo><mn>1</mn></mrow></munderover><msub><mi>h</mi><mi>l</mi></msub><msup><mi>e</mi><mrow><mo>−</mo><mi>j</mi><mi>r</mi><msub><mi>θ</mi><mi>l</mi></msub></mrow></msup><mo>=</mo><mo>−</mo><mi>Re</mi><munderover><mo>∑</mo><mrow><mi>l</mi><mo>=</mo><mn>0</mn></mrow><mrow><mi>d</mi><mo>/</mo><mn>2</mn><mo>−</mo><mn>1</mn></mrow></munderover><mo>(</mo><msub><mi>h</mi><mrow><mi>l</mi><mo>+</mo><mn>1</mn></mrow></msub><mo>−</mo><msub><mi>h</mi><mi>l</mi></msub><mo>)</mo><msub><mover><mi>S</mi><mo>¯</mo></mover><mrow><mi>l</mi><mo>+</mo><mn>1</mn></mrow></msub></math>"#;

/// Span presets, from RoFormer's figure 2 to a long context.
const RANGES: [u64; 7] = [256, 1024, 4096, 16384, 65536, 262144, 1 << 20];

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
    let base = lab.select(|s| s.base);
    let r = lab.select(|s| s.r);
    let range = lab.select(|s| s.range);
    let log = lab.select(|s| s.log);
    let compare = lab.select(|s| s.compare.clone().unwrap_or_default());
    let bound_at_r = lab.select_derived(|d| d.decay_bound_at_r);
    // xPos overlaid (`xpos=1`): its scale_base, else None.
    let xpos = lab.select(|s| s.xpos.then_some(s.scale_base));
    // With context extension on, the original θᵢ's bound beside the scaled one.
    let unscaled = lab.select(|s| (s.scaling != crate::rope::ScalingMethod::None).then(|| s.unscaled_params()));

    // The curves at `distances` (evenly spaced unless `log`).
    let curves = move |distances: Vec<f64>, log: bool| {
        let (inv_freq, compare, unscaled) = (inv_freq.get().unwrap_or_default(), compare.get(), unscaled.get());
        let (base, dim, xpos) = (base.get(), dim.get(), xpos.get());
        vectors.with(|v| {
            let vectors = v.as_ref().map(|v| (&v.q[..], &v.k[..], &v.rotary));
            let inputs = CurveInputs { inv_freq: &inv_freq, base, dim, compare: &compare, vectors, xpos, unscaled: unscaled.as_ref() };
            chart_at(&inputs, distances, log)
        })
    };
    let chart = Memo::new(move |_| {
        let (range, log) = (range.get(), log.get());
        curves(distances(range, log), log)
    });
    // The absolute bound and |score| in score units: the relative curve times
    // (d/2)·maxᵢ|hᵢ₊₁ − hᵢ|, the cosine curve times |q||k|.
    let absolute_of = move |c: &DecayChart| {
        vectors.with(|v| {
            let v = v.as_ref()?;
            let factor = abel_factor(&v.rotary, &v.q, &v.k) * v.rotary.planes() as f64;
            let norms = norm(&v.q) * norm(&v.k);
            Some(AbsoluteChart {
                distances: c.distances.clone(),
                bound: c.bound.iter().map(|b| b * factor).collect(),
                score: c.score.iter().map(|s| (s * norms).abs()).collect(),
                log_x: c.log_x,
                cursor: None,
            })
        })
    };
    let absolute = Memo::new(move |_| chart.with(absolute_of));
    // At rest (ENVELOPE_QUIET_MS after the last change of the chart in view), a long linear
    // range is drawn from every distance: each column from its lowest to its highest value,
    // gathered a slice of distances per task. Moving, the samples are drawn; the envelope is
    // gathered only for a chart it does not match yet.
    let dense = RwSignal::new(None::<Dense>);
    let generation = StoredValue::new(0_u64);
    let sources = std::rc::Rc::new(Sources {
        curves: Box::new(move |distances| curves(distances, false)),
        absolute_of: Box::new(move |chart| absolute_of(chart)),
        shown: Box::new(move |source| chart.try_with_untracked(|c| c == source).unwrap_or(false)),
        done: Box::new(move |finished| {
            dense.try_set(Some(finished));
        }),
    });
    let sources = StoredValue::new_local(sources);
    let settle = Settle::new(ENVELOPE_QUIET_MS, move || {
        untrack(|| {
            let (range, log) = (range.get(), log.get());
            if log || range <= SAMPLES as u64 || range > ENVELOPE_MAX_RANGE || xpos.get().is_some() {
                return;
            }
            let source = chart.get();
            if dense.with(|d| d.as_ref().is_some_and(|d| d.source == source)) {
                return;
            }
            if let Some(sources) = sources.try_get_value() {
                envelope::gather(source, range, generation, sources);
            }
        })
    });
    // Whether the chart in view shows the envelope (`data-detail`, and its description).
    let exact = RwSignal::new(false);
    let absolute_canvas = NodeRef::<Canvas>::new();
    use_canvas_chart(
        absolute_canvas,
        move || {
            let sampled = chart.get();
            let envelope = dense.with(|d| d.as_ref().filter(|d| d.source == sampled).and_then(|d| d.absolute.clone()));
            (
                envelope.or_else(|| absolute.get()).map(|mut chart| {
                    chart.cursor = Some(r.get() as f64);
                    chart
                }),
                style.get(),
            )
        },
        |area, (chart, style), ratio| {
            if let Some(chart) = chart {
                let _ = draw_absolute(area, chart, &style.with_scale(ratio));
            }
        },
    );
    let absolute_at_r = lab.select_derived(|d| d.absolute_bound_at_r);
    let at_r = Memo::new(move |_| {
        let r = r.get() as f64;
        vectors.with(|v| {
            v.as_ref().map(|v| (cosine_by_distance(&v.rotary, &v.q, &v.k, &[r])[0], mean_cos_by_distance(v.rotary.inv_freq(), &[r])[0]))
        })
    });

    // The chart as shown (the envelope once it is gathered, else the samples) while it can be
    // seen: its frame on the canvas, redrawn only when the axes change; its lines in a layer
    // over it (`DecayLines`), following every step.
    let visible_chart = while_in_view(use_in_view(canvas), move || {
        let sampled = chart.get();
        settle.poke();
        let envelope = dense.with(|d| d.as_ref().filter(|d| d.source == sampled).map(|d| d.envelope.clone()));
        exact.set(envelope.is_some());
        let mut chart = envelope.unwrap_or(sampled);
        chart.cursor = bound_at_r.get().map(|b| (r.get() as f64, b));
        chart
    });
    let frame = Memo::new(move |_| visible_chart.with(DecayFrame::of));
    let drawn = RwSignal::new(None::<(DecayPlot, f64)>);
    let canvas_size = use_canvas_chart(
        canvas,
        move || (frame.get(), style.get()),
        move |area, (frame, style), ratio| {
            // A failed draw leaves the previous frame; nothing to report to the user.
            if let Ok(plot) = draw_decay_frame(area, frame, &style.with_scale(ratio)) {
                if drawn.get_untracked() != Some((plot, ratio)) {
                    drawn.set(Some((plot, ratio)));
                }
            }
        },
    );
    let csv = move || chart.with_untracked(csv_of);
    // The take-away in this state's numbers: the relative bound at 0, 1,000 and 5,000 tokens
    // (computed, not written: at b = 500,000 it is lower at 5,000 than at 1,000, at b = 10,000
    // and d = 128 higher), followed only near the screen.
    let lead = NodeRef::<leptos::html::P>::new();
    let lead_text = while_in_view(use_in_view(lead), move || {
        let (inv_freq, dim) = (inv_freq.get().unwrap_or_default(), dim.get());
        if inv_freq.len() < 2 {
            return "At d = 2 there is one plane and nothing to cancel it: the relative bound is 1 at every distance, a flat ceiling."
                .to_string();
        }
        let [at_zero, near, far] = [0.0, 1000.0, 5000.0].map(|r| decay_bound(&inv_freq, r));
        let ripple = if far > near {
            "higher at the farther distance: it ripples rather than falling smoothly".to_string()
        } else {
            "it ripples rather than falling smoothly (with b = 10,000 and d = 128 it is about 4.5 at r = 1,000 and 7.6 at r = 5,000)"
                .to_string()
        };
        format!(
            "With the θᵢ here (d = {dim}), the relative bound is {} at r = 0, its highest, {} at r = 1,000 and {} at r = 5,000: {ripple}.",
            short_number(at_zero),
            short_number(near),
            short_number(far)
        )
    });
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
        <WidgetCard id=ID title=TITLE explain="Does attention fade with distance? Not necessarily. RoFormer (section 3.4.3) proves a \
            ceiling on |score| that is highest at r = n − m = 0, where every plane's phasor e^(j·r·θᵢ) is 1; farther out, planes \
            that turn at different speeds point different ways, and the sums of their phasors shrink. A ceiling, not a forecast: \
            the score of a given q and k stays under it but need not fall with distance, and for random q and k, independent and \
            zero-mean, the expected score is 0 at every distance. That is fine: Barbero et al. (2024, “Round and round we go! What \
            makes Rotary Positional Encodings useful?”) argue that decay is not why RoPE works: trained models use the fast planes \
            to build positional attention patterns and the slow, nearly still planes to carry meaning.">
            <p class="explain" node_ref=lead>{move || lead_text.get()}</p>
            <Formula math=formulas::DECAY />
            <p class="explain">
                "Where the ceiling comes from, in one line (summation by parts, RoFormer section 3.4.3). Read q's and k's two "
                "coordinates in plane l (as the current layout pairs dimensions) as complex numbers q̃ₗ and k̃ₗ: the plane adds "
                "to the score the real part of hₗ = q̃ₗ·k̃ₗ* turned by −r·θₗ. With h_(d/2) = 0 "
                "and each phasor written as a difference of running sums, e^(−j·r·θₗ) = S̄ₗ₊₁ − S̄ₗ (S̄ the complex conjugate of S, "
                "S₀ = 0), regroup:"
            </p>
            <Formula math=SUMMATION_BY_PARTS />
            <p class="explain">
                "Each term is at most maxₗ |hₗ₊₁ − hₗ| · |Sₗ₊₁| in size, which gives the bound above. Its first factor depends on q "
                "and k alone, its second on the θᵢ alone; RoFormer plots the second over d/2, the relative bound, below."
            </p>
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
            <div class="decay-plot">
                <canvas class="chart decay-chart" node_ref=canvas role="img"
                    data-detail=move || if exact.get() { "envelope" } else { "samples" }
                    aria-label=move || {
                        let shown = |v: Option<f64>| v.map_or_else(|| "—".to_string(), short_number);
                        let how = if exact.get() { " (every distance: each column spans the lowest to the highest value over its distances)" } else { "" };
                        format!(
                            "Line chart over relative distances 0 to {}{how}: RoFormer's relative upper bound (left axis), and on the right axis the cosine score of this q and k, the mean of cos(rθᵢ), and the expected 0 of random q and k. At r = {}: bound {}, this q and k {}, mean of cos(rθᵢ) {}",
                            range.get(), r.get(), shown(bound_at_r.get()), shown(at_r.get().map(|v| v.0)), shown(at_r.get().map(|v| v.1))
                        )
                    }></canvas>
                <DecayLines chart=visible_chart drawn=drawn.read_only() style />
            </div>
            <ChartLegend entries=Memo::new(move |_| {
                let cosines = vectors.with(Option::is_some);
                compare.with(|bases| DecayChart::legend_for(bases, unscaled.get().is_some(), cosines, cosines, xpos.get().is_some(), &style.get()))
            }) />
            <div class="control">
                <label for="r-slider">"cursor distance r"</label>
                <Slider id="r-slider".to_string() min="0" step="1"
                    max=Signal::derive(move || range.get().to_string())
                    value=Signal::derive(move || r.get().to_string())
                    on_value=move |r: f64| lab.apply(Change::R(r as i64)) />
            </div>
            <div class="readouts">
                <Readout testid="decay-bound" label="relative bound at r" value=bound_at_r />
                <Readout testid="decay-score" label="this q and k at r, ÷ |q||k|"
                    value=Signal::derive(move || at_r.get().map(|(score, _)| score)) />
                <Readout testid="decay-q-equals-k" label="mean cos(rθᵢ) at r (q = k, the same length in every plane)"
                    value=Signal::derive(move || at_r.get().map(|(_, mean_cos)| mean_cos)) />
                <Show when=move || xpos.get().is_some()>
                    <Readout testid="decay-xpos" label="the same with xPos, key r tokens back"
                        value=Signal::derive(move || {
                            let scale_base = xpos.get()?;
                            let inv_freq = inv_freq.get()?;
                            xpos_mean_cos(&inv_freq, &[r.get() as f64], scale_base).first().copied()
                        }) />
                </Show>
            </div>
            <label class="toolbar-field">
                <input type="checkbox" prop:checked=move || xpos.get().is_some()
                    on:change=move |ev| lab.apply(Change::Xpos(event_target_checked(&ev))) />
                " overlay xPos (Sun et al. 2022): RoPE with a decay per plane, scale_base "
                {move || xpos.get().map(crate::state::fmt_number).unwrap_or_else(|| "512".to_string())}
            </label>
            <p class="control-note">
                "xPos, and the original θᵢ the chart overlays when context extension is on, are explained in "
                <a href="#scaling">"Context extension"</a>", a later chapter."
            </p>
            <div class="exports">
                <ExportButtons name="decay" figure=".decay-plot, .decay-plot + .chart-legend" csv=Callback::new(move |()| csv())
                    caption=Callback::new(move |()| lab.state.with_untracked(|s| format!(
                        "Decay with distance: RoFormer's relative bound and scores, r = 0 to {}, {}", range.get_untracked(), base_and_dim(s.base, s.dim)))) />
                <GifButton name="decay" animation=Callback::new(move |()| gif::animation(lab, canvas_size.get_untracked(), style.get_untracked())) />
            </div>
            <p class="explain">
                "The green curve is RoFormer's relative upper bound (their figure 2): (1/(d/2))·Σₜ|Sₜ|, where "
                "Sₜ = Σ_(l<t) e^(j·r·θₗ) adds the unit phasors of the first t planes (t = 1 … d/2). It equals (d/2 + 1)/2 at r = 0, "
                "where every |Sₜ| = t, and is never higher. Times (d/2)·maxₗ |hₗ₊₁ − hₗ| it bounds this q and k's |score| "
                "(folded below). On the right axis are scores: this q and k's, divided by |q||k|, and the pink curve, the mean "
                "of cos(rθᵢ), which is the score of q = k only when q has the same length in every plane."
            </p>
            <details class="lists decay-second">
            <summary>"The bound on the score itself, for this q and k"</summary>
            <p class="explain">
                "RoFormer's bound on |q_m · k_n| multiplies Σₜ|Sₜ| by maxₗ |hₗ₊₁ − hₗ|, where hₗ = q̃ₗ·k̃ₗ* is plane "
                "l's product of this q and k and h_(d/2) = 0. It holds for every q and k, and it is loose: see how far "
                "it sits above |score|."
            </p>
            <canvas class="chart decay-chart decay-absolute" node_ref=absolute_canvas role="img"
                aria-label=move || format!(
                    "Line chart, log scale: RoFormer's absolute bound on |score| for this q and k, and |score|, against relative distance. At r = {}: bound {}, |score| {}",
                    r.get(), absolute_at_r.get().map_or_else(|| "—".to_string(), short_number),
                    at_r.get().map_or_else(|| "—".to_string(), |(s, _)| short_number((s * vectors.with(|v| v.as_ref().map_or(0.0, |v| norm(&v.q) * norm(&v.k)))).abs()))
                )></canvas>
            <ChartLegend entries=Memo::new(move |_| AbsoluteChart::legend(&style.get())) />
            <ExportButtons name="decay-absolute" figure=".decay-absolute, .decay-absolute + .chart-legend"
                caption=Callback::new(move |()| lab.state.with_untracked(|s| format!(
                    "RoFormer's absolute bound on |score| and |score| of this q and k, {}", base_and_dim(s.base, s.dim)))) />
            <div class="readouts">
                <Readout testid="decay-absolute-bound" label="absolute bound on |score| at r" value=absolute_at_r />
            </div>
            </details>
            <Check name="score-decays" look="the readouts at the cursor distance r and the chart's lines" ask=Arc::new(move || {
                let r = r.get();
                vectors.with(|v| v.as_ref().map(|v| score_decays(&v.rotary, &v.q, &v.k, r))).unwrap_or_default()
            }) />
        </WidgetCard>
    }
}
