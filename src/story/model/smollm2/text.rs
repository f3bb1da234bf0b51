//! The reader's text as SmolLM2 reads it: its tokens with their losses, the next token, and a
//! greedy continuation.

use super::super::look::chip_text;
use super::client::{Client, MAX_TOKENS};
use crate::charts::format::fixed;
use crate::dom::indexed::indexed;
use crate::lab::use_lab;
use crate::state::{Change, MAX_MODEL_TEXT};
use crate::ui::readout::Readout;
use leptos::prelude::*;

/// Losses at or above this many nats fill a token's bar.
const FULL_BAR: f64 = 10.0;
/// Tokens "Continue" writes.
const CONTINUE_TOKENS: usize = 40;

#[component]
pub(super) fn TextPanel(query: RwSignal<Option<usize>>, key: RwSignal<Option<usize>>) -> impl IntoView {
    let lab = use_lab();
    let client = expect_context::<Client>();
    let text = lab.select(super::text_of);
    let count = Signal::derive(move || client.reading.with(|r| r.as_ref().map(|_| client.pieces.with(Vec::len) as f64)));
    let loss = Signal::derive(move || client.reading.with(|r| r.as_ref().map(|r| r.loss)));
    let top = move || client.reading.with(|r| r.as_ref().and_then(|r| r.next.first().map(|(t, _)| t.clone())));
    let chip = move |t: usize| {
        let piece = client.pieces.with(|p| p.get(t).cloned()).unwrap_or_default();
        let loss = client.reading.with(|r| r.as_ref().and_then(|r| r.losses.get(t).copied()));
        let loss = loss.or_else(|| client.early_losses.with(|l| l.get(t).copied())).unwrap_or(0.0) as f64;
        (chip_text(&piece), loss)
    };
    view! {
        <div class="model-text">
            <label class="control-label" for="smollm2-text-field">"Your text (SmolLM2 reads English best)"</label>
            <textarea id="smollm2-text-field" class="model-text-field" data-testid="model-text" rows="4" maxlength=MAX_MODEL_TEXT.to_string()
                spellcheck="false" prop:value=move || text.get()
                on:input=move |ev| lab.apply(Change::Text(event_target_value(&ev)))></textarea>
            <p class="notice" role="status" hidden=move || !client.cut.get()>
                {format!("The text is longer than {MAX_TOKENS} tokens; the model reads its first {MAX_TOKENS}.")}</p>
            <div class="model-readouts readouts">
                <Readout testid="model-tokens" label="tokens (SmolLM2 adds no BOS)" value=count integer=true
                    hint="each chip below is one" />
                <Readout testid="model-loss" label="mean loss (nats per token)" value=loss
                    hint="the cross-entropy of each token after the first, given those before it" />
                <div class="readout">
                    <span class="readout-label">"most likely next token"</span>
                    <output class="readout-value" translate="no" data-testid="model-next" data-value=move || top().unwrap_or_default()>
                        {move || top().map(|t| format!("“{}”", chip_text(&t))).unwrap_or_else(|| "—".into())}
                    </output>
                </div>
            </div>
            <p class="explain">"Each chip is a token (␣ a space, ⏎ a new line; <0xE2> a byte of a character that takes \
                several tokens) with its position; the bar under it is the loss: how surprised the model was to read it. \
                Click a token to look at it as a query below."</p>
            <ol class="model-chips" aria-label="the tokens, with their positions and losses">
                {indexed(move || client.pieces.with(Vec::len), move |t, active| {
                    let height = move || format!("{}%", fixed((chip(t).1 / FULL_BAR).clamp(0.0, 1.0) * 100.0, 0));
                    let loss = move || format!(", loss {} nats", fixed(chip(t).1, 2));
                    view! {
                        <li class="model-chip" class:selected=move || query.get() == Some(t) hidden=move || !active.get()>
                            <button type="button" on:click=move |_| { query.set(Some(t)); key.set(None); }>
                                <span class="chip-piece" translate="no">{move || chip(t).0}</span>
                                <span class="chip-position">{t}</span>
                                <span class="visually-hidden">{loss}</span>
                            </button>
                            <span class="chip-loss" aria-hidden="true"><span class="chip-loss-bar" style:height=height></span></span>
                        </li>
                    }
                })}
            </ol>
            <div class="model-next-list">
                <span class="control-label">"What it expects next"</span>
                <ol>
                    {move || client.reading.get().map(|r| r.next.iter().map(|(token, p)| view! {
                        <li><span class="next-token" translate="no">{format!("“{}”", chip_text(token))}</span>
                            <span class="next-bar" style:width=format!("{}%", fixed(p * 100.0, 1))></span>
                            <span class="next-p">{format!("{}%", fixed(p * 100.0, 1))}</span></li>
                    }).collect_view())}
                </ol>
            </div>
            <div class="model-continue">
                <button type="button" on:click=move |_| client.continue_text(CONTINUE_TOKENS)
                    disabled=move || client.writing.get() || client.reading.with(Option::is_none)>"Continue the text"</button>
                <button type="button" on:click=move |_| client.stop_writing() disabled=move || !client.writing.get()>"Stop"</button>
                <p class="model-continuation" aria-live="polite">
                    <output class="continuation-new" translate="no" data-testid="model-continuation" data-tokens=move || client.continued.get().to_string()
                        data-value=move || client.continuation.get()>{move || client.continuation.get()}</output>
                </p>
            </div>
        </div>
    }
}
