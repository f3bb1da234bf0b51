//! The model's Web Worker: a current language model (a llama GGUF file such as SmolLM2-135M)
//! downloaded, stored and run off the page's thread, so that a reader's slider never waits for
//! it. A program of its own, built by trunk as a worker (index.html), from the same core as the
//! page and the native tests (`rope_lab_core::model::llama`), and linking none of the page's
//! code.
//!
//! The protocol (`rope_lab_core::model::protocol`) is small and typed by its `kind`: the page
//! asks (load, read, a head, continue, stop) and the worker answers with progress and results,
//! each tagged with the request's id. A new read supersedes the one running: long work goes a
//! layer (or a token) at a time and yields between, so a newer request is heard within one
//! layer. Cancelling a download is the page terminating the worker.

#[cfg(target_arch = "wasm32")]
fn main() {
    web::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the model's worker runs in a browser, started by the page");
}

#[cfg(target_arch = "wasm32")]
mod download;
#[cfg(target_arch = "wasm32")]
mod js;
#[cfg(target_arch = "wasm32")]
mod web;
