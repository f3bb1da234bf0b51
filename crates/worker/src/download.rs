//! The model's file: the reader's stored copy, else downloaded with progress and stored once its
//! header reads as a model this worker runs.

use crate::js::{call, get, post, scope, set, wait};
use js_sys::{Array, Object, Uint8Array};
use rope_lab_core::model::protocol as p;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The model's bytes: from the reader's stored copy, else downloaded with progress and stored.
pub(crate) async fn bytes(id: f64, url: &str, cache_name: &str) -> Result<(Vec<u8>, bool), String> {
    let caches = get(&scope(), "caches");
    let cache = if caches.is_undefined() { None } else { wait(call(&caches, "open", &[&JsValue::from_str(cache_name)])).await.ok() };
    if let Some(cache) = &cache {
        let hit = wait(call(cache, "match", &[&JsValue::from_str(url)])).await.unwrap_or(JsValue::UNDEFINED);
        if !hit.is_undefined() {
            let buffer = wait(call(&hit, "arrayBuffer", &[])).await?;
            return Ok((Uint8Array::new(&buffer).to_vec(), true));
        }
    }
    let response = wait(call(&scope(), "fetch", &[&JsValue::from_str(url)])).await.map_err(|_| p::OFFLINE.to_string())?;
    if get(&response, "ok").as_bool() != Some(true) {
        return Err(p::NOT_SERVED.to_string());
    }
    // The size the server announces (0 when it does not: the page then shows bytes alone).
    let total = call(&get(&response, "headers"), "get", &[&JsValue::from_str("content-length")])
        .as_string()
        .and_then(|t| t.parse::<f64>().ok())
        .unwrap_or(0.0);
    let reader = call(&get(&response, "body"), "getReader", &[]);
    // The chunks stay in JavaScript until the last: the model's bytes are then copied once into
    // memory of their exact size. A vector grown as they came (a server that sends no
    // content-length, or compresses) held up to twice the file in WebAssembly memory, which
    // never shrinks: 407 instead of 300 MB with a 1,024-token text.
    let chunks = Array::new();
    let mut loaded = 0usize;
    loop {
        let chunk = wait(call(&reader, "read", &[])).await.map_err(|_| p::OFFLINE.to_string())?;
        if get(&chunk, "done").as_bool() == Some(true) {
            break;
        }
        let value = get(&chunk, "value");
        loaded += Uint8Array::new(&value).length() as usize;
        chunks.push(&value);
        post(p::PROGRESS, id, &[(p::LOADED_BYTES, JsValue::from_f64(loaded as f64)), (p::TOTAL, JsValue::from_f64(total))]);
    }
    let mut bytes = vec![0u8; loaded];
    let mut at = 0;
    for chunk in chunks.iter() {
        let chunk = Uint8Array::new(&chunk);
        let len = chunk.length() as usize;
        chunk.copy_to(&mut bytes[at..at + len]);
        at += len;
    }
    drop(chunks);
    // Kept for the next visit and for a classroom without network (the page can remove it), once
    // its header reads as a model this worker runs: a broken download is never stored.
    let readable =
        rope_lab_core::model::gguf::Gguf::read(&bytes).and_then(|g| rope_lab_core::model::llama::LlamaConfig::from_gguf(&g)).is_ok();
    if let (Some(cache), true) = (&cache, readable) {
        let body = Uint8Array::from(bytes.as_slice());
        let init = Object::new();
        let headers = Object::new();
        set(&headers, "content-type", &JsValue::from_str("application/octet-stream"));
        set(&init, "headers", &headers);
        let response_class: js_sys::Function = get(&scope(), "Response").unchecked_into();
        if let Ok(stored) = js_sys::Reflect::construct(&response_class, &Array::of2(&body, &init)) {
            let _ = wait(call(cache, "put", &[&JsValue::from_str(url), &stored])).await;
        }
    }
    Ok((bytes, false))
}
