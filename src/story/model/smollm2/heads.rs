//! SmolLM2's 270 heads, coloured by their attention to the previous token or to the first, and
//! the selected head's attention map.

use super::super::look::{css, ink_on, shade};
use super::client::Client;
use crate::charts::format::fixed;
use crate::dom::canvas::{context_2d, pointer_offset};
use crate::lab::{use_dark_mode, use_lab};
use crate::state::{fmt_f64, Change};
use crate::ui::readout::Readout;
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::Clamped;

/// JSON of a layers × heads grid.
fn grid_json(values: &[f32], heads: usize) -> String {
    let rows: Vec<String> = values
        .chunks(heads.max(1))
        .map(|row| format!("[{}]", row.iter().map(|v| fmt_f64(*v as f64)).collect::<Vec<_>>().join(",")))
        .collect();
    format!("[{}]", rows.join(","))
}

/// Which attention the grid colours heads by.
#[derive(Clone, Copy, PartialEq)]
enum Look {
    Previous,
    First,
}

#[component]
pub(super) fn HeadsPanel(query: RwSignal<Option<usize>>, key: RwSignal<Option<usize>>) -> impl IntoView {
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
