//! Readable values: the rounded number a person reads, with the full-precision value in
//! `data-value` (Rust's `{:?}`, which round-trips) and a `data-testid`, as the contract asks.

use crate::charts::format::short_number;
use crate::state::{fmt_f64, fmt_list};
use leptos::prelude::*;

/// One number, e.g. the score. Shows an em dash, with no `data-value`, if there is none.
#[component]
pub fn Readout(
    /// The contract's `data-testid`.
    testid: &'static str,
    /// What the number is, in words.
    label: &'static str,
    /// The value; `None` while nothing can be computed.
    #[prop(into)]
    value: Signal<Option<f64>>,
    /// A short explanation under the label.
    #[prop(optional)]
    hint: &'static str,
) -> impl IntoView {
    view! {
        <div class="readout">
            <span class="readout-label">{label}</span>
            <output
                class="readout-value"
                data-testid=testid
                data-value=move || value.get().map(fmt_f64)
            >
                {move || value.get().map_or_else(|| "—".to_string(), short_number)}
            </output>
            {(!hint.is_empty()).then(|| view! { <span class="readout-hint">{hint}</span> })}
        </div>
    }
}

/// A list of numbers, e.g. a rotated vector, in a scrollable block.
#[component]
pub fn ListReadout(
    testid: &'static str,
    label: &'static str,
    #[prop(into)] values: Signal<Vec<f64>>,
) -> impl IntoView {
    view! {
        <div class="list-readout">
            <span class="readout-label">{label}</span>
            // Focusable so that keyboard users can scroll a long list.
            <output class="list-values" tabindex="0" aria-label=label data-testid=testid
                data-value=move || values.with(|v| fmt_list(v))>
                {move || values.with(|v| v.iter().map(|x| short_number(*x)).collect::<Vec<_>>().join(", "))}
            </output>
        </div>
    }
}
