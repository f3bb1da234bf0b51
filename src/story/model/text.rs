//! Text in, tokens out: the reader's story, its tokens with their positions and losses, the
//! model's next token and its greedy continuation.

use super::look::chip_text;
use super::{continue_story, Shared};
use crate::charts::format::fixed;
use crate::dom::indexed::indexed;
use crate::lab::use_lab;
use crate::state::{Change, MAX_MODEL_TEXT};
use crate::ui::readout::Readout;
use leptos::prelude::*;

/// Losses at or above this many nats fill a token's bar.
const FULL_BAR: f64 = 8.0;

#[component]
pub(super) fn TextPanel() -> impl IntoView {
    let lab = use_lab();
    let shared = expect_context::<Shared>();
    let text = lab.select(|s| s.model_text().to_string());
    let chips = Memo::new(move |_| {
        let model = shared.model.get()?;
        shared.reading.with(|r| {
            let r = r.as_ref()?;
            Some(
                r.tokens.iter().enumerate().map(|(t, &id)| (t, chip_text(&model.tokenizer.piece(id)), r.token_loss(t))).collect::<Vec<_>>(),
            )
        })
    });
    let next = Memo::new(move |_| {
        let model = shared.model.get()?;
        shared.reading.with(|r| {
            let r = r.as_ref()?;
            let last = *r.tokens.last()?;
            Some(
                r.next(5)
                    .into_iter()
                    .map(|(id, p)| (String::from_utf8_lossy(model.tokenizer.decode(last, id)).into_owned(), p))
                    .collect::<Vec<_>>(),
            )
        })
    });
    let top = move || next.with(|n| n.as_ref().and_then(|n| n.first().map(|(t, _)| t.clone())));
    let count = Signal::derive(move || shared.reading.with(|r| r.as_ref().map(|r| r.len() as f64)));
    let loss = Signal::derive(move || shared.reading.with(|r| r.as_ref().map(|r| r.loss())));
    let selected = lab.select(|s| (s.layer as usize, s.head as usize));
    let query = Memo::new(move |_| {
        let (l, h) = selected.get();
        shared.query_at(l, h)
    });
    let start = move |_| {
        shared.wanted.set(true);
        let generation = shared.bump();
        leptos::task::spawn_local(continue_story(shared, generation));
    };
    let stop = move |_| {
        shared.wanted.set(false);
        shared.bump();
        shared.continuing.set(false);
    };
    view! {
        <div class="model-text">
            <label class="control-label" for="model-text-field">"Your story (the model knows English children's stories only)"</label>
            <textarea id="model-text-field" class="model-text-field" data-testid="model-text" rows="3" maxlength=MAX_MODEL_TEXT.to_string()
                spellcheck="false" prop:value=move || text.get()
                on:input=move |ev| lab.apply(Change::Text(event_target_value(&ev)))></textarea>
            <div class="model-readouts readouts">
                <Readout testid="model-tokens" label="tokens, BOS included" value=count integer=true
                    hint="up to 512, the context it was trained on" />
                <Readout testid="model-loss" label="mean loss (nats per token)" value=loss
                    hint="how surprised it is by each next token, on average" />
                <div class="readout">
                    <span class="readout-label">"most likely next token"</span>
                    <output class="readout-value" translate="no" data-testid="model-next" data-value=move || top().unwrap_or_default()>
                        {move || top().map(|t| format!("“{t}”")).unwrap_or_else(|| "—".into())}
                    </output>
                </div>
            </div>
            <p class="explain">"Each chip is a token with its position; the bar under it is how surprised the model was to \
                read it (its loss in nats: a tall bar is a token it did not expect). Click a token to look at it as a query below."</p>
            <ol class="model-chips" aria-label="the tokens, with their positions and losses">
                {indexed(move || chips.with(|c| c.as_ref().map_or(0, Vec::len)), move |t, active| {
                    // A chip is made once and follows the reading: a new text or a plane switch
                    // updates its words and bar in place instead of rebuilding every chip.
                    let chip = move || chips.with(|c| c.as_ref().and_then(|c| c.get(t).cloned())).unwrap_or((t, String::new(), 0.0));
                    let height = move || format!("{}%", fixed((chip().2 / FULL_BAR).clamp(0.0, 1.0) * 100.0, 0));
                    let loss = move || format!(", loss {} nats", fixed(chip().2, 2));
                    view! {
                        <li class="model-chip" class:selected=move || query.get() == Some(t) hidden=move || !active.get()>
                            // Named by what it shows (the piece and its position) and its loss after.
                            <button type="button" on:click=move |_| { shared.query.set(Some(t)); shared.key.set(None); }>
                                <span class="chip-piece" translate="no">{move || chip().1}</span>
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
                    {move || next.get().unwrap_or_default().into_iter().map(|(token, p)| view! {
                        <li><span class="next-token" translate="no">{format!("“{token}”")}</span>
                            <span class="next-bar" style:width=format!("{}%", fixed(p * 100.0, 1))></span>
                            <span class="next-p">{format!("{}%", fixed(p * 100.0, 1))}</span></li>
                    }).collect_view()}
                </ol>
            </div>
            <div class="model-continue">
                <button type="button" on:click=start disabled=move || shared.continuing.get() || shared.reading.with(Option::is_none)>
                    "Continue the story"</button>
                <button type="button" on:click=stop disabled=move || !shared.continuing.get()>"Stop"</button>
                <p class="model-continuation" aria-live="polite">
                    <span class="continuation-given" translate="no">{move || text.get()}</span>
                    <output class="continuation-new" translate="no" data-testid="model-continuation" data-tokens=move || shared.continued.get().to_string()
                        data-value=move || shared.continuation.get()>{move || shared.continuation.get()}</output>
                </p>
            </div>
        </div>
    }
}
