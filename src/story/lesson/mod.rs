//! Lessons: walks through the story. `lesson=intro` or `lesson=<file>.json` plays one (a bar at
//! the bottom with the step, its caption, Back and Next; PageDown and PageUp from a presentation
//! clicker; Escape leaves and keeps the view), and "Add this view to a lesson" builds one. The
//! player and the editor come in a part of their own (split build), fetched only when a lesson
//! is asked for: the page's frame holds this file alone.

mod editor;
mod figures;
mod handout;
mod player;
mod stepper;

use editor::Editor;
use player::Player;

use crate::state::lesson::Lesson;
use crate::state::query::parse_pairs;
use leptos::prelude::*;

/// What to play: the lesson and the step the URL named (read by the player, which says what is
/// wrong with them), or a lesson built on the page.
#[derive(Debug, Clone)]
pub enum Playing {
    Named { lesson: String, step: Option<String> },
    Built(Lesson),
}

thread_local! {
    /// The lesson asked for, until the player takes it.
    static ASKED: std::cell::RefCell<Option<Playing>> = const { std::cell::RefCell::new(None) };
}

/// Whether a lesson plays, and the lesson editor: shared by the header's button, the editor
/// (which plays what it built) and the player (which takes the lesson asked for, and ends itself).
/// Plain flags in the page's frame; the lesson itself waits beside them for the player.
#[derive(Clone, Copy)]
pub struct Lessons {
    /// 0 while no lesson plays; else which lesson of the visit this is (a new one remakes the player).
    pub playing: RwSignal<u32>,
    /// Whether the lesson editor is open (not 0): the header's "Make a lesson" opens it.
    pub editing: RwSignal<u32>,
}

impl Lessons {
    /// Reads `lesson` and `step` from the page's query, as written.
    pub fn from_query(query: &str) -> Lessons {
        let pairs = parse_pairs(query);
        let value = |name: &str| pairs.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.clone());
        let asked = value("lesson").map(|lesson| Playing::Named { lesson, step: value("step") });
        let playing = u32::from(asked.is_some());
        ASKED.with(|a| *a.borrow_mut() = asked);
        Lessons { playing: RwSignal::new(playing), editing: RwSignal::new(0) }
    }

    /// Plays `lesson` (the player, if one plays already, is replaced).
    pub fn play(&self, lesson: Playing) {
        ASKED.with(|a| *a.borrow_mut() = Some(lesson));
        self.playing.update(|n| *n += 1);
    }

    /// The lesson asked for, once.
    pub fn take(&self) -> Option<Playing> {
        ASKED.with(|a| a.borrow_mut().take())
    }
}

/// The player while a lesson plays, the editor while it is open (in the lesson part), once their
/// style sheet is here (before it, the bar would show unstyled at the page's end).
#[component]
pub fn LessonPart() -> impl IntoView {
    let lessons = expect_context::<Lessons>();
    // The bar, the editor, the handout: styled by a sheet of their own.
    let styled = RwSignal::from(crate::dom::style::style_sheet("assets/lesson.css"));
    view! {
        {move || (styled.get() && lessons.playing.get() > 0).then(|| view! { <Player /> })}
        <Show when=move || { styled.get() && lessons.editing.get() > 0 }><Editor /></Show>
    }
}
