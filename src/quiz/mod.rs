//! The check-yourself questions as plain Rust: each question, its choices, its right answer and
//! why, computed from the numbers of the state it is asked in. The chapters hand these functions
//! what they read from the lab; `tests/` checks each answer against an independent computation
//! over random reachable states. No Leptos and no browser here, so `cargo test` runs them natively.
//!
//! One file per run of chapters: `early` (counting to the rotation lab), `planes` (frequencies,
//! the heatmap, decay), `scaling` (context extension), `variants` (layouts, 2D, precision),
//! `verify` (checking your own RoPE), `smollm2` (the current model of the trained-model chapter).

pub mod early;
pub mod planes;
pub mod scaling;
pub mod smollm2;
pub mod variants;
pub mod verify;

/// A question as the page asks it for the current state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Question {
    /// The question.
    pub ask: String,
    /// Each choice: (its value, what the reader reads).
    pub choices: Vec<(String, String)>,
    /// The right choice's value: `data-value` once answered.
    pub right: String,
    /// Why, in a sentence or two.
    pub why: String,
}

impl Question {
    /// A question whose choices read as their values.
    pub fn plain(ask: String, choices: impl IntoIterator<Item = String>, right: String, why: String) -> Self {
        Question { ask, choices: choices.into_iter().map(|c| (c.clone(), c)).collect(), right, why }
    }

    /// A question whose choices are (value, label) pairs.
    pub fn labelled(ask: String, choices: &[(&str, &str)], right: &str, why: String) -> Self {
        Question { ask, choices: choices.iter().map(|(v, l)| (v.to_string(), l.to_string())).collect(), right: right.to_string(), why }
    }

    /// The right choice as the reader reads it.
    pub fn right_label(&self) -> String {
        self.choices.iter().find(|(value, _)| *value == self.right).map_or_else(|| self.right.clone(), |(_, label)| label.clone())
    }
}
