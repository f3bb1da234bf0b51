//! RoPE Lab: an interactive explanation of Rotary Positional Embeddings.
//!
//! Four floors, arrows only going down (the README's "How it is built"):
//! [`app`] (the page) -> [`widgets`] (one component each) -> [`charts`] (plotters drawing)
//! and [`state`] (the URL-backed parameters) -> [`rope`] (the math).
//!
//! `rope`, `state` and `charts` are plain Rust and build natively, so `cargo test` checks the
//! math, the URL contract and the drawings without a browser. `app` and `widgets` need the
//! browser and build only for `wasm32`.

pub mod charts;
pub mod rope;
pub mod state;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod widgets;
