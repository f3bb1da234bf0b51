//! The score heatmap (`data-widget="heatmap"`): q_m · k_n over a 256 × 256 window of positions
//! around the current m and n. With RoPE every diagonal is one colour (the score depends only on
//! n − m); without rotation the map is flat; with sinusoidal encodings added to q and k the
//! stripes blur, because the cross terms depend on m and n themselves.

use super::canvas::{context_2d, use_canvas_frames};
use super::card::WidgetCard;
use super::export::{csv_text, ExportButtons};
use super::{use_chart_style, use_lab};
use crate::charts::format::short_number;
use crate::charts::{draw_heatmap_frame, heatmap_layout, heatmap_limit, heatmap_rgba, HeatmapFrame};
use crate::rope::{score_window, HeatmapMode, MAX_POSITION};
use crate::state::Change;
use leptos::ev;
use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::HtmlCanvasElement;

/// Rows and columns of the window.
const WINDOW: usize = 256;

/// How close to the window's edge (m, n) may come before the window recentres on it.
const MARGIN: i64 = 32;

/// The first m and n of the window: kept while (m, n) stays at least MARGIN cells inside it,
/// so that moving a slider moves only the marker, else centred on (m, n) where possible.
fn window_origin(previous: Option<(i64, i64)>, m: i64, n: i64) -> (i64, i64) {
    let size = WINDOW as i64;
    let start = |p: i64| (p - size / 2).clamp(0, MAX_POSITION + 1 - size);
    let keep = |origin: i64, p: i64| {
        let inside = p - origin;
        (inside >= MARGIN || origin == 0) && (inside < size - MARGIN || origin == MAX_POSITION + 1 - size) && (0..size).contains(&inside)
    };
    match previous {
        Some((m0, n0)) if keep(m0, m) && keep(n0, n) => (m0, n0),
        _ => (start(m), start(n)),
    }
}

/// The heatmap with its mode, hover readout and export.
#[component]
pub fn HeatmapWidget() -> impl IntoView {
    let lab = use_lab();
    let style = use_chart_style();
    let mode = lab.select(|s| s.heatmap);
    let positions = lab.select(|s| (s.m, s.n));
    let origin = Memo::new(move |previous: Option<&(i64, i64)>| {
        positions.with(|(m, n)| window_origin(previous.copied(), *m, *n))
    });
    let vectors = lab.vectors;
    // The base and dimension of the sinusoidal encodings the third mode adds.
    let params = lab.select_derived(|d| d.params);
    // One evaluation per distinct distance (and per position for the sinusoidal cross terms).
    let cells = Memo::new(move |_| {
        let (origin, mode) = (origin.get(), mode.get());
        let Some(params) = params.get() else { return Vec::new() };
        vectors.with(|v| {
            v.as_ref()
                .map(|v| score_window(&v.rotary, &v.q, &v.k, origin, WINDOW, mode, params))
                .unwrap_or_default()
        })
    });
    let limit = Memo::new(move |_| cells.with(|c| heatmap_limit(c)));
    let hover = RwSignal::new(None::<(i64, i64, f64)>);
    let shown_layout = RwSignal::new(None::<crate::charts::HeatmapLayout>);

    let canvas = NodeRef::<Canvas>::new();
    let bitmap = StoredValue::new_local(None::<HtmlCanvasElement>);
    let canvas_size = use_canvas_frames(
        canvas,
        move || {
            // The current (m, n) is a ring over the canvas (below), so moving it costs no redraw.
            let frame = HeatmapFrame { origin: origin.get(), size: WINDOW, limit: limit.get() };
            let pixels = cells.with(|c| heatmap_rgba(c, limit.get()));
            (frame, pixels, style.get())
        },
        |width, _| Some(heatmap_layout(width).height()),
        move |element, (frame, pixels, style), size| {
            let ratio = size.ratio;
            let layout = heatmap_layout(size.width);
            shown_layout.set(Some(layout));
            let style = style.with_scale(ratio);
            if let Some(backend) = CanvasBackend::with_canvas_object(element.clone()) {
                let _ = draw_heatmap_frame(&backend.into_drawing_area(), frame, &layout, &style);
            }
            // The cells: pixels into a window-sized bitmap, scaled into the plot square.
            let offscreen = bitmap
                .with_value(|b| b.clone())
                .or_else(|| document().create_element("canvas").ok()?.dyn_into::<HtmlCanvasElement>().ok());
            let (Some(offscreen), Some(context)) = (offscreen, context_2d(element)) else { return };
            offscreen.set_width(WINDOW as u32);
            offscreen.set_height(WINDOW as u32);
            if pixels.len() == WINDOW * WINDOW * 4 {
                if let (Ok(image), Some(bitmap_context)) = (
                    web_sys::ImageData::new_with_u8_clamped_array_and_sh(Clamped(pixels), WINDOW as u32, WINDOW as u32),
                    context_2d(&offscreen),
                ) {
                    let _ = bitmap_context.put_image_data(&image, 0.0, 0.0);
                    context.set_image_smoothing_enabled(false);
                    let _ = context.draw_image_with_html_canvas_element_and_dw_and_dh(
                        &offscreen,
                        layout.left * ratio,
                        layout.top * ratio,
                        layout.side * ratio,
                        layout.side * ratio,
                    );
                }
            }
            bitmap.set_value(Some(offscreen));
        },
    );
    // The ring over the current (m, n), positioned in CSS pixels on the drawn layout.
    let marker = move || {
        let layout = shown_layout.get()?;
        let ((m, n), (m0, n0)) = (positions.get(), origin.get());
        let (row, col) = (m - m0, n - n0);
        let inside = (0..WINDOW as i64).contains(&row) && (0..WINDOW as i64).contains(&col);
        inside.then(|| {
            let x = layout.left + (col as f64 + 0.5) / WINDOW as f64 * layout.side;
            let y = layout.top + (row as f64 + 0.5) / WINDOW as f64 * layout.side;
            format!("left: {x:.1}px; top: {y:.1}px")
        })
    };

    let cell_at = move |ev: &ev::MouseEvent| -> Option<(i64, i64, f64)> {
        let layout = heatmap_layout(canvas_size.get_untracked().0);
        let (row, col) = layout.cell_at(ev.offset_x() as f64, ev.offset_y() as f64, WINDOW)?;
        let (m0, n0) = origin.get_untracked();
        let score = cells.with_untracked(|c| c.get(row * WINDOW + col).copied())?;
        Some((m0 + row as i64, n0 + col as i64, score))
    };
    let csv = move || {
        let (m0, n0) = origin.get_untracked();
        cells.with_untracked(|c| {
            csv_text(
                &["m", "n", "score"],
                c.iter().enumerate().map(|(i, s)| {
                    vec![(m0 + (i / WINDOW) as i64) as f64, (n0 + (i % WINDOW) as i64) as f64, *s]
                }),
            )
        })
    };

    view! {
        <WidgetCard id="heatmap" explain="Each cell is the score of q at position m (row) and k at position n (column), in a \
            256 × 256 window around the current m and n. With RoPE, every diagonal (fixed n − m) \
            is one colour: the score depends only on the distance.">
            <div class="chart-controls" role="radiogroup" aria-label="heatmap shows">
                {HeatmapMode::ALL
                    .into_iter()
                    .map(|value| view! {
                        <label class="toolbar-field">
                            <input type="radio" name="heatmap-mode" prop:checked=move || mode.get() == value
                                on:change=move |_| lab.apply(Change::Heatmap(value)) />
                            " " {value.label()}
                        </label>
                    })
                    .collect_view()}
            </div>
            <div class="heatmap-layers">
            <canvas
                class="heatmap-canvas"
                node_ref=canvas
                role="img"
                aria-label=move || format!(
                    "Heatmap of the score for m from {} and n from {}, {} cells each; diverging colours, purple negative, green positive",
                    origin.get().0, origin.get().1, WINDOW
                )
                on:pointermove=move |ev| hover.set(cell_at(&ev))
                // A tap has no hover: read the cell it lands on too.
                on:pointerdown=move |ev| hover.set(cell_at(&ev))
                on:pointerleave=move |_| hover.set(None)
                on:click=move |ev| {
                    if let Some((m, n, _)) = cell_at(&ev) {
                        lab.edit(|s| s.move_to(m, n));
                    }
                }
            ></canvas>
            {move || marker().map(|style| view! { <span class="heatmap-marker" aria-hidden="true" style=style></span> })}
            </div>
            <p class="hover-readout" data-testid="heatmap-hover">
                {move || match hover.get() {
                    Some((m, n, score)) => format!("m = {m}, n = {n}, n − m = {}: score {}", short_number((n - m) as f64), short_number(score)),
                    None => "Hover or tap a cell to read it; click to move m and n there.".to_string(),
                }}
            </p>
            <ExportButtons canvas name="heatmap" csv />
        </WidgetCard>
    }
}
