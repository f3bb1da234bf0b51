//! SmolLM2's 270 heads, coloured by their attention to the previous token or to the first, and
//! the selected head's attention map.

use super::super::look::{css, ink_on, shade};
use super::client::Client;
use crate::charts::format::fixed;
use crate::dom::canvas::{context_2d, pointer_offset};
use crate::dom::js::{call, get, set};
use crate::lab::{use_dark_mode, use_lab};
use crate::state::{fmt_f64, Change};
use crate::ui::check::{Asker, Check};
use crate::ui::export::ExportButtons;
use crate::ui::readout::Readout;
use leptos::html::{Canvas, Div};
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::{Clamped, JsCast, JsValue};

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
    // The grid's 270 buttons are written once per shape as HTML and then coloured by one effect
    // that walks them: a reactive closure per button and attribute (1,350 of them) cost the
    // main thread a task of 60-80 ms when the model arrived.
    let grid = NodeRef::<Div>::new();
    let built = RwSignal::new(0usize);
    Effect::new(move |_| {
        let (layers, heads) = shape();
        let Some(element) = grid.get() else { return };
        let mut html = String::new();
        for l in 0..layers {
            html.push_str(&format!(r#"<div class="model-heads-row"><span class="model-heads-layer">layer {l}</span>"#));
            for h in 0..heads {
                html.push_str(&format!(r#"<button type="button" class="model-head" data-layer="{l}" data-head="{h}"></button>"#));
            }
            html.push_str("</div>");
        }
        element.set_inner_html(&html);
        built.update(|b| *b += 1);
    });
    Effect::new(move |_| {
        built.track();
        let (look, dark, (sl, sh)) = (look.get(), dark.get(), selected.get());
        let Some(element) = grid.get() else { return };
        let heads = shape().1.max(1);
        let Ok(buttons) = element.query_selector_all("button") else { return };
        client.reading.with(|r| {
            let values = r.as_ref().map(|r| if look == Look::Previous { &r.prev } else { &r.first });
            // Through `Reflect` (crate::dom::js): no web-sys binding of its own for the page to load.
            let text = |s: &str| JsValue::from_str(s);
            for i in 0..buttons.length() {
                let Some(button) = buttons.item(i) else { continue };
                let button: &JsValue = button.as_ref();
                let (l, h) = (i as usize / heads, i as usize % heads);
                let v = values.and_then(|v| v.get(i as usize)).map(|&v| v as f64);
                let colour = shade(v.unwrap_or(0.0), dark);
                let style = get(button, "style");
                call(&style, "setProperty", &[&text("background-color"), &text(&css(colour))]);
                call(&style, "setProperty", &[&text("color"), &text(&css(ink_on(colour)))]);
                set(button, "textContent", &text(&v.map(|v| fixed(v * 100.0, 0)).unwrap_or_default()));
                let label = format!("layer {l}, head {h}: {}%", fixed(v.unwrap_or(0.0) * 100.0, 0));
                call(button, "setAttribute", &[&text("aria-label"), &text(&label)]);
                let picked = (l, h) == (sl, sh);
                call(button, "setAttribute", &[&text("aria-pressed"), &text(if picked { "true" } else { "false" })]);
                set(button, "className", &text(if picked { "model-head selected" } else { "model-head" }));
            }
        });
    });
    let click_grid = move |ev: leptos::ev::MouseEvent| {
        let button = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|e| e.closest("button").ok().flatten());
        let Some(button) = button else { return };
        let index = |name: &str| button.get_attribute(name).and_then(|v| v.parse::<usize>().ok());
        if let (Some(l), Some(h)) = (index("data-layer"), index("data-head")) {
            pick(l, h);
        }
    };
    let sinks_question: Asker =
        Arc::new(move || client.reading.with(|r| crate::quiz::smollm2::sinks(r.as_ref().map_or(&[][..], |r| &r.first))));
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
        <div class="model-heads smollm2-heads" role="group" aria-label="the 270 heads" node_ref=grid on:click=click_grid></div>
        <div class="readouts">
            <Readout testid="model-head-prev" label="selected head: mean attention to the previous token" value=head_value(Look::Previous)
                hint=move || { let (l, h) = selected.get(); format!("layer {l}, head {h}; over queries 1 to T − 1") } />
            <Readout testid="model-head-first" label="selected head: mean attention to the first token" value=head_value(Look::First)
                hint="over queries 1 to T − 1" />
        </div>
        <Check name="smollm2-sinks" look="the grid coloured by attention to the first token" ask=sinks_question />
        <figure class="model-map smollm2-map">
            <canvas class="model-attention" node_ref=canvas role="img" on:click=click_map
                aria-label=move || { let (l, h) = selected.get(); format!("Attention of layer {l}, head {h}: a row per query token, a column per key token") }></canvas>
            <figcaption>"A row per query (position down), a column per key (position across), the stronger the colour the \
                more attention; above the diagonal the causal mask hides the future. Click a cell to pick that query and key."</figcaption>
        </figure>
        <ExportButtons name="smollm2-attention" figure=".smollm2-map"
            caption=Callback::new(move |()| { let (l, h) = selected.get_untracked(); format!("Attention weights of SmolLM2-135M over the reader's text, layer {l}, head {h}") }) />
    }
}
