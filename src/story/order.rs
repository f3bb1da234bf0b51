//! Chapter 1 (`data-widget="order"`): attention cannot see order. A tiny single-head
//! self-attention over "the dog chased another dog", every number printed: without positions
//! the two "dog"s get the same output to the last bit, and shuffling the words only shuffles
//! the outputs. The example is Fleetwood's (Hugging Face, 2024). A causal mask (a switch of
//! the chapter's own) already tells the two apart: each sees a different prefix.

use crate::charts::format::{fixed, short_number};
use crate::lab::use_lab;
use crate::rope::{order_report, shuffle, Mask, PositionMode, TinyAttention, DOGS, MODEL_DIM, SENTENCE};
use crate::state::{fmt_list, joined, Change};
use crate::ui::card::WidgetCard;
use crate::ui::controls::SelectControl;
use crate::ui::formulas::{self, Formula};
use crate::ui::readout::Readout;
use leptos::prelude::*;

/// The chapter's id (`embed=order`, `data-widget`): never changes meaning once published.
pub const ID: &str = "order";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "Attention cannot see order";

/// A vector's entries, short.
fn entries(v: &[f64]) -> String {
    joined(&mut v.iter().map(|x| short_number(*x)), "  ")
}

#[component]
pub fn OrderWidget() -> impl IntoView {
    let lab = use_lab();
    let mode = lab.select(|s| s.positions);
    // Base only matters with positions in the sentence: without them a step of base leaves
    // this chapter's attention (two passes of the tiny model) alone. (Without positions the
    // base is never read, so any stands in for it.)
    let base = lab.select(|s| if s.positions == PositionMode::None { 10_000.0 } else { s.base });
    let query = RwSignal::new(DOGS.1);
    let draw = RwSignal::new(0_u64);
    // The chapter's own switch, not in the URL: each query sees only itself and the keys before it.
    let causal = RwSignal::new(false);
    let model = StoredValue::new(TinyAttention::default());
    let report = Memo::new(move |_| {
        let permutation = shuffle(draw.get());
        model.with_value(|model| {
            order_report(model, mode.get(), if causal.get() { Mask::Causal } else { Mask::None }, base.get(), &permutation)
        })
    });
    // The keys the mask hides from the query picked.
    let masked = move |j: usize| causal.get() && j > query.get();
    let row = Memo::new(move |_| report.with(|r| r.pass.weights.get(query.get()).cloned().unwrap_or_default()));
    let options = PositionMode::ALL.iter().map(|m| (m.as_str(), m.label())).collect::<Vec<_>>();
    let note = Signal::derive(move || match mode.get() {
        PositionMode::None => "x = the word's vector: where a word stands is not in any input.",
        PositionMode::Sinusoidal => "x = word vector + PE(position), before W_q, W_k and W_v (Vaswani et al. 2017).",
        PositionMode::Rope => {
            "q and k turned by an angle that grows with the position (θᵢ, next chapter) after W_q and W_k; v as it was (RoPE)."
        }
    });

    view! {
        <WidgetCard id=ID title=TITLE explain="Self-attention scores each pair of tokens by the dot product q·k, turns a row of \
            scores into weights with softmax, and mixes the values v with those weights. Each of q, k and v is \
            computed from one token's vector alone (x·W_q, x·W_k, x·W_v), so nothing in this computation knows \
            where a token stands. Below: one head, d = 8, fixed random token vectors and weights.">
            <div class="chapter-controls">
                <SelectControl lab id="positions-select" label="positions" options
                    value=Signal::derive(move || mode.get().as_str())
                    on_pick=|name| PositionMode::parse(name).map(Change::Positions) note />
                <label class="toolbar-field">
                    <input type="checkbox" on:change=move |ev| causal.set(event_target_checked(&ev)) />
                    " causal mask (each word sees only itself and the words before it)"
                </label>
            </div>
            <Formula math=formulas::ATTENTION />
            <p class="explain">"Pick the query token: its row of attention weights, softmax(q·k/√8) over every token it \
                may see (under the mask, itself and the tokens before it; the others get 0)."</p>
            <div class="word-buttons" role="group" aria-label="query token">
                {SENTENCE.iter().enumerate().map(|(i, word)| view! {
                    <button type="button" class="word-button" class:dog=DOGS.0 == i || DOGS.1 == i
                        aria-pressed=move || (query.get() == i).to_string()
                        on:click=move |_| query.set(i)>
                        <span class="token-word">{*word}</span>
                        <span class="token-index">{i}</span>
                    </button>
                }).collect_view()}
            </div>
            <div class="weight-bars" role="img"
                aria-label=move || format!("Attention weights of “{}” (token {}): {}", SENTENCE[query.get()], query.get(),
                    row.with(|r| joined(&mut r.iter().zip(SENTENCE).map(|(w, t)| format!("{t} {}", short_number(*w))), ", ")))>
                {SENTENCE.iter().enumerate().map(|(j, word)| view! {
                    <div class="weight-row" data-masked=move || masked(j).to_string()>
                        <span class="weight-token">{format!("{word} {j}")}</span>
                        <span class="weight-bar"><span class="weight-fill"
                            style:width=move || fixed(row.with(|r| r.get(j).copied().unwrap_or(0.0)) * 100.0, 1) + "%"></span></span>
                        <span class="weight-value">{move || row.with(|r| r.get(j).map_or_else(String::new, |w| fixed(*w, 4)))}</span>
                    </div>
                }).collect_view()}
            </div>
            <output class="visually-hidden" data-testid="attention-weights" data-value=move || row.with(|r| fmt_list(r))></output>
            <div class="table-scroll" tabindex="0" role="region" aria-label="attention outputs">
                <table class="outputs-table">
                    <caption>{format!("Outputs: Σⱼ weightⱼ·vⱼ, one row of {MODEL_DIM} numbers per token")}</caption>
                    <thead><tr><th scope="col">"token"</th><th scope="col">"output"</th></tr></thead>
                    <tbody>
                        {SENTENCE.iter().enumerate().map(|(i, word)| view! {
                            <tr class:dog=DOGS.0 == i || DOGS.1 == i>
                                <th scope="row">{format!("{word} {i}")}</th>
                                <td class="mono">{move || report.with(|r| entries(&r.pass.outputs[i]))}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <div class="readouts">
                <Readout testid="dog-output-gap" label="|output(dog 1) − output(dog 4)|"
                    value=Signal::derive(move || Some(report.with(|r| r.dog_gap)))
                    hint=move || if report.with(|r| r.dog_gap == 0.0) {
                        "exactly 0: the same inputs, the same arithmetic, bit for bit".to_string()
                    } else if mode.get() == PositionMode::None {
                        "not 0: the mask shows each dog a different prefix".to_string()
                    } else {
                        "not 0: each dog now carries where it stands".to_string()
                    } />
                <Readout testid="permutation-gap" label="shuffle the words: |outputs − shuffled outputs|"
                    value=Signal::derive(move || Some(report.with(|r| r.permutation_gap)))
                    hint=move || if report.with(|r| r.permutation_gap < 1e-12) {
                        "0 up to rounding: shuffling the words only shuffles the outputs".to_string()
                    } else {
                        "the outputs change, not just their order".to_string()
                    } />
            </div>
            <p class="explain">
                "Shuffled: “" {move || report.with(|r| joined(&mut r.shuffled_words.iter().map(|w| w.to_string()), " "))} "” "
                <button type="button" class="button-small" on:click=move |_| draw.update(|d| *d += 1)>"Shuffle again"</button>
            </p>
            <p class="explain">
                "Without positions and without a mask, attention reads a bag of words: “the dog chased another dog” "
                "and any shuffle of it give the same set of outputs. The decoders that use RoPE add a causal mask, "
                "and that alone makes the two dogs differ, since each sees a different prefix; Haviv et al. (2022) "
                "found that such models, trained with no positions at all, are still competitive and carry an implicit "
                "notion of absolute position; they conjecture that the mask lets a token infer how many tokens precede it. "
                "In this layer no score q·k depends on how far the key is from the query, and the words before a "
                "token can be shuffled without changing its output. The fix is to make position part of what "
                "attention sees, either by adding a code for it to x or, as RoPE does, by turning q and k. The "
                "next chapters build that code."
            </p>
            <p class="credit">"The two dogs are Christopher Fleetwood's example (Hugging Face, 2024; see the references)."</p>
        </WidgetCard>
    }
}
