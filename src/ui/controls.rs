//! The parameter controls: native form elements with accessible names as the contract lists
//! them (`base`, `dimension`, `query position`, `key position`, `layout`, `scaling`). Sliders
//! and choices apply typed [`Change`]s; text fields go through the parameter table, so a typed
//! value is parsed and validated exactly like the URL.

use crate::charts::format::{round_significant, short_number};
use crate::lab::{use_lab, Lab};
use crate::rope::{Layout, ScalingMethod, MAX_BASE, MAX_DIM};
use crate::state::{fmt_plain, param, Change, Param};
use crate::ui::field::{FieldMessage, FieldStatus};
use crate::ui::slider::Slider;
use leptos::prelude::*;

/// Smallest base the slider reaches (10^0.3, about 2); smaller bases above 1 can be typed. A
/// multiple of the 0.01 step, so that the slider lands exactly on 10^4, 10^5, ...
const BASE_SLIDER_MIN: f64 = 0.3;
/// Positions slide over at least this many tokens; further once m or n is typed beyond it.
const POSITION_SLIDER_MIN_MAX: i64 = 4096;

/// All parameter controls in one panel.
#[component]
pub fn Controls() -> impl IntoView {
    let lab = use_lab();
    let base = lab.select(|s| s.base);
    let dim = lab.select(|s| s.dim);
    let layout = lab.select(|s| s.layout);
    let scaling = lab.select(|s| s.scaling);
    let factor = lab.select(|s| s.effective_factor());
    let orig = lab.select(|s| s.orig);
    let r = lab.select(|s| s.r);
    let seed = lab.select(|s| s.seed);
    let rotary_dim = lab.select_derived(|d| d.frequencies.rotary_dim);
    let turning = lab.select_derived(|d| d.frequencies.inv_freq.iter().filter(|f| **f != 0.0).count());
    // One slider range for m and n, so they stay comparable.
    let position_max = lab.select(|s| {
        let furthest = s.m.max(s.n).max(POSITION_SLIDER_MIN_MAX);
        (furthest as u64).next_power_of_two() as i64
    });

    view! {
        <form class="controls" aria-label="RoPE parameters" on:submit=|ev| ev.prevent_default()>
            <div class="control">
                <label for="base-slider">"base b " <span class="unit">"(log scale)"</span></label>
                <div class="control-row">
                    <Slider id="base-slider".to_string() step="0.01"
                        min=fmt_plain(BASE_SLIDER_MIN) max=fmt_plain(MAX_BASE.log10())
                        aria_valuetext=Signal::derive(move || short_number(base.get()))
                        value=Signal::derive(move || fmt_plain(base.get().log10()))
                        on_value=move |exponent: f64| lab.apply(Change::Base(round_significant(10f64.powf(exponent), 4))) />
                    <NumberField lab param=&param::BASE aria_label="exact value of the base b" step="any"
                        value=Signal::derive(move || fmt_plain(base.get())) />
                </div>
                // The panel comes before every chapter: say what b does and where it is explained.
                <span class="control-note">{move || match rotary_dim.get() {
                        // Partial rotary: transformers computes inv_freq over the r rotating dimensions.
                        Some(r) if r < dim.get() => format!("sets how fast the planes turn, θᵢ = b^(−2i/{r}) over the {r} dimensions that rotate; "),
                        _ => "sets how fast the planes turn, θᵢ = b^(−2i/d); ".to_string(),
                    }}"transformers' config calls it "<code>"rope_theta"</code>". "
                    <a href="#frequencies">"How the base sets the frequencies"</a></span>
            </div>

            <div class="control">
                <label for="dim-slider">"dimension d"</label>
                <div class="control-row">
                    <Slider id="dim-slider".to_string() step="2" min="2" max=MAX_DIM.to_string()
                        aria_valuetext=Signal::derive(move || format!("{} ({} planes)", dim.get(), dim.get() / 2))
                        value=Signal::derive(move || dim.get().to_string())
                        on_value=move |d: f64| lab.apply(Change::Dim(d as i64)) />
                    <NumberField lab param=&param::DIM aria_label="d, exact" step="2"
                        value=Signal::derive(move || dim.get().to_string()) />
                </div>
                <span class="control-note">{move || {
                    let planes = dim.get() / 2;
                    // Partial rotary and p-RoPE leave some planes still (θᵢ = 0).
                    let still = match turning.get() {
                        Some(turning) if turning < planes => format!(", {turning} of which turn"),
                        _ => String::new(),
                    };
                    if planes == 1 {
                        format!("1 plane, a pair of dimensions{}", if turning.get() == Some(0) { ", which does not turn" } else { "" })
                    } else {
                        format!("{planes} planes, each a pair of dimensions{still}")
                    }
                }}</span>
            </div>

            <PositionControl lab param=&param::M label="query position m" change=Change::M
                value=lab.select(|s| s.m) max=position_max />
            <PositionControl lab param=&param::N label="key position n" change=Change::N
                value=lab.select(|s| s.n) max=position_max />

            <SelectControl lab id="layout-select" label="layout"
                options=Layout::ALL.iter().map(|l| (l.as_str(), l.label())).collect()
                value=Signal::derive(move || layout.get().as_str())
                on_pick=|name| Layout::parse(name).map(Change::Layout)
                note=Signal::derive(move || match layout.get() {
                    Layout::Interleaved => "RoFormer, Meta's Llama code",
                    Layout::Half => "rotate_half: GPT-NeoX, Hugging Face",
                }) />
            <a class="control-where" href="#layouts">"what the layout is"</a>
            <SelectControl lab id="scaling-select" label="scaling"
                options=ScalingMethod::ALL.iter().map(|m| (m.as_str(), m.label())).collect()
                value=Signal::derive(move || scaling.get().as_str())
                on_pick=|name| ScalingMethod::parse(name).map(Change::Scaling) />
            <a class="control-where" href="#scaling">"what context extension is"</a>

            <Show when=move || scaling.get() != ScalingMethod::None>
                <div class="control-pair">
                    <div class="control">
                        <label for="factor-field">"scaling factor"</label>
                        <NumberField lab param=&param::FACTOR id="factor-field" step="any"
                            value=Signal::derive(move || fmt_plain(factor.get())) />
                    </div>
                    <div class="control">
                        <label for="orig-field">"original context orig (tokens)"</label>
                        <NumberField lab param=&param::ORIG id="orig-field" step="1"
                            value=Signal::derive(move || orig.get().to_string()) />
                    </div>
                </div>
            </Show>

            <div class="control-pair">
                <div class="control">
                    <label for="r-field">"relative distance r " <span class="unit">"("<a href="#decay">"decay readout"</a>")"</span></label>
                    <NumberField lab param=&param::R id="r-field" step="1"
                        value=Signal::derive(move || r.get().to_string()) />
                </div>
                <div class="control">
                    <label for="seed-field">"seed " <span class="unit">"(draws q and k: "<a href="#clocks">"the rotation lab"</a>")"</span></label>
                    <NumberField lab param=&param::SEED id="seed-field" step="1"
                        value=Signal::derive(move || seed.get().to_string()) />
                </div>
            </div>
        </form>
    }
}

/// A position slider (m or n) with an exact number field beside it.
#[component]
pub fn PositionControl(
    lab: Lab,
    /// The parameter: the field parses its text, the slider's id is `<name>-slider`.
    param: &'static Param,
    label: &'static str,
    /// The typed change a slider value makes.
    change: fn(i64) -> Change,
    value: Memo<i64>,
    #[prop(into)] max: Signal<i64>,
    /// The slider's id when `<name>-slider` is taken (a second control of the same parameter).
    #[prop(optional)]
    id: Option<&'static str>,
    /// The number field's name when `<name>, exact` is taken.
    #[prop(optional)]
    exact_label: Option<&'static str>,
) -> impl IntoView {
    let id = id.map_or_else(|| format!("{}-slider", param.name), str::to_string);
    let label_for = id.clone();
    let exact = exact_label.map_or_else(|| format!("{}, exact", param.name), str::to_string);
    view! {
        <div class="control">
            <label for=label_for>{label}</label>
            <div class="control-row">
                <Slider id=id step="1" min="0" max=Signal::derive(move || max.get().to_string())
                    value=Signal::derive(move || value.get().to_string())
                    on_value=move |p: f64| lab.apply(change(p as i64)) />
                <NumberField lab param aria_label=exact step="1"
                    value=Signal::derive(move || value.get().to_string()) />
            </div>
        </div>
    }
}

/// The steps of a [`FinePositionControl`]'s slider.
const FINE_STEPS: f64 = 1000.0;

/// A position over a long range (p and k, 0 to 65,535) on a scale a finger can use: the slider
/// runs over log₂(p + 1), so that the first hundred positions get as much of it as the last
/// thirty thousand; the arrow keys and − and + step by one, and the number field takes any
/// position exactly.
#[component]
pub fn FinePositionControl(
    lab: Lab,
    /// The parameter: the field parses its text.
    param: &'static Param,
    label: &'static str,
    /// The typed change a value makes.
    change: fn(i64) -> Change,
    value: Memo<i64>,
    max: i64,
    /// The slider's id.
    id: &'static str,
) -> impl IntoView {
    let set = move |p: i64| lab.apply(change(p.clamp(0, max)));
    // Slider value v in 0..=FINE_STEPS stands for p = 2^(v·bits/FINE_STEPS) − 1.
    let bits = ((max + 1) as f64).log2().max(1.0);
    let to_slider = move |p: i64| (FINE_STEPS * ((p + 1) as f64).log2() / bits).round();
    let on_value = move |v: f64| {
        let current = value.get_untracked();
        let p = (2f64.powf(v * bits / FINE_STEPS) - 1.0).round() as i64;
        // A key press always moves p, even where a step of the scale is less than a position.
        let was = to_slider(current);
        set(if v > was && p <= current {
            current + 1
        } else if v < was && p >= current {
            current - 1
        } else {
            p
        });
    };
    view! {
        <div class="control">
            <label for=id>{label}" " <span class="unit">"(log scale)"</span></label>
            // The arrow keys move p by one position, as on every other position slider (a step of
            // the log scale is hundreds of positions near the top); Page Up/Down, Home and End
            // keep the slider's own steps.
            <div class="control-row" on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                let by = match ev.key().as_str() {
                    "ArrowRight" | "ArrowUp" => 1,
                    "ArrowLeft" | "ArrowDown" => -1,
                    _ => return,
                };
                if event_target::<web_sys::HtmlElement>(&ev).id() == id {
                    ev.prevent_default();
                    set(value.get_untracked() + by);
                }
            }>
                <Slider id=id.to_string() step="1" min="0" max=FINE_STEPS.to_string()
                    aria_valuetext=Signal::derive(move || value.get().to_string())
                    value=Signal::derive(move || to_slider(value.get()).to_string())
                    on_value=on_value />
                <button type="button" class="stepper" aria-label=format!("{} one less", param.name)
                    on:click=move |_| set(value.get_untracked() - 1)>"−"</button>
                <button type="button" class="stepper" aria-label=format!("{} one more", param.name)
                    on:click=move |_| set(value.get_untracked() + 1)>"+"</button>
                <NumberField lab param aria_label=format!("{}, exact", param.name) step="1"
                    value=Signal::derive(move || value.get().to_string()) />
            </div>
        </div>
    }
}

/// A labelled choice among named options.
#[component]
pub fn SelectControl(
    lab: Lab,
    /// The select's element id.
    id: &'static str,
    label: &'static str,
    /// (name, text people read) for each option.
    options: Vec<(&'static str, &'static str)>,
    #[prop(into)] value: Signal<&'static str>,
    /// The change picking an option's name makes.
    on_pick: fn(&str) -> Option<Change>,
    /// A short note under the choice.
    #[prop(optional, into)]
    note: Option<Signal<&'static str>>,
) -> impl IntoView {
    view! {
        <div class="control">
            <label for=id>{label}</label>
            <select id=id prop:value=move || value.get()
                on:change=move |ev| {
                    if let Some(change) = on_pick(&event_target_value(&ev)) {
                        lab.apply(change);
                    }
                }>
                {options.into_iter().map(|(value, text)| view! { <option value=value>{text}</option> }).collect_view()}
            </select>
            {note.map(|note| view! { <span class="control-note">{move || note.get()}</span> })}
        </div>
    }
}

/// A number field that commits on change (Enter or leaving the field), not on every keystroke,
/// so half-typed numbers are not "corrected" under the user's fingers. Its text is parsed by
/// the parameter table, as the URL's is; it then shows the value in effect, and a correction
/// is said right after it (a [`FieldMessage`]) while it applies.
#[component]
pub fn NumberField(
    lab: Lab,
    param: &'static Param,
    #[prop(into)] value: Signal<String>,
    #[prop(optional, into)] aria_label: Option<String>,
    #[prop(optional)] id: Option<&'static str>,
    step: &'static str,
) -> impl IntoView {
    let status = FieldStatus::new(lab, param.name);
    view! {
        <input
            class="number-field"
            type="number"
            inputmode="decimal"
            id=id
            aria-label=aria_label
            aria-invalid=status.invalid()
            aria-describedby=status.id.clone()
            step=step
            prop:value=move || value.get()
            on:change=move |ev| {
                lab.set_text(param, &event_target_value(&ev));
                // If the value was corrected to what it already was, show the corrected text.
                let corrected = value.get_untracked();
                event_target::<web_sys::HtmlInputElement>(&ev).set_value(&corrected);
            }
        />
        <FieldMessage status />
    }
}
