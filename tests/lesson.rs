//! Lessons (issue 39): the built-in lesson is the one docs/lessons.md tells teachers of, and its
//! example lesson file reads as a lesson of valid views; every view the built-in one opens is a valid view
//! of the page, a teacher's file is read back exactly as written, and a broken one gets an error
//! that names the step and the field.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rope_lab::state::lesson::{step_index, Lesson, LessonSource, Step};
use rope_lab::state::LabState;

/// The chapter ids of the page, read from the README's widget table (not from the code).
fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

#[test]
fn every_built_in_step_opens_a_clean_view_of_a_chapter_the_readme_lists() {
    let readme = readme();
    let lesson = Lesson::intro();
    assert_eq!(lesson.steps.len(), 17, "fourteen views and three extensions");
    for (i, step) in lesson.steps.iter().enumerate() {
        let parsed = LabState::from_query(step.query());
        assert!(parsed.notices.is_empty(), "step {}: {} gives notices {:?}", i + 1, step.view, parsed.notices);
        let chapter = step.chapter().unwrap_or_else(|| panic!("step {} names no chapter", i + 1));
        assert!(readme.contains(&format!("`{chapter}`")), "step {}: chapter {chapter} is not in the README", i + 1);
        assert!(!step.caption.is_empty());
        // Presenter mode and the theme stay the presenter's.
        assert!(!step.query().contains("present") && !step.query().contains("theme"), "{}", step.view);
    }
}

/// The teachers' guide to lessons.
fn guide() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/lessons.md")).unwrap()
}

/// The guide's lesson table links each step and shows its view: the same views, in the same
/// order, as the built-in lesson.
#[test]
fn the_guide_lesson_is_the_built_in_lesson() {
    let guide = guide();
    let lesson = Lesson::intro();
    for (i, step) in lesson.steps.iter().enumerate() {
        let link = format!("?lesson=intro&present=1&step={}", i + 1);
        let row = guide.lines().find(|line| line.contains(&link)).unwrap_or_else(|| panic!("docs/lessons.md has no link {link}"));
        assert!(row.contains(&format!("`{}`", step.view)), "docs/lessons.md's row for step {} does not show {}: {row}", i + 1, step.view);
    }
}

/// The lesson file the guide shows as an example reads as a lesson, and each of its views opens
/// a chapter the README lists without a notice.
#[test]
fn the_guide_example_lesson_file_reads() {
    let guide = guide();
    let example = guide.split("```json").nth(1).and_then(|rest| rest.split("```").next()).expect("docs/lessons.md shows a lesson file");
    let lesson = Lesson::parse(example).unwrap_or_else(|e| panic!("docs/lessons.md's example: {e}"));
    assert!(!lesson.title.is_empty() && lesson.steps.len() >= 2);
    let readme = readme();
    for step in &lesson.steps {
        assert!(LabState::from_query(step.query()).notices.is_empty(), "{}", step.view);
        let chapter = step.chapter().expect("a view names its chapter");
        assert!(readme.contains(&format!("`{chapter}`")), "{chapter} is not in the README");
    }
}

#[test]
fn a_lesson_file_reads_back_as_written() {
    let text = r##"{ "title": "Mine", "steps": [
        { "view": "?dim=8&m=3&n=1#clocks", "caption": "Clocks \"live\"" },
        { "view": "#decay", "caption": "Decay\nline two" } ] }"##;
    let lesson = Lesson::parse(text).unwrap();
    assert_eq!(lesson.title, "Mine");
    assert_eq!(lesson.steps[0], Step { view: "?dim=8&m=3&n=1#clocks".into(), caption: "Clocks \"live\"".into(), captions: Vec::new() });
    assert_eq!(lesson.steps[0].query(), "dim=8&m=3&n=1");
    assert_eq!(lesson.steps[0].chapter(), Some("clocks"));
    assert_eq!(lesson.steps[1].query(), "");
    assert_eq!(lesson.steps[1].caption, "Decay\nline two");
    assert_eq!(Lesson::parse(&lesson.to_json()).unwrap(), lesson);
}

#[test]
fn a_broken_lesson_file_is_named_by_step_and_field() {
    let cases = [
        ("", "not JSON"),
        ("[1, 2]", "not an object"),
        (r##"{"steps": []}"##, "\"title\" is missing"),
        (r##"{"title": 3, "steps": []}"##, "\"title\" is a number"),
        (r##"{"title": "t"}"##, "\"steps\" is missing"),
        (r##"{"title": "t", "steps": {}}"##, "\"steps\" is an object"),
        (r##"{"title": "t", "steps": []}"##, "\"steps\" is empty"),
        (r##"{"title": "t", "steps": [{"view": "#a", "caption": "c"}, 7]}"##, "step 2 is a number"),
        (r##"{"title": "t", "steps": [{"view": "#a", "caption": "c"}, {"caption": "c"}]}"##, "step 2: \"view\" is missing"),
        (r##"{"title": "t", "steps": [{"view": "#a"}]}"##, "step 1: \"caption\" is missing"),
        (r##"{"title": "t", "steps": [{"view": "dim=8", "caption": "c"}]}"##, "step 1: \"view\" must start with ? or #"),
        (r##"{"title": "t", "steps": [{"view": "#a", "caption": null}]}"##, "step 1: \"caption\" is null"),
        (r##"{"title": "t", "steps": [{"view": "#a", "caption": " "}]}"##, "step 1: \"caption\" is empty"),
        ("{\"title\": \"t\",\n \"steps\": [}", "line 2"),
    ];
    for (text, expected) in cases {
        let error = Lesson::parse(text).expect_err(text);
        assert!(error.contains(expected), "{text}: expected '{expected}' in '{error}'");
    }
}

#[test]
fn only_intro_and_relative_json_paths_are_lesson_sources() {
    assert_eq!(LessonSource::parse("intro"), Ok(LessonSource::Intro));
    assert_eq!(LessonSource::parse("lessons/mine.json"), Ok(LessonSource::File("lessons/mine.json".into())));
    assert_eq!(LessonSource::parse("../up.json"), Ok(LessonSource::File("../up.json".into())));
    for bad in [
        "",
        "mine.txt",
        ".json",
        "https://evil.example/x.json",
        "//evil.example/x.json",
        "/abs.json",
        "javascript:x.json",
        "a b.json",
        "a\\b.json",
    ] {
        assert!(LessonSource::parse(bad).is_err(), "{bad} should be refused");
    }
}

#[test]
fn a_step_out_of_range_opens_the_nearest_with_a_notice() {
    assert_eq!(step_index(None, 15), (0, None));
    assert_eq!(step_index(Some("15"), 15), (14, None));
    assert_eq!(step_index(Some("1"), 15).1, None);
    let (index, notice) = step_index(Some("99"), 15);
    assert_eq!(index, 14);
    assert!(notice.unwrap().contains("99"));
    assert_eq!(step_index(Some("0"), 15).0, 0);
    assert_eq!(step_index(Some("-3"), 15).0, 0);
    let (index, notice) = step_index(Some("two"), 15);
    assert_eq!(index, 0);
    assert!(notice.is_some());
}

proptest! {
    /// Whatever a caption or title holds, the file the page offers reads back to the same lesson.
    #[test]
    fn any_lesson_round_trips(title in "[^\u{0}]{1,40}", captions in proptest::collection::vec("\\PC{1,80}", 1..6)) {
        prop_assume!(!title.trim().is_empty() && captions.iter().all(|c| !c.trim().is_empty()));
        let lesson = Lesson {
            title: title.trim().to_string(),
            steps: captions.iter().map(|c| Step { view: format!("?m={}#clocks", c.len()), caption: c.trim().to_string(), captions: Vec::new() }).collect(),
        };
        prop_assert_eq!(Lesson::parse(&lesson.to_json()).unwrap(), lesson);
    }

    /// No text breaks the reader: it gives a lesson or a message.
    #[test]
    fn any_text_gives_a_lesson_or_a_message(text in "\\PC{0,200}") {
        let _ = Lesson::parse(&text);
    }
}

#[test]
fn a_caption_may_be_given_in_several_languages() {
    use rope_lab::i18n::Lang;
    let text = r##"{ "title": "Mine", "steps": [
        { "view": "#clocks", "caption": { "es": "Cada plano es un reloj.", "en": "Each plane is a clock.", "ja": "各平面は時計です。" } },
        { "view": "#decay", "caption": { "es": "Solo en español." } },
        { "view": "#order", "caption": "Plain English." } ] }"##;
    let lesson = Lesson::parse(text).unwrap();
    let [both, spanish, plain] = &lesson.steps[..] else { panic!("three steps") };
    // English when given is the caption every other language falls back to.
    assert_eq!(both.caption, "Each plane is a clock.");
    assert_eq!(both.caption_in(Lang::Es), ("Cada plano es un reloj.", Some(Lang::Es)));
    assert_eq!(both.caption_in(Lang::Ja), ("各平面は時計です。", Some(Lang::Ja)));
    assert_eq!(both.caption_in(Lang::ZhCn), ("Each plane is a clock.", None));
    assert_eq!(both.caption_in(Lang::En), ("Each plane is a clock.", None));
    // Without English, the first language given, marked as such in every language.
    assert_eq!(spanish.caption_in(Lang::En), ("Solo en español.", Some(Lang::Es)));
    assert_eq!(spanish.caption_in(Lang::Ja), ("Solo en español.", Some(Lang::Es)));
    assert_eq!(plain.caption_in(Lang::Ja), ("Plain English.", None));
    // And it reads back as written.
    assert_eq!(Lesson::parse(&lesson.to_json()).unwrap(), lesson);
    // A language the page does not speak, an empty one, or none, is an error naming the step.
    for (caption, says) in [
        (r#"{ "fr": "Chaque plan" }"#, "step 1: \"caption\" has a language the page does not speak, 'fr'"),
        (r#"{ "en": "  " }"#, "step 1: \"caption\" in en is empty"),
        (r#"{ "en": 3 }"#, "step 1: \"caption\" in en is a number"),
        (r#"{}"#, "step 1: \"caption\" gives no language"),
    ] {
        let error =
            Lesson::parse(&format!(r##"{{ "title": "T", "steps": [ {{ "view": "#clocks", "caption": {caption} }} ] }}"##)).unwrap_err();
        assert!(error.starts_with(says), "{error}");
    }
}
