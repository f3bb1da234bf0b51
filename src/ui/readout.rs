//! Readable values: the rounded number a person reads, with the full-precision value in
//! `data-value` (Rust's `{:?}`, which round-trips) and a `data-testid`, as the contract asks.

use crate::charts::format::short_number;
use crate::dom::size::{use_in_view, while_in_view};
use crate::state::{fmt_f64, fmt_list, joined};
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
    /// The text people read, when the rounded number alone does not say it ("12 of 32").
    #[prop(optional, into)]
    text: Option<Signal<String>>,
    /// A short explanation under the label, fixed or following the state.
    #[prop(optional, into)]
    hint: Option<TextProp>,
    /// A count: `data-value` holds the integer ("23", not "23.0").
    #[prop(optional)]
    integer: bool,
) -> impl IntoView {
    let data = move || value.get().map(|v| if integer { format!("{}", v as i64) } else { fmt_f64(v) });
    // The readable value follows every change; the text a person reads, and the hint, only
    // while they can be seen: text changing in a card just off screen (which the browser keeps
    // rendered) costs it layout and paint on every step of a slider.
    let readout = NodeRef::<leptos::html::Div>::new();
    let near = use_in_view(readout);
    let shown = while_in_view(near, move || match text {
        Some(text) => text.get(),
        None => value.get().map_or_else(|| "—".to_string(), short_number),
    });
    let hint = hint.map(|hint| while_in_view(near, move || hint.get().to_string()));
    view! {
        <div class="readout" node_ref=readout>
            <span class="readout-label">{label}</span>
            <output class="readout-value" data-testid=testid data-value=data>
                {move || shown.get()}
            </output>
            {hint.map(|hint| view! { <span class="readout-hint">{move || hint.get()}</span> })}
        </div>
    }
}

/// A list of numbers, e.g. a rotated vector, in a scrollable block.
#[component]
pub fn ListReadout(testid: &'static str, label: &'static str, #[prop(into)] values: Signal<Vec<f64>>) -> impl IntoView {
    // The readable value follows every change; the text on screen (hundreds of formatted
    // numbers at large d) only while it can be seen (not in a closed list, not far off screen).
    let output = NodeRef::<leptos::html::Output>::new();
    let text = while_in_view(use_in_view(output), move || values.with(|v| joined(&mut v.iter().map(|x| short_number(*x)), ", ")));
    view! {
        <div class="list-readout">
            <span class="readout-label">{label}</span>
            // Focusable so that keyboard users can scroll a long list.
            <output class="list-values" tabindex="0" aria-label=label data-testid=testid node_ref=output
                data-value=move || values.with(|v| fmt_list(v))>
                {move || text.get()}
            </output>
        </div>
    }
}
