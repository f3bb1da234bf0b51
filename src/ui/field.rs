//! What a field says about its own value: the corrections of what was typed into it, next to
//! it, announced politely, with the field marked invalid while they apply.

use crate::lab::Lab;
use leptos::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A page-unique id for an element (two fields may show the same parameter).
pub fn unique_id(prefix: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("{prefix}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// A field's corrections, for the field (`aria-invalid`, `aria-describedby`) and its message.
#[derive(Clone)]
pub struct FieldStatus {
    pub messages: Memo<Vec<String>>,
    /// The id of the message element.
    pub id: String,
}

impl FieldStatus {
    pub fn new(lab: Lab, param: &'static str) -> Self {
        Self { messages: lab.field_messages(param), id: unique_id(&format!("{param}-notice")) }
    }

    /// `aria-invalid` for the field.
    pub fn invalid(&self) -> impl Fn() -> &'static str + Send + Sync + 'static {
        let messages = self.messages;
        move || if messages.with(Vec::is_empty) { "false" } else { "true" }
    }
}

/// The message element: always present (so screen readers hear what appears in it), empty
/// and hidden while the field's value is fine.
#[component]
pub fn FieldMessage(status: FieldStatus) -> impl IntoView {
    let messages = status.messages;
    view! {
        <p class="field-notice" id=status.id role="status" aria-live="polite">
            {move || messages.with(|m| crate::state::joined(&mut m.iter().cloned(), " "))}
        </p>
    }
}

/// A config key as a label that wraps after its underscores, not in the middle of a word.
pub fn key_label(text: &'static str) -> impl IntoView {
    text.split_inclusive('_').map(|part| view! { {part}<wbr /> }).collect_view()
}
