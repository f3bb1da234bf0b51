//! A modal `<dialog>` shown while a signal says so (Escape and its Close button call `close`,
//! which turns that signal off), and copying text to the clipboard with a word on how it went.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// A modal dialog shown while `open` is true. Its content is built only while open.
#[component]
pub fn Dialog(
    #[prop(into)] open: Signal<bool>,
    close: Callback<()>,
    title: Signal<String>,
    id: &'static str,
    children: ChildrenFn,
) -> impl IntoView {
    let dialog = NodeRef::<html::Dialog>::new();
    // Styled by a sheet that comes with the dialogs (assets/dialogs.css): shown once it is here.
    let styled = RwSignal::from(crate::dom::style::style_sheet("assets/dialogs.css"));
    Effect::new(move |_| {
        let Some(element) = dialog.get() else { return };
        let element: &web_sys::HtmlDialogElement = element.unchecked_ref();
        match (open.get() && styled.get(), element.open()) {
            (true, false) => {
                let _ = element.show_modal();
            }
            (false, true) => element.close(),
            _ => {}
        }
    });
    let heading = format!("{id}-title");
    let labelled_by = heading.clone();
    // The close event comes a task after the dialog closed (Escape). A key that opened it again
    // in between (Escape, then ? at once) left it open: that event is stale, not a close.
    let closed = move |_| {
        if !dialog.get_untracked().is_some_and(|d| d.open()) {
            close.run(());
        }
    };
    view! {
        <dialog class="dialog" id=id node_ref=dialog aria-labelledby=labelled_by on:close=closed>
            <div class="dialog-head">
                <h2 id=heading>{move || title.get()}</h2>
                <button type="button" class="dialog-close" on:click=move |_| close.run(())>"Close"</button>
            </div>
            {move || open.get().then(|| children())}
        </dialog>
    }
}

/// Copies `text` to the clipboard; `status` says whether it worked (a page without clipboard
/// access, an insecure origin, gets the advice to copy by hand).
pub fn copy_text(text: String, status: RwSignal<&'static str>) {
    let clipboard = window().navigator().clipboard();
    let promise = clipboard.write_text(&text);
    leptos::task::spawn_local(async move {
        let copied = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        status.set(if copied { "Copied." } else { "Could not reach the clipboard: select the text and copy it." });
    });
}
