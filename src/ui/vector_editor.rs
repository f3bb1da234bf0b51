//! q and k themselves: which dimensions pair into which plane in the current layout, shown on
//! the vector, and ways to choose the vectors (a new random draw, k = q, one-hot, typed values).

use crate::dom::size::{use_in_view, while_in_view};
use crate::lab::use_lab;
use crate::rope::Layout;
use crate::state::{fmt_list, param, Change};
use crate::ui::field::{FieldMessage, FieldStatus};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The dimension strip and the vector choices.
#[component]
pub fn VectorEditor() -> impl IntoView {
    let lab = use_lab();
    let selected = lab.select(|s| s.plane);
    // owner[dim] = the plane that dimension belongs to, in the current layout.
    let owners = lab.select_derived(|d| {
        let rotary = &d.vectors.rotary;
        let mut owner = vec![0usize; rotary.dim()];
        for plane in 0..rotary.planes() {
            let (a, b) = rotary.plane_dims(plane);
            owner[a] = plane;
            owner[b] = plane;
        }
        owner
    });
    let pair = Memo::new(move |_| {
        let plane = selected.get();
        lab.with_derived(|d| {
            let rotary = &d.vectors.rotary;
            rotary.plane_dims(plane.min(rotary.planes().saturating_sub(1)))
        })
    });
    let layout = lab.select(|s| s.layout);
    // (rotating, d): how many leading dimensions rotate (all of them unless partial rotary or p-RoPE
    // says otherwise), and the head dimension.
    let rotating = lab.select_derived(|d| (d.frequencies.rotary_dim, d.vectors.rotary.dim()));
    // The strip's d cells are rebuilt with d, the layout and the selection: only while the strip
    // is on screen (a step of d elsewhere on the page would otherwise rebuild 128 to 1,024 cells
    // nobody sees).
    let strip = NodeRef::<leptos::html::Div>::new();
    let cells = while_in_view(use_in_view(strip), move || (owners.get().unwrap_or_default(), selected.get()));
    // Formatted only when q or k change, not on every move of m or n.
    let q = lab.select_derived(|d| d.vectors.q.clone());
    let k = lab.select_derived(|d| d.vectors.k.clone());
    // And only near the screen: a new d rewrites both fields, which the browser lays out again
    // even just off screen.
    let fields = NodeRef::<leptos::html::Div>::new();
    let (seen, focused) = (use_in_view(fields), RwSignal::new(false));
    let fields_near = Memo::new(move |_| seen.get() || focused.get());
    let text = |v: &Option<Vec<f64>>| v.as_deref().map(fmt_list).unwrap_or_default();
    let q_text = while_in_view(fields_near, move || q.with(text));
    let k_text = while_in_view(fields_near, move || k.with(text));
    // A field that gets focus while its text waits shows the current vector at once, inside
    // `focus()` itself: before the reader types or selects (the observer says it is near a frame
    // later, and replacing the text then would lose what was typed or selected). A field whose
    // text does not wait keeps what is in it, typed text too.
    let bring_up_to_date = move |ev: leptos::ev::FocusEvent| {
        let Some(field) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok()) else { return };
        let (shown, current) = match field.id().as_str() {
            "q-field" => (q_text.get_untracked(), q.with_untracked(text)),
            "k-field" => (k_text.get_untracked(), k.with_untracked(text)),
            _ => return,
        };
        if shown != current {
            // A field selected whole before it was focused (as a select-all does) stays so.
            let length = field.value().encode_utf16().count() as u32;
            let whole =
                length > 0 && field.selection_start().ok().flatten() == Some(0) && field.selection_end().ok().flatten() == Some(length);
            field.set_value(&current);
            if whole {
                field.select();
            }
        }
        // And the texts stop waiting now, not when the observer reports: the same value, set
        // again, moves neither the caret nor the selection.
        focused.set(true);
    };
    let (q_status, k_status) = (FieldStatus::new(lab, "q"), FieldStatus::new(lab, "k"));

    view! {
        <div class="vector-editor">
            <h3>"Which dimensions make each plane"</h3>
            <p class="explain">
                {move || {
                    let (a, b) = pair.get().unwrap_or((0, 0));
                    let (r, d) = rotating.get().unwrap_or((0, 0));
                    let how = match layout.get() {
                        Layout::Interleaved => "interleaved: plane i pairs dimensions 2i and 2i+1".to_string(),
                        Layout::Half if r == d => "rotate_half: plane i pairs dimensions i and i + d/2".to_string(),
                        Layout::Half => format!(
                            "rotate_half over the first {r} of the d = {d} dimensions, the ones that rotate: plane i pairs \
                             dimensions i and i + {} for i < {}; the planes after pair the remaining dimensions, which do not turn",
                            r / 2,
                            r / 2
                        ),
                    };
                    format!("{how}. Plane {} is dimensions {a} and {b} of q and of k.", selected.get())
                }}
                " Why two layouts: " <a href="#layouts">"Two pairings, one idea"</a>", the next chapter."
            </p>
            <div class="dim-strip" node_ref=strip role="img"
                aria-label=move || {
                    let (a, b) = pair.get().unwrap_or((0, 0));
                    format!("The {} dimensions of q and k; the selected plane's dimensions {a} and {b} are marked", owners.with(|o| o.as_ref().map_or(0, Vec::len)))
                }>
                // Cells are static, rebuilt with the selection: a reactive closure per cell,
                // inside a list that d rebuilds, was never freed (memory grew ~50 KB per change
                // of d in the soak test).
                {move || {
                    let (owners, selected) = cells.get();
                    owners.into_iter().enumerate().map(|(dim, plane)| {
                    view! {
                        <span
                            class="dim-cell"
                            class:odd-plane=plane % 2 == 1
                            class:selected=selected == plane
                            title=format!("dimension {dim}: plane {plane}")
                            on:click=move |_| lab.apply(Change::Plane(plane as i64))
                        ></span>
                    }
                    }).collect_view()
                }}
            </div>

            <h3>"Choose q and k"</h3>
            <div class="vector-buttons">
                <button type="button" on:click=move |_| lab.edit(|s| s.redraw_vectors())>"New random q and k"</button>
                <button type="button" on:click=move |_| lab.edit(|s| s.key_equals_query())>"k = q"</button>
                <button type="button" on:click=move |_| {
                    let (dimension, _) = pair.get_untracked().unwrap_or((0, 0));
                    lab.edit(|s| s.one_hot(dimension))
                }>"One-hot on the selected plane"</button>
                <button type="button" on:click=move |_| lab.edit(|s| s.use_seeded_vectors())>"Back to the seeded draw"</button>
            </div>
            <div class="vector-fields" node_ref=fields on:focusin=bring_up_to_date on:focusout=move |_| focused.set(false)>
                <label class="q-text" for="q-field">"q (comma-separated, d numbers)"</label>
                <textarea id="q-field" rows="3" spellcheck="false"
                    aria-invalid=q_status.invalid() aria-describedby=q_status.id.clone()
                    prop:value=move || q_text.get()
                    on:change=move |ev| lab.set_text(&param::Q, &event_target_value(&ev))></textarea>
                <FieldMessage status=q_status />
                <label class="k-text" for="k-field">"k (comma-separated, d numbers)"</label>
                <textarea id="k-field" rows="3" spellcheck="false"
                    aria-invalid=k_status.invalid() aria-describedby=k_status.id.clone()
                    prop:value=move || k_text.get()
                    on:change=move |ev| lab.set_text(&param::K, &event_target_value(&ev))></textarea>
                <FieldMessage status=k_status />
            </div>
        </div>
    }
}
