//! Where a lesson is and how a step is shown: the player steps with it, the handout walks it.

use super::figures::bring_on_screen;
use crate::dom::page::{replace_address, set_url_tail, with_tail};
use crate::lab::Lab;
use crate::state::lesson::{Lesson, Step};
use crate::state::query::{encode, parse_pairs};
use crate::state::{LabState, Notice};
use leptos::prelude::*;

/// The lesson playing, and where: shared with the handout, which walks the steps.
#[derive(Clone, Copy)]
pub struct Stepper {
    pub lab: Lab,
    pub lesson: RwSignal<Option<Lesson>>,
    pub index: RwSignal<usize>,
    /// `lesson=...` for the address bar (none for a lesson built on the page, which has no file).
    pub source: StoredValue<Option<String>>,
}

impl Stepper {
    /// Shows step `index` (0-based): its view, the address, its figure on screen if `bring`.
    pub fn go(&self, index: usize, bring: bool) {
        let Some(step) = self.lesson.with_untracked(|l| l.as_ref().and_then(|l| l.steps.get(index).cloned())) else { return };
        self.index.set(index);
        show_view(self.lab, &step, index + 1);
        let tail = self.source.with_value(|s| s.as_ref().map(|s| format!("lesson={}&step={}", encode(s), index + 1)));
        set_url_tail(tail.unwrap_or_default());
        write_address(self.lab, step.chapter());
        if let (true, Some(chapter)) = (bring, step.chapter()) {
            bring_on_screen(chapter.to_string());
        }
    }

    pub fn count(&self) -> usize {
        self.lesson.with(|l| l.as_ref().map_or(0, |l| l.steps.len()))
    }

    /// The next (`by` = 1) or previous (−1) step, if there is one.
    pub fn step(&self, by: i64) {
        let next = self.index.get_untracked() as i64 + by;
        if (0..self.count() as i64).contains(&next) {
            self.go(next as usize, true);
        }
    }
}

/// Puts the page in `step`'s view: the state its query names, from the defaults, keeping
/// presenter mode and the theme unless the view sets them. Corrections of the view are shown,
/// named by the step.
fn show_view(lab: Lab, step: &Step, number: usize) {
    let pairs = parse_pairs(step.query());
    let sets = |name: &str| pairs.iter().any(|(n, _)| n == name);
    let (keep_present, keep_theme) = (!sets("present"), !sets("theme"));
    let parsed = LabState::from_query(step.query());
    lab.playing.set(false);
    lab.write(move |s| {
        let mut next = parsed.state;
        if keep_present {
            next.present = s.present;
        }
        if keep_theme {
            next.theme = s.theme;
        }
        next.embed = s.embed.take();
        *s = next;
    });
    lab.field_notices.set(Vec::new());
    let notices = parsed.notices.into_iter().map(|n| Notice { message: format!("step {number}: {}", n.message), ..n }).collect();
    lab.notices.set(notices);
}

/// Writes the address at once (the address bar otherwise waits for the state to settle), with
/// the step's chapter as its fragment.
pub fn write_address(lab: Lab, chapter: Option<&str>) {
    replace_address(&with_tail(lab.state.with_untracked(|s| s.to_query())), chapter);
}
