//! One Leptos component per file. Each reads the shared [`Lab`] from context (or makes its own
//! when mounted alone), calls the core through the derived values, and draws with `charts/`.

pub mod animation;
pub mod canvas;
pub mod clocks;
pub mod controls;
pub mod decay;
pub mod export;
pub mod frequencies;
pub mod heatmap;
pub mod plane_detail;
pub mod readout;
pub mod scores;
pub mod tokens;
pub mod vector_editor;

use crate::rope::{RopeError, Rotary};
use crate::state::{Derived, LabState, Notice};
use leptos::prelude::*;

/// The state every widget shares: parameters, the values derived from them (computed once per
/// change, in one memo), and the notices about corrected input.
#[derive(Clone, Copy)]
pub struct Lab {
    pub state: RwSignal<LabState>,
    pub derived: Memo<Result<Derived, RopeError>>,
    pub notices: RwSignal<Vec<Notice>>,
    /// q, k and the rotation in effect: what every drawing of scores needs, derived once for
    /// all widgets; unchanged when only m, n or r move.
    pub vectors: Memo<Option<(Vec<f64>, Vec<f64>, Rotary)>>,
}

impl Lab {
    pub fn new(state: LabState, notices: Vec<Notice>) -> Self {
        let state = RwSignal::new(state);
        let derived = Memo::new(move |_| state.with(Derived::compute));
        let vectors = Memo::new(move |_| {
            derived.with(|d| d.as_ref().ok().map(|d| (d.q.clone(), d.k.clone(), d.rotary.clone())))
        });
        Self {
            state,
            derived,
            notices: RwSignal::new(notices),
            vectors,
        }
    }

    /// Sets one parameter from a control's text, validated exactly as the URL is; corrections
    /// become notices.
    pub fn set(&self, name: &str, raw: &str) {
        let mut corrections = Vec::new();
        self.state.update(|s| corrections = s.set_param(name, raw));
        if !corrections.is_empty() {
            self.notices.update(|all| all.extend(corrections));
        }
    }

    /// Changes several parameters at once (a new draw, q = k, one-hot vectors), then restores
    /// the invariants between them; corrections become notices.
    pub fn update(&self, change: impl FnOnce(&mut LabState)) {
        let mut corrections = Vec::new();
        self.state.update(|s| {
            change(s);
            corrections = s.normalize();
        });
        if !corrections.is_empty() {
            self.notices.update(|all| all.extend(corrections));
        }
    }

    /// A memo of one slice of the state. Views bind to these, not to the whole state, so that
    /// moving one slider only touches the DOM that shows what changed (every needless write
    /// to an input or a text costs the browser layout and paint on the slider's hot path).
    pub fn select<T>(&self, slice: impl Fn(&LabState) -> T + Send + Sync + 'static) -> Memo<T>
    where
        T: PartialEq + Send + Sync + 'static,
    {
        let state = self.state;
        Memo::new(move |_| state.with(&slice))
    }

    /// A memo of one derived value (`None` only if the core refused the state), for the same reason.
    pub fn select_derived<T>(&self, value: impl Fn(&Derived) -> T + Send + Sync + 'static) -> Memo<Option<T>>
    where
        T: PartialEq + Send + Sync + 'static,
    {
        let derived = self.derived;
        Memo::new(move |_| derived.with(|d| d.as_ref().ok().map(&value)))
    }

    /// Reads one derived value; `None` only if the core refused the state (never for a
    /// validated state).
    pub fn with_derived<T>(&self, f: impl FnOnce(&Derived) -> T) -> Option<T> {
        self.derived.with(|d| d.as_ref().ok().map(f))
    }
}

/// The shared [`Lab`], or a fresh one with default parameters when a widget is mounted alone.
pub fn use_lab() -> Lab {
    use_context::<Lab>().unwrap_or_else(|| {
        let lab = Lab::new(LabState::default(), Vec::new());
        provide_context(lab);
        lab
    })
}

/// Whether the page is dark, shared by widgets that draw.
#[derive(Clone, Copy)]
pub struct DarkMode(pub Signal<bool>);

/// The page's dark mode from context, light when a widget is mounted alone.
pub fn use_dark_mode() -> Signal<bool> {
    use_context::<DarkMode>().map(|d| d.0).unwrap_or_else(|| Signal::stored(false))
}
