//! SmolLM2-135M in the trained-model chapter (`model=smollm2-135m`): a current language model
//! (Hugging Face, 2024; Llama architecture, 30 layers, 9 query heads over 3 key/value heads, 32
//! rotation planes per head, base 100,000, trained context 8,192), downloaded only when the
//! reader asks, kept for offline use, and run in a Web Worker (`crates/worker`): the page's
//! thread only draws what the worker sends.
//!
//! The file (`smollm2-135m.gguf`, 98 MB, never in the repository) is served beside the page when
//! the build found it (`model.json` says so, `.ci/model.mjs`); a build without it says how to add
//! it. The download is stored in the reader's Cache Storage under the offline worker's prefix
//! (`rope-lab <scope> models`), which the offline worker never deletes.

mod client;
mod heads;
mod planes;
mod text;
mod views;

use crate::dom::js::{call, get, set};
use client::{Client, Status};
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The text SmolLM2 reads when the reader gave none: plain expository English.
pub const DEFAULT_TEXT: &str = "A river begins as rain or melting snow high in the hills. Water gathers in small streams, and the streams join as they run downhill. Over thousands of years the moving water cuts a valley into the rock, carrying sand and stones toward the sea. Where the land is flat, the river slows down, drops the sand it carries, and spreads out into wide curves. Near the coast it may split into many channels before it finally reaches the ocean. People have always settled beside rivers, because they bring fresh water, fertile soil and an easy way to travel.";

/// The text SmolLM2 reads: the reader's, else [`DEFAULT_TEXT`] (the page's state keeps the
/// text as given; its default is stories260K's, which leaves the URL the same way).
pub fn text_of(state: &crate::state::LabState) -> String {
    state.text.clone().unwrap_or_else(|| DEFAULT_TEXT.to_string())
}

/// The model's size, as the button says it before anything is downloaded.
const SIZE_MB: &str = "98 MB";

/// `await` a promise-returning call, None on any failure.
async fn settle(value: JsValue) -> Option<JsValue> {
    JsFuture::from(value.dyn_into::<js_sys::Promise>().ok()?).await.ok()
}

/// `new URL(relative, document.baseURI)`, through `Reflect` (crate::dom::js): web-sys' `Url`
/// would add its bindings to the glue every visit loads.
fn absolute(relative: &str) -> Option<JsValue> {
    let class: js_sys::Function = get(&window(), "URL").dyn_into().ok()?;
    let base = get(&document(), "baseURI");
    js_sys::Reflect::construct(&class, &js_sys::Array::of2(&JsValue::from_str(relative), &base)).ok()
}

/// Where the build serves SmolLM2's file, from `model.json`, as an absolute address; None when
/// this build has no SmolLM2.
async fn served_file() -> Option<String> {
    let response = settle(call(&window(), "fetch", &[&JsValue::from_str("model.json")])).await?;
    let json = settle(call(&response, "json", &[])).await?;
    let file = get(&get(&json, "smollm2"), "file").as_string()?;
    get(&absolute(&file)?, "href").as_string()
}

/// The Cache Storage name the model is kept under: the offline worker's prefix for this page's
/// folder, and `models`.
fn cache_name() -> String {
    let folder = absolute("./")
        .and_then(|u| {
            set(&u, "search", &JsValue::from_str(""));
            set(&u, "hash", &JsValue::from_str(""));
            get(&u, "href").as_string()
        })
        .unwrap_or_default();
    format!("rope-lab {folder} models")
}

/// Whether the reader's browser holds the model already.
async fn is_stored(url: &str) -> bool {
    let caches = get(&window(), "caches");
    if caches.is_undefined() {
        return false;
    }
    let Some(cache) = settle(call(&caches, "open", &[&JsValue::from_str(&cache_name())])).await else { return false };
    settle(call(&cache, "match", &[&JsValue::from_str(url)])).await.is_some_and(|hit| !hit.is_undefined())
}

/// Removes the stored copy.
async fn remove_stored(url: &str) -> bool {
    let caches = get(&window(), "caches");
    let Some(cache) = settle(call(&caches, "open", &[&JsValue::from_str(&cache_name())])).await else { return false };
    settle(call(&cache, "delete", &[&JsValue::from_str(url)])).await.and_then(|v| v.as_bool()).unwrap_or(false)
}

/// The SmolLM2 section of the chapter: the offer to load it, the download, then the views.
#[component]
pub fn Smollm2Section() -> impl IntoView {
    let client = Client::new();
    provide_context(client);
    let url = RwSignal::new(None::<String>);
    leptos::task::spawn_local(async move {
        let Some(file) = served_file().await else {
            client.status.set(Status::Absent);
            return;
        };
        url.set(Some(file.clone()));
        let stored = is_stored(&file).await;
        client.stored.set(stored);
        if stored {
            // A stored model reads at once (the contract's promise for `model=smollm2-135m`).
            client.load(&file, &cache_name());
        } else {
            client.status.set(Status::Offer);
        }
    });
    let load = move |_| {
        if let Some(file) = url.get_untracked() {
            client.load(&file, &cache_name());
        }
    };
    let cancel = move |_| client.cancel();
    let remove = move |_| {
        let Some(file) = url.get_untracked() else { return };
        leptos::task::spawn_local(async move {
            if remove_stored(&file).await {
                client.stored.set(false);
                client.removed.set(true);
                if !matches!(client.status.get_untracked(), Status::Ready) {
                    client.status.set(Status::Offer);
                }
            }
        });
    };
    let status_text = move || match client.status.get() {
        Status::Checking => Some("Looking for SmolLM2-135M…".to_string()),
        Status::Absent => Some(client::ABSENT.to_string()),
        Status::Offer => None,
        Status::Downloading { loaded, total } => Some(if total > 0.0 {
            format!("Downloading SmolLM2-135M: {} of {} MB", one_decimal(loaded / 1e6), one_decimal(total / 1e6))
        } else {
            format!("Downloading SmolLM2-135M: {} MB", one_decimal(loaded / 1e6))
        }),
        Status::Parsing => Some("Reading the model's file…".to_string()),
        Status::Ready => client.progress.get().map(|(done, of)| format!("Reading the text: step {done} of {of}")),
        Status::Failed(why) => Some(why),
    };
    let downloading = move || matches!(client.status.get(), Status::Downloading { .. });
    let fraction = move || match client.status.get() {
        Status::Downloading { loaded, total } if total > 0.0 => (loaded / total).clamp(0.0, 1.0).to_string(),
        _ => "0".to_string(),
    };
    view! {
        <div class="smollm2" data-testid="smollm2">
            <p class="explain">"SmolLM2-135M (Allal et al. 2025, Hugging Face, Apache-2.0) is a current small language model: \
                the Llama architecture with 135 million parameters, trained on about two trillion tokens of web text, code and \
                mathematics, its context extended to 8,192 tokens with base 100,000. Each of its 30 layers has 9 query heads \
                that share 3 key/value heads (three query heads read the same keys), 64 dimensions per head: 32 rotation \
                planes, from one radian per token to a wavelength of 438,000 tokens. The page runs the Q4_1 copy of it \
                (GGUF: weights in 4 bits, with a scale and a minimum per block of 32), read in a worker beside the page, \
                so the rest of the page stays as quick as before. A model of this size writes fluent but often wrong \
                English; what it shows here is how its heads use RoPE's planes."</p>
            <div class="smollm2-load" hidden=move || !matches!(client.status.get(), Status::Offer | Status::Downloading { .. } | Status::Failed(_))>
                <button type="button" class="button-primary" data-testid="smollm2-load" on:click=load disabled=downloading
                    aria-label=format!("Load SmolLM2-135M ({SIZE_MB}): downloaded once, then kept in this browser")>
                    {format!("Load SmolLM2-135M ({SIZE_MB})")}</button>
                <progress class="smollm2-progress" max="1" value=fraction hidden=move || !downloading()></progress>
                <button type="button" data-testid="smollm2-cancel" on:click=cancel hidden=move || !downloading()>"Cancel"</button>
            </div>
            <p class="model-status" data-testid="model-status" role="status" hidden=move || status_text().is_none()
                class:model-missing=move || matches!(client.status.get(), Status::Absent | Status::Failed(_))
                data-read-ms=move || client.reading.with(|r| r.as_ref().map(|r| crate::state::fmt_f64(r.ms)).unwrap_or_default())
                data-worker-bytes=move || crate::state::fmt_f64(client.memory.get())>
                {status_text}</p>
            <p class="explain smollm2-stored" hidden=move || !client.stored.get() && !client.removed.get()>
                {move || if client.stored.get() {
                    "Kept in this browser for offline use (a classroom without network reads it too)."
                } else {
                    "The stored copy is removed; this tab keeps the model until it closes."
                }}
                " "
                <button type="button" class="button-small" data-testid="smollm2-remove" on:click=remove hidden=move || !client.stored.get()>
                    "Remove the stored copy"</button>
            </p>
            <Show when=move || matches!(client.status.get(), Status::Ready)>
                <views::Views />
            </Show>
        </div>
    }
}

fn one_decimal(v: f64) -> String {
    crate::charts::format::fixed(v, 1)
}
