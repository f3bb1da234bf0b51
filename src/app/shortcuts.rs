//! Keyboard shortcuts that work anywhere on the page (the sheet in `tools.rs` lists them),
//! except while the reader types in a text field. Keys a focused control uses itself (arrows on
//! a slider, Space on a button) are left to it.

use crate::dom::keys::{typing_in, within};
use crate::lab::Lab;
use crate::state::Change;
use leptos::ev;
use leptos::prelude::*;

/// Whether `target` is a control that uses arrow keys or Space itself.
fn control(target: Option<&web_sys::EventTarget>) -> bool {
    within(target, "button, a[href], input, select, textarea, summary, [role=slider], [role=radio], canvas[tabindex], dialog")
}

/// Installs the page's shortcuts for as long as the page lives; `help` opens the sheet.
pub fn use_page_shortcuts(lab: Lab, help: RwSignal<bool>) {
    let keys = window_event_listener(ev::keydown, move |ev| {
        // Every key a slider moves by comes here: the key is looked at first, and the focused
        // element only for the keys this handles.
        let key = ev.key();
        // The browser's search of the page: the chapters not fetched yet come too (release build).
        if (ev.ctrl_key() || ev.meta_key()) && key.eq_ignore_ascii_case("f") {
            crate::story::fetch_all();
            return;
        }
        if !matches!(key.as_str(), "]" | "[" | "p" | "P" | "r" | "R" | "?" | " " | "ArrowRight" | "ArrowLeft")
            || ev.ctrl_key()
            || ev.meta_key()
            || ev.alt_key()
        {
            return;
        }
        let target = ev.target();
        // Arrows and Space belong to a focused control (a slider, a button); every key, to a
        // text field. A slider's arrow stops at the first test.
        if (matches!(key.as_str(), " " | "ArrowRight" | "ArrowLeft") && control(target.as_ref())) || typing_in(target.as_ref()) {
            return;
        }
        // Keys in an open dialog (the shortcut sheet, an embed dialog) are its own. Asked of the
        // page, which closes a dialog at once on Escape and hands the focus back: the signal
        // that opened it follows only with the dialog's close event, a task later, and a key
        // pressed in between was lost.
        if within(target.as_ref(), "dialog[open]") {
            return;
        }
        // A focused menu takes letters itself (type-ahead): P, R and ? wait until it is left.
        if within(target.as_ref(), "select") && matches!(key.as_str(), "p" | "P" | "r" | "R" | "?") {
            return;
        }
        match key.as_str() {
            "]" => {
                lab.shift(1, true);
            }
            "[" => {
                lab.shift(-1, true);
            }
            "p" | "P" => lab.apply(Change::Present(!lab.state.with_untracked(|s| s.present))),
            "r" | "R" => lab.reset(),
            "?" => {
                crate::story::fetch_dialogs();
                help.set(true);
            }
            // Space plays the rotation lab only while it is on screen: elsewhere it scrolls the
            // page, as readers (and a presenter) expect.
            " " if super::browser::on_screen(crate::story::clocks::ID) => lab.playing.update(|p| *p = !*p),
            "ArrowRight" | "ArrowLeft" => {
                let by = if key == "ArrowRight" { 1 } else { -1 };
                let (m, n) = lab.state.with_untracked(|s| (s.m, s.n));
                lab.apply(if ev.shift_key() { Change::N(n + by) } else { Change::M(m + by) });
            }
            _ => return,
        }
        ev.prevent_default();
    });
    on_cleanup(move || keys.remove());
}
