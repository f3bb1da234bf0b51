//! Chapter (`data-widget="model"`): inside a trained model. Karpathy's stories260K (a Llama 2
//! architecture, 260K parameters, trained on TinyStories) reads the reader's text in the tab:
//! its tokens and what surprised it, its next token and a greedy continuation, the 40 heads
//! coloured by how much they look at the previous token, a head's real attention, and its four
//! rotation planes at work (each plane's part of a score, and of why the head looks back).
//! Switching a plane off, or shifting every position by up to a million, re-runs the model.
//!
//! The model's weights are a file of their own (`stories260K.rlm`, packed by the build from
//! llama2.c's files, never in the repository), fetched when the chapter is made. A build
//! without them says in one line how to add them.

mod heads;
mod look;
mod planes;
mod smollm2;
mod text;

use crate::dom::gif::next_task;
use crate::dom::js::{call, get};
use crate::dom::style::style_sheet;
use crate::lab::use_lab;
use crate::model::{Model, Reading, Rope, Session, PACKED_FILE};
use crate::state::{Change, Notice, TrainedModel};
use crate::ui::card::WidgetCard;
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The chapter's id (`embed=model`, `data-widget`): never changes meaning once published.
pub const ID: &str = "model";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "Inside a trained model";

/// The choice of model, written once as HTML; one effect checks the model shown (a view with a
/// closure per input and attribute made the stories260K chapter's part 1 KB larger).
const CHOICE: &str = r#"<span class="control-label">Model</span><label><input type="radio" name="model-choice" value="stories260k" data-testid="model-choice-stories260k"> stories260K (260 thousand parameters, built in)</label><label><input type="radio" name="model-choice" value="smollm2-135m" data-testid="model-choice-smollm2-135m"> SmolLM2-135M (135 million parameters, 98 MB, on request)</label>"#;

/// How many tokens "Continue the story" adds.
const CONTINUE_TOKENS: usize = 60;

/// Where the model is.
#[derive(Debug, Clone, PartialEq)]
enum Load {
    Loading,
    Ready,
    /// Why there is no model (not in this build, or not readable).
    Missing(String),
}

/// What the chapter's views share: the model's reading of the text and the reader's choices.
#[derive(Clone, Copy)]
struct Shared {
    model: RwSignal<Option<Arc<Model>>>,
    reading: RwSignal<Option<Arc<Reading>>>,
    /// The selected query token (None: the last one) and key token (None: the one the head
    /// attends to most).
    query: RwSignal<Option<usize>>,
    key: RwSignal<Option<usize>>,
    /// `model-loss` with each plane alone off, then with all four off (computed after the read).
    plane_losses: RwSignal<Option<Vec<f64>>>,
    /// The largest change of any attention weight against offset 0 (None at offset 0).
    drift: RwSignal<Option<f64>>,
    continuation: RwSignal<String>,
    /// How many tokens the continuation has.
    continued: RwSignal<usize>,
    continuing: RwSignal<bool>,
    /// The reader asked for a continuation: a new reading continues again.
    wanted: RwSignal<bool>,
    /// Main-thread milliseconds of the last read of the text (the benchmark prints it).
    read_ms: RwSignal<f64>,
    /// Bumped by every new reading: the follow-up of an older one stops.
    reading_generation: StoredValue<u64>,
    /// Bumped by every new reading, by "Continue the story" and by Stop: an older continuation
    /// stops (and only it: the table of losses goes on).
    generation: StoredValue<u64>,
    session: StoredValue<Option<Session>>,
    /// The reading at offset 0 of the same text and switches, to compare a shifted one with.
    baseline: StoredValue<Option<Arc<Reading>>>,
}

impl Shared {
    /// The picked query, else the last token that the selected head reads most at the token
    /// before it (where a head that looks back shows how), else the last token.
    fn query_at(&self, layer: usize, head: usize) -> Option<usize> {
        self.reading.with(|r| {
            let r = r.as_ref().filter(|r| !r.is_empty())?;
            let len = r.len();
            if let Some(q) = self.query.get() {
                return Some(q.min(len - 1));
            }
            let looks_back = |q: usize| r.top_key(layer, head, q).is_some_and(|k| k + 1 == q);
            Some((1..len).rev().find(|&q| looks_back(q)).unwrap_or(len - 1))
        })
    }

    fn bump(&self) -> u64 {
        self.generation.update_value(|g| *g += 1);
        self.generation.get_value()
    }
}

/// `fetch(path)`'s response, if it is a success.
async fn fetch_ok(path: &str) -> Result<JsValue, String> {
    let offline = || "The trained model could not be downloaded (is the network down?).".to_string();
    let asked = call(&window(), "fetch", &[&JsValue::from_str(path)]).dyn_into::<js_sys::Promise>().map_err(|_| offline())?;
    let response = JsFuture::from(asked).await.map_err(|_| offline())?;
    if get(&response, "ok").as_bool() != Some(true) {
        return Err(MISSING.to_string());
    }
    Ok(response)
}

const MISSING: &str = "The trained model is not in this build: run `make model` (or set ROPELAB_MODEL_DIR to a folder with stories260K.bin and tok512.bin), then build again.";

/// Fetches the packed model beside the page, once the build's `model.json` says it is there.
async fn fetch_model() -> Result<Model, String> {
    let missing = MISSING;
    let manifest = fetch_ok("model.json").await?;
    let manifest = call(&manifest, "text", &[]).dyn_into::<js_sys::Promise>().map_err(|_| missing.to_string())?;
    let manifest = JsFuture::from(manifest).await.map_err(|_| missing.to_string())?.as_string().unwrap_or_default();
    if !manifest.contains(PACKED_FILE) {
        return Err(missing.to_string());
    }
    let response = fetch_ok(PACKED_FILE).await?;
    let buffer = call(&response, "arrayBuffer", &[]).dyn_into::<js_sys::Promise>().map_err(|_| missing.to_string())?;
    let buffer = JsFuture::from(buffer).await.map_err(|_| "The trained model did not arrive whole.".to_string())?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    Model::from_packed(&bytes).map_err(|e| format!("The trained model's file could not be read ({e}); build it again with `make build`."))
}

#[component]
pub fn ModelWidget() -> impl IntoView {
    let lab = use_lab();
    style_sheet("assets/model.css");
    let load = RwSignal::new(Load::Loading);
    let shared = Shared {
        model: RwSignal::new(None),
        reading: RwSignal::new(None),
        query: RwSignal::new(None),
        key: RwSignal::new(None),
        plane_losses: RwSignal::new(None),
        drift: RwSignal::new(None),
        continuation: RwSignal::new(String::new()),
        continued: RwSignal::new(0),
        continuing: RwSignal::new(false),
        wanted: RwSignal::new(false),
        read_ms: RwSignal::new(0.0),
        reading_generation: StoredValue::new(0),
        generation: StoredValue::new(0),
        session: StoredValue::new(None),
        baseline: StoredValue::new(None),
    };
    provide_context(shared);
    leptos::task::spawn_local(async move {
        match fetch_model().await {
            Ok(model) => {
                shared.model.set(Some(Arc::new(model)));
                load.set(Load::Ready);
            }
            Err(why) => load.set(Load::Missing(why)),
        }
    });

    // The text, the switches and the offset: a change re-reads the text.
    let inputs = lab.select(|s| (s.model_text().to_string(), (s.planes_off & 0xff) as u8, s.offset));
    let cut = RwSignal::new(false);
    Effect::new(move |_| {
        let (text, off, offset) = inputs.get();
        let Some(model) = shared.model.get() else { return };
        let mut tokens = model.tokenizer.encode(&text);
        let seq = model.config().seq_len;
        let too_long = tokens.len() > seq;
        tokens.truncate(seq);
        if too_long && !cut.get_untracked() {
            let message =
                format!("the text is {} tokens long; the model reads its first {seq} (its context)", model.tokenizer.encode(&text).len());
            lab.notices.update(|all| all.push(Notice { param: "text", message, in_effect: String::new() }));
        }
        cut.set(too_long);
        let rope = Rope { offset, off };
        let clock = window().performance();
        let started = clock.as_ref().map_or(0.0, |p| p.now());
        let (reading, session) = model.read(&tokens, rope);
        shared.read_ms.set(clock.as_ref().map_or(0.0, |p| p.now()) - started);
        let reading = Arc::new(reading);
        // The same text at offset 0, kept while only the offset moves.
        let baseline = if offset == 0 {
            reading.clone()
        } else {
            match shared.baseline.get_value().filter(|b| b.tokens == tokens && b.rope.off == off) {
                Some(b) => b,
                None => Arc::new(model.read(&tokens, Rope { offset: 0, off }).0),
            }
        };
        shared.drift.set((offset != 0).then(|| largest_change(&reading, &baseline)));
        shared.baseline.set_value(Some(baseline));
        shared.session.set_value(Some(session));
        shared.reading.set(Some(reading));
        shared.plane_losses.set(None);
        shared.continuation.set(String::new());
        shared.continued.set(0);
        shared.continuing.set(false);
        shared.bump();
        shared.reading_generation.update_value(|g| *g += 1);
        let generation = shared.reading_generation.get_value();
        leptos::task::spawn_local(follow_up(shared, model, tokens, rope, generation));
    });

    let status = move || match load.get() {
        Load::Loading => Some("Downloading the trained model (about 250 KB)…".to_string()),
        Load::Ready => None,
        Load::Missing(why) => Some(why),
    };
    let missing = move || matches!(load.get(), Load::Missing(_));
    let which = lab.select(|s| s.model);
    let choice = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        let id = which.get().id();
        if let Some(input) = choice.get().and_then(|c| c.query_selector(&format!("[value=\"{id}\"]")).ok().flatten()) {
            crate::dom::js::set(&input, "checked", &JsValue::TRUE);
        }
    });
    view! {
        <WidgetCard id=ID title=TITLE explain="Every figure so far turned seeded random q and k. What does a trained model do \
            with its planes? Here is a real one, small enough to run in this tab: Karpathy's stories260K, a Llama 2 \
            model with 260 thousand parameters trained on TinyStories (children's stories written by a larger model). \
            Its heads have 8 dimensions, so four rotation planes each, interleaved as in RoFormer, with base 10,000: \
            θᵢ = 1, 0.1, 0.01 and 0.001 radians per token, wavelengths of 6.3, 63, 628 and 6,283 tokens. \
            It learned from English stories only: whatever language this page is in, the model reads and writes English.">
            <div class="model-choice" role="radiogroup" aria-label="the model" node_ref=choice inner_html=CHOICE
                on:change=move |e| if let Some(m) = TrainedModel::from_id(&event_target_value(&e)) { lab.apply(Change::Model(m)) }></div>
            <Show when=move || which.get() == TrainedModel::Stories260k fallback=|| Suspend::new(smollm2_view())>
                <p class="model-status" data-testid="model-status" role="status" hidden=move || status().is_none()
                    data-read-ms=move || crate::state::fmt_f64(shared.read_ms.get())
                    class:model-missing=missing>{status}</p>
                <text::TextPanel />
                <heads::HeadsPanel />
                <planes::PlanesPanel />
            </Show>
        </WidgetCard>
    }
}

/// SmolLM2's section: in the split build a part of its own, fetched when a reader chooses the
/// model, so that neither the first visit nor the stories260K chapter carries it.
#[cfg_attr(split, leptos::wasm_split::wasm_split(smollm2_9, wasm_split_path = ::leptos::wasm_split, fallible))]
fn smollm2_part(_slot: u8) -> Result<AnyView, leptos::wasm_split::SplitLoaderError> {
    Ok(view! { <smollm2::Smollm2Section /> }.into_any())
}

async fn smollm2_view() -> AnyView {
    #[cfg(split)]
    let part = smollm2_part(0).await;
    #[cfg(not(split))]
    let part = smollm2_part(0);
    part.unwrap_or_else(|_| {
        view! { <p class="model-status model-missing" role="status">"This part of the page could not be downloaded (is the network down?)."</p> }.into_any()
    })
}

/// After a read: the loss with each plane alone off and with all off (a task each, so the page
/// answers between them), then the continuation again if the reader had asked for one.
async fn follow_up(shared: Shared, model: Arc<Model>, tokens: Vec<u32>, rope: Rope, reading: u64) {
    let mut losses = Vec::with_capacity(5);
    for plane in 0..=model.config().planes() {
        next_task().await;
        if shared.reading_generation.try_get_value() != Some(reading) {
            return;
        }
        let off = if plane < model.config().planes() { 1u8 << plane } else { (1u8 << plane) - 1 };
        losses.push(model.loss(&tokens, Rope { offset: rope.offset, off }));
    }
    shared.plane_losses.set(Some(losses));
    if shared.wanted.get_untracked() && !shared.continuing.get_untracked() {
        let generation = shared.bump();
        continue_story(shared, generation).await;
    }
}

/// Greedy decoding from the text's cache, shown token by token, until Stop, the end of a story,
/// a full context or [`CONTINUE_TOKENS`].
async fn continue_story(shared: Shared, generation: u64) {
    let (Some(model), Some(mut session)) = (shared.model.get_untracked(), shared.session.get_value()) else { return };
    shared.continuing.set(true);
    shared.continuation.set(String::new());
    shared.continued.set(0);
    let mut bytes = Vec::new();
    let mut previous = session.last();
    for _ in 0..CONTINUE_TOKENS {
        if session.is_full() || session.is_empty() {
            break;
        }
        let next = Model::greedy(session.logits());
        if next == crate::model::BOS || next == crate::model::EOS {
            break;
        }
        bytes.extend_from_slice(model.tokenizer.decode(previous, next));
        shared.continuation.set(String::from_utf8_lossy(&bytes).into_owned());
        shared.continued.update(|n| *n += 1);
        model.feed(&mut session, next, None);
        previous = next;
        next_task().await;
        if shared.generation.try_get_value() != Some(generation) {
            return;
        }
    }
    shared.continuing.set(false);
}

/// The largest difference of any attention weight between two readings of the same tokens.
fn largest_change(a: &Reading, b: &Reading) -> f64 {
    let c = a.config();
    let mut largest = 0.0f64;
    for l in 0..c.n_layers {
        for h in 0..c.n_heads {
            for q in 0..a.len() {
                for (x, y) in a.attention_row(l, h, q).iter().zip(b.attention_row(l, h, q)) {
                    largest = largest.max((x - y).abs() as f64);
                }
            }
        }
    }
    largest
}
