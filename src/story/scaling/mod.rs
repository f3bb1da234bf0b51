//! The context-extension chapter (`data-widget="scaling"`): a real model's settings (presets and
//! pasted configs), each method's parameters named as configs name them, what the method does
//! to every plane's wavelength against the original and target contexts, which planes would see
//! angles they never saw in training, the attention factor, and the settings back as Python.

mod charts;
mod config;
mod fields;
mod notes;
mod walkthrough;
mod wavelength_chart;

use crate::lab::use_lab;
use crate::quiz::scaling::fastest_plane;
use crate::rope::{frequencies, mean_cos_by_distance, stretch, xpos_mean_cos, PlaneChange, RopeParams, ScalingMethod, ScalingParams};
use crate::state::param;
use crate::state::presets::PRESETS;
use crate::state::Change;
use crate::ui::card::WidgetCard;
use crate::ui::check::Check;
use crate::ui::controls::NumberField;
use crate::ui::export::{base_and_dim, ExportButtons};
use crate::ui::field::key_label;
use crate::ui::readout::Readout;
use charts::{CompareChart, CompareFacts, Comparison, PlaneAngles};
use config::ConfigBox;
use fields::{reads, ListField, MethodSelect, ALL_FIELDS};
use leptos::prelude::*;
use notes::{method_note, rotates};
use std::sync::Arc;
use walkthrough::Walkthrough;
use wavelength_chart::WavelengthChart;

/// The chapter's id (`embed=scaling`, `data-widget`): never changes meaning once published.
pub const ID: &str = "scaling";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "Stretching the context: PI, NTK, YaRN, Llama 3.1, LongRoPE on real models";

/// Points of the score comparison's curves.
const COMPARE_SAMPLES: usize = 240;

#[component]
pub fn ScalingWidget() -> impl IntoView {
    let lab = use_lab();
    let method = lab.select(|s| s.scaling);
    let preset = lab.select(|s| s.preset);
    let contexts = lab.select(|s| (s.orig, s.target_context()));
    let attention = lab.select_derived(|d| d.frequencies.attention_factor);
    // Every plane before and after, over orig and the target context. Only the model's
    // settings feed it: moving m or n (every slider step) recomputes nothing here.
    let model = lab.select(|s| (s.base, s.dim, s.layout, s.target_context(), s.scaling_params()));
    // Method B and xPos, for the score comparison.
    let versus = lab.select(|s| (s.scaling_params_b(), s.xpos.then_some(s.scale_base), s.unscaled_params()));
    // At the target context: LongRoPE and dynamic NTK depend on the current length, so the
    // chapter's pictures take seq_len = the target (LongRoPE's long_factor).
    let after = Memo::new(move |_| {
        model.with(|(base, dim, _, target, scaling)| {
            let params = RopeParams::new(*base, *dim).ok()?;
            let at_target = ScalingParams { seq_len: (*target).max(scaling.seq_len), ..scaling.clone() };
            frequencies(params, &at_target).ok().map(|f| f.inv_freq)
        })
    });
    // Before: the same head unscaled (p-RoPE's dropped planes stay dropped).
    let before = Memo::new(move |_| {
        let params = model.with(|(base, dim, ..)| RopeParams::new(*base, *dim).ok())?;
        versus.with(|(_, _, plain)| frequencies(params, plain).ok().map(|f| f.inv_freq))
    });
    let planes = Memo::new(move |_| {
        let (after, before) = (after.get()?, before.get()?);
        model.with(|(_, _, _, target, scaling)| {
            Some(stretch(&before, &after, scaling.factor, scaling.original_context as f64, *target as f64))
        })
    });
    // The q = k score against distance, 1 to the target context on a log axis.
    let comparison = Memo::new(move |_| {
        let (after, before) = (after.get()?, before.get()?);
        let (orig, target) = contexts.get();
        let last = (target.max(orig).max(16)) as f64;
        let distances: Vec<f64> = (0..=COMPARE_SAMPLES).map(|i| last.powf(i as f64 / COMPARE_SAMPLES as f64)).collect();
        let params = model.with(|(base, dim, ..)| RopeParams::new(*base, *dim).ok())?;
        versus.with(|(b, xpos, _)| {
            let b = b.as_ref().and_then(|b| {
                let at_target = ScalingParams { seq_len: target.max(b.seq_len), ..b.clone() };
                let inv_freq = frequencies(params, &at_target).ok()?.inv_freq;
                Some((mean_cos_by_distance(&inv_freq, &distances), b.method.as_str()))
            });
            let original = mean_cos_by_distance(&before, &distances);
            Some(Comparison {
                // Without a method (or one that leaves θᵢ as they are) A is the original.
                a: if after == before { original.clone() } else { mean_cos_by_distance(&after, &distances) },
                original,
                xpos: xpos.map(|scale_base| xpos_mean_cos(&before, &distances, scale_base)),
                b,
                orig,
                target,
                distances,
            })
        })
    });
    // Without a method, B or xPos: A is the original, the gap 0, A at distance 1 one mean of cos.
    let facts = Memo::new(move |_| match (versus.with(|(b, x, _)| b.is_none() && x.is_none()), after.get(), before.get()) {
        (true, Some(after), Some(before)) if after == before => Some(CompareFacts::unchanged(&before, contexts.get().1)),
        _ => comparison.with(|c| c.as_ref().map(Comparison::facts)),
    });
    // B is asked for but has no curve: its frequencies failed (a partial rotary fraction it cannot use).
    let b_failed = Memo::new(move |_| versus.with(|(b, ..)| b.is_some()) && facts.with(|f| f.as_ref().is_some_and(|f| f.b_name.is_none())));
    let scaling_b = lab.select(|s| s.scaling_b);
    // DeepSeek's softmax scale beyond transformers' factor: yarn_get_mscale(factor, mscale_all_dim)².
    let deepseek_scale = lab.select(|s| {
        let all_dim = s.mscale_all_dim.filter(|m| *m > 0.0 && s.scaling == ScalingMethod::Yarn)?;
        let factor = s.effective_factor();
        let mscale = if factor <= 1.0 { 1.0 } else { 0.1 * all_dim * factor.ln() + 1.0 };
        Some(mscale * mscale)
    });
    let xpos = lab.select(|s| s.xpos);
    let scale_base = lab.select(|s| crate::state::fmt_number(s.scale_base));
    // The worst overshoot beyond the angles seen in training, and how many planes overshoot:
    // with the frequencies in effect, and with the original ones run to the same target.
    let overshoot = move |plain: bool| {
        let (orig, target) = contexts.get();
        planes.with(|p| {
            p.as_ref().map(|p| {
                p.iter().filter(|s| s.change != PlaneChange::Still).fold((1.0f64, 0usize), |(worst, count), s| {
                    // The original θᵢ run to the target: (target − 1)·θᵢ against (orig − 1)·θᵢ.
                    let ratio = if plain {
                        if s.trained_angle > 0.0 && s.trained_angle < std::f64::consts::TAU {
                            (target.saturating_sub(1) as f64 / orig.saturating_sub(1) as f64).max(1.0)
                        } else {
                            1.0
                        }
                    } else {
                        s.overshoot()
                    };
                    (worst.max(ratio), count + usize::from(ratio > 1.0 + 1e-12))
                })
            })
        })
    };
    let scaled_overshoot = Signal::derive(move || overshoot(false));
    let plain_overshoot = Signal::derive(move || overshoot(true));
    let overshoot_text = move |v: Option<(f64, usize)>, planes: usize| match v {
        Some((worst, count)) if count > 0 => format!("{}× ({count} of {planes} planes)", times(worst)),
        Some(_) => format!("none of {planes} planes"),
        None => "—".to_string(),
    };
    let rotating = move || planes.with(|p| p.as_ref().map_or(0, |p| p.iter().filter(|s| s.change != PlaneChange::Still).count()));
    let python = Memo::new(move |_| {
        model.track();
        lab.state.with_untracked(|s| s.python())
    });

    // For "up to factor × (orig − 1)": the interpolation limit of a plane divided by the whole factor.
    let reach = lab.select(|s| (s.effective_factor(), s.orig, s.target_context()));
    let reach_text = move || {
        let (factor, orig, target) = reach.get();
        format!("{} ", walkthrough::reach_sentence(factor, orig, target))
    };

    view! {
        <WidgetCard id=ID title=TITLE class="scaling-widget">
            <Walkthrough planes overshoot=scaled_overshoot />
            // Everything after the walk-through comes under this heading, so that the
            // walk-through is all a reader meets first; every control stays open.
            <h3>"In detail"</h3>
            <div class="control-pair">
                <div class="control">
                    <label for="preset-select">"model preset"</label>
                    <select id="preset-select" on:change=move |ev| {
                        let id = event_target_value(&ev);
                        if let Some(p) = PRESETS.iter().find(|p| p.id == id) {
                            lab.apply(Change::Preset(p.id));
                        }
                    }>
                        <option value="" selected=move || preset.get().is_none()>"(your own settings)"</option>
                        {PRESETS.iter().map(|p| view! {
                            <option value=p.id selected=move || preset.get() == Some(p.id)>{p.name}</option>
                        }).collect_view()}
                    </select>
                    <span class="control-note">{move || preset.get().and_then(|id| PRESETS.iter().find(|p| p.id == id)).map(|p| format!("from config.json of {}", p.source)).unwrap_or_default()}</span>
                </div>
                <MethodSelect id="method-a" label="rope_type (method A)" as_b=false
                    value=Signal::derive(move || Some(method.get())) />
            </div>
            <p class="method-note">{move || method_note(method.get())}</p>
            {move || preset.get().and_then(rotates).map(|note| view! { <p class="method-note" data-testid="preset-rotates">{note}</p> })}
            <p class="explain">
                "Each field is named as configs name it, and shows only where method A or B reads it. partial_rotary_factor, "
                "read by every method, is the fraction of each head's dimensions that rotate (the rest carry no position); "
                "p-RoPE reads it as the fraction of planes it keeps."
            </p>

            <div class="scaling-fields">
                <div class="control">
                    <label for="scaling-orig">"orig: " {key_label("original_max_position_embeddings")}</label>
                    <NumberField lab param=&param::ORIG id="scaling-orig" step="1"
                        value=Signal::derive(move || contexts.get().0.to_string()) />
                </div>
                <div class="control">
                    <label for="scaling-target">"target: " {key_label("max_position_embeddings")}</label>
                    <NumberField lab param=&param::TARGET id="scaling-target" step="1"
                        value=Signal::derive(move || contexts.get().1.to_string()) />
                </div>
                // Every field exists once and shows where its method reads it (rebuilding the
                // list on each change of method would recreate fields under the reader's hands).
                {ALL_FIELDS.iter().enumerate().map(|(field, &(param, label, id))| {
                    let value = lab.select(move |s| if param.name == "factor" { crate::state::fmt_number(s.effective_factor()) } else { (param.text)(s) });
                    // Shown where method A or method B reads it.
                    let shown = move || {
                        let reads = |m: ScalingMethod| reads(m, field);
                        reads(method.get()) || scaling_b.get().is_some_and(reads)
                    };
                    view! {
                        <div class="control" hidden=move || !shown()>
                            <label for=id>{key_label(label)}</label>
                            <NumberField lab param id=id step="any" value=Signal::derive(move || value.get()) />
                        </div>
                    }
                }).collect_view()}
            </div>
            <Show when=move || method.get() == ScalingMethod::LongRope>
                <ListField param=&param::SHORT_FACTOR label="short_factor (one per rotating plane, comma-separated)" />
                <ListField param=&param::LONG_FACTOR label="long_factor (one per rotating plane, comma-separated)" />
            </Show>
            <WavelengthChart planes=planes method=method contexts=contexts />
            <ExportButtons name="scaling" figure=".wavelength-figure:not(.compare-figure)"
                caption=Callback::new(move |()| lab.state.with_untracked(|s| {
                    // "before and after" only when there is an after: a chart with no method chosen
                    // shows the planes as they are.
                    let what = match s.scaling {
                        ScalingMethod::None => "Each plane's wavelength",
                        _ => "Each plane's wavelength before and after context extension",
                    };
                    format!("{what}, {}, trained on {} tokens, {}", extension(s), s.orig, base_and_dim(s.base, s.dim))
                })) />
            <PlaneAngles planes />

            <div class="readouts">
                <Readout testid="scaling-overshoot" label="beyond the angles seen in training, scaled"
                    value=Signal::derive(move || scaled_overshoot.get().map(|v| v.0))
                    text=Signal::derive(move || overshoot_text(scaled_overshoot.get(), rotating()))
                    hint="the slow planes' largest angle within max_position_embeddings over their largest in training" />
                <Readout testid="scaling-overshoot-plain" label="the same without scaling"
                    value=Signal::derive(move || plain_overshoot.get().map(|v| v.0))
                    text=Signal::derive(move || overshoot_text(plain_overshoot.get(), rotating()))
                    hint="the original θᵢ run to max_position_embeddings: max_position_embeddings / orig" />
                <Readout testid="attention-factor" label="attention factor" value=attention
                    hint="transformers' attention_factor: it multiplies cos and sin, so q and k each by it and every logit q·k by its square (YaRN's temperature t is 1/attention_factor²); the page's scores leave it out" />
            </div>
            // The same number under the name this chapter's readout had before the scores chapter
            // was folded into the others (a readable value of the README's table).
            <output hidden data-testid="scaling-attention-factor" data-value=move || attention.get().map(crate::state::fmt_f64)></output>

            <details class="scaling-detail">
                <summary>"The attention factor: what it does, and where its formulas come from"</summary>
                <p class="explain">
                    "Only YaRN and LongRoPE set one; the other methods leave attention_factor at 1. transformers multiplies cos "
                    "and sin by attention_factor, so q and k are each multiplied by it and every logit q·k by attention_factor². "
                    "The YaRN paper writes the same as a temperature t on the softmax, softmax(q·k/(t·√d)), with "
                    "attention_factor = √(1/t): t below 1 sharpens the softmax."
                </p>
                <p class="explain">
                    "Where the numbers come from: YaRN's 0.1·ln(factor) + 1 is a fit, the √(1/t) that gave LLaMA models the "
                    "lowest perplexity at each factor (YaRN paper, §3.4). One explanation of why longer text wants sharper "
                    "attention is entropy: a softmax over more keys grows flatter, and multiplying the logits by ln n / ln L "
                    "(n tokens, L the trained length) is the scaling argued to keep its entropy level. LongRoPE's "
                    "√(1 + ln(factor)/ln(orig)) is that scaling at n = factor × orig, split between q and k."
                </p>
                <p class="explain" hidden=move || deepseek_scale.get().is_none()>
                    {move || deepseek_scale.get().map(|s| format!(
                        "With mscale_all_dim set, as in DeepSeek-V2 and V3, transformers' attention_factor is a ratio of two mscale terms; \
                         DeepSeek's attention code also multiplies its softmax scale by mscale(factor, mscale_all_dim)² = {}.",
                        crate::charts::format::short_number(s)))}
                </p>
            </details>

            // An anchor (story::ANCHORS): the intro lesson's Llama 3.1 step opens here.
            <h4 id="scaling-compare">"Near and far: two methods side by side"</h4>
            <p class="explain">
                "The score of a query with a key Δ tokens back, for q = k with every plane of q the same length: the mean of "
                "cos(Δθᵢ). On the log axis the near tokens are on the left. Pick a second method (B) to compare."
            </p>
            <details class="scaling-detail">
                <summary>"What the curves show"</summary>
                <p class="explain">
                    "PI divides every θᵢ, so its curve is the original one shifted right by the factor: neighbours look alike, "
                    "short-range detail blurs. NTK, YaRN and Llama 3.1 barely change the fast planes and change mostly the slow "
                    "ones, so their curves stay near the original at short distances and part from it further on. Llama 3.1 "
                    "keeps exactly every plane whose wavelength is shorter than orig/high_freq_factor, and YaRN, with values "
                    "as configs set them, every plane whose wavelength is at most orig/beta_fast; NTK keeps only plane 0 exactly and "
                    "multiplies plane i's θᵢ by factor^(−2i/(d−2)), d counting the rotating dimensions. "
                    "A plane that YaRN or Llama 3.1 divides by the whole factor reaches at position p the angle it reached at "
                    "p/factor. "
                    {reach_text}
                    "NTK's larger base divides only the slowest plane by the whole factor: the planes between are divided by "
                    "less, and those that never completed a turn in training can turn past it (the overshoot readouts above "
                    "say how far)."
                </p>
            </details>
            <div class="control-pair">
                <MethodSelect id="method-b" label="compare with (method B)" as_b=true
                    value=Signal::derive(move || scaling_b.get()) />
                <div class="control">
                    <label class="check">
                        <input type="checkbox" id="xpos-switch" prop:checked=move || xpos.get()
                            on:change=move |ev| lab.apply(Change::Xpos(event_target_checked(&ev))) />
                        " xPos: add its decay"
                    </label>
                    <span class="control-note">"also drawn on the decay chart"</span>
                </div>
                <div class="control" hidden=move || !xpos.get()>
                    <label for="scale-base">"scale_base (xPos)"</label>
                    <NumberField lab param=&param::SCALE_BASE id="scale-base" step="any" value=Signal::derive(move || scale_base.get()) />
                </div>
            </div>
            <p class="field-message" role="status" hidden=move || !b_failed.get()>
                "Method B cannot use this partial rotary fraction (it needs an even number of rotating dimensions); only A is drawn."
            </p>
            <CompareChart comparison facts method />
            <ExportButtons name="scaling-compare" figure=".compare-figure"
                caption=Callback::new(move |()| lab.state.with_untracked(|s| format!(
                    "Context extension compared with the original θᵢ, {}, trained on {} tokens, {}", extension(s), s.orig, base_and_dim(s.base, s.dim)))) />
            <div class="readouts">
                <Readout testid="scaling-compare-gap" label="largest difference of the two curves"
                    value=Signal::derive(move || facts.with(|f| f.as_ref().map(|f| f.largest_gap)))
                    hint="over distances 1 to the target context, in units of |q|²" />
                <Readout testid="scaling-near-score" label="A at distance 1 (original)"
                    value=Signal::derive(move || facts.with(|f| f.as_ref().and_then(|f| f.a_near)))
                    text=Signal::derive(move || facts.with(|f| f.as_ref().map_or_else(|| "—".to_string(), CompareFacts::near_text)))
                    hint="near 1 for interpolated planes: the next token looks like this one" />
            </div>
            <details class="scaling-detail">
                <summary>"xPos: a decay on top of the rotation"</summary>
                <p class="explain">
                    "xPos (Sun et al. 2022, “A Length-Extrapolatable Transformer”) keeps RoPE's rotation and adds a decay: "
                    "q at m is multiplied by ζᵢ^(m/scale_base) and k at n by ζᵢ^(−n/scale_base), with "
                    "ζᵢ = (2i/d + 0.4)/1.4, so plane i's share of the score shrinks by ζᵢ^(Δ/scale_base) for a key Δ "
                    "tokens back: fast planes (small ζᵢ) fade within a few hundred tokens, the slowest barely. A key "
                    "ahead of the query would grow instead, so it suits causal attention only."
                </p>
            </details>

            <ConfigBox python />
            <Check name="fastest-plane" look="the chart of every plane's angle before and after" ask=Arc::new(move || {
                let orig = contexts.get().0;
                before.with(|b| after.with(|a| {
                    fastest_plane(method.get(), b.as_deref().unwrap_or_default(), a.as_deref().unwrap_or_default(), orig)
                }))
            }) />
        </WidgetCard>
    }
}
/// The context extension in effect, for a figure's caption: the method's name and its factor, each a part of its own
/// (comma-separated), so that a caption's words are translated apart from the names.
fn extension(s: &crate::state::LabState) -> String {
    match (s.scaling, s.factor) {
        (ScalingMethod::None, _) => "no context extension".to_string(),
        (method, Some(factor)) => format!("{}, factor {}", method.label(), crate::charts::format::short_number(factor)),
        (method, None) => format!("{}, its default factor", method.label()),
    }
}

/// A ratio as the readouts show it, rounded to two decimals, "about" when that rounds it, and
/// with more digits when it would round a ratio above 1 down to 1 (less than a position beyond
/// training still is beyond it).
pub(crate) fn times(ratio: f64) -> String {
    let rounded = (ratio * 100.0).round() / 100.0;
    if rounded == 1.0 && ratio > 1.0 {
        crate::charts::format::short_number(ratio)
    } else if (rounded - ratio).abs() > 1e-12 * ratio {
        format!("about {}", crate::state::fmt_number(rounded))
    } else {
        crate::state::fmt_number(rounded)
    }
}
