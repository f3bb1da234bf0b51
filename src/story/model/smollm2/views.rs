//! What SmolLM2's reading shows: the text and its tokens, the 270 heads (previous token or
//! first token), a head's attention, its 32 planes (wavelength against the trained context,
//! share of |q|·|k|, the real rotated q and k as clock hands), planes switched off, and every
//! position shifted. Every number comes from the worker ([`super::client`]).

use super::super::heads::{css, ink_on, shade};
use super::super::planes::fmt_offset;
use super::super::text::chip_text;
use super::client::{Client, HeadData, MAX_TOKENS};
use crate::charts::format::fixed;
use crate::dom::canvas::{context_2d, pointer_offset};
use crate::dom::indexed::indexed;
use crate::lab::{use_dark_mode, use_lab};
use crate::state::{fmt_f64, planes_mask, Change, MAX_MODEL_OFFSET, MAX_MODEL_TEXT};
use crate::ui::readout::Readout;
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::Clamped;

/// Losses at or above this many nats fill a token's bar.
const FULL_BAR: f64 = 10.0;
/// Tokens "Continue" writes.
const CONTINUE_TOKENS: usize = 40;

/// JSON of a layers × heads grid.
fn grid_json(values: &[f32], heads: usize) -> String {
    let rows: Vec<String> = values
        .chunks(heads.max(1))
        .map(|row| format!("[{}]", row.iter().map(|v| fmt_f64(*v as f64)).collect::<Vec<_>>().join(",")))
        .collect();
    format!("[{}]", rows.join(","))
}

#[component]
pub(super) fn Views() -> impl IntoView {
    let lab = use_lab();
    let client = expect_context::<Client>();
    let inputs = lab.select(|s| (super::text_of(s), s.planes_off, s.offset));
    let selected = lab.select(|s| (s.layer as usize, s.head as usize));
    // The query and key the planes' clocks show (None: the last token, and the one before it).
    let query = RwSignal::new(None::<usize>);
    let key = RwSignal::new(None::<usize>);
    // The head last asked for, so that it is asked once per change.
    let asked = StoredValue::new(None::<(usize, usize)>);
    Effect::new(move |_| {
        let (text, off, offset) = inputs.get();
        let (l, h) = selected.get_untracked();
        asked.set_value(Some((l, h)));
        query.set(None);
        key.set(None);
        client.read(&text, off, offset, l, h);
    });
    Effect::new(move |_| {
        let sel = selected.get();
        let have = client.reading.with(Option::is_some);
        if have && asked.get_value() != Some(sel) {
            asked.set_value(Some(sel));
            client.pick_head(sel.0, sel.1);
        }
    });
    view! {
        <TextPanel query key />
        <HeadsPanel query key />
        <PlanesPanel query key />
    }
}

#[component]
fn TextPanel(query: RwSignal<Option<usize>>, key: RwSignal<Option<usize>>) -> impl IntoView {
    let lab = use_lab();
    let client = expect_context::<Client>();
    let text = lab.select(super::text_of);
    let count = Signal::derive(move || client.reading.with(|r| r.as_ref().map(|_| client.pieces.with(Vec::len) as f64)));
    let loss = Signal::derive(move || client.reading.with(|r| r.as_ref().map(|r| r.loss)));
    let top = move || client.reading.with(|r| r.as_ref().and_then(|r| r.next.first().map(|(t, _)| t.clone())));
    let chip = move |t: usize| {
        let piece = client.pieces.with(|p| p.get(t).cloned()).unwrap_or_default();
        let loss = client.reading.with(|r| r.as_ref().and_then(|r| r.losses.get(t).copied())).unwrap_or(0.0) as f64;
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

/// Which attention the grid colours heads by.
#[derive(Clone, Copy, PartialEq)]
enum Look {
    Previous,
    First,
}

#[component]
fn HeadsPanel(query: RwSignal<Option<usize>>, key: RwSignal<Option<usize>>) -> impl IntoView {
    let lab = use_lab();
    let client = expect_context::<Client>();
    let dark = use_dark_mode();
    let look = RwSignal::new(Look::Previous);
    let selected = lab.select(|s| (s.layer as usize, s.head as usize));
    let shape = move || client.shape.get().map_or((30, 9), |s| (s.layers, s.heads));
    let value = move |l: usize, h: usize, look: Look| {
        client.reading.with(|r| {
            r.as_ref().and_then(|r| (if look == Look::Previous { &r.prev } else { &r.first }).get(l * shape().1 + h).map(|&v| v as f64))
        })
    };
    let json = move |look: Look| {
        client.reading.with(|r| r.as_ref().map(|r| grid_json(if look == Look::Previous { &r.prev } else { &r.first }, shape().1)))
    };
    let head_value = move |look: Look| {
        Signal::derive(move || {
            let (l, h) = selected.get();
            value(l, h, look)
        })
    };
    let pick = move |l: usize, h: usize| {
        lab.edit(|s| {
            let mut notices = s.apply(Change::Layer(l as i64));
            notices.extend(s.apply(Change::Head(h as i64)));
            notices
        });
    };
    let canvas = NodeRef::<Canvas>::new();
    Effect::new(move |_| {
        let dark = dark.get();
        let Some(element) = canvas.get() else { return };
        client.head.with(|head| {
            let Some(head) = head.as_ref() else { return };
            let t = (((8 * head.map.len() + 1) as f64).sqrt() as usize).saturating_sub(1) / 2;
            let mut rgba = vec![0u8; t * t * 4];
            let mut at_row = 0;
            for q in 0..t {
                for k in 0..t {
                    let w = if k <= q { head.map.get(at_row + k).copied().unwrap_or(0.0) as f64 } else { 0.0 };
                    let (r, g, b) = shade(w, dark);
                    rgba[(q * t + k) * 4..][..4].copy_from_slice(&[r, g, b, if k <= q { 255 } else { 60 }]);
                }
                at_row += q + 1;
            }
            element.set_width(t as u32);
            element.set_height(t as u32);
            if let (Some(context), Ok(image)) =
                (context_2d(&element), web_sys::ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), t as u32, t as u32))
            {
                let _ = context.put_image_data(&image, 0.0, 0.0);
            }
        });
    });
    let click_map = move |ev: leptos::ev::MouseEvent| {
        let Some(element) = canvas.get_untracked() else { return };
        let len = client.pieces.with_untracked(Vec::len);
        let (x, y) = pointer_offset(&ev);
        let (w, h) = (element.client_width().max(1) as f64, element.client_height().max(1) as f64);
        let (q, k) = (((y / h) * len as f64) as usize, ((x / w) * len as f64) as usize);
        if q < len && k <= q {
            query.set(Some(q));
            key.set(Some(k));
        }
    };
    view! {
        <h3 class="model-heading">"270 heads: which look back, which rest on the first token?"</h3>
        <p class="explain">"Each square is one of the model's heads (30 layers of 9), with the percentage of attention its \
            queries give, on average, to the token just before them, or to the very first token. Heads that look back at \
            the previous token need position: the word before is found by where it is. Heads that put most of their \
            attention on the first token whatever it says are attention sinks (Xiao et al. 2023): a place to put \
            attention that has nowhere better to go. Pick a head."</p>
        <div class="model-look" role="radiogroup" aria-label="colour the heads by">
            <label><input type="radio" name="smollm2-look" prop:checked=move || look.get() == Look::Previous on:change=move |_| look.set(Look::Previous) />
                " attention to the previous token"</label>
            <label><input type="radio" name="smollm2-look" prop:checked=move || look.get() == Look::First on:change=move |_| look.set(Look::First) />
                " attention to the first token (sinks)"</label>
        </div>
        <span hidden data-testid="model-heads-prev" data-value=move || json(Look::Previous)></span>
        <span hidden data-testid="model-heads-first" data-value=move || json(Look::First)></span>
        <div class="model-heads smollm2-heads" role="group" aria-label="the 270 heads">
            {move || { let (layers, heads) = shape(); (0..layers).map(|l| view! {
                <div class="model-heads-row">
                    <span class="model-heads-layer">{format!("layer {l}")}</span>
                    {(0..heads).map(|h| {
                        let v = move || value(l, h, look.get());
                        view! {
                            <button type="button" class="model-head" class:selected=move || selected.get() == (l, h)
                                aria-pressed=move || (selected.get() == (l, h)).to_string()
                                aria-label=move || format!("layer {l}, head {h}: {}%", fixed(v().unwrap_or(0.0) * 100.0, 0))
                                style:background-color=move || css(shade(v().unwrap_or(0.0), dark.get()))
                                style:color=move || css(ink_on(shade(v().unwrap_or(0.0), dark.get())))
                                on:click=move |_| pick(l, h)>
                                {move || v().map(|v| fixed(v * 100.0, 0)).unwrap_or_default()}
                            </button>
                        }
                    }).collect_view()}
                </div>
            }).collect_view() }}
        </div>
        <div class="readouts">
            <Readout testid="model-head-prev" label="selected head: mean attention to the previous token" value=head_value(Look::Previous)
                hint=move || { let (l, h) = selected.get(); format!("layer {l}, head {h}; over queries 1 to T − 1") } />
            <Readout testid="model-head-first" label="selected head: mean attention to the first token" value=head_value(Look::First)
                hint="over queries 1 to T − 1" />
        </div>
        <figure class="model-map smollm2-map">
            <canvas class="model-attention" node_ref=canvas role="img" on:click=click_map
                aria-label=move || { let (l, h) = selected.get(); format!("Attention of layer {l}, head {h}: a row per query token, a column per key token") }></canvas>
            <figcaption>"A row per query (position down), a column per key (position across), the stronger the colour the \
                more attention; above the diagonal the causal mask hides the future. Click a cell to pick that query and key."</figcaption>
        </figure>
    }
}

/// The planes' clock for one plane: q's and k's 2D parts as hands, lengths relative to the
/// longest of the head's at these two positions.
fn clock(q: (f64, f64), k: (f64, f64), longest: f64) -> impl IntoView {
    let hand = |(x, y): (f64, f64)| {
        let scale = if longest > 0.0 { 15.0 / longest } else { 0.0 };
        (fixed(18.0 + x * scale, 1), fixed(18.0 - y * scale, 1))
    };
    let (qx, qy) = hand(q);
    let (kx, ky) = hand(k);
    view! {
        <svg class="smollm2-clock" viewBox="0 0 36 36" aria-hidden="true">
            <circle class="dial-face" cx="18" cy="18" r="16" />
            <line class="dial-k" x1="18" y1="18" x2=kx y2=ky />
            <line class="dial-q" x1="18" y1="18" x2=qx y2=qy />
        </svg>
    }
}

#[component]
fn PlanesPanel(query: RwSignal<Option<usize>>, key: RwSignal<Option<usize>>) -> impl IntoView {
    let lab = use_lab();
    let client = expect_context::<Client>();
    let selected = lab.select(|s| (s.layer as usize, s.head as usize));
    let off = lab.select(|s| s.planes_off);
    let offset = lab.select(|s| s.offset);
    let planes = move || client.shape.get().map_or(32, |s| s.planes);
    let context = move || client.shape.get().map_or(8192, |s| s.context);
    let inv_freq = Memo::new(move |_| {
        client.shape.get().map(|s| crate::rope::default_inv_freq(s.base.ln(), 2 * s.planes, s.planes)).unwrap_or_default()
    });
    let wavelengths = move || inv_freq.get().iter().map(|&t| crate::rope::wavelength(t).unwrap_or(f64::INFINITY)).collect::<Vec<_>>();
    let turning =
        Signal::derive(move || client.shape.get().map(|_| wavelengths().iter().filter(|&&w| w <= context() as f64).count() as f64));
    // The selected head's details, when they are the selected head's.
    let head = Memo::new(move |_| client.head.get().filter(|h| (h.layer, h.head) == selected.get()));
    let share_json = move || head.get().map(|h| format!("[{}]", h.share.iter().map(|v| fmt_f64(*v as f64)).collect::<Vec<_>>().join(",")));
    let len = move || client.pieces.with(Vec::len);
    let pair = move || {
        let n = len();
        let q = query.get().unwrap_or(n.saturating_sub(1)).min(n.saturating_sub(1));
        (q, key.get().filter(|&k| k <= q).unwrap_or(q.saturating_sub(1)))
    };
    let vectors = move |h: &HeadData, t: usize, p: usize| {
        let hd = 2 * planes();
        let at =
            |v: &[f32]| (v.get(t * hd + 2 * p).copied().unwrap_or(0.0) as f64, v.get(t * hd + 2 * p + 1).copied().unwrap_or(0.0) as f64);
        (at(&h.q), at(&h.k))
    };
    let groups_value = move || {
        client.groups.with(|g| {
            let losses: Option<Vec<f64>> = g.iter().skip(1).copied().collect();
            losses.filter(|l| l.len() == planes().div_ceil(8)).map(|l| l.iter().map(|v| fmt_f64(*v)).collect::<Vec<_>>().join(","))
        })
    };
    let set_off = move |planes: std::ops::Range<usize>| lab.apply(Change::PlanesOff(planes.map(|p| p as f64).collect()));
    let piece = move |t: usize| client.pieces.with(|p| p.get(t).map(|s| chip_text(s))).unwrap_or_default();
    view! {
        <h3 class="model-heading">"The 32 planes of a head"</h3>
        <p class="explain">"Plane i turns by θᵢ = 100,000^(−i/32) radians per token: plane 0 once every 6.3 tokens, plane 31 \
            once every 438,000. Within the 8,192 tokens it was trained on, only the planes whose wavelength fits turn at \
            least once; the others never came full circle in training (Liu et al. 2023 call the first of them the critical \
            dimension). The share is where the selected head's q and k are long: each plane's mean |q| times mean |k| over \
            the text. The clocks show the real rotated q (blue) and k (orange) of each plane at the query and key chosen \
            (click a token or a cell of the map)."</p>
        <div class="readouts">
            <Readout testid="model-turning-planes" label="planes that turn at least once within the trained context" value=turning integer=true
                hint=move || format!("wavelength at most {} tokens", context()) />
        </div>
        <p class="explain" data-testid="smollm2-pair">{move || { let (q, k) = pair(); format!("query: token {q} “{}”, key: token {k} “{}”", piece(q), piece(k)) }}</p>
        <div class="model-table-scroll">
        <table class="smollm2-planes" data-testid="model-plane-share" data-value=share_json>
            <thead><tr><th scope="col">"plane"</th><th scope="col">"wavelength (tokens)"</th><th scope="col">"turns within the context"</th>
                <th scope="col">"share of |q|·|k|"</th><th scope="col">"q and k"</th></tr></thead>
            <tbody>
                {move || {
                    let waves = wavelengths();
                    let h = head.get();
                    let (q, k) = pair();
                    let longest = h.as_ref().map_or(0.0, |h| (0..planes()).map(|p| { let (a, b) = vectors(h, q, p); let (c, d) = vectors(h, k, p); a.0.hypot(a.1).max(b.0.hypot(b.1)).max(c.0.hypot(c.1)).max(d.0.hypot(d.1)) }).fold(0.0, f64::max));
                    (0..planes()).map(|p| {
                        let wave = waves.get(p).copied().unwrap_or(f64::INFINITY);
                        let turns = context() as f64 / wave;
                        let share = h.as_ref().and_then(|h| h.share.get(p).copied()).unwrap_or(0.0) as f64;
                        let hands = h.as_ref().map(|h| { let (qv, _) = vectors(h, q, p); let (_, kv) = vectors(h, k, p); clock(qv, kv, longest) });
                        view! {
                            <tr class:smollm2-still=turns < 1.0>
                                <th scope="row">{p}</th>
                                <td>{if wave < 100.0 { fixed(wave, 1) } else { fixed(wave, 0) }}</td>
                                <td>{if turns >= 10.0 { fixed(turns, 0) } else { fixed(turns, 2) }}</td>
                                <td><span class="why-bar share" style=("--share", fixed(share * 4.0, 3))></span>{format!("{}%", fixed(share * 100.0, 1))}</td>
                                <td>{hands}</td>
                            </tr>
                        }
                    }).collect_view()
                }}
            </tbody>
        </table></div>

        <h3 class="model-heading">"Switch planes off"</h3>
        <p class="explain">"A plane switched off is left unrotated in q and k, in every layer and head. Switch off the fastest \
            planes and the heads that look back lose their way; switch off the slowest half and almost nothing changes: \
            p-RoPE (Barbero et al. 2024) keeps only the faster planes rotating for this reason."</p>
        <div class="smollm2-ranges">
            <button type="button" class="button-small" on:click=move |_| set_off(0..0)>"every plane on"</button>
            <button type="button" class="button-small" on:click=move |_| set_off(0..4)>"fastest 4 off"</button>
            <button type="button" class="button-small" on:click=move |_| set_off(0..8)>"fastest 8 off"</button>
            <button type="button" class="button-small" on:click=move |_| set_off(16..32)>"slowest 16 off"</button>
            <button type="button" class="button-small" on:click=move |_| set_off(0..32)>"every plane off"</button>
        </div>
        <div class="smollm2-switches" role="group" aria-label="planes switched off">
            {move || (0..planes() as u8).map(|i| view! {
                <label class="model-switch">
                    <input type="checkbox" data-testid=format!("model-plane-{i}") prop:checked=move || off.get() & (1u64 << i) != 0
                        on:change=move |ev| lab.apply(Change::PlaneOff(i, event_target_checked(&ev))) />
                    {format!(" {i}")}
                </label>
            }).collect_view()}
        </div>
        <p class="explain">{move || { let n = (off.get() & planes_mask(planes() as u8)).count_ones(); format!("{n} of {} planes off.", planes()) }}</p>
        <table class="model-losses" data-testid="model-plane-off-loss" data-value=groups_value>
            <caption>"The loss of this text with each group of eight planes off (the other planes turning)"</caption>
            <thead><tr><th scope="col">"planes off"</th><th scope="col">"loss (nats per token)"</th><th scope="col">"change"</th></tr></thead>
            <tbody>
                {move || {
                    let g = client.groups.get();
                    let base = g.first().copied().flatten();
                    let two = |v: f64| fixed(v, 3);
                    let mut rows = vec![view! { <tr><th scope="row">"none (every plane turning)"</th><td>{base.map(two).unwrap_or_else(|| "…".into())}</td><td></td></tr> }.into_any()];
                    rows.extend((0..planes().div_ceil(8)).map(|i| {
                        let loss = g.get(i + 1).copied().flatten();
                        let change = loss.zip(base).map(|(l, b)| format!("{}{}", if l >= b { "+" } else { "−" }, fixed((l - b).abs(), 3)));
                        view! { <tr><th scope="row">{format!("{}–{}", 8 * i, (8 * i + 7).min(planes() - 1))}</th>
                            <td>{loss.map(two).unwrap_or_else(|| "…".into())}</td><td>{change.unwrap_or_default()}</td></tr> }.into_any()
                    }));
                    rows
                }}
            </tbody>
        </table>

        <h3 class="model-heading">"Shift every position"</h3>
        <p class="explain">"The offset starts the text at that position instead of 0. SmolLM2 never saw a position past 8,191, \
            yet its reading stays the same: only n − m reaches the scores, and every n − m stays what it was (and inside \
            what the model saw). What remains is f32 rounding."</p>
        <div class="chapter-controls">
            <label class="control-label" for="smollm2-offset">"offset"</label>
            <input id="smollm2-offset" type="number" min="0" max=MAX_MODEL_OFFSET.to_string() step="1" data-testid="smollm2-offset"
                prop:value=move || offset.get().to_string()
                on:change=move |ev| {
                    if let Ok(v) = event_target_value(&ev).trim().parse::<f64>() {
                        lab.apply(Change::Offset(v as i64));
                    }
                } />
            {[0u64, 1_000, 100_000, 1_000_000].into_iter().map(|v| view! {
                <button type="button" class="button-small model-jump" on:click=move |_| lab.apply(Change::Offset(v as i64))>{fmt_offset(v)}</button>
            }).collect_view()}
        </div>
        <div class="readouts">
            <Readout testid="model-offset-drift" label="largest change of a loss or a head's mean against offset 0"
                value=Signal::derive(move || if offset.get() == 0 { client.reading.with(|r| r.as_ref().map(|_| 0.0)) } else { client.drift.get() })
                hint="f32 rounding: the angles are exact, the products are rounded" />
        </div>
        <p class="explain">"Sources: SmolLM2 (Allal et al. 2025); Barbero et al. 2024, Round and Round We Go! What makes \
            Rotary Positional Encodings useful?; Liu et al. 2023, Scaling Laws of RoPE-based Extrapolation; Xiao et al. \
            2023, Efficient Streaming Language Models with Attention Sinks. The file: the GGUF Q4_1 copy (llama.cpp's \
            format), whose q and k rows the converter permuted so that plane i is dimensions (2i, 2i + 1): the layouts \
            chapter's interleaved layout, though Hugging Face's checkpoint pairs i with i + 32."</p>
    }
}
