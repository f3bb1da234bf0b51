//! The sheet of keyboard shortcuts: every key the page answers to, and what it does.

use crate::ui::dialog::Dialog;
use leptos::prelude::*;

/// Whether the shortcuts dialog is open: the key ? and the header's button set it.
#[derive(Clone, Copy)]
pub struct ShortcutsOpen(pub RwSignal<bool>);

/// The dialog with the sheet, for the page's [`ShortcutsOpen`]: in the release build both come
/// with the last part (on its way from the first visit), not with the page's frame.
#[component]
pub fn ShortcutsDialog() -> impl IntoView {
    let ShortcutsOpen(help) = expect_context::<ShortcutsOpen>();
    view! {
        <Dialog open=help close=Callback::new(move |_| help.set(false))
            title=Signal::derive(|| "Keyboard shortcuts".to_string()) id="shortcuts-dialog">
            <ShortcutSheet />
        </Dialog>
    }
}

/// Every shortcut of the page, as the sheet lists them: (keys, what they do).
pub const SHORTCUTS: [(&str, &str); 10] = [
    ("Space", "play or pause the rotation lab, while it is on screen (elsewhere Space scrolls)"),
    ("← →", "move the query position m by one token"),
    ("Shift + ← →", "move the key position n by one token"),
    ("[ ]", "move m and n together: the score stays"),
    ("R", "reset every setting"),
    ("P", "presenter mode: large type, thick lines"),
    ("?", "this sheet"),
    ("Tab, Shift + Tab", "go from control to control; on a slider ← → or ↑ ↓ step it, Page Up / Down by more"),
    ("Esc", "close a dialog; during a lesson, leave it and keep the view"),
    ("Page Down, Page Up", "during a lesson (a presentation clicker sends them): the next and the previous step"),
];

/// The shortcuts sheet's content, in the dialog the header's
/// button (and the key ?) opens; the release build fetches it the first time it opens.
#[component]
pub fn ShortcutSheet() -> impl IntoView {
    view! {
        <p class="explain">"They work anywhere on the page except while typing in a field; arrow keys and Space act on a control that has the focus first."</p>
        <dl class="shortcut-list">
            {SHORTCUTS.iter().map(|(keys, what)| view! { <dt><kbd>{*keys}</kbd></dt><dd>{*what}</dd> }).collect_view()}
        </dl>
    }
}
