//! The clock faces: one face per plane, in rows, each row a pair of canvases (the dials and
//! labels, drawn when the planes, selection, theme or size change; the hands over them, drawn
//! on every step). A row out of view draws nothing, so moving m repaints only the rows a
//! reader sees, instead of one canvas as tall as all the faces (which the browser had to copy
//! whole to the screen on every step).

use crate::charts::{clock_grid_magnified, draw_clock_faces, paint_clock_hands, ChartStyle, ClockFace, ClockGrid};
use crate::dom::canvas::{pointer_offset, use_canvas_frames, use_sized_canvas_chart, CanvasPainter};
use crate::dom::size::{use_in_view, while_in_view};
use crate::lab::{use_chart_style, use_lab};
use crate::state::Change;
use leptos::ev;
use leptos::html::{Canvas, Div};
use leptos::prelude::*;

/// Every plane's clock face, at the drawn positions.
#[component]
pub fn ClockFaces(
    /// Every plane's face, hands at the drawn positions.
    faces: Memo<Vec<ClockFace>>,
    /// The longest pair of q or k: hands are drawn relative to it.
    longest: Memo<f64>,
    selected: Memo<usize>,
    /// The faces' box, and its size (the chapter's GIF takes it).
    container: NodeRef<Div>,
    size: ReadSignal<(f64, f64)>,
) -> impl IntoView {
    let lab = use_lab();
    let style = use_chart_style();
    // The faces' rows follow the state only near the screen: a step of d that changes the
    // number of rows rebuilds them, two canvases each, which just below the heatmap (where the
    // browser keeps this chapter rendered) cost every step of d. The description follows always.
    let described = faces;
    let faces = while_in_view(use_in_view(container), move || faces.get());
    let count = Memo::new(move |_| faces.with(Vec::len));
    let grid = Memo::new(move |_| clock_grid_magnified(size.get().0, count.get(), style.get().magnify));
    // No rows before the container's width is known (a guessed width would lay out a row per face).
    let rows = Memo::new(move |_| if size.get().0 > 0.0 { grid.get().rows } else { 0 });
    // Planes and wavelengths: what the dials and labels show; unchanged when m or n move.
    let statics = Memo::new(move |_| faces.with(|f| f.iter().map(|f| (f.plane, f.wavelength)).collect::<Vec<_>>()));

    // The faces by keyboard: arrows move the selected plane (up and down by a row of faces).
    let keys = move |ev: ev::KeyboardEvent| {
        let planes = count.get_untracked() as i64;
        let columns = grid.get_untracked().columns as i64;
        let by = match ev.key().as_str() {
            "ArrowRight" => 1,
            "ArrowLeft" => -1,
            "ArrowDown" => columns,
            "ArrowUp" => -columns,
            "Home" => -planes,
            "End" => planes,
            _ => return,
        };
        ev.prevent_default();
        lab.apply(Change::Plane((selected.get_untracked() as i64 + by).clamp(0, planes - 1)));
    };

    view! {
        // Few faces (d ≤ 8) fill a compact embed's column only beside the scores (assets/compact.css).
        <div class="clock-layers" node_ref=container tabindex="0" role="img" on:keydown=keys
            class:few-faces=move || described.with(Vec::len) <= 4
            aria-label=move || {
                let plane = selected.get();
                let hands = described.with(|f| f.iter().find(|f| f.plane == plane).map(|f| f.hands));
                let said = hands.map_or_else(String::new, |h| format!(
                    " Its hands are {}° apart and it adds {} to the score.",
                    crate::charts::format::short_number(h.between.to_degrees().round()),
                    crate::charts::format::short_number(h.contribution)
                ));
                format!(
                    "{} clock faces, one per plane: q's hand (filled dot) turned by m·θᵢ, k's hand (ring) by n·θᵢ. \
                     Plane {plane} is selected: click a face, or use the arrow keys, to select another.{said}",
                    described.with(Vec::len)
                )
            }>
            // Rebuilt only when the number of rows changes (d or the width): no keyed list needed.
            {move || (0..rows.get()).map(|row| view! { <ClockRow row grid faces statics longest selected style /> }).collect_view()}
        </div>
    }
}

/// One row of faces: its dials and its hands.
#[component]
fn ClockRow(
    row: usize,
    grid: Memo<ClockGrid>,
    faces: Memo<Vec<ClockFace>>,
    statics: Memo<Vec<(usize, Option<f64>)>>,
    longest: Memo<f64>,
    selected: Memo<usize>,
    style: Memo<ChartStyle>,
) -> impl IntoView {
    let lab = use_lab();
    let layout = Memo::new(move |_| {
        let grid = grid.get();
        (grid.row_range(row), grid.row(row))
    });

    let dials = NodeRef::<Canvas>::new();
    use_sized_canvas_chart(
        dials,
        move || {
            let (range, row_grid) = layout.get();
            let faces: Vec<ClockFace> = statics.with(|s| {
                s.get(range)
                    .unwrap_or_default()
                    .iter()
                    .map(|&(plane, wavelength)| ClockFace { plane, hands: Default::default(), wavelength })
                    .collect()
            });
            (faces, row_grid, selected.get(), style.get())
        },
        |_, (_, row_grid, ..)| Some(row_grid.height()),
        |area, (faces, row_grid, selected, style), ratio| {
            let _ = draw_clock_faces(area, faces, row_grid, Some(*selected), &style.with_scale(ratio));
        },
    );

    let hands = NodeRef::<Canvas>::new();
    use_canvas_frames(
        hands,
        move || {
            let (range, row_grid) = layout.get();
            (faces.with(|f| f.get(range).unwrap_or_default().to_vec()), row_grid, longest.get(), style.get())
        },
        |_, _| None,
        |surface, (faces, row_grid, longest, style), size| {
            let mut painter = CanvasPainter::for_surface(surface);
            paint_clock_hands(&mut painter, faces, row_grid, *longest, &style.with_scale(size.ratio));
            painter.flush();
        },
    );
    let select = move |ev: ev::MouseEvent| {
        let (range, row_grid) = layout.get_untracked();
        let (x, y) = pointer_offset(&ev);
        if let Some(index) = row_grid.face_at(x, y) {
            lab.apply(Change::Plane((range.start + index) as i64));
        }
    };

    view! {
        <div class="clock-row">
            <canvas class="clock-canvas" node_ref=dials aria-hidden="true"></canvas>
            <canvas class="clock-hands" node_ref=hands aria-hidden="true" on:click=select></canvas>
        </div>
    }
}
