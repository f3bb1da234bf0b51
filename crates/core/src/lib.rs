//! RoPE Lab's core, plain Rust with no web or drawing crate: [`rope`], the math of Rotary
//! Positional Embeddings (f64, typed errors, each formula with its source), and [`model`], real
//! trained models read from their files and run with the page's hooks (stories260K, and llama
//! GGUF files such as SmolLM2-135M).
//!
//! A crate of its own so that two programs build from it: the page (`rope-lab`, which re-exports
//! both modules as `rope_lab::rope` and `rope_lab::model`) and the model's Web Worker
//! (`crates/worker`), which must not link the page's code. Everything here builds natively, so
//! `cargo test` checks it without a browser.

pub mod model;
pub mod rope;
