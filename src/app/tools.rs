//! The page's tools in its header: presenter mode, copying the link to this exact view,
//! resetting every setting, and the dialog of keyboard shortcuts.

use crate::lab::Lab;
use crate::state::Change;
use crate::story;
use crate::ui::dialog::copy_text;
use leptos::prelude::*;

/// The header's buttons; `help` opens the shortcuts sheet (the key ? too).
#[component]
pub fn PageTools(lab: Lab, help: RwSignal<bool>, lessons: crate::story::lesson::Lessons) -> impl IntoView {
    let present = lab.select(|s| s.present);
    let status = RwSignal::new("");
    // The state's own address: the address bar waits for a drag or an animation to settle.
    let copy_link = move |_| copy_text(crate::dom::page::address(&super::browser::page_query(lab), true), status);
    view! {
        <div class="page-tools" role="group" aria-label="Page">
            <button type="button" aria-pressed=move || present.get().to_string()
                on:click=move |_| lab.apply(Change::Present(!present.get_untracked()))>
                "Presenter mode" <span class="key-hint" translate="no">" (P)"</span>
            </button>
            <button type="button" on:click=copy_link>"Copy link"</button>
            <button type="button" aria-haspopup="dialog" on:click=move |_| lessons.editing.set(1)>"Make a lesson"</button>
            <button type="button" on:click=move |_| lab.reset()>"Reset" <span class="key-hint" translate="no">" (R)"</span></button>
            // On a touch screen with no keyboard the sheet of keys has nothing to offer: hidden there.
            <button type="button" class="shortcuts-button" aria-haspopup="dialog" on:click=move |_| {
                story::fetch_dialogs();
                help.set(true);
            }>"Shortcuts" <span class="key-hint" translate="no">" (?)"</span></button>
            <span class="copy-status" role="status">{move || status.get()}</span>
        </div>
        {story::dialog(story::Sheet::Shortcuts)}
    }
}
