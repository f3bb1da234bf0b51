//! The picture cut into patches, with a grid of buttons over it that picks the query's and the
//! key's patch.

use crate::state::PATCH_GRID;
use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Patches per side.
pub(super) const GRID: usize = PATCH_GRID as usize;

/// Which patch a click picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Query,
    Key,
}

/// The picture with a grid of 64 buttons over it: one tab stop, arrows move, Enter picks.
#[component]
pub(super) fn PatchPicker(
    patches: Memo<((u8, u8), (u8, u8))>,
    role: RwSignal<Role>,
    pick: impl Fn(u8, u8) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let grid = NodeRef::<Div>::new();
    // The one cell in the tab order: the picked patch of the current role, or the last focused.
    let focused = RwSignal::new(None::<usize>);
    // Another role: the tab stop goes to that role's patch.
    Effect::new(move |_| {
        role.track();
        focused.set(None);
    });
    let tab_stop = move || {
        focused.get().unwrap_or_else(|| {
            let ((qx, qy), (kx, ky)) = patches.get();
            let (x, y) = if role.get() == Role::Query { (qx, qy) } else { (kx, ky) };
            y as usize * GRID + x as usize
        })
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let Some(cell) = focused.get_untracked() else { return };
        let (x, y) = ((cell % GRID) as i64, (cell / GRID) as i64);
        let (nx, ny) = match ev.key().as_str() {
            "ArrowLeft" => (x - 1, y),
            "ArrowRight" => (x + 1, y),
            "ArrowUp" => (x, y - 1),
            "ArrowDown" => (x, y + 1),
            "Home" => (0, y),
            "End" => (GRID as i64 - 1, y),
            _ => return,
        };
        ev.prevent_default();
        let (nx, ny) = (nx.clamp(0, GRID as i64 - 1), ny.clamp(0, GRID as i64 - 1));
        let next = ny as usize * GRID + nx as usize;
        focused.set(Some(next));
        let button = grid.get_untracked().and_then(|g| g.query_selector(&format!("[data-cell='{next}']")).ok().flatten());
        if let Some(button) = button.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = button.focus();
        }
    };
    view! {
        <div class="patch-picker">
            <img class="patch-picture" src="assets/patches.svg" width="256" height="256"
                alt="A small landscape: sky and sun at the top right, mountains, a lake, a house at the bottom left and a tree, cut into 8 by 8 patches" />
            <div class="patch-grid" node_ref=grid role="group" aria-label="patches: columns 0 to 7, rows 0 to 7" on:keydown=on_key>
                {(0..GRID * GRID).map(|cell| {
                    let (x, y) = ((cell % GRID) as u8, (cell / GRID) as u8);
                    let is_query = move || patches.get().0 == (x, y);
                    let is_key = move || patches.get().1 == (x, y);
                    let label = move || {
                        let what = match (is_query(), is_key()) {
                            (true, true) => ", query and key",
                            (true, false) => ", query",
                            (false, true) => ", key",
                            _ => "",
                        };
                        format!("column {x}, row {y}{what}")
                    };
                    view! {
                        <button type="button" class="patch" data-cell=cell class:query=is_query class:key=is_key
                            tabindex=move || if tab_stop() == cell { "0" } else { "-1" }
                            aria-label=label
                            on:focus=move |_| focused.set(Some(cell))
                            on:click=move |_| pick(x, y)>
                            <span aria-hidden="true">{move || match (is_query(), is_key()) {
                                (true, true) => "qk",
                                (true, false) => "q",
                                (false, true) => "k",
                                _ => "",
                            }}</span>
                        </button>
                    }
                }).collect_view()}
            </div>
        </div>
    }
}
