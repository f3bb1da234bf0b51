//! The shared reactive state every chapter reads: [`Lab`] (the parameters as signals over
//! `state/`, the values derived from them once per change, and the notices), the selections
//! views bind to, and the page-wide context (theme, chart style, whether this is the full page).
//! A chapter takes it from context with [`use_lab`], or makes its own when mounted alone.

use crate::charts::ChartStyle;
use crate::rope::RopeError;
use crate::state::{Change, Derived, LabState, Notice, Param, Vectors};
use leptos::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

/// The parameters that have a field on the page: corrections of them are said next to it.
#[rustfmt::skip]
pub const FIELD_PARAMS: [&str; 26] = [
    "base", "dim", "m", "n", "factor", "orig", "r", "seed", "plane", "q", "k", "compare", "p", "shift", "target", "seq",
    "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "low_freq", "high_freq", "partial", "short_factor", "long_factor", "scale_base",
];

/// The state every widget shares: parameters, the values derived from them (computed once per
/// change, in one memo), and the notices about corrected input.
#[derive(Clone, Copy)]
pub struct Lab {
    /// Read-only: every change goes through [`Lab::write`] (and the methods built on it), which
    /// keeps the selections up to date.
    pub state: ReadSignal<LabState>,
    set_state: WriteSignal<LabState>,
    pub derived: Memo<Result<Derived, RopeError>>,
    /// What was corrected when the page loaded (the URL), and later corrections of parameters
    /// that have no field: shown at the top of the page until dismissed.
    pub notices: RwSignal<Vec<Notice>>,
    /// Corrections of what a person typed or set in a field, shown next to that field while
    /// they still apply (see [`Lab::field_messages`]).
    pub field_notices: RwSignal<Vec<Notice>>,
    /// q, k and the rotation in effect, derived once for all widgets; unchanged when only m,
    /// n or r move.
    pub vectors: Memo<Option<Vectors>>,
    /// Whether the rotation lab's animation plays: the lab's button and the page's space key.
    pub playing: RwSignal<bool>,
    /// What [`Lab::select`] and [`Lab::select_derived`] keep up to date on every write (those of
    /// a chapter that sleeps, once it wakes or the state rests).
    selections: StoredValue<Vec<Selection>, LocalStorage>,
    /// The catch-up of sleeping chapters, due once the state has rested ([`CATCH_UP_AFTER`]).
    catch_up: StoredValue<Option<TimeoutHandle>, LocalStorage>,
}

/// A selection's refresh, and the chapter it belongs to when that chapter may sleep.
struct Selection {
    sleeper: Option<Sleeper>,
    refresh: Refresh,
}

/// How long the state must rest before chapters far from the screen catch up with it: longer
/// than the gap between two steps of a slider dragged or a key held (so that a drag moves only
/// what is near the screen), short enough that a value read off screen a moment later is current.
const CATCH_UP_AFTER: Duration = Duration::from_millis(250);

/// A chapter of the full page that sleeps while it is far from the screen (issue 48): its
/// selections are not recomputed on a write, so nothing of it (memos, readouts, figures) runs on
/// a slider's step. It catches up as it nears the screen ([`Lab::wake`]), when the page prints,
/// and once the state rests ([`CATCH_UP_AFTER`]), so that every `data-value` is current a moment
/// after the last step. Given to a chapter's components through context (`story::chapter`);
/// embeds and widgets mounted alone have none and never sleep.
#[derive(Clone, Default)]
pub struct Sleeper(Arc<SleeperState>);

#[derive(Default)]
struct SleeperState {
    /// Near the screen (or the page is printing): its selections follow every write.
    awake: AtomicBool,
    /// A write skipped it: its selections are behind the state.
    behind: AtomicBool,
}

impl Sleeper {
    fn same(&self, other: &Sleeper) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// Recomputes one selection from the new state and wakes its memo if the value changed; false
/// once the memo's component is gone, and the entry is dropped.
type Refresh = Box<dyn Fn(&LabState, Option<&Derived>) -> bool>;

/// What a selection picks from the state and the derived values.
type Pick<T> = Box<dyn Fn(&LabState, Option<&Derived>) -> T>;

impl Lab {
    pub fn new(state: LabState, notices: Vec<Notice>) -> Self {
        let (state, set_state) = signal(state);
        let derived = Memo::new(move |previous: Option<&Result<Derived, RopeError>>| {
            state.with(|s| Derived::compute_after(s, previous.and_then(|p| p.as_ref().ok())))
        });
        let selections = StoredValue::new_local(Vec::new());
        Self {
            catch_up: StoredValue::new_local(None),
            state,
            set_state,
            derived,
            notices: RwSignal::new(notices),
            field_notices: RwSignal::new(Vec::new()),
            // q, k and the rotation: a selection like any other, woken only when they change.
            vectors: selection(state, derived, selections, Box::new(|_, d| d.map(|d| d.vectors.clone()))),
            playing: RwSignal::new(false),
            selections,
        }
    }

    /// Every setting back to its default (the page's "Reset" and the key R); the notices go.
    pub fn reset(&self) {
        self.playing.set(false);
        self.write(LabState::reset);
        self.notices.set(Vec::new());
        self.field_notices.set(Vec::new());
    }

    /// Files the corrections of an edit: next to their field, replacing what that field said
    /// before, or at the top for parameters without one.
    fn record(&self, corrections: Vec<Notice>) {
        let (by_field, others): (Vec<Notice>, Vec<Notice>) = corrections.into_iter().partition(|n| FIELD_PARAMS.contains(&n.param));
        if !by_field.is_empty() {
            self.field_notices.update(|all| {
                all.retain(|old| !by_field.iter().any(|new| new.param == old.param));
                all.extend(by_field);
            });
        }
        if !others.is_empty() {
            self.notices.update(|all| all.extend(others));
        }
    }

    /// What the field of `param` should say now: its corrections that still apply (a later
    /// change of the value, by any control, makes them go).
    pub fn field_messages(&self, param: &'static str) -> Memo<Vec<String>> {
        let (state, field_notices) = (self.state, self.field_notices);
        Memo::new(move |_| {
            field_notices.with(|notices| {
                let mine: Vec<&Notice> = notices.iter().filter(|n| n.param == param).collect();
                if mine.is_empty() {
                    return Vec::new();
                }
                state.with(|s| mine.into_iter().filter(|n| s.still_applies(n)).map(|n| n.message.clone()).collect())
            })
        })
    }

    /// Applies one typed change (a slider's value, a choice), validated as the URL is.
    pub fn apply(&self, change: Change) {
        self.edit(|s| s.apply(change));
    }

    /// Sets `param` from text a person typed in a field, parsed and validated as the URL is.
    pub fn set_text(&self, param: &'static Param, raw: &str) {
        self.edit(|s| s.set_text(param, raw));
    }

    /// Runs one of the state's domain methods; the notices it returns are shown.
    pub fn edit<R: IntoNotices>(&self, action: impl FnOnce(&mut LabState) -> R) {
        let mut corrections = Vec::new();
        self.write(|s| corrections = action(s).into_notices());
        if !corrections.is_empty() {
            self.record(corrections);
        }
    }

    /// Moves m (and n when `both`) by `by` tokens; false, and nothing changes (nor wakes), when
    /// that would leave the valid positions.
    pub fn shift(&self, by: i64, both: bool) -> bool {
        let mut moved = false;
        self.set_state.maybe_update(|s| {
            moved = s.shift_positions(by, both);
            moved
        });
        if moved {
            self.refresh();
        }
        moved
    }

    /// A memo of one slice of the state. Views bind to these, not to the whole state, so that
    /// moving one slider only touches the DOM that shows what changed (every needless write
    /// to an input or a text costs the browser layout and paint on the slider's hot path).
    /// [`Lab::write`] wakes it only when its value changes. (A memo reading the state, as
    /// before, was woken with every view reading it by each change of anything: a step of base
    /// re-checked every binding of the page through Leptos' task queue for the few dozen that
    /// change.)
    pub fn select<T>(&self, slice: impl Fn(&LabState) -> T + 'static) -> Memo<T>
    where
        T: PartialEq + Clone + Send + Sync + 'static,
    {
        selection(self.state, self.derived, self.selections, Box::new(move |s, _| slice(s)))
    }

    /// A selection of one derived value (`None` only if the core refused the state), for the same reason.
    pub fn select_derived<T>(&self, value: impl Fn(&Derived) -> T + 'static) -> Memo<Option<T>>
    where
        T: PartialEq + Clone + Send + Sync + 'static,
    {
        selection(self.state, self.derived, self.selections, Box::new(move |_, d| d.map(&value)))
    }

    /// Changes the state, then brings every selection up to date (waking only those that changed).
    pub fn write(&self, change: impl FnOnce(&mut LabState)) {
        self.set_state.update(change);
        self.refresh();
    }

    fn refresh(&self) {
        let mut skipped = false;
        self.refresh_where(|sleeper| match sleeper {
            Some(sleeper) if !sleeper.0.awake.load(Ordering::Relaxed) => {
                sleeper.0.behind.store(true, Ordering::Relaxed);
                skipped = true;
                false
            }
            _ => true,
        });
        if skipped {
            self.schedule_catch_up();
        }
    }

    /// Brings the selections `which` picks up to date (waking those that changed); drops those
    /// whose memo is gone.
    fn refresh_where(&self, mut which: impl FnMut(Option<&Sleeper>) -> bool) {
        self.state.with_untracked(|s| {
            self.derived.with_untracked(|d| {
                let d = d.as_ref().ok();
                self.selections.update_value(|all| all.retain(|entry| !which(entry.sleeper.as_ref()) || (entry.refresh)(s, d)));
            })
        });
    }

    /// Catches up every sleeping chapter once the state has rested (a later write moves it on).
    fn schedule_catch_up(&self) {
        let lab = *self;
        if let Some(Some(previous)) = self.catch_up.try_update_value(Option::take) {
            previous.clear();
        }
        crate::dom::page::mark_behind(true);
        let handle = set_timeout_with_handle(
            move || {
                if lab.selections.is_disposed() {
                    return;
                }
                lab.catch_up.set_value(None);
                lab.refresh_where(|sleeper| sleeper.is_some_and(|z| z.0.behind.load(Ordering::Relaxed)));
                lab.selections.with_value(|all| {
                    for sleeper in all.iter().filter_map(|entry| entry.sleeper.as_ref()) {
                        sleeper.0.behind.store(false, Ordering::Relaxed);
                    }
                });
                // Once the effects the refresh woke have written the page (they run before the
                // next task), unless another write has fallen behind since.
                set_timeout(
                    move || {
                        if lab.catch_up.try_with_value(Option::is_none).unwrap_or(true) {
                            crate::dom::page::mark_behind(false);
                        }
                    },
                    Duration::ZERO,
                );
            },
            CATCH_UP_AFTER,
        );
        self.catch_up.set_value(handle.ok());
    }

    /// The lab as a sleeping chapter sees it (call it with the chapter's [`Sleeper`] in
    /// context): q, k and the rotation sleep with the chapter's own selections, so that what a
    /// chapter computes from both comes from one state (d from a selection and q from the
    /// page's vectors would disagree for a moment after a step of d).
    pub fn for_chapter(self) -> Lab {
        Lab { vectors: selection(self.state, self.derived, self.selections, Box::new(|_, d| d.map(|d| d.vectors.clone()))), ..self }
    }

    /// A chapter came near the screen (`near`) or left it: near, it follows every write again,
    /// and first catches up with what it slept through.
    pub fn wake(&self, sleeper: &Sleeper, near: bool) {
        sleeper.0.awake.store(near, Ordering::Relaxed);
        if near && sleeper.0.behind.swap(false, Ordering::Relaxed) {
            self.refresh_where(|owner| owner.is_some_and(|o| o.same(sleeper)));
        }
    }

    /// Reads one derived value; `None` only if the core refused the state (never for a
    /// validated state).
    pub fn with_derived<T>(&self, f: impl FnOnce(&Derived) -> T) -> Option<T> {
        self.derived.with(|d| d.as_ref().ok().map(f))
    }
}

/// A memo of `pick` that only [`Lab::write`] wakes, and only when the value changed (through
/// a trigger; the memo itself reads the value the write left). Compiled once per type of
/// value, not once per call site (`pick` is boxed): the page has about a hundred selections.
fn selection<T>(
    state: ReadSignal<LabState>,
    derived: Memo<Result<Derived, RopeError>>,
    selections: StoredValue<Vec<Selection>, LocalStorage>,
    pick: Pick<T>,
) -> Memo<T>
where
    T: PartialEq + Clone + Send + Sync + 'static,
{
    let first = state.with_untracked(|s| derived.with_untracked(|d| pick(s, d.as_ref().ok())));
    let latest = Arc::new(RwLock::new(first));
    let shown = latest.clone();
    // Whether the value changed, and then the new value stored.
    let changed = keep(
        selections,
        Box::new(move |s, d| {
            let next = pick(s, d);
            let mut now = latest.write().unwrap_or_else(PoisonError::into_inner);
            let differs = *now != next;
            if differs {
                *now = next;
            }
            differs
        }),
    );
    Memo::new(move |_| {
        changed.track();
        shown.read().unwrap_or_else(PoisonError::into_inner).clone()
    })
}

/// Keeps `update` among the selections, behind a trigger it returns: each write runs it, and
/// notifies the trigger when it says the value changed, until the trigger's owner is gone.
/// Not generic, so that each selection's own code is only what depends on its type.
fn keep(selections: StoredValue<Vec<Selection>, LocalStorage>, update: Pick<bool>) -> Trigger {
    let changed = Trigger::new();
    // The chapter asking, when it may sleep.
    let sleeper = use_context::<Sleeper>();
    selections.update_value(|all| {
        all.push(Selection {
            sleeper,
            refresh: Box::new(move |s, d| {
                if changed.is_disposed() {
                    return false;
                }
                if update(s, d) {
                    changed.notify();
                }
                true
            }),
        })
    });
    changed
}

/// What a state action returns: the notices it produced, or nothing to say.
pub trait IntoNotices {
    fn into_notices(self) -> Vec<Notice>;
}

impl IntoNotices for Vec<Notice> {
    fn into_notices(self) -> Vec<Notice> {
        self
    }
}

impl IntoNotices for () {
    fn into_notices(self) -> Vec<Notice> {
        Vec::new()
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

/// The charts' colours for the page's theme (one [`Memo`], so drawings wake only when it flips).
pub fn use_chart_style() -> Memo<ChartStyle> {
    let dark = use_dark_mode();
    let present = use_lab().select(|s| s.present);
    // Paper is light in both themes (palette.css): so are the charts printed on it.
    let printing = crate::dom::size::printing();
    // Presenter mode: type and strokes 1.5 times as large, legible from the back of a room.
    Memo::new(move |_| ChartStyle::for_theme(dark.get() && !printing.get()).magnified(if present.get() { 1.5 } else { 1.0 }))
}

/// Present in context on the full page, where the rotation lab already shows the scores.
#[derive(Debug, Clone, Copy)]
pub struct FullPage;
