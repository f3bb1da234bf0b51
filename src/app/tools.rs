//! The page's tools in its header: presenter mode, copying the link to this exact view,
//! resetting every setting, and the sheet of keyboard shortcuts.

use crate::state::Change;
use crate::widgets::dialog::{copy_text, Dialog};
use crate::widgets::registry;
use crate::widgets::Lab;
use leptos::prelude::*;

/// Every shortcut of the page, as the sheet lists them: (keys, what they do).
pub const SHORTCUTS: [(&str, &str); 9] = [
    ("Space", "play or pause the rotation lab"),
    ("← →", "move the query position m by one token"),
    ("Shift + ← →", "move the key position n by one token"),
    ("[ ]", "move m and n together: the score stays"),
    ("R", "reset every setting"),
    ("P", "presenter mode: large type, thick lines"),
    ("?", "this sheet"),
    ("Tab, Shift + Tab", "go from control to control; on a slider ← → or ↑ ↓ step it, Page Up / Down by more"),
    ("Esc", "close a dialog"),
];

/// The header's buttons; `help` opens the shortcuts sheet (the key ? too).
#[component]
pub fn PageTools(lab: Lab, help: RwSignal<bool>) -> impl IntoView {
    let present = lab.select(|s| s.present);
    let status = RwSignal::new("");
    // The state's own address: the address bar waits for a drag or an animation to settle.
    let copy_link = move |_| copy_text(super::browser::address(&lab.state.with_untracked(|s| s.to_query()), true), status);
    view! {
        <div class="page-tools" role="group" aria-label="Page">
            <button type="button" aria-pressed=move || present.get().to_string()
                on:click=move |_| lab.apply(Change::Present(!present.get_untracked()))>
                "Presenter mode (P)"
            </button>
            <button type="button" on:click=copy_link>"Copy link"</button>
            <button type="button" on:click=move |_| lab.reset()>"Reset (R)"</button>
            <button type="button" aria-haspopup="dialog" on:click=move |_| help.set(true)>"Shortcuts (?)"</button>
            <span class="copy-status" role="status">{move || status.get()}</span>
        </div>
        <Dialog open=help close=Callback::new(move |_| help.set(false))
            title=Signal::derive(|| "Keyboard shortcuts".to_string()) id="shortcuts-dialog">
            {registry::sheet(registry::Sheet::Shortcuts)}
        </Dialog>
    }
}

/// The shortcuts sheet's content, fetched the first time it opens (see [`registry::sheet`]).
#[component]
pub fn ShortcutSheet() -> impl IntoView {
    view! {
        <p class="explain">"They work anywhere on the page except while typing in a field; arrow keys and Space act on a control that has the focus first."</p>
        <dl class="shortcut-list">
            {SHORTCUTS.iter().map(|(keys, what)| view! { <dt><kbd>{*keys}</kbd></dt><dd>{*what}</dd> }).collect_view()}
        </dl>
    }
}
