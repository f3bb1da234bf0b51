//! The worker's side of the protocol: its state, the messages it hears and what it answers.

use crate::js::{call, get, number, post, scope, set};
use js_sys::{Array, Float32Array, Promise};
use rope_lab_core::model::llama::{Hooks, LlamaModel, Reading};
use rope_lab_core::model::protocol as p;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

thread_local! {
    static MODEL: RefCell<Option<Rc<LlamaModel>>> = const { RefCell::new(None) };
    /// The reading the views show, kept for a head's details and continuations.
    static READING: RefCell<Option<Rc<Reading>>> = const { RefCell::new(None) };
    /// The newest request's id: older work stops at its next step.
    static CURRENT: Cell<f64> = const { Cell::new(0.0) };
    /// Bumped by Stop and by each continuation: an older continuation stops.
    static WRITING: Cell<u32> = const { Cell::new(0) };
    /// Continuations writing now: while one writes, the readings that follow a read (each group
    /// of planes off, the text at offset 0) wait; the reader asked for the words and sees them come.
    static WRITING_NOW: Cell<u32> = const { Cell::new(0) };
}

fn fail(id: f64, message: &str) {
    post(p::ERROR, id, &[(p::MESSAGE, JsValue::from_str(message))]);
}

/// Lets a continuation go first: while one writes, waits in steps of 20 ms (a timer, not a
/// loop that would take the thread from it).
async fn after_writing() {
    while WRITING_NOW.with(Cell::get) > 0 {
        let promise = Promise::new(&mut |resolve, _| {
            call(&scope(), "setTimeout", &[&resolve, &JsValue::from_f64(20.0)]);
        });
        let _ = JsFuture::from(promise).await;
    }
}

/// Lets the worker's other messages in (a MessageChannel's task: no timer clamping).
async fn next_task() {
    let promise = Promise::new(&mut |resolve, _| {
        let channel = web_sys::MessageChannel::new().expect("MessageChannel");
        channel.port1().set_onmessage(Some(&resolve));
        let _ = channel.port2().post_message(&JsValue::NULL);
    });
    let _ = JsFuture::from(promise).await;
}

fn is_current(id: f64) -> bool {
    CURRENT.with(|c| c.get() == id)
}

/// Starts the worker: every message from the page goes to [`handle`].
pub(super) fn start() {
    console_error_panic_hook::set_once();
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|event: web_sys::MessageEvent| {
        wasm_bindgen_futures::spawn_local(handle(event.data()));
    });
    set(&scope(), "onmessage", on_message.as_ref());
    on_message.forget();
    post(p::READY, 0.0, &[]);
}

async fn handle(message: JsValue) {
    let kind = get(&message, p::KIND).as_string().unwrap_or_default();
    let id = number(&message, p::ID);
    match kind.as_str() {
        p::LOAD => load(id, &message).await,
        p::READ => {
            CURRENT.with(|c| c.set(id));
            WRITING.with(|w| w.set(w.get() + 1));
            read(id, &message).await
        }
        p::HEAD => head(id, number(&message, p::LAYER) as usize, number(&message, p::HEAD_INDEX) as usize),
        p::CONTINUE => {
            WRITING.with(|w| w.set(w.get() + 1));
            continuation(id, number(&message, p::COUNT) as usize).await
        }
        p::STOP => WRITING.with(|w| w.set(w.get() + 1)),
        p::PROFILE => profile(id, &message),
        _ => {}
    }
}

async fn load(id: f64, message: &JsValue) {
    let url = get(message, p::URL).as_string().unwrap_or_default();
    let cache_name = get(message, p::CACHE).as_string().unwrap_or_default();
    let (bytes, stored) = match crate::download::bytes(id, &url, &cache_name).await {
        Ok(found) => found,
        Err(why) => return fail(id, &why),
    };
    post(p::PARSING, id, &[]);
    next_task().await;
    match LlamaModel::from_gguf(bytes) {
        Ok(model) => {
            let c = &model.config;
            let fields = [
                (p::LAYERS, JsValue::from_f64(c.n_layers as f64)),
                (p::HEADS, JsValue::from_f64(c.n_heads as f64)),
                (p::KV_HEADS, JsValue::from_f64(c.n_kv_heads as f64)),
                (p::PLANES, JsValue::from_f64(c.planes() as f64)),
                (p::CONTEXT, JsValue::from_f64(c.context as f64)),
                (p::BASE, JsValue::from_f64(c.rope_base)),
                (p::STORED, JsValue::from_bool(stored)),
            ];
            MODEL.with(|m| *m.borrow_mut() = Some(Rc::new(model)));
            post(p::LOADED, id, &fields);
        }
        Err(e) => fail(id, &format!("The model's file could not be read: {e}.")),
    }
}

fn model() -> Option<Rc<LlamaModel>> {
    MODEL.with(|m| m.borrow().clone())
}

/// The planes of a request's `off` (an array of plane numbers) as the hooks' mask.
fn hooks_of(message: &JsValue) -> Hooks {
    let off = Array::from(&get(message, p::OFF))
        .iter()
        .filter_map(|v| v.as_f64())
        .filter(|&v| (0.0..128.0).contains(&v))
        .fold(0u128, |m, v| m | 1u128 << v as u32);
    Hooks { offset: number(message, p::OFFSET).clamp(0.0, 1e15) as u64, off }
}

/// A token's text for its chip: the bytes as text when they are UTF-8, else as hex bytes.
fn piece_text(model: &LlamaModel, id: u32) -> String {
    let bytes = model.tokenizer.piece(id);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|b| format!("<0x{b:02X}>")).collect(),
    }
}

fn strings(items: impl Iterator<Item = String>) -> JsValue {
    items.map(|s| JsValue::from_str(&s)).collect::<Array>().into()
}

fn floats(values: &[f32]) -> JsValue {
    Float32Array::from(values).into()
}

/// Reads the text: tokens at once, a layer at a time with progress, then the losses and the
/// views' numbers, the selected head, each group of planes off, and at an offset the largest
/// change against the same text at offset 0.
async fn read(id: f64, message: &JsValue) {
    let Some(model) = model() else { return fail(id, p::NOT_LOADED) };
    let c = model.config.clone();
    let text = get(message, p::TEXT).as_string().unwrap_or_default();
    let hooks = hooks_of(message);
    let tokens = model.encode(&text);
    let limit = number(message, p::MAX_TOKENS).max(1.0) as usize;
    let cut = tokens.len() > limit;
    let tokens = &tokens[..tokens.len().min(limit)];
    post(p::TOKENS, id, &[(p::PIECES, strings(tokens.iter().map(|&t| piece_text(&model, t)))), (p::CUT, JsValue::from_bool(cut))]);
    let mut reading = model.begin(tokens, hooks, true);
    let started = now();
    while model.advance(&mut reading) {
        // Once the layers are done, each block of logits brings its tokens' losses: shown at once.
        let losses = if reading.layer >= c.n_layers { floats(reading.losses()) } else { JsValue::UNDEFINED };
        post(
            p::STEP,
            id,
            &[(p::DONE, JsValue::from_f64(reading.layer as f64)), (p::OF, JsValue::from_f64(c.n_layers as f64)), (p::LOSSES, losses)],
        );
        next_task().await;
        if !is_current(id) {
            return;
        }
    }
    let elapsed = now() - started;
    let last = reading.len().saturating_sub(1);
    let next: Vec<String> = reading
        .top(last)
        .map(|top| top.iter().map(|&(t, prob)| format!("{}\u{1f}{prob}", piece_text(&model, t))).collect())
        .unwrap_or_default();
    let grid = |f: &dyn Fn(usize, usize) -> f64| -> Vec<f32> {
        (0..c.n_layers).flat_map(|l| (0..c.n_heads).map(move |h| (l, h))).map(|(l, h)| f(l, h) as f32).collect()
    };
    let prev = grid(&|l, h| reading.head_prev(&c, l, h));
    let first = grid(&|l, h| reading.head_first(&c, l, h));
    let loss = reading.loss();
    post(
        p::READ_DONE,
        id,
        &[
            (p::LOSS, JsValue::from_f64(loss)),
            (p::LOSSES, floats(reading.losses())),
            (p::NEXT, strings(next.into_iter())),
            (p::PREV, floats(&prev)),
            (p::FIRST, floats(&first)),
            (p::MS, JsValue::from_f64(elapsed)),
        ],
    );
    let reading = Rc::new(reading);
    READING.with(|r| *r.borrow_mut() = Some(reading.clone()));
    head(id, number(message, p::LAYER) as usize, number(message, p::HEAD_INDEX) as usize);
    // The loss with each group of eight planes off (and with every plane on, when the reader's
    // switches differ), each relative to every plane on: one at a time, each a message.
    let groups = c.planes().div_ceil(8);
    let plain = Hooks { offset: hooks.offset, off: 0 };
    let baseline = if hooks.off == 0 {
        loss
    } else {
        match loss_of(&model, tokens, plain, id).await {
            Some(l) => l,
            None => return,
        }
    };
    post(p::GROUP, id, &[(p::INDEX, JsValue::from_f64(-1.0)), (p::LOSS, JsValue::from_f64(baseline))]);
    for g in 0..groups {
        let Some(l) = loss_of(&model, tokens, plain.with_off(8 * g..8 * g + 8), id).await else { return };
        post(p::GROUP, id, &[(p::INDEX, JsValue::from_f64(g as f64)), (p::LOSS, JsValue::from_f64(l)), (p::MEMORY, memory_bytes())]);
    }
    if hooks.offset != 0 {
        let mut at_zero = model.begin(tokens, Hooks { offset: 0, ..hooks }, true).without_q();
        while model.advance(&mut at_zero) {
            next_task().await;
            after_writing().await;
            if !is_current(id) {
                return;
            }
        }
        let mut largest = 0f64;
        for (a, b) in reading.losses().iter().zip(at_zero.losses()) {
            largest = largest.max((a - b).abs() as f64);
        }
        for l in 0..c.n_layers {
            for h in 0..c.n_heads {
                largest = largest.max((reading.head_prev(&c, l, h) - at_zero.head_prev(&c, l, h)).abs());
                largest = largest.max((reading.head_first(&c, l, h) - at_zero.head_first(&c, l, h)).abs());
            }
        }
        post(p::DRIFT, id, &[(p::LARGEST, JsValue::from_f64(largest)), (p::MEMORY, memory_bytes())]);
    }
}

/// A reading's mean loss, a layer at a time; None once a newer request came.
async fn loss_of(model: &LlamaModel, tokens: &[u32], hooks: Hooks, id: f64) -> Option<f64> {
    let mut r = model.begin(tokens, hooks, false);
    while model.advance(&mut r) {
        next_task().await;
        after_writing().await;
        if !is_current(id) {
            return None;
        }
    }
    Some(r.loss())
}

/// The selected head: its plane shares, its attention map (the causal triangle, row after
/// row) and its rotated q and k at every position.
fn head(id: f64, layer: usize, head: usize) {
    let (Some(model), Some(r)) = (model(), READING.with(|r| r.borrow().clone())) else { return };
    let c = &model.config;
    let (layer, head) = (layer.min(c.n_layers - 1), head.min(c.n_heads - 1));
    let share: Vec<f32> = r.plane_share(c, layer, head).iter().map(|&v| v as f32).collect();
    let map: Vec<f32> = r.attention(c, layer, head).concat();
    let q: Vec<f32> = (0..r.len()).flat_map(|t| r.q(c, layer, head, t).to_vec()).collect();
    let k: Vec<f32> = (0..r.len()).flat_map(|t| r.k(c, layer, head / c.group(), t).to_vec()).collect();
    post(
        p::HEAD_DONE,
        id,
        &[
            (p::LAYER, JsValue::from_f64(layer as f64)),
            (p::HEAD_INDEX, JsValue::from_f64(head as f64)),
            (p::SHARE, floats(&share)),
            (p::MAP, floats(&map)),
            (p::Q, floats(&q)),
            (p::K, floats(&k)),
        ],
    );
}

/// Greedy decoding after the read text, a token at a time until Stop, a newer request, the end
/// of text or `count` tokens.
async fn continuation(id: f64, count: usize) {
    let (Some(model), Some(r)) = (model(), READING.with(|r| r.borrow().clone())) else { return };
    let me = WRITING.with(|w| w.get());
    let mut session = r.for_continuing();
    let mut next = r.top(r.len().saturating_sub(1)).map_or(0, |t| t[0].0);
    let mut bytes: Vec<u8> = Vec::new();
    WRITING_NOW.with(|w| w.set(w.get() + 1));
    let _done = Finally(|| WRITING_NOW.with(|w| w.set(w.get().saturating_sub(1))));
    for written in 0..count {
        if Some(next) == model.tokenizer.eos || r.is_empty() {
            break;
        }
        bytes.extend_from_slice(model.tokenizer.piece(next));
        post(
            p::WRITTEN,
            id,
            &[(p::TEXT, JsValue::from_str(&String::from_utf8_lossy(&bytes))), (p::COUNT, JsValue::from_f64(written as f64 + 1.0))],
        );
        next_task().await;
        if WRITING.with(|w| w.get()) != me {
            return;
        }
        let logits = model.feed(&mut session, next);
        next = argmax(&logits);
    }
    post(p::WRITTEN_ALL, id, &[]);
}

/// Each kernel's time on the text (cut to `max_tokens`), for `make bench`.
fn profile(id: f64, message: &JsValue) {
    let Some(model) = model() else { return fail(id, p::NOT_LOADED) };
    let tokens = model.encode(&get(message, p::TEXT).as_string().unwrap_or_default());
    let tokens = &tokens[..tokens.len().min(number(message, p::MAX_TOKENS).max(1.0) as usize)];
    let timings = model.profile(tokens, &now);
    post(
        p::PROFILE_DONE,
        id,
        &[
            (p::WHAT, strings(timings.iter().map(|t| t.what.clone()))),
            (p::MS, timings.iter().map(|t| JsValue::from_f64(t.ms)).collect::<Array>().into()),
            (p::GFLOPS, timings.iter().map(|t| JsValue::from_f64(t.gflops)).collect::<Array>().into()),
        ],
    );
}

/// Runs its closure when dropped: on every way out of a function, an early return too.
struct Finally<F: FnMut()>(F);

impl<F: FnMut()> Drop for Finally<F> {
    fn drop(&mut self) {
        (self.0)()
    }
}

fn argmax(values: &[f32]) -> u32 {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best as u32
}

/// The worker's WebAssembly memory, in bytes (it grows and never shrinks: its largest so far).
fn memory_bytes() -> JsValue {
    get(&get(&wasm_bindgen::memory(), "buffer"), "byteLength")
}

fn now() -> f64 {
    call(&get(&scope(), "performance"), "now", &[]).as_f64().unwrap_or(0.0)
}
