//! Lists of positions (plane 0, 1, …, a dial per chosen plane): row i is made once, the first
//! time there are more than i rows, and then kept for good, so a step of base moves what the
//! rows show (their reactive attributes and text) instead of rebuilding them.
//!
//! Rows are never removed, only hidden: each row gets an `active` flag (false while there are
//! at most i rows) to hide itself and to stop following data it no longer shows. Removing them
//! leaked: Leptos' `For` makes each row's owner a child of the list's owner, which keeps a weak
//! link to every row it ever had (freed only with the list), so swinging d between its ends
//! with the period table in view took wasm memory from 6.9 to 17 MB in 40 rounds. A kept row
//! costs nothing while hidden: only the rows whose flag flips are woken by a step of d.
//!
//! One compiled list for every caller: the row maker is boxed.

use leptos::prelude::*;
use std::sync::{Arc, Mutex};

/// `count` rows shown, row i from `row(i, active)`; `active` is false while row i is hidden.
pub fn indexed<V: IntoView + 'static>(
    count: impl Fn() -> usize + Send + Sync + 'static,
    row: impl Fn(usize, Signal<bool>) -> V + Send + Sync + 'static,
) -> AnyView {
    boxed(Arc::new(count), Arc::new(move |i, active| row(i, active).into_any()))
}

type Rows = Arc<dyn Fn(usize, Signal<bool>) -> AnyView + Send + Sync>;

/// What the list has made: one flag per row built, and the count last shown.
#[derive(Default)]
struct Made {
    flags: Vec<RwSignal<bool>>,
    shown: usize,
}

impl Made {
    /// Shows `count` rows: returns the flags of the rows between the old and the new count
    /// (to set once the lock is let go), and how many rows must exist.
    fn show(&mut self, count: usize) -> (Vec<(bool, RwSignal<bool>)>, usize) {
        let (low, high) = (count.min(self.shown), count.max(self.shown).min(self.flags.len()));
        let flips = (low..high).filter_map(|i| Some((i < count, *self.flags.get(i)?))).collect();
        self.shown = count;
        (flips, count.max(self.flags.len()))
    }
}

fn boxed(count: Arc<dyn Fn() -> usize + Send + Sync>, row: Rows) -> AnyView {
    // The list follows the count only, not whatever else the count is read from.
    let count = Memo::new(move |_| count());
    let made = Arc::new(Mutex::new(Made::default()));
    let each = {
        let made = made.clone();
        move || {
            let count = count.get();
            let (flips, rows) = made.lock().map_or_else(|_| (Vec::new(), 0), |mut made| made.show(count));
            for (active, flag) in flips {
                flag.set(active);
            }
            0..rows
        }
    };
    let children = move |i: usize| {
        // Owned by the row, which lives as long as the list.
        let flag = RwSignal::new(true);
        if let Ok(mut made) = made.lock() {
            // Rows are built in order, each once: row i is the (i + 1)th flag.
            debug_assert_eq!(made.flags.len(), i);
            made.flags.push(flag);
        }
        row(i, flag.into())
    };
    view! { <For each key=|i| *i children /> }.into_any()
}
