//! Which heads look back? The 40 heads coloured by their mean attention to the previous token,
//! the selected head's attention over the text (query × key, causal), and for a chosen query
//! and key its four planes as clock hands, with each plane's part of the score.

use super::look::{css, ink_on, shade};
use super::Shared;
use crate::charts::format::fixed;
use crate::dom::canvas::{context_2d, pointer_offset};
use crate::dom::size::use_in_view;
use crate::lab::{use_dark_mode, use_lab};
use crate::state::{fmt_f64, Change, MODEL_HEADS, MODEL_LAYERS};
use crate::ui::export::ExportButtons;
use crate::ui::readout::Readout;
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::Clamped;

#[component]
pub(super) fn HeadsPanel() -> impl IntoView {
    let lab = use_lab();
    let shared = expect_context::<Shared>();
    let dark = use_dark_mode();
    let selected = lab.select(|s| (s.layer as usize, s.head as usize));
    let grid = Memo::new(move |_| shared.reading.with(|r| r.as_ref().map(|r| r.previous_token_all())));
    let grid_json = move || {
        grid.with(|g| {
            g.as_ref().map(|g| {
                let rows: Vec<String> =
                    g.iter().map(|row| format!("[{}]", row.iter().map(|v| fmt_f64(*v)).collect::<Vec<_>>().join(","))).collect();
                format!("[{}]", rows.join(","))
            })
        })
    };
    let head_prev = Signal::derive(move || {
        let (l, h) = selected.get();
        grid.with(|g| g.as_ref().and_then(|g| g.get(l)?.get(h).copied()))
    });
    let pick = move |l: usize, h: usize| {
        lab.edit(|s| {
            let mut notices = s.apply(Change::Layer(l as i64));
            notices.extend(s.apply(Change::Head(h as i64)));
            notices
        });
    };

    // The attention map: one pixel per (query, key), scaled up by CSS.
    let canvas = NodeRef::<Canvas>::new();
    // Drawn while near the screen (and when it comes near), not on every read out of sight.
    let map_near = use_in_view(canvas);
    Effect::new(move |_| {
        if !map_near.get() {
            return;
        }
        let (l, h) = selected.get();
        let dark = dark.get();
        let Some(element) = canvas.get() else { return };
        shared.reading.with(|r| {
            let Some(r) = r.as_ref() else { return };
            let t = r.len();
            let mut rgba = vec![0u8; t * t * 4];
            for q in 0..t {
                for k in 0..t {
                    let (red, green, blue) = if k <= q { shade(r.attention(l, h, q, k) as f64, dark) } else { shade(0.0, dark) };
                    let at = (q * t + k) * 4;
                    rgba[at..at + 4].copy_from_slice(&[red, green, blue, if k <= q { 255 } else { 60 }]);
                }
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
        let len = shared.reading.with_untracked(|r| r.as_ref().map_or(0, |r| r.len()));
        let (x, y) = pointer_offset(&ev);
        let (w, h) = (element.client_width().max(1) as f64, element.client_height().max(1) as f64);
        let (q, k) = (((y / h) * len as f64) as usize, ((x / w) * len as f64) as usize);
        if q < len && k <= q {
            shared.query.set(Some(q));
            shared.key.set(Some(k));
        }
    };
    let map_label = move || {
        let (l, h) = selected.get();
        format!("Attention of layer {l}, head {h}: a row per query token, a column per key token, darker is more attention")
    };
    let legend_low = move || css(shade(0.0, dark.get()));
    let legend_high = move || css(shade(1.0, dark.get()));

    view! {
        <h3 class="model-heading">"Which heads look back?"</h3>
        <p class="explain">"Each square is one of the model's 40 heads (5 layers of 8), coloured by how much attention its \
            queries give the token just before them, on average. Heads that look back at the previous token are a job \
            every language model learns, and one that needs position: the word before is found by where it is, not by \
            what it says. Pick a head."</p>
        <div class="model-heads" data-testid="model-heads-prev" data-value=grid_json role="group" aria-label="the 40 heads">
            {(0..MODEL_LAYERS as usize).map(|l| view! {
                <div class="model-heads-row">
                    <span class="model-heads-layer">{format!("layer {l}")}</span>
                    {(0..MODEL_HEADS as usize).map(|h| {
                        let value = move || grid.with(|g| g.as_ref().and_then(|g| g.get(l)?.get(h).copied()));
                        view! {
                            <button type="button" class="model-head" class:selected=move || selected.get() == (l, h)
                                aria-pressed=move || (selected.get() == (l, h)).to_string()
                                aria-label=move || format!("layer {l}, head {h}: {}% to the previous token", fixed(value().unwrap_or(0.0) * 100.0, 0))
                                style:background-color=move || css(shade(value().unwrap_or(0.0), dark.get()))
                                style:color=move || css(ink_on(shade(value().unwrap_or(0.0), dark.get())))
                                on:click=move |_| pick(l, h)>
                                {move || value().map(|v| fixed(v * 100.0, 0)).unwrap_or_default()}
                            </button>
                        }
                    }).collect_view()}
                </div>
            }).collect_view()}
        </div>
        <div class="readouts">
            <Readout testid="model-head-prev" label="selected head: mean attention to the previous token" value=head_prev
                hint=move || { let (l, h) = selected.get(); format!("layer {l}, head {h}; over queries 1 to T − 1") } />
        </div>
        <figure class="model-map">
            <canvas class="model-attention" node_ref=canvas role="img" aria-label=map_label on:click=click_map></canvas>
            <figcaption>
                <span class="model-legend">
                    <span class="model-legend-swatch" style:background-color=legend_low></span>" 0 "
                    <span class="model-legend-swatch" style:background-color=legend_high></span>" 1: attention weight"
                </span>
                " · a row per query (position down), a column per key (position across); above the diagonal the causal \
                mask hides the future. Click a cell to pick that query and key."
            </figcaption>
        </figure>
        <ExportButtons name="model-attention" figure=".model-map"
            caption=Callback::new(move |()| { let (l, h) = selected.get_untracked(); format!("Attention weights of stories260K over the reader's text, layer {l}, head {h}") }) />
    }
}
