//! The planes at work: a chosen query and key's four planes as clock hands with each plane's
//! part of the score; why the selected head looks where it does, plane by plane; switching a
//! plane off; shifting every position.

use super::look::fmt_offset;
use super::Shared;
use crate::charts::format::fixed;
use crate::dom::size::use_in_view;
use crate::lab::use_lab;
use crate::model::PlaneWhy;
use crate::state::{fmt_f64, Change, MAX_MODEL_OFFSET, MODEL_PLANES};
use crate::ui::check::{Check, Question};
use crate::ui::readout::Readout;
use crate::ui::slider::Slider;
use leptos::prelude::*;
use std::sync::Arc;

/// θᵢ = 10000^(−2i/8) and the wavelength 2π/θᵢ, for the switches' labels.
fn plane_label(i: usize) -> String {
    let theta = 10000f64.powf(-(2.0 * i as f64) / 8.0);
    let wavelength = std::f64::consts::TAU / theta;
    let wavelength = fixed(wavelength, if wavelength < 10.0 { 1 } else { 0 });
    let subscript = char::from_u32(0x2080 + i as u32).unwrap_or('ᵢ');
    format!("plane {i}: θ{subscript} = {} rad/token, wavelength {wavelength} tokens", fmt_f64(theta))
}

/// `v` with a sign always, as "+0.36" or "-0.70".
fn signed(v: f64, decimals: usize) -> String {
    if v >= 0.0 {
        format!("+{}", fixed(v, decimals))
    } else {
        fixed(v, decimals)
    }
}

/// A share as a whole percentage, "61%".
fn percent(share: f64) -> String {
    format!("{}%", fixed(share * 100.0, 0))
}

/// A bar's length as a share of its full length (`--share`, which the style sheet multiplies by
/// a length in rem): not a percentage of its cell, which the table would size without the bar
/// and then overflow with it. Set through the CSSOM, as a strict style-src allows.
fn bar_length(share: f64) -> String {
    fixed(share, 3)
}

fn two(v: f64) -> String {
    fixed(v, 3)
}

#[component]
pub(super) fn PlanesPanel() -> impl IntoView {
    let lab = use_lab();
    let shared = expect_context::<Shared>();
    let selected = lab.select(|s| (s.layer as usize, s.head as usize));
    let off = lab.select(|s| s.planes_off);
    let offset = lab.select(|s| s.offset);
    // The chosen query and key, and the key the head attends to most from that query.
    let pair = Memo::new(move |_| {
        let (l, h) = selected.get();
        let q = shared.query_at(l, h)?;
        let why = shared.reading.with(|r| r.as_ref().and_then(|r| r.why(l, h, q)));
        let k = shared.key.get().filter(|&k| k <= q).or(why.as_ref().map(|w| w.top_key)).unwrap_or(0);
        Some((q, k, why))
    });
    let dials = Memo::new(move |_| {
        let (q, k, _) = pair.get()?;
        let (l, h) = selected.get();
        shared.reading.with(|r| {
            let r = r.as_ref()?;
            let (qv, kv) = (r.q(l, h, q).to_vec(), r.k(l, h, k).to_vec());
            let parts = r.plane_parts(l, h, q, k);
            let longest = qv.chunks(2).chain(kv.chunks(2)).map(|p| (p[0] as f64).hypot(p[1] as f64)).fold(1e-12, f64::max);
            let planes = (0..parts.len())
                .map(|i| {
                    let hand = |v: &[f32]| {
                        let (x, y) = (v[2 * i] as f64, v[2 * i + 1] as f64);
                        (x / longest * 34.0, -y / longest * 34.0)
                    };
                    (hand(&qv), hand(&kv), parts[i])
                })
                .collect::<Vec<_>>();
            let piece = |t: usize| shared.model.with(|m| m.as_ref().map(|m| m.tokenizer.piece(r.tokens[t])).unwrap_or_default());
            Some((q, k, piece(q), piece(k), planes, r.attention(l, h, q, k)))
        })
    });
    // The head's mean over every query: computed near the screen, kept while away.
    let why_box = NodeRef::<leptos::html::Div>::new();
    let why_near = use_in_view(why_box);
    let mean = Memo::new(move |previous: Option<&Option<PlaneWhy>>| {
        if !why_near.get() {
            return previous.cloned().flatten();
        }
        let (l, h) = selected.get();
        shared.reading.with(|r| r.as_ref().and_then(|r| r.why_mean(l, h)))
    });
    let losses = move || shared.plane_losses.get();
    let losses_value = move || losses().map(|l| l[..MODEL_PLANES as usize].iter().map(|v| fmt_f64(*v)).collect::<Vec<_>>().join(","));
    let base_loss = move || shared.reading.with(|r| r.as_ref().map(|r| r.loss()));
    let ask = Arc::new(move || {
        let losses = shared.plane_losses.get().unwrap_or_default();
        let worst = (0..losses.len().min(4)).fold(0, |best, i| if losses[i] > losses[best] { i } else { best });
        Question::plain(
            "Which plane, switched off alone, raises this text's loss the most?".to_string(),
            (0..4).map(|i| format!("plane {i}")),
            format!("plane {worst}"),
            format!(
                "With plane {worst} unrotated the loss is {}, against {} with every plane turning (the table above, for this text).",
                two(losses.get(worst).copied().unwrap_or(0.0)),
                two(base_loss().unwrap_or(0.0))
            ),
        )
    });
    view! {
        <h3 class="model-heading">"One query, one key, four planes"</h3>
        <p class="explain">"The real rotated q (blue) and k (orange) of the selected head, for the query token picked above \
            and the key it attends to most (or the cell clicked on the map), plane by plane: plane 0 turns a radian per \
            token, plane 3 a thousandth. Each plane's part of the score q·k/√8 is the dot product of its two hands."</p>
        <div class="model-dials">
            {move || dials.get().map(|(q, k, qp, kp, planes, weight)| view! {
                // The model's tokens stay as they are (it knows English only); the words around them are the page's.
                <p class="model-dials-caption">"query "<span translate="no">{format!("“{qp}”")}</span>{format!(" at position {q}, key ")}
                    <span translate="no">{format!("“{kp}”")}</span>{format!(" at position {k}: attention weight {}", fixed(weight as f64, 3))}</p>
                <div class="model-dials-row">
                    {planes.into_iter().enumerate().map(|(i, ((qx, qy), (kx, ky), part))| view! {
                        <figure class="model-dial">
                            <svg viewBox="-40 -40 80 80" role="img" aria-label=format!("plane {i}: part of the score {}", fixed(part, 3))>
                                <circle r="36" class="dial-face" />
                                <line x1="0" y1="0" x2=fixed(kx, 2) y2=fixed(ky, 2) class="dial-k" />
                                <line x1="0" y1="0" x2=fixed(qx, 2) y2=fixed(qy, 2) class="dial-q" />
                            </svg>
                            <figcaption>{format!("plane {i}")}<br />{format!("part {}", signed(part, 3))}</figcaption>
                        </figure>
                    }).collect_view()}
                </div>
            })}
        </div>
        <h3 class="model-heading">"Why it looks back"</h3>
        <p class="explain">"Each plane's part of the gap between the score of the key the head attends to most and the mean \
            score of the other keys (what makes that key win), for the picked query and averaged over every query of the \
            head; beside them each plane's share of |qᵢ||kᵢ| (where the length of q and k sits), averaged too."</p>
        <div class="model-table-scroll" node_ref=why_box><table class="model-why">
            <thead><tr><th scope="col">"plane"</th><th scope="col">"gap, this query"</th><th scope="col">"gap, every query"</th><th scope="col">"share of |q||k|"</th></tr></thead>
            <tbody>
                {move || {
                    let one = pair.get().and_then(|(_, _, why)| why)?;
                    let all = mean.get()?;
                    let widest = one.difference.iter().chain(&all.difference).fold(1e-12f64, |m, v| m.max(v.abs()));
                    let bar = move |d: f64| view! { <span class="why-bar" class:negative=d < 0.0 style=("--share", bar_length(d.abs() / widest))></span>{signed(d, 2)} };
                    Some((0..one.difference.len()).map(|i| view! {
                        <tr>
                            <th scope="row">{i}</th>
                            <td>{bar(one.difference[i])}</td>
                            <td>{bar(all.difference[i])}</td>
                            <td><span class="why-bar share" style=("--share", bar_length(all.magnitude[i]))></span>{percent(all.magnitude[i])}</td>
                        </tr>
                    }).collect_view())
                }}
            </tbody>
        </table></div>
        <p class="explain" data-testid="model-why">{move || {
            let (l, h) = selected.get();
            let prev = shared.reading.with(|r| r.as_ref().map_or(0.0, |r| r.previous_token(l, h)));
            mean.get().map(|why| why_sentence(l, h, prev, &why.difference, &why.magnitude)).unwrap_or_default()
        }}</p>
        <p class="explain">"Barbero et al. (2024) found the same division of labour in Gemma 7B: its fastest frequencies \
            build positional heads (previous-token, diagonal), its slowest carry content and little position. Pick a \
            dark square above (a head that looks back) and one that is pale to compare."</p>

        <h3 class="model-heading">"Switch a plane off"</h3>
        <p class="explain">"A plane switched off is left unrotated in q and k, in every layer and head: the model reads as if \
            that plane's angle were always 0. Everything above follows."</p>
        <div class="model-switches" role="group" aria-label="planes that rotate">
            {(0..MODEL_PLANES).map(|i| view! {
                <label class="model-switch">
                    <input type="checkbox" data-testid=format!("model-plane-{i}") prop:checked=move || off.get() & (1 << i) == 0
                        on:change=move |ev| lab.apply(Change::PlaneOff(i, !event_target_checked(&ev))) />
                    " " {plane_label(i as usize)}
                </label>
            }).collect_view()}
        </div>
        <table class="model-losses" data-testid="model-plane-off-loss" data-value=losses_value>
            <caption>"The loss of this text with planes off (every other plane turning)"</caption>
            <thead><tr><th scope="col">"off"</th><th scope="col">"loss (nats per token)"</th></tr></thead>
            <tbody>
                <tr><th scope="row">"none"</th><td>{move || base_loss().map(two).unwrap_or_default()}</td></tr>
                {(0..=MODEL_PLANES as usize).map(|i| view! {
                    <tr><th scope="row">{if i < 4 { format!("plane {i} alone") } else { "all four: RoPE removed".to_string() }}</th>
                        <td>{move || losses().and_then(|l| l.get(i).copied()).map(two).unwrap_or_else(|| "…".into())}</td></tr>
                }).collect_view()}
            </tbody>
        </table>

        <h3 class="model-heading">"Shift every position"</h3>
        <p class="explain">"The offset starts the text at that position instead of 0. The model never saw a position past \
            511, yet nothing changes: only n − m reaches the scores, and n − m is the same. What remains is f32 rounding."</p>
        <div class="chapter-controls">
            <label class="control-label" for="model-offset">"offset"</label>
            <Slider id="model-offset".to_string() min="0" max=MAX_MODEL_OFFSET.to_string() step="1"
                value=Signal::derive(move || offset.get().to_string()) on_value=Callback::new(move |v: f64| lab.apply(Change::Offset(v as i64)))
                aria_label="offset: the position of the first token" />
            {[0u64, 1_000, 100_000, 1_000_000].into_iter().map(|v| view! {
                <button type="button" class="button-small model-jump" on:click=move |_| lab.apply(Change::Offset(v as i64))>{fmt_offset(v)}</button>
            }).collect_view()}
        </div>
        <div class="readouts">
            <Readout testid="model-offset" label="offset" value=Signal::derive(move || Some(offset.get() as f64)) integer=true />
            <Readout testid="model-offset-drift" label="largest change of any attention weight against offset 0"
                value=Signal::derive(move || if offset.get() == 0 { Some(0.0) } else { shared.drift.get() })
                hint="f32 rounding: the angles are exact, the products are rounded" />
        </div>
        <Check name="model-plane" look="the table of losses with planes off" ask />
        <p class="explain">"Honest about scale: 260 thousand parameters and children's stories, against billions of parameters \
            and the web. What carries over is the mechanism (every Llama-family model rotates q and k this way, and \
            RoPE's relative property holds exactly in any of them); what is evidence about large models is Barbero \
            et al.'s, on Gemma 7B. The model: Karpathy's llama2.c (tinyllamas, MIT), trained on TinyStories (Eldan and Li 2023)."</p>
    }
}

/// What the table says about a head, in a sentence computed from it: how the fast planes (0
/// and 1) and the slow ones (2 and 3) share the winning gap and the length of q and k.
fn why_sentence(layer: usize, head: usize, prev: f64, gap: &[f64], magnitude: &[f64]) -> String {
    let total: f64 = gap.iter().sum();
    let half = gap.len() / 2;
    let fast_gap: f64 = gap[..half].iter().sum();
    let fast_length: f64 = magnitude[..half].iter().sum::<f64>() * 100.0;
    let pct = |v: f64| format!("{}%", fixed(v, 0));
    let mut sentence = format!(
        "Layer {layer}, head {head} gives the previous token {} of its attention on average. Over its queries planes 0 and 1 \
         hold {} of the length of q and k and planes 2 and 3 hold {}; ",
        pct(prev * 100.0),
        pct(fast_length),
        pct(100.0 - fast_length)
    );
    if total > 1e-9 {
        let fast = fast_gap / total * 100.0;
        sentence +=
            &format!("of the gap that makes a key win, planes 0 and 1 make {} and planes 2 and 3 make {}.", pct(fast), pct(100.0 - fast));
        if fast > 60.0 && fast_length < 40.0 {
            sentence += " The slow planes carry most of the length and little of the choice: the fast planes, which turn a \
                lot between neighbours, decide where this head looks.";
        } else if fast <= 40.0 {
            sentence += " Here the slow planes, which barely turn between neighbours, decide: this head looks by content more \
                than by position.";
        }
    } else {
        sentence += "no key wins by much here.";
    }
    sentence
}
