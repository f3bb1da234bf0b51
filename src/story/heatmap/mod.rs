//! The score heatmap (`data-widget="heatmap"`): q_m · k_n over a 256 × 256 window of positions
//! around the current m and n. With RoPE every diagonal is one colour (the score depends only on
//! n − m); without rotation the map is flat; with sinusoidal encodings added to q and k the
//! stripes blur, because the cross terms depend on m and n themselves. Between them, what RoPE
//! replaced: a bias added to the score by n − m, T5's learned buckets and ALiBi's −slope·|n − m|,
//! a V across the map (one straight line each side of the main diagonal).

mod cells;
mod notes;

use crate::charts::format::{fixed, short_number, whole_number};
use crate::charts::{draw_heatmap_frame, heatmap_layout_magnified, heatmap_limit, HeatmapFrame};
use crate::dom::canvas::{pointer_offset, use_canvas_frames};
use crate::dom::size::{use_in_view, while_in_view};
use crate::lab::{use_chart_style, use_lab};
use crate::quiz::planes::diagonal;
use crate::rope::{dot, frequencies, score_diagonals, score_window, t5_bucket, HeatmapMode, ModeInputs, Rotary, ScalingMethod};
use crate::state::{fmt_f64, Change};
use crate::ui::card::WidgetCard;
use crate::ui::check::Check;
use crate::ui::export::{base_and_dim, csv_text, ExportButtons};
use cells::{window_origin, Scores, MARGIN, WINDOW};
use leptos::ev;
use leptos::html::Canvas;
use leptos::prelude::*;
use notes::{described, mode_note};
use plotters::prelude::IntoDrawingArea;
use std::sync::Arc;

/// The chapter's id (`embed=heatmap`, `data-widget`): never changes meaning once published.
pub const ID: &str = "heatmap";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "The score for every pair of positions: none, added, biased, rotated";

/// The heatmap with its mode, hover readout and export.
#[component]
pub fn HeatmapWidget() -> impl IntoView {
    let lab = use_lab();
    let style = use_chart_style();
    let mode = lab.select(|s| s.heatmap);
    let positions = lab.select(|s| (s.m, s.n));
    // (m, n) placed by a click or a key on the map: the window holds still for it, so the cell
    // stays under the pointer (a slider near the edge recentres the window, a click does not).
    let placed = StoredValue::new(None::<(i64, i64)>);
    let origin = Memo::new(move |previous: Option<&(i64, i64)>| {
        let (m, n) = positions.get();
        let margin = if placed.get_value() == Some((m, n)) { 0 } else { MARGIN };
        window_origin(previous.copied(), m, n, margin)
    });
    let vectors = lab.vectors;
    // The base and dimension of the sinusoidal encodings the second mode adds.
    let params = lab.select_derived(|d| d.params);
    // The seed T5's bucket biases are drawn from, like q and k.
    let seed = lab.select(|s| s.seed);
    // With context extension on, the map can show the original θᵢ instead (`unscaled=1`): what
    // the model would do beyond orig without it.
    let scaled = lab.select(|s| s.scaling != ScalingMethod::None);
    let unscaled = lab.select(|s| (s.unscaled && s.scaling != ScalingMethod::None).then(|| (s.unscaled_params(), s.layout)));
    // The original θᵢ's rotation when the map shows them (None otherwise).
    let original = move |params| {
        unscaled.with(|u| {
            let (scaling, layout) = u.as_ref()?;
            Some(Rotary::new(*layout, &frequencies(params, scaling).ok()?))
        })
    };
    // The scores of the `size` × `size` window at `origin`: one evaluation per distinct distance
    // (and per position for the sinusoidal cross terms), kept per distance where they can be.
    let window = move |origin: (i64, i64), size: usize| {
        let Some(params) = params.get() else { return Scores::Cells(Vec::new()) };
        let original = original(params);
        let (mode, seed) = (mode.get(), seed.get());
        vectors.with(|v| {
            let Some(v) = v.as_ref() else { return Scores::Cells(Vec::new()) };
            let rotary = original.as_ref().unwrap_or(&v.rotary);
            match score_diagonals(rotary, &v.q, &v.k, origin, size, mode, seed) {
                Some(diagonals) => Scores::Diagonals(diagonals),
                None => Scores::Cells(score_window(rotary, &v.q, &v.k, origin, size, mode, ModeInputs { params, seed })),
            }
        })
    };
    let cells = Memo::new(move |_| window(origin.get(), WINDOW));
    let limit = Memo::new(move |_| cells.with(|c| heatmap_limit(c.values())));
    // The cell being read (m, n): under the pointer, tapped, or moved to with the arrow keys.
    let probe = RwSignal::new(None::<(i64, i64)>);
    let reading = Memo::new(move |_| {
        let (m, n) = probe.get()?;
        let (m0, n0) = origin.get();
        let score = cells.with(|c| c.at(m - m0, n - n0, WINDOW))?;
        Some((m, n, score))
    });
    // For the modes that add a bias to q·k: the bias and q·k, so the readout can show the sum.
    let bias = Memo::new(move |_| {
        let (mode, seed) = (mode.get(), seed.get());
        vectors.with(|v| v.as_ref().and_then(|v| Some((mode.bias(&v.q, &v.k, seed)?, dot(&v.q, &v.k)))))
    });
    let parts = move |m: i64, n: i64| bias.with(|b| b.as_ref().map(|(bias, plain)| (*plain, bias.at(n - m))));
    let shown_layout = RwSignal::new(None::<crate::charts::HeatmapLayout>);

    let canvas = NodeRef::<Canvas>::new();
    // The canvas's description follows every step. Near the screen it gives the colour limits
    // (the whole window's); far from it, only the score at (m, n), computed alone, so that a
    // slider step does not compute 65,536 cells nobody sees.
    let in_view = use_in_view(canvas);
    let description = move || {
        let (m, n) = positions.get();
        let (m0, n0) = origin.get();
        let head = format!(
            "Heatmap of the score {}, for m from {m0} and n from {n0}, {WINDOW} cells each; diverging colours",
            described(mode.get())
        );
        if in_view.get() {
            let here = cells.with(|c| c.at(m - m0, n - n0, WINDOW)).map_or_else(|| "—".to_string(), short_number);
            let limit = short_number(limit.get());
            format!("{head}, purple negative down to −{limit}, green positive up to {limit}. At m = {m}, n = {n}: {here}")
        } else {
            let here = window((m, n), 1).at(0, 0, 1).map_or_else(|| "—".to_string(), short_number);
            format!("{head}, purple negative, green positive. At m = {m}, n = {n}: {here}")
        }
    };
    // The frame (axes, colour bar) is redrawn only when the window moves or the theme or size
    // changes; the cells are a 256 × 256 canvas of their own over the plot square, scaled by
    // the browser, so that a step of base or d writes 65,536 pixels and no more; the limits
    // are text over the frame (issue 9).
    let canvas_size = use_canvas_frames(
        canvas,
        move || (HeatmapFrame { origin: origin.get(), size: WINDOW, limit: None }, style.get()),
        |width, (_, style)| Some(heatmap_layout_magnified(width, style.magnify).height()),
        move |surface, (frame, style), size| {
            // The margins grow with presenter mode's larger labels.
            let layout = heatmap_layout_magnified(size.width, style.magnify);
            shown_layout.set(Some(layout));
            let style = style.with_scale(size.ratio);
            let _ = draw_heatmap_frame(&surface.backend().into_drawing_area(), frame, &layout, &style);
        },
    );
    let cells_canvas = NodeRef::<Canvas>::new();
    let latest_pixels = StoredValue::new_local(None::<cells::Pixels>);
    let printing = crate::dom::size::printing();
    Effect::new(move |_| {
        if !in_view.get() {
            return;
        }
        let pixels = cells.with(|c| cells::pixels(c, limit.get(), WINDOW));
        // On paper, at once: the print does not wait for the next frame.
        if printing.get() {
            if let Some(element) = cells_canvas.get() {
                cells::draw(&element, pixels, WINDOW);
            }
            return;
        }
        let waiting = latest_pixels.with_value(Option::is_some);
        latest_pixels.set_value(Some(pixels));
        // Reading the node ref also runs this again once the canvas is mounted.
        if cells_canvas.get().is_none() || waiting {
            return;
        }
        request_animation_frame(move || {
            let Some(Some(pixels)) = latest_pixels.try_update_value(Option::take) else {
                return; // gone, or drawn already
            };
            let Some(Some(element)) = cells_canvas.try_get_untracked() else { return };
            cells::draw(&element, pixels, WINDOW);
        });
    });
    // The limits as last drawn: out of view they wait with the cells (reading `limit` would
    // compute the whole window on every step of base).
    let shown_limit = Memo::new(move |last: Option<&Option<f64>>| if in_view.get() { Some(limit.get()) } else { last.copied().flatten() });
    let limit_label = move |t: f64| {
        let (layout, limit) = (shown_layout.get()?, shown_limit.get()?);
        Some((fixed(layout.legend_label_x(), 1) + "px", fixed(layout.legend_label_y(t), 1) + "px", short_number(t * limit)))
    };
    let limit_labels = [1.0, 0.0, -1.0].map(|t| {
        view! {
            <span class="heatmap-limit" aria-hidden="true" hidden=move || shown_layout.with(Option::is_none)
                style:left=move || limit_label(t).map(|l| l.0) style:top=move || limit_label(t).map(|l| l.1)>
                {move || limit_label(t).map(|l| l.2)}
            </span>
        }
    });
    let square = move |pick: fn(&crate::charts::HeatmapLayout) -> f64| move || shown_layout.get().map(|l| fixed(pick(&l), 1) + "px");
    // Rings over the current (m, n) and over the cell being read, at their centres in CSS
    // pixels on the drawn layout; None while the cell is outside the window.
    let place = move |cell: Option<(i64, i64)>| {
        let layout = shown_layout.get()?;
        let ((m, n), (m0, n0)) = (cell?, origin.get());
        let (row, col) = (m - m0, n - n0);
        let inside = (0..WINDOW as i64).contains(&row) && (0..WINDOW as i64).contains(&col);
        inside.then(|| {
            let x = layout.left + (col as f64 + 0.5) / WINDOW as f64 * layout.side;
            let y = layout.top + (row as f64 + 0.5) / WINDOW as f64 * layout.side;
            (x, y)
        })
    };
    // Moved only near the screen, like the map under them (a step of m or n far away left
    // two path writes a step).
    let marker = while_in_view(in_view, move || place(Some(positions.get())));
    let probe_marker = while_in_view(in_view, move || place(probe.get().filter(|p| *p != positions.get())));

    let cell_at = move |ev: &ev::MouseEvent| -> Option<(i64, i64)> {
        let layout = heatmap_layout_magnified(canvas_size.get_untracked().0, style.get_untracked().magnify);
        let (x, y) = pointer_offset(ev);
        let (row, col) = layout.cell_at(x, y, WINDOW)?;
        let (m0, n0) = origin.get_untracked();
        Some((m0 + row as i64, n0 + col as i64))
    };
    let move_here = move |(m, n): (i64, i64)| {
        placed.set_value(Some((m, n)));
        lab.edit(|s| s.move_to(m, n));
    };
    // On a touch screen a tap has no hover: the first tap on a cell reads it, a second tap on
    // the same cell moves m and n there. A mouse reads on hover and moves on click.
    // The click acts on the cell the pointer went down on: pointer events carry fractional
    // offsets, click events rounded ones, which near a cell's edge (cells are about a pixel
    // wide) named the neighbouring cell.
    let touch_armed = StoredValue::new(None::<bool>);
    let pressed = StoredValue::new(None::<(i64, i64)>);
    let on_pointer_down = move |ev: ev::PointerEvent| {
        let cell = cell_at(&ev);
        let touch = ev.pointer_type() != "mouse";
        touch_armed.set_value(touch.then(|| cell.is_some() && probe.get_untracked() == cell));
        pressed.set_value(cell);
        probe.set(cell);
    };
    let on_click = move |ev: ev::MouseEvent| {
        let Some(cell) = pressed.get_value().or_else(|| cell_at(&ev)) else { return };
        pressed.set_value(None);
        if touch_armed.get_value() == Some(false) {
            return; // a first tap: read only
        }
        probe.set(Some(cell));
        move_here(cell);
    };
    // The keyboard: arrows move the cell being read (Shift: 16 cells), Enter or Space moves m
    // and n there, Escape stops reading.
    let on_key = move |ev: ev::KeyboardEvent| {
        let step = if ev.shift_key() { 16 } else { 1 };
        let (dm, dn) = match ev.key().as_str() {
            "ArrowUp" => (-step, 0),
            "ArrowDown" => (step, 0),
            "ArrowLeft" => (0, -step),
            "ArrowRight" => (0, step),
            "Enter" | " " => {
                if let Some(cell) = probe.get_untracked() {
                    ev.prevent_default();
                    move_here(cell);
                }
                return;
            }
            "Escape" => {
                probe.set(None);
                return;
            }
            _ => return,
        };
        ev.prevent_default();
        let (m, n) = probe.get_untracked().unwrap_or_else(|| positions.get_untracked());
        let (m0, n0) = origin.get_untracked();
        let last = WINDOW as i64 - 1;
        probe.set(Some(((m + dm).clamp(m0, m0 + last), (n + dn).clamp(n0, n0 + last))));
    };
    let csv = move || {
        let (m0, n0) = origin.get_untracked();
        cells.with_untracked(|c| {
            csv_text(
                &["m", "n", "score"],
                c.grid(WINDOW)
                    .iter()
                    .enumerate()
                    .map(|(i, s)| vec![(m0 + (i / WINDOW) as i64) as f64, (n0 + (i % WINDOW) as i64) as f64, *s]),
            )
        })
    };

    view! {
        <WidgetCard id=ID title=TITLE explain="Each cell is the score of q at position m (row) and k at position n (column), in a \
            256 × 256 window around the current m and n. Compare the five ways, in order: no position, sinusoids added to q and k, \
            a bias added to the score by distance (T5's learned buckets; ALiBi's −slope·|n − m|, a V across the map, one straight line \
            each side of the main diagonal), and RoPE's rotation.">
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
            <p class="explain heatmap-mode-note">{move || mode_note(mode.get())}</p>
            <label class="toolbar-field" hidden=move || !scaled.get()>
                <input type="checkbox" prop:checked=move || unscaled.get().is_some()
                    on:change=move |ev| lab.apply(Change::Unscaled(event_target_checked(&ev))) />
                " original θᵢ, without context extension (orig is the context length the model was trained on; m and n past it are "
                "positions it never saw: "<a href="#scaling">"Context extension"</a>", a later chapter, explains it)"
            </label>
            <div class="heatmap-layers">
            <canvas
                class="heatmap-canvas"
                node_ref=canvas
                role="img"
                aria-label=description
                tabindex="0"
                aria-describedby="heatmap-hover"
                on:pointermove=move |ev: ev::PointerEvent| {
                    if ev.pointer_type() == "mouse" {
                        probe.set(cell_at(&ev));
                    }
                }
                on:pointerdown=on_pointer_down
                on:pointerleave=move |ev: ev::PointerEvent| {
                    if ev.pointer_type() == "mouse" {
                        probe.set(None);
                    }
                }
                on:click=on_click
                on:keydown=on_key
            ></canvas>
            <canvas class="heatmap-cells" node_ref=cells_canvas width=WINDOW height=WINDOW aria-hidden="true"
                hidden=move || shown_layout.with(Option::is_none)
                style:left=square(|l| l.left) style:top=square(|l| l.top) style:width=square(|l| l.side) style:height=square(|l| l.side)></canvas>
            {limit_labels}
            // The rings are shapes in one SVG over the map, moved by their coordinates: a step
            // of m or n repaints a ring in place. (An element moved over the map's canvas, by
            // left/top or by a transform, had Chromium lay out the composited layers again on
            // every step: about 0.5 ms of main thread.)
            <svg class="heatmap-rings" aria-hidden="true">
                <g class="heatmap-marker">
                    <path class="ring-halo" d=move || ring(marker.get(), 8.0, false)></path>
                    <path class="ring-line" d=move || ring(marker.get(), 6.0, false)></path>
                </g>
                <g class="heatmap-marker heatmap-probe">
                    <path class="ring-halo" d=move || ring(probe_marker.get(), 8.0, true)></path>
                    <path class="ring-line" d=move || ring(probe_marker.get(), 6.0, true)></path>
                </g>
            </svg>
            </div>
            <p class="hover-readout" class:hint=move || reading.with(Option::is_none) data-testid="heatmap-hover" id="heatmap-hover" aria-live="polite"
                data-m=move || reading.get().map(|(m, _, _)| m.to_string())
                data-n=move || reading.get().map(|(_, n, _)| n.to_string())
                data-value=move || reading.get().map(|(_, _, score)| fmt_f64(score))
                data-bias=move || reading.get().and_then(|(m, n, _)| parts(m, n)).map(|(_, bias)| fmt_f64(bias))>
                {move || match reading.get() {
                    Some((m, n, score)) => {
                        let head = format!("m = {}, n = {}, n − m = {}: score {}", whole_number(m), whole_number(n), whole_number(n - m), short_number(score));
                        match parts(m, n) {
                            Some((plain, bias)) => {
                                let bucket = if mode.get() == HeatmapMode::T5 { format!(" (bucket {})", t5_bucket(n - m)) } else { String::new() };
                                format!("{head} = q·k {} + bias {}{bucket}", short_number(plain), short_number(bias))
                            }
                            None => head,
                        }
                    }
                    None => "Hover a cell to read it, click to move m and n there. On a touch screen: tap to read, \
                             tap again to move. Keyboard: arrow keys read, Enter moves."
                        .to_string(),
                }}
            </p>
            <ExportButtons name="heatmap" figure=".heatmap-layers" csv=Callback::new(move |()| csv())
                caption=Callback::new(move |()| {
                    let ((m0, n0), last) = (origin.get_untracked(), WINDOW as i64 - 1);
                    lab.state.with_untracked(|s| format!(
                        "Score q_m · k_n, {}, m = {}–{}, n = {}–{}, {}", mode.get_untracked().label(), m0, m0 + last, n0, n0 + last, base_and_dim(s.base, s.dim)))
                }) />
            <Check name="diagonal" look="the map above (a diagonal runs from top left to bottom right)" ask=Arc::new(move || {
                // Four cells down one diagonal from (m, n), as the map computes them.
                let (Some(params), mode, seed) = (params.get(), mode.get(), seed.get()) else { return Default::default() };
                let original = original(params);
                vectors.with(|v| {
                    let v = v.as_ref()?;
                    let rotary = original.as_ref().unwrap_or(&v.rotary);
                    Some(diagonal(rotary, &v.q, &v.k, positions.get(), mode, ModeInputs { params, seed }))
                })
                .unwrap_or_default()
            }) />
        </WidgetCard>
    }
}

/// The outline of a ring of radius `r` around `centre` (a square of half side `r` when
/// `square`), in CSS pixels to a tenth; nothing while the ring is hidden.
fn ring(centre: Option<(f64, f64)>, r: f64, square: bool) -> String {
    let Some((x, y)) = centre else { return String::new() };
    let (left, side) = (fixed(x - r, 1), fixed(2.0 * r, 1));
    if square {
        format!("M{left} {}h{side}v{side}h-{side}z", fixed(y - r, 1))
    } else {
        let r = fixed(r, 1);
        format!("M{left} {}a{r} {r} 0 1 0 {side} 0a{r} {r} 0 1 0 -{side} 0", fixed(y, 1))
    }
}
