//! The page's side of the model's worker: it starts the worker, sends the reader's settings,
//! and turns the worker's messages into signals the views read. Every result carries the id
//! of the request it answers, and one for an older request is dropped: a value computed with
//! other settings than the page's is never shown.

use crate::dom::js::{call, get, number, set};
use crate::model::protocol as p;
use js_sys::{Array, Float32Array, Object};
use leptos::prelude::*;
use std::cell::RefCell;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

pub const ABSENT: &str = "SmolLM2-135M is not in this build: run `make model` (or set ROPELAB_MODEL_DIR to a folder holding \
    smollm2-135m/SmolLM2-135M-Instruct.Q4_1.gguf), then build again. The stories260K model above works without it.";

/// The script trunk writes to start the worker (`src/bin/model_worker.rs`).
const WORKER_SCRIPT: &str = "./model_worker_loader.js";
/// The longest text the worker reads, in tokens (a notice says when a text is cut).
pub const MAX_TOKENS: usize = 1024;

/// Where the model is.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    Checking,
    /// This build does not serve the file.
    Absent,
    /// Served, not loaded: the button offers it.
    Offer,
    Downloading {
        loaded: f64,
        total: f64,
    },
    Parsing,
    Ready,
    Failed(String),
}

/// The model's shape, as the worker read it from the file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape {
    pub layers: usize,
    pub heads: usize,
    pub kv_heads: usize,
    pub planes: usize,
    pub context: usize,
    pub base: f64,
}

/// One reading of the text under the page's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadingData {
    pub loss: f64,
    /// Per token (0 for the first).
    pub losses: Vec<f32>,
    /// The five most likely next tokens and their probabilities.
    pub next: Vec<(String, f64)>,
    /// `[layer × heads + head]`: mean attention to the previous / first token.
    pub prev: Vec<f32>,
    pub first: Vec<f32>,
    /// The worker's milliseconds for the read.
    pub ms: f64,
}

/// The selected head's details.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadData {
    pub layer: usize,
    pub head: usize,
    pub share: Vec<f32>,
    /// The causal attention, row t holding keys 0..=t, rows one after another.
    pub map: Vec<f32>,
    /// Rotated q and k at every position, `head_dim` numbers each.
    pub q: Vec<f32>,
    pub k: Vec<f32>,
}

/// The handler of the worker's messages, kept alive while the worker runs.
type Handler = Closure<dyn FnMut(web_sys::MessageEvent)>;

thread_local! {
    static WORKER: RefCell<Option<web_sys::Worker>> = const { RefCell::new(None) };
    /// Messages asked for before the worker listens (its module still loading): sent on READY.
    static PENDING: RefCell<Option<Vec<Object>>> = const { RefCell::new(Some(Vec::new())) };
    static HANDLER: RefCell<Option<Handler>> = const { RefCell::new(None) };
}

/// What the views read, and the way to ask the worker.
#[derive(Clone, Copy)]
pub struct Client {
    pub status: RwSignal<Status>,
    pub stored: RwSignal<bool>,
    pub removed: RwSignal<bool>,
    pub shape: RwSignal<Option<Shape>>,
    pub pieces: RwSignal<Vec<String>>,
    pub cut: RwSignal<bool>,
    /// While a read runs: steps done and of how many.
    pub progress: RwSignal<Option<(usize, usize)>>,
    /// While a read runs: the tokens' losses known so far (the reading's, once it is done).
    pub early_losses: RwSignal<Vec<f32>>,
    pub reading: RwSignal<Option<Arc<ReadingData>>>,
    pub head: RwSignal<Option<Arc<HeadData>>>,
    /// Index 0: the loss with every plane on; then with each group of eight planes off.
    pub groups: RwSignal<Vec<Option<f64>>>,
    pub drift: RwSignal<Option<f64>>,
    /// The worker's WebAssembly memory, bytes, as its last report said.
    pub memory: RwSignal<f64>,
    pub continuation: RwSignal<String>,
    pub continued: RwSignal<usize>,
    pub writing: RwSignal<bool>,
    /// The newest read's id; results of older ones are dropped.
    request: StoredValue<f64>,
}

fn floats(v: &JsValue) -> Vec<f32> {
    Float32Array::new(v).to_vec()
}

impl Client {
    pub fn new() -> Client {
        let client = Client {
            status: RwSignal::new(Status::Checking),
            stored: RwSignal::new(false),
            removed: RwSignal::new(false),
            shape: RwSignal::new(None),
            pieces: RwSignal::new(Vec::new()),
            cut: RwSignal::new(false),
            progress: RwSignal::new(None),
            early_losses: RwSignal::new(Vec::new()),
            reading: RwSignal::new(None),
            head: RwSignal::new(None),
            groups: RwSignal::new(Vec::new()),
            drift: RwSignal::new(None),
            memory: RwSignal::new(0.0),
            continuation: RwSignal::new(String::new()),
            continued: RwSignal::new(0),
            writing: RwSignal::new(false),
            request: StoredValue::new(0.0),
        };
        on_cleanup(stop_worker);
        client
    }

    /// A new request: its id supersedes every earlier one.
    fn send(&self, kind: &str, fields: &[(&str, JsValue)]) {
        self.request.update_value(|r| *r += 1.0);
        self.tell(kind, fields);
    }

    /// A message about the current request (a head of its reading, a continuation of it).
    fn tell(&self, kind: &str, fields: &[(&str, JsValue)]) {
        let id = self.request.get_value();
        let message = Object::new();
        set(&message, p::KIND, &JsValue::from_str(kind));
        set(&message, p::ID, &JsValue::from_f64(id));
        for (key, value) in fields {
            set(&message, key, value);
        }
        let waiting = PENDING.with(|p| p.borrow_mut().as_mut().map(|queue| queue.push(message.clone())).is_some());
        if !waiting {
            post(&message);
        }
    }

    /// Starts the worker and asks it for the model (from storage, else downloaded).
    pub fn load(&self, url: &str, cache: &str) {
        stop_worker();
        let Ok(worker) = web_sys::Worker::new(WORKER_SCRIPT) else {
            self.status.set(Status::Failed("This browser could not start the model's worker.".into()));
            return;
        };
        let client = *self;
        let handler = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| client.receive(&event.data()));
        // Through `Reflect` (crate::dom::js), as `terminate` below: no binding of their own in the
        // glue every visit loads.
        set(&worker, "onmessage", handler.as_ref());
        WORKER.with(|w| *w.borrow_mut() = Some(worker));
        HANDLER.with(|h| *h.borrow_mut() = Some(handler));
        self.status.set(Status::Downloading { loaded: 0.0, total: 0.0 });
        self.send(p::LOAD, &[(p::URL, JsValue::from_str(url)), (p::CACHE, JsValue::from_str(cache))]);
    }

    /// Stops a download (the worker and what it fetched are dropped).
    pub fn cancel(&self) {
        stop_worker();
        self.status.set(Status::Offer);
    }

    /// Reads the text under the page's settings; what was shown for other settings goes.
    pub fn read(&self, text: &str, off: u64, offset: u64, layer: usize, head: usize) {
        let planes: Array = (0..64u32).filter(|&i| off & (1u64 << i) != 0).map(|i| JsValue::from_f64(i as f64)).collect();
        self.reading.set(None);
        self.head.set(None);
        self.groups.set(Vec::new());
        self.drift.set(None);
        self.continuation.set(String::new());
        self.continued.set(0);
        self.writing.set(false);
        self.progress.set(Some((0, 0)));
        self.early_losses.set(Vec::new());
        self.send(
            p::READ,
            &[
                (p::TEXT, JsValue::from_str(text)),
                (p::OFF, planes.into()),
                (p::OFFSET, JsValue::from_f64(offset as f64)),
                (p::LAYER, JsValue::from_f64(layer as f64)),
                (p::HEAD_INDEX, JsValue::from_f64(head as f64)),
                (p::MAX_TOKENS, JsValue::from_f64(MAX_TOKENS as f64)),
            ],
        );
    }

    /// The selected head's details, from the reading the worker keeps.
    pub fn pick_head(&self, layer: usize, head: usize) {
        self.tell(p::HEAD, &[(p::LAYER, JsValue::from_f64(layer as f64)), (p::HEAD_INDEX, JsValue::from_f64(head as f64))]);
    }

    pub fn continue_text(&self, count: usize) {
        self.continuation.set(String::new());
        self.continued.set(0);
        self.writing.set(true);
        self.tell(p::CONTINUE, &[(p::COUNT, JsValue::from_f64(count as f64))]);
    }

    pub fn stop_writing(&self) {
        self.writing.set(false);
        self.tell(p::STOP, &[]);
    }

    fn receive(&self, message: &JsValue) {
        let kind = get(message, p::KIND).as_string().unwrap_or_default();
        let id = number(message, p::ID);
        let current = id == self.request.get_value();
        if number(message, p::MEMORY) > 0.0 {
            self.memory.set(number(message, p::MEMORY));
        }
        match kind.as_str() {
            p::READY => {
                let queued = PENDING.with(|p| p.borrow_mut().take()).unwrap_or_default();
                queued.iter().for_each(post);
            }
            p::PROGRESS => {
                self.status.set(Status::Downloading { loaded: number(message, p::LOADED_BYTES), total: number(message, p::TOTAL) })
            }
            p::PARSING => self.status.set(Status::Parsing),
            p::LOADED => {
                let n = |key: &str| number(message, key) as usize;
                self.shape.set(Some(Shape {
                    layers: n(p::LAYERS),
                    heads: n(p::HEADS),
                    kv_heads: n(p::KV_HEADS),
                    planes: n(p::PLANES),
                    context: n(p::CONTEXT),
                    base: number(message, p::BASE),
                }));
                self.stored.set(true);
                self.status.set(Status::Ready);
            }
            p::ERROR => self.status.set(Status::Failed(get(message, p::MESSAGE).as_string().unwrap_or_default())),
            _ if !current => {}
            p::TOKENS => {
                self.pieces.set(Array::from(&get(message, p::PIECES)).iter().filter_map(|v| v.as_string()).collect());
                self.cut.set(get(message, p::CUT).as_bool() == Some(true));
            }
            p::STEP => {
                self.progress.set(Some((number(message, p::DONE) as usize, number(message, p::OF) as usize)));
                let losses = get(message, p::LOSSES);
                if !losses.is_undefined() {
                    self.early_losses.set(floats(&losses));
                }
            }
            p::READ_DONE => {
                self.progress.set(None);
                let next = Array::from(&get(message, p::NEXT))
                    .iter()
                    .filter_map(|v| v.as_string())
                    .filter_map(|s| s.split_once('\u{1f}').map(|(t, p)| (t.to_string(), p.parse::<f64>().unwrap_or(0.0))))
                    .collect();
                self.reading.set(Some(Arc::new(ReadingData {
                    loss: number(message, p::LOSS),
                    losses: floats(&get(message, p::LOSSES)),
                    next,
                    prev: floats(&get(message, p::PREV)),
                    first: floats(&get(message, p::FIRST)),
                    ms: number(message, p::MS),
                })));
            }
            p::HEAD_DONE => self.head.set(Some(Arc::new(HeadData {
                layer: number(message, p::LAYER) as usize,
                head: number(message, p::HEAD_INDEX) as usize,
                share: floats(&get(message, p::SHARE)),
                map: floats(&get(message, p::MAP)),
                q: floats(&get(message, p::Q)),
                k: floats(&get(message, p::K)),
            }))),
            p::GROUP => {
                let at = (number(message, p::INDEX) + 1.0).max(0.0) as usize;
                self.groups.update(|g| {
                    if g.len() <= at {
                        g.resize(at + 1, None);
                    }
                    g[at] = Some(number(message, p::LOSS));
                });
            }
            p::DRIFT => self.drift.set(Some(number(message, p::LARGEST))),
            p::WRITTEN if self.writing.get_untracked() => {
                self.continuation.set(get(message, p::TEXT).as_string().unwrap_or_default());
                self.continued.set(number(message, p::COUNT) as usize);
            }
            p::WRITTEN_ALL => self.writing.set(false),
            _ => {}
        }
    }
}

fn post(message: &Object) {
    WORKER.with(|w| {
        if let Some(worker) = w.borrow().as_ref() {
            let _ = worker.post_message(message);
        }
    });
}

fn stop_worker() {
    PENDING.with(|p| *p.borrow_mut() = Some(Vec::new()));
    WORKER.with(|w| {
        if let Some(worker) = w.borrow_mut().take() {
            call(&worker, "terminate", &[]);
        }
    });
    HANDLER.with(|h| h.borrow_mut().take());
}
