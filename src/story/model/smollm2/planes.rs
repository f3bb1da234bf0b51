//! The selected head's 32 planes (wavelength against the trained context, share of |q|·|k|,
//! the rotated q and k as clocks), planes switched off, and every position shifted.

use super::super::look::chip_text;
use super::super::look::fmt_offset;
use super::client::{Client, HeadData};
use crate::charts::format::fixed;
use crate::lab::use_lab;
use crate::state::{fmt_f64, planes_mask, Change, MAX_MODEL_OFFSET};
use crate::ui::check::Check;
use crate::ui::export::ExportButtons;
use crate::ui::readout::Readout;
use leptos::prelude::*;
use std::sync::Arc;

/// The clock of one plane: q's and k's 2D parts as hands, lengths relative to `longest`.
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
pub(super) fn PlanesPanel(query: RwSignal<Option<usize>>, key: RwSignal<Option<usize>>) -> impl IntoView {
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
                hint=move || format!("wavelength at most {} tokens", crate::charts::format::whole_number(context() as i64)) />
        </div>
        // The model's tokens stay as they are (it reads English); the words around them are the page's.
        <p class="explain" data-testid="smollm2-pair">
            {move || format!("query: token {}", pair().0)}" "<span translate="no">{move || format!("“{}”", piece(pair().0))}</span>", "
            {move || format!("key: token {}", pair().1)}" "<span translate="no">{move || format!("“{}”", piece(pair().1))}</span></p>
        <div class="model-table-scroll">
        <table class="smollm2-planes" data-testid="model-plane-share" data-value=share_json>
            <thead><tr><th scope="col">"plane"</th><th scope="col">"wavelength (tokens)"</th><th scope="col">"turns within the context"</th>
                <th scope="col">"share of |q|·|k|"</th><th scope="col">"q and k"</th></tr></thead>
            <tbody>
                {move || {
                    let waves = wavelengths();
                    let h = head.get();
                    let (q, k) = pair();
                    (0..planes()).map(|p| {
                        let wave = waves.get(p).copied().unwrap_or(f64::INFINITY);
                        let turns = context() as f64 / wave;
                        let share = h.as_ref().and_then(|h| h.share.get(p).copied()).unwrap_or(0.0) as f64;
                        // Each plane's clock scaled to its own longer hand: the angles are the point
                        // here, the lengths are in the share column.
                        let hands = h.as_ref().map(|h| {
                            let (qv, _) = vectors(h, q, p);
                            let (_, kv) = vectors(h, k, p);
                            clock(qv, kv, qv.0.hypot(qv.1).max(kv.0.hypot(kv.1)))
                        });
                        view! {
                            <tr class:smollm2-still=turns < 1.0>
                                <th scope="row">{p}</th>
                                <td>{if wave < 100.0 { fixed(wave, 1) } else { crate::charts::format::whole_number(wave.round() as i64) }}</td>
                                <td>{if turns >= 10.0 { fixed(turns, 0) } else { fixed(turns, 2) }}</td>
                                <td><span class="why-bar share" style=("--share", fixed(share * 4.0, 3))></span>{format!("{}%", fixed(share * 100.0, 1))}</td>
                                <td>{hands}</td>
                            </tr>
                        }
                    }).collect_view()
                }}
            </tbody>
        </table></div>
        <ExportButtons name="smollm2-planes" figure=".smollm2-planes"
            caption=Callback::new(move |()| {
                let ((l, h), (q, k)) = (selected.get_untracked(), pair());
                format!("The planes of SmolLM2-135M's layer {l}, head {h}: wavelength, turns within {} tokens, share of |q|·|k|, q at token {q} and k at token {k}", crate::charts::format::whole_number(context() as i64))
            }) />

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
        <Show when=move || client.groups.with(|g| crate::quiz::smollm2::groups(g, planes()).is_some())>
            <Check name="smollm2-groups" look="the table of losses with each group of planes off"
                ask=Arc::new(move || client.groups.with(|g| crate::quiz::smollm2::groups(g, planes()).unwrap_or_default())) />
        </Show>

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
