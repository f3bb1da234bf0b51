//! Chapter 2 (`data-widget="counting"`): ways to write a position as numbers, side by side:
//! integer, normalised, binary, sinusoidal; each as a position × dimension picture around `p`
//! and as the vector of `p`, with the properties a good code needs. The sequence follows
//! Fleetwood's post (Hugging Face, 2024).

use crate::charts::diverging;
use crate::charts::format::{short_number, whole_number};
use crate::charts::palette;
use crate::dom::pixels::{PixelPicture, Pixels};
use crate::dom::size::{use_in_view, while_in_view};
use crate::lab::{use_dark_mode, use_lab};
use crate::quiz;
use crate::rope::{binary_code, Code, RopeParams, MAX_CODE_POSITION};
use crate::state::{fmt_list, param, Change};
use crate::ui::card::WidgetCard;
use crate::ui::check::Check;
use crate::ui::controls::FinePositionControl;
use crate::ui::export::{base_and_dim, ExportButtons};
use crate::ui::formulas::{self, Formula};
use leptos::prelude::*;
use std::sync::Arc;

/// The chapter's id (`embed=counting`, `data-widget`): never changes meaning once published.
pub const ID: &str = "counting";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "Counting positions";

/// Rows of the pictures: positions around p.
const WINDOW: u32 = 32;
/// The input length the normalised code divides by: a 64-token input, so that positions past
/// it show what the code cannot do (values above 1).
const LENGTH: u32 = 64;

/// The first position of the window around `p`.
fn window_start(p: u32) -> u32 {
    p.saturating_sub(WINDOW / 2).min(MAX_CODE_POSITION + 1 - WINDOW)
}

/// Each code's picture: one row per position of the window, a marker column (the accent colour
/// on p's row), then one column per dimension, coloured on the diverging scale.
fn picture(code: Code, p: u32, params: RopeParams, dark: bool) -> Pixels {
    let start = window_start(p);
    // The integer code on a scale that ends at the window's last position: it only grows.
    let scale = |x: f64| match code {
        Code::Integer => x / (start + WINDOW - 1) as f64,
        _ => x,
    };
    let accent = palette::ACCENT.pick(dark);
    let blank = palette::SURFACE.pick(dark);
    let mut rgba = Vec::new();
    let mut width = 0;
    for row in 0..WINDOW {
        let position = start + row;
        let code = code.encode(position, LENGTH, params);
        // One-number codes are drawn 8 pixels wide, so that the marker stays a thin column.
        let repeat = if code.len() < 8 { 8 } else { 1 };
        width = code.len() * repeat + 1;
        let marker = if position == p { accent } else { blank };
        rgba.extend_from_slice(&[marker.0, marker.1, marker.2, 255]);
        for x in code {
            let (r, g, b) = diverging(scale(x));
            for _ in 0..repeat {
                rgba.extend_from_slice(&[r, g, b, 255]);
            }
        }
    }
    Pixels { width, height: WINDOW as usize, rgba }
}

/// (property, why it matters, one verdict and reason per code in [`Code::ALL`] order).
const PROPERTIES: [(&str, [(bool, &str); 4]); 5] = [
    ("unique: one code per position", [(true, ""), (true, ""), (true, "up to 65,535"), (true, "")]),
    ("bounded: values stay small", [(false, "grows with p"), (true, "0 to 1 inside the input"), (true, "0 or 1"), (true, "−1 to 1")]),
    (
        "same step everywhere: p → p+1 moves the code equally",
        [(true, ""), (true, "1/(L−1) within one input"), (false, "1 to 16 bits flip"), (true, "a rotation")],
    ),
    (
        "extends to longer inputs",
        [(true, "but unbounded"), (false, "a position's code and its step change with L"), (false, "needs more bits"), (true, "")],
    ),
    ("deterministic: no training needed", [(true, ""), (true, ""), (true, ""), (true, "")]),
];

#[component]
pub fn CountingWidget() -> impl IntoView {
    let lab = use_lab();
    let p = lab.select(|s| s.p);
    let p_i64 = lab.select(|s| i64::from(s.p));
    let params = lab.select(|s| RopeParams::new(s.base, s.dim).ok());
    let dark = use_dark_mode();
    let bits = Memo::new(move |_| binary_code(p.get()));
    let sinusoidal = Memo::new(move |_| params.get().map(|params| Code::Sinusoidal.encode(p.get(), LENGTH, params)).unwrap_or_default());

    let column = move |index: usize, code: Code| {
        let pixels = Signal::derive(move || params.get().map(|params| picture(code, p.get(), params, dark.get())).unwrap_or_default());
        let current = move || match code {
            Code::Integer => whole_number(p.get() as i64),
            Code::Normalised => short_number(p.get() as f64 / (LENGTH - 1) as f64),
            Code::Binary => bits.with(|b| b.iter().rev().map(|b| b.to_string()).collect::<String>()),
            Code::Sinusoidal => sinusoidal.with(|v| {
                let shown: Vec<String> = v.iter().take(6).map(|x| short_number(*x)).collect();
                format!("{}{}", shown.join(", "), if v.len() > 6 { ", …" } else { "" })
            }),
        };
        // The two lines of text follow p and base only near the screen (the readable values do
        // not depend on them); off screen they keep their last text.
        let figure = NodeRef::<leptos::html::Figure>::new();
        let near = use_in_view(figure);
        let current = while_in_view(near, current);
        // At the last position 16 bits can write there is no next binary code: 65,536 needs a
        // 17th bit (the code would wrap to all zeros), so there is no step to measure.
        let step = while_in_view(near, move || {
            if code == Code::Binary && p.get() >= MAX_CODE_POSITION {
                format!("none: {} needs a 17th bit", whole_number(i64::from(MAX_CODE_POSITION) + 1))
            } else {
                short_number(params.get().map_or(0.0, |params| code.step(p.get(), LENGTH, params)))
            }
        });
        let label = Signal::derive(move || {
            let start = window_start(p.get());
            format!(
                "{} code of positions {} to {} (rows), one column per dimension; position {} marked",
                code.label(),
                whole_number(start as i64),
                whole_number((start + WINDOW - 1) as i64),
                whole_number(p.get() as i64)
            )
        });
        view! {
            <figure class="code-column" node_ref=figure>
                <figcaption><strong>{code.label()}</strong></figcaption>
                <PixelPicture pixels label />
                <p class="code-value mono">{move || current.get()}</p>
                <p class="code-step">"step to p+1: " {move || step.get()}</p>
                <ul class="code-properties">
                    {PROPERTIES.iter().map(|(property, verdicts)| {
                        let (ok, why) = verdicts[index];
                        let short = property.split(':').next().unwrap_or(property);
                        view! {
                            <li class:yes=ok class:no=!ok>
                                <span aria-hidden="true">{if ok { "✓ " } else { "✗ " }}</span>
                                <span class="visually-hidden">{if ok { "yes: " } else { "no: " }}</span>
                                {short}
                                {(!why.is_empty()).then(|| view! { <span class="code-why">{format!(" ({why})")}</span> })}
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </figure>
        }
    };

    view! {
        <WidgetCard id=ID title=TITLE explain="A position has to become numbers the model can add to or multiply with its \
            vectors. Count and see what each way of writing p gets right and wrong. The pictures show 32 positions \
            around p (rows, p marked on the left) by the code's dimensions (columns), purple for negative, white \
            for 0, green for positive; the normalised code divides by L − 1 = 63, for a 64-token input.">
            <div class="chapter-controls">
                <FinePositionControl lab param=&param::P label="position p" change=Change::P value=p_i64 max=MAX_CODE_POSITION as i64 id="p-slider" />
            </div>
            <div class="code-columns">
                {Code::ALL.iter().enumerate().map(|(i, code)| column(i, *code)).collect_view()}
            </div>
            <ExportButtons name="counting" figure=".code-columns"
                caption=Callback::new(move |()| lab.state.with_untracked(|s| format!(
                    "Four ways to write position p = {}: 32 positions around p by the code's dimensions, {}", s.p, base_and_dim(s.base, s.dim)))) />
            <output class="visually-hidden" data-testid="encoding-binary"
                data-value=move || bits.with(|b| b.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(","))></output>
            <output class="visually-hidden" data-testid="encoding-sinusoidal" data-value=move || sinusoidal.with(|v| fmt_list(v))></output>
            <p class="explain">
                "Binary is close: every bit is bounded and the lowest bit flips every token while the highest almost "
                "never does. That is the seed of frequencies: fast dimensions for fine position, slow ones for "
                "coarse. But its steps jump (7 → 8 flips four bits at once) and its values are all-or-nothing. "
                "Sinusoids keep the idea and make it smooth: dimensions 2i and 2i + 1 oscillate as sin and cos of p·θᵢ with "
                "θᵢ = b^(−2i/d) for a base b (10,000 in the original transformer) and d dimensions, fast for small i and "
                "slow for large i, and p → p+1 moves the code by the same "
                "distance everywhere. That distance is the same because the step is a rotation, as the next "
                "chapter shows."
            </p>
            <Formula math=formulas::SINUSOIDAL />
            <Check name="bits-flip" look="the binary code's column and its step to p+1"
                ask=Arc::new(move || quiz::early::bits_flip(p.get())) />
            <p class="credit">"Integer → binary → sinusoidal follows Fleetwood (Hugging Face, 2024); sinusoids are from Vaswani et al. (2017)."</p>
        </WidgetCard>
    }
}
