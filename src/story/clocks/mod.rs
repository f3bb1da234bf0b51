//! The rotation lab (`data-widget="clocks"`): every 2D plane of q and k as a clock face whose
//! hands turn by m·θ_i and n·θ_i, the scores, each plane's share of the score, the token
//! strip, shifting and playing positions, the selected plane's two hands, the vectors themselves
//! and, folded, q and k rotated (on the full page the lab holds what the scores chapter shows
//! when embedded, and its question).

mod faces;
mod gif;
mod plane_detail;

use crate::charts::format::short_number;
use crate::charts::{draw_contributions, ClockFace};
use crate::dom::animation::{prefers_reduced_motion, use_animation_frames};
use crate::dom::canvas::use_canvas_chart;
use crate::dom::size::use_element_size;
use crate::lab::{use_chart_style, use_lab};
use crate::quiz;
use crate::rope::wavelength;
use crate::state::param;
use crate::state::Derived;
use crate::ui::card::WidgetCard;
use crate::ui::check::Check;
use crate::ui::controls::NumberField;
use crate::ui::export::{base_and_dim, ExportButtons};
use crate::ui::gif_button::GifButton;
use crate::ui::readout::ListReadout;
use crate::ui::score_readouts::ScoreReadouts;
use crate::ui::slider::Slider;
use crate::ui::tokens::TokenStrip;
use crate::ui::vector_editor::VectorEditor;
use faces::ClockFaces;
use leptos::html::{Canvas, Div};
use leptos::prelude::*;
use plane_detail::PlaneDetail;
use std::sync::Arc;
use std::time::Duration;

/// The chapter's id (`embed=clocks`, `data-widget`): never changes meaning once published.
pub const ID: &str = "clocks";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "The rotation lab: every plane of q and k is a clock";

/// How far the question shifts both positions.
const SHIFT: i64 = 100;

/// What the play button animates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Animate {
    /// m alone: the hands of q turn, the score changes.
    Query,
    /// m and n together: every hand turns, the score stays.
    Both,
}

/// The rotation lab.
#[component]
pub fn ClocksWidget() -> impl IntoView {
    let lab = use_lab();
    let style = use_chart_style();
    let reduced_motion = prefers_reduced_motion();

    let playing = lab.playing;
    let animate = RwSignal::new(Animate::Query);
    let speed = RwSignal::new(2.0_f64);
    // Tokens accumulated towards the next whole step, and the fraction the hands are drawn
    // ahead of the integer positions (always 0 with reduced motion: steps, no tweening).
    let accumulated = StoredValue::new(0.0_f64);
    let tween = RwSignal::new(0.0_f64);

    use_animation_frames(playing.into(), move |seconds| {
        let both = animate.get_untracked() == Animate::Both;
        let total = accumulated.get_value() + seconds * speed.get_untracked();
        let whole = total.floor();
        if whole >= 1.0 && !lab.shift(whole as i64, both) {
            playing.set(false);
            accumulated.set_value(0.0);
            tween.set(0.0);
            return;
        }
        accumulated.set_value(total - whole);
        tween.set(if reduced_motion { 0.0 } else { total - whole });
    });
    Effect::new(move |_| {
        if !playing.get() {
            accumulated.set_value(0.0);
            tween.set(0.0);
        }
    });

    // The drawn positions: the integer state plus the tween while playing.
    let positions = lab.select(|s| (s.m, s.n));
    let drawn = Memo::new(move |_| {
        let (m, n) = positions.get();
        let t = tween.get();
        let both = animate.get() == Animate::Both;
        (m as f64 + t, n as f64 + if both { t } else { 0.0 })
    });
    let vectors = lab.vectors;
    let inv_freq = Memo::new(move |_| vectors.with(|v| v.as_ref().map(|v| v.rotary.inv_freq().to_vec()).unwrap_or_default()));
    // Every face at the drawn positions, computed once per frame for every view below.
    let faces = Memo::new(move |_| {
        let (m, n) = drawn.get();
        vectors.with(|v| {
            v.as_ref().map_or_else(Vec::new, |v| {
                (0..v.rotary.planes())
                    .map(|plane| ClockFace {
                        plane,
                        hands: v.rotary.plane_hands(&v.q, &v.k, plane, m, n),
                        wavelength: wavelength(v.rotary.inv_freq()[plane]),
                    })
                    .collect()
            })
        })
    });
    let longest = Memo::new(move |_| faces.with(|f| f.iter().fold(0.0_f64, |l, f| l.max(f.hands.q_length).max(f.hands.k_length))));
    let selected = lab.select(|s| s.plane);

    let bars_canvas = NodeRef::<Canvas>::new();
    use_canvas_chart(
        bars_canvas,
        move || (faces.with(|f| f.iter().map(|f| f.hands.contribution).collect::<Vec<_>>()), selected.get(), style.get()),
        |area, (contributions, selected, style), ratio| {
            let _ = draw_contributions(area, contributions, Some(*selected), &style.with_scale(ratio));
        },
    );

    // The score, said politely once it settles (not on every frame of an animation).
    let score = lab.select_derived(|d| d.scores.score);
    let announcement = RwSignal::new(String::new());
    let pending = StoredValue::new(false);
    Effect::new(move |_| {
        // Read, not only tracked: a memo that has never run has not subscribed to its source.
        score.with(|_| ());
        if playing.get() || pending.get_value() {
            return;
        }
        pending.set_value(true);
        set_timeout(
            move || {
                // The widget may be gone by now: then there is nothing to announce.
                let _ = pending.try_set_value(false);
                if let (Some((m, n)), Some(Some(score))) = (positions.try_get_untracked(), score.try_get_untracked()) {
                    announcement.try_set(format!("Score {} with m = {m}, n = {n}", short_number(score)));
                }
            },
            Duration::from_millis(700),
        );
    });

    let at_start = move || positions.with(|(m, n)| *m == 0 || *n == 0);
    let list = move |f: fn(&Derived) -> Vec<f64>| {
        let values = lab.select_derived(f);
        Signal::derive(move || values.get().unwrap_or_default())
    };
    // Step 1 of "try this": the score follows n − m only through planes that turn and hold both
    // a non-zero part of q and of k (typed or one-hot vectors can have none).
    let first_step = Memo::new(move |_| {
        let moves = vectors.with(|v| {
            v.as_ref().is_some_and(|v| {
                (0..v.rotary.planes()).any(|plane| {
                    let (a, b) = v.rotary.plane_dims(plane);
                    let held = |x: &[f64]| x[a] != 0.0 || x[b] != 0.0;
                    v.rotary.inv_freq()[plane] != 0.0 && held(&v.q) && held(&v.k)
                })
            })
        });
        if moves {
            "Move m (the panel's m slider, or ▶ Play with “m only”): q's hands turn, n − m changes, and the score changes with it."
        } else {
            "Move m (the panel's m slider, or ▶ Play with “m only”): q's hands turn and n − m changes, but here the score cannot \
             change: no plane that turns holds both a non-zero part of q and of k (see the vectors below)."
        }
    });
    // Step 3 of "try this", from the frequencies in effect.
    let tour = Memo::new(move |_| {
        inv_freq.with(|f| match f.as_slice() {
            [] => String::new(),
            [only] => format!(
                "At d = 2 plane 0 is the only plane: it turns θ₀ = {} rad per token. Raise d in the panel to compare planes.",
                short_number(*only)
            ),
            [first, .., last] => format!(
                "Compare plane 0 with the last plane, plane {}: select each (the field “selected plane i” below, or a click \
                 on its face) and watch how far each turns per token: θᵢ = {} rad for plane 0 and {} rad for plane {}.",
                f.len() - 1,
                short_number(*first),
                short_number(*last),
                f.len() - 1
            ),
        })
    });
    let faces_box = NodeRef::<Div>::new();
    let faces_size = use_element_size(faces_box);

    view! {
        <WidgetCard id=ID title=TITLE class="clocks-widget">
            <p class="explain">
                "RoPE splits q and k into d/2 planes. Each plane is a clock with two hands: "
                <span class="q-text">"q's hand"</span>" turns by m·θᵢ, "
                <span class="k-text">"k's hand"</span>" by n·θᵢ. Planes with a large θᵢ spin; those with a small θᵢ "
                "barely move (without a context extension θᵢ = b^(−2i/d) shrinks as i grows). Each face is labelled "
                "with its λ, the plane's wavelength: the tokens per full turn, 2π/θᵢ (the chapter on frequencies "
                "takes it further). The score adds up, plane by plane, the two hands' lengths times the cosine of the "
                "angle between them."
            </p>
            <div class="try-this">
                <h3>"Try this"</h3>
                <ol class="explain-list">
                    <li>{move || first_step.get()}</li>
                    <li>"Press ] (or “shift both ▶”): m and n both move one token later; both hands of every "
                        "turning plane turn by the same angle, n − m stays, and so does the score."</li>
                    <li>{move || tour.get()}</li>
                </ol>
            </div>
            <TokenStrip />

            <div class="clock-toolbar" role="group" aria-label="positions">
                <button type="button" class="play" aria-pressed=move || playing.get().to_string()
                    on:click=move |_| playing.update(|p| *p = !*p)>
                    // The name always contains "play" (the contract's name); pressed says it runs.
                    {move || if playing.get() { "❚❚ Playing" } else { "▶ Play" }}
                </button>
                <label class="toolbar-field">
                    "animate "
                    <select on:change=move |ev| animate.set(if event_target_value(&ev) == "both" { Animate::Both } else { Animate::Query })
                        prop:value=move || if animate.get() == Animate::Both { "both" } else { "m" }>
                        <option value="m">"m only"</option>
                        <option value="both">"m and n together"</option>
                    </select>
                </label>
                <label class="toolbar-field">
                    "speed "
                    <Slider min="0.25" max="20" step="0.25" aria_label="speed, tokens per second"
                        aria_valuetext=Signal::derive(move || format!("{} tokens per second", speed.get()))
                        value=Signal::derive(move || speed.get().to_string())
                        on_value=move |v: f64| speed.set(v.clamp(0.25, 20.0)) />
                    <span class="unit">{move || format!("{} tok/s", speed.get())}</span>
                </label>
                <span class="shift-group">
                    <button type="button" aria-label="shift both left" aria-keyshortcuts="["
                        disabled=at_start
                        on:click=move |_| { lab.shift(-1, true); }>"◀ shift both"</button>
                    <button type="button" aria-label="shift both right" aria-keyshortcuts="]"
                        on:click=move |_| { lab.shift(1, true); }>"shift both ▶"</button>
                    <span class="unit key-hint">"keys [ and ]"</span>
                </span>
            </div>

            <ScoreReadouts />
            <p class="visually-hidden" aria-live="polite">{move || announcement.get()}</p>

            <ClockFaces faces longest selected container=faces_box size=faces_size />
            <p class="legend">
                <span class="legend-q">"● q's hand"</span>
                <span class="legend-k">"○ k's hand"</span>
                <span class="legend-arc">"◠ angle between"</span>
                <span>"λ: tokens per full turn, 2π/θᵢ"</span>
            </p>
            <div class="exports">
                <ExportButtons name="clocks" figure=".clock-layers, .clocks-widget > .legend"
                    caption=Callback::new(move |()| lab.state.with_untracked(|s| format!(
                        "Every plane of q and k as a clock, q at m = {}, k at n = {}, {}", s.m, s.n, base_and_dim(s.base, s.dim)))) />
                <GifButton name="clocks" animation=Callback::new(move |()| {
                    gif::animation(lab, faces_size.get_untracked(), animate.get_untracked() == Animate::Both, style.get_untracked())
                }) />
            </div>

            <h3>"Each plane's share of the score"</h3>
            <canvas class="bars-canvas" node_ref=bars_canvas role="img"
                aria-label=move || faces.with(|f| {
                    let largest = f.iter().max_by(|a, b| a.hands.contribution.abs().total_cmp(&b.hands.contribution.abs()));
                    let total: f64 = f.iter().map(|f| f.hands.contribution).sum();
                    format!(
                        "Bar chart: each of {} planes' share of the score, up for positive, down for negative, the selected plane {} outlined. They add up to the score {}; the largest share is plane {}'s, {}",
                        f.len(), selected.get(), crate::charts::format::short_number(total),
                        largest.map_or(0, |l| l.plane), largest.map_or_else(|| "—".to_string(), |l| crate::charts::format::short_number(l.hands.contribution))
                    )
                })></canvas>
            <ExportButtons name="clock-shares" figure=".bars-canvas"
                caption=Callback::new(move |()| lab.state.with_untracked(|s| format!(
                    "Each plane's share of the score q_m · k_n, m = {}, n = {}, {}", s.m, s.n, base_and_dim(s.base, s.dim)))) />

            <div class="control plane-picker">
                <label for="plane-field">"selected plane i"</label>
                <NumberField lab param=&param::PLANE id="plane-field" step="1"
                    value=Signal::derive(move || selected.get().to_string()) />
            </div>
            <PlaneDetail faces longest positions=drawn inv_freq selected />
            <VectorEditor />
            // Folded by default: walls of numbers are detail, and a closed list costs the browser no
            // layout or paint while a slider moves (its data-value stays current). Its id is where
            // "Open in RoPE Lab" of an embedded scores chapter lands on the full page.
            <details class="lists" id="scores">
                <summary>"The vectors: q rotated to m and k rotated to n"</summary>
                <ListReadout testid="q-rot" label="q rotated to m" values=list(|d| d.scores.q_rot.clone()) />
                <ListReadout testid="k-rot" label="k rotated to n" values=list(|d| d.scores.k_rot.clone()) />
            </details>
            <Check name="shift-both" look="the lists of q and k rotated, and the score" ask=Arc::new(move || {
                let (m, n) = positions.get();
                vectors.with(|v| v.as_ref().map(|v| quiz::early::shift_both(v, m, n, SHIFT))).unwrap_or_default()
            }) />
            <Check name="first-turn" look="the clock faces: each face's λ is its tokens per full turn" ask=Arc::new(move || {
                inv_freq.with(|f| quiz::early::first_turn(f))
            }) />
        </WidgetCard>
    }
}
