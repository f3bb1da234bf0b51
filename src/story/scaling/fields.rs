//! The context-extension chapter's settings: each method's parameters, named as configs name
//! them, the menu that picks method A or B, and the list fields of LongRoPE's factors.

use crate::lab::use_lab;
use crate::rope::ScalingMethod;
use crate::state::param::{self, Param};
use crate::state::Change;
use leptos::prelude::*;

/// Every parameter a method reads beside the contexts, once, in the order they show, as (param,
/// label named as configs name it, element id). partial_rotary_factor applies to every method.
pub(super) static ALL_FIELDS: [(&Param, &str, &str); 9] = [
    (&param::FACTOR, "factor", "scaling-factor"),
    (&param::SEQ, "seq_len (current length)", "scaling-seq"),
    (&param::BETA_FAST, "beta_fast", "scaling-beta-fast"),
    (&param::BETA_SLOW, "beta_slow", "scaling-beta-slow"),
    (&param::MSCALE, "mscale", "scaling-mscale"),
    (&param::MSCALE_ALL_DIM, "mscale_all_dim", "scaling-mscale-all-dim"),
    (&param::LOW_FREQ, "low_freq_factor", "scaling-low-freq"),
    (&param::HIGH_FREQ, "high_freq_factor", "scaling-high-freq"),
    (&param::PARTIAL, "partial_rotary_factor", "scaling-partial"),
];

/// Whether `method` reads field `field` of [`ALL_FIELDS`].
pub(super) fn reads(method: ScalingMethod, field: usize) -> bool {
    let fields: &[usize] = match method {
        ScalingMethod::None => &[8],
        ScalingMethod::Linear | ScalingMethod::Ntk | ScalingMethod::Proportional => &[0, 8],
        ScalingMethod::Dynamic | ScalingMethod::LongRope => &[0, 1, 8],
        ScalingMethod::Yarn => &[0, 2, 3, 4, 5, 8],
        ScalingMethod::Llama3 => &[0, 6, 7, 8],
    };
    fields.contains(&field)
}

/// A menu of methods, as method A or B: picking one goes through [`LabState::pick_method`],
/// so that it shows what it does (a factor of 8 where none was set, half the planes for p-RoPE).
#[component]
pub(super) fn MethodSelect(id: &'static str, label: &'static str, as_b: bool, value: Signal<Option<ScalingMethod>>) -> impl IntoView {
    let lab = use_lab();
    view! {
        <div class="control">
            <label for=id>{label}</label>
            <select id=id prop:value=move || value.get().map_or("", ScalingMethod::as_str)
                on:change=move |ev| {
                    let method = ScalingMethod::parse(&event_target_value(&ev));
                    lab.edit(|s| s.pick_method(method, as_b));
                }>
                {as_b.then(|| view! { <option value="">"(the original θᵢ only)"</option> })}
                {ScalingMethod::ALL.iter().map(|m| view! { <option value=m.as_str()>{m.label()}</option> }).collect_view()}
            </select>
        </div>
    }
}

/// A comma-separated list parameter in a text field, read as the URL reads it.
#[component]
pub(super) fn ListField(param: &'static Param, label: &'static str) -> impl IntoView {
    let lab = use_lab();
    let value = lab.select(move |s| (param.text)(s));
    let id = format!("scaling-{}", param.name);
    view! {
        <div class="control">
            <label for=id.clone()>{label}</label>
            <input type="text" class="list-field" id=id spellcheck="false" placeholder="all 1"
                prop:value=move || value.get()
                on:change=move |ev| {
                    let text = event_target_value(&ev);
                    if text.trim().is_empty() {
                        lab.apply(if param.name == "short_factor" { Change::ShortFactor(None) } else { Change::LongFactor(None) });
                    } else {
                        lab.set_text(param, &text);
                    }
                } />
        </div>
    }
}
