//! RoPE Lab: an interactive explanation of Rotary Positional Embeddings.
//!
//! Floors, arrows only going down (DESIGN.md): [`app`] (the page) -> [`story`] (the table of
//! contents and one module per chapter) -> [`ui`] (the building blocks chapters share) -> [`quiz`] (the check-yourself questions, plain Rust) ->
//! [`lab`] (the shared reactive state) and [`dom`] (browser machinery) -> [`charts`] (plotters
//! drawing) and [`state`] (the URL-backed parameters) -> [`rope`] (the math).
//!
//! [`model`] is a real trained model (stories260K) on the same floor as `rope`, whose
//! frequencies it uses.
//!
//! `rope`, `model`, `state`, `quiz` and `charts` are plain Rust and build natively, so `cargo test` checks the
//! math, the URL contract and the drawings without a browser. The others need the browser and
//! build only for `wasm32`.

pub mod charts;
pub mod i18n;
pub mod quiz;
pub mod state;
pub mod verify;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod dom;
#[cfg(target_arch = "wasm32")]
pub mod lab;
#[cfg(target_arch = "wasm32")]
pub mod story;
#[cfg(target_arch = "wasm32")]
pub mod ui;

/// Real trained models (`crates/core`): their files, tokenizers and forward passes.
pub use rope_lab_core::model;
/// The math (`crates/core`): pure f64 Rust, typed errors, no web or drawing crate.
pub use rope_lab_core::rope;
