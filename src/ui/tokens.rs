//! A sentence as a strip of tokens, with the query position m and the key position n marking
//! two of them. "Dog attacks the Cat" and "Once upon a time, a Dog attacks the Cat" hold the
//! same two words at positions 6 apart: the score between them is the same in both.

use crate::dom::size::{use_in_view, while_in_view};
use crate::lab::use_lab;
use crate::state::Change;
use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

const LONG: [&str; 10] = ["Once", "upon", "a", "time", ",", "a", "Dog", "attacks", "the", "Cat"];
/// How many tokens "Once upon a time, a" puts before "Dog".
const PREFIX: i64 = 6;

/// Which marker a click or drag moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marker {
    Query,
    Key,
}

/// The token strip with draggable m (query, blue) and n (key, vermillion) markers.
#[component]
pub fn TokenStrip() -> impl IntoView {
    let lab = use_lab();
    let positions = lab.select(|s| (s.m, s.n));
    // The short sentence starts at "Dog".
    let long = RwSignal::new(true);
    let tokens = move || if long.get() { &LONG[..] } else { &LONG[PREFIX as usize..] };
    let moving = RwSignal::new(Marker::Query);
    let dragging = RwSignal::new(None::<Marker>);

    let place = move |marker: Marker, index: i64| {
        lab.apply(if marker == Marker::Query { Change::M(index) } else { Change::N(index) });
    };
    // The short sentence drops the 6 tokens of "Once upon a time, a": both markers move by 6
    // and stay on their words, so the score stays. That needs both on "Dog attacks the Cat"
    // (or beyond it); the button says so otherwise, rather than moving one and not the other.
    let can_shorten = move || positions.with(|(m, n)| *m >= PREFIX && *n >= PREFIX);
    let switch_sentence = move |to_long: bool| {
        if to_long == long.get_untracked() {
            return;
        }
        let by = if to_long { PREFIX } else { -PREFIX };
        if lab.shift(by, true) {
            long.set(to_long);
        }
    };
    // Dragging follows the pointer across tokens, for mouse and touch alike (a touch pointer
    // stays captured by the token it started on, so look up what lies under it).
    let on_move = move |ev: ev::PointerEvent| {
        let Some(marker) = dragging.get_untracked() else { return };
        let index = document()
            .element_from_point(ev.client_x() as f32, ev.client_y() as f32)
            .and_then(|el| el.closest("[data-token]").ok().flatten())
            .and_then(|el| el.get_attribute("data-token"))
            .and_then(|i| i.parse::<i64>().ok());
        if let Some(index) = index {
            let current = positions.get_untracked();
            let at = if marker == Marker::Query { current.0 } else { current.1 };
            if at != index {
                place(marker, index);
            }
        }
    };

    // The note follows m and n only near the screen (it sits just below the heatmap, where
    // changing text would cost every step layout and paint).
    let note = NodeRef::<leptos::html::P>::new();
    let note_text = while_in_view(use_in_view(note), move || {
        let (m, n) = positions.get();
        let shown = tokens().len() as i64;
        let beyond: Vec<String> =
            [("m", m), ("n", n)].into_iter().filter(|(_, p)| *p >= shown).map(|(name, p)| format!("{name} = {p}")).collect();
        if long.get() && !can_shorten() {
            "Drag q or k along the sentence, or click a token. Put both on “Dog attacks the Cat” to drop \
             the first 6 tokens: both move by 6 and the score stays."
                .to_string()
        } else if beyond.is_empty() {
            "Drag q or k along the sentence, or click a token. Switching sentences moves both by 6: the score stays.".to_string()
        } else {
            let (verb, them) = if beyond.len() > 1 { ("lie", "them") } else { ("lies", "it") };
            format!("{} {verb} beyond this sentence; the clocks still show {them}.", beyond.join(" and "))
        }
    });
    view! {
        <div class="token-strip-box">
            <div class="sentence-choice" role="group" aria-label="sentence">
                <button type="button" aria-pressed=move || (!long.get()).to_string()
                    disabled=move || long.get() && !can_shorten()
                    aria-describedby="sentence-note" translate="no"
                    on:click=move |_| switch_sentence(false)>
                    "“Dog attacks the Cat”"
                </button>
                <button type="button" aria-pressed=move || long.get().to_string() translate="no"
                    on:click=move |_| switch_sentence(true)>
                    "“Once upon a time, a Dog attacks the Cat”"
                </button>
            </div>
            <div class="marker-choice" role="radiogroup" aria-label="a click on a token moves">
                <label class="q-text">
                    <input type="radio" name="token-marker" prop:checked=move || moving.get() == Marker::Query
                        on:change=move |_| moving.set(Marker::Query) />
                    " query m"
                </label>
                <label class="k-text">
                    <input type="radio" name="token-marker" prop:checked=move || moving.get() == Marker::Key
                        on:change=move |_| moving.set(Marker::Key) />
                    " key n"
                </label>
            </div>
            <ol
                class="token-strip"
                aria-label="tokens; m and n mark the query and the key"
                on:pointermove=on_move
                on:pointerup=move |_| dragging.set(None)
                on:pointercancel=move |_| dragging.set(None)
                on:pointerleave=move |_| dragging.set(None)
            >
                {move || {
                    tokens()
                        .iter()
                        .enumerate()
                        .map(|(index, word)| {
                            let index = index as i64;
                            let is_m = move || positions.get().0 == index;
                            let is_n = move || positions.get().1 == index;
                            view! {
                                <li>
                                    <button
                                        type="button"
                                        class="token"
                                        class:is-m=is_m
                                        class:is-n=is_n
                                        data-token=index
                                        on:pointerdown=move |ev: ev::PointerEvent| {
                                            let grab = if is_m() { Some(Marker::Query) } else if is_n() { Some(Marker::Key) } else { None };
                                            if let Some(marker) = grab {
                                                dragging.set(Some(marker));
                                                if let Some(target) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                                                    let _ = target.release_pointer_capture(ev.pointer_id());
                                                }
                                            }
                                        }
                                        on:click=move |_| place(moving.get_untracked(), index)
                                    >
                                        // The name comes from what is shown, plus words for what the
                                        // badges mean: "Dog, position 6, key n".
                                        // The sentence is an example in English, in every language.
                                        <span class="token-word" translate="no">{*word}</span>
                                        <span class="visually-hidden">", position "</span>
                                        <span class="token-index">{index}</span>
                                        <span class="token-markers">
                                            {move || is_m().then(|| view! {
                                                <span class="marker marker-q" aria-hidden="true">"q"</span>
                                                <span class="visually-hidden">", query m"</span>
                                            })}
                                            {move || is_n().then(|| view! {
                                                <span class="marker marker-k" aria-hidden="true">"k"</span>
                                                <span class="visually-hidden">", key n"</span>
                                            })}
                                        </span>
                                    </button>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ol>
            <p class="token-note" id="sentence-note" node_ref=note>
                {move || note_text.get()}
            </p>
        </div>
    }
}
