//! The catalogues of the page's other languages (issue 49), read as the build reads them: each
//! English text is a template as the page finds it (its numbers `{0}`, `{1}`…), each
//! translation keeps every `{…}` of its English and says something, no text is translated
//! twice, and no two texts share a key. What each language leaves in English on the page is
//! `e2e/i18n.spec.mjs`'s to list.

use rope_lab::i18n::{key, normalize};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;

const LANGUAGES: [&str; 3] = ["zh-CN", "es", "ja"];

/// A catalogue's source: (line, English, translation).
fn catalogue(tag: &str) -> Vec<(usize, String, String)> {
    let path = format!("src/i18n/locales/{tag}.txt");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut pairs = Vec::new();
    let mut english = None;
    let own = format!("{tag}: ");
    for (i, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(en) = line.strip_prefix("en: ") {
            assert!(english.is_none(), "{path}:{}: two English texts in a row", i + 1);
            english = Some((i + 1, en.to_string()));
        } else if let Some(translation) = line.strip_prefix(&own) {
            let (at, en) = english.take().unwrap_or_else(|| panic!("{path}:{}: a translation without its English", i + 1));
            pairs.push((at, en, translation.to_string()));
        } else {
            panic!("{path}:{}: neither `en: …` nor `{own}…`", i + 1);
        }
    }
    assert!(english.is_none(), "{path}: the last English text has no translation");
    pairs
}

/// The `{…}`s of a text (`{=0}`, the number as English writes it, is the place `{0}`).
fn places(text: &str) -> BTreeSet<&str> {
    text.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(name, _)| name.trim_start_matches('='))).collect()
}

#[test]
fn every_english_text_is_a_template_the_page_can_find() {
    for tag in LANGUAGES {
        for (line, en, _) in catalogue(tag) {
            assert_eq!(en.trim(), en, "{tag}.txt:{line}: spaces around {en:?} (the page looks texts up trimmed)");
            // Written as the page finds it: its numbers already places (the places aside, no digit
            // a number could be made of).
            let without_places: String = en
                .split('{')
                .enumerate()
                .map(|(i, part)| if i == 0 { part } else { part.split_once('}').map_or(part, |(_, rest)| rest) })
                .collect();
            assert!(normalize(&without_places).1.is_empty(), "{tag}.txt:{line}: {en:?} holds numbers: write them {{0}}, {{1}}…");
            assert!(en.chars().any(char::is_alphabetic), "{tag}.txt:{line}: {en:?} has no word to translate");
        }
    }
}

#[test]
fn translations_keep_the_places_and_say_something() {
    for tag in LANGUAGES {
        for (line, en, translation) in catalogue(tag) {
            assert!(!translation.trim().is_empty(), "{tag}.txt:{line}: {en:?} has an empty translation");
            assert_eq!(places(&en), places(&translation), "{tag}.txt:{line}: {en:?} and {translation:?} hold different values");
            // A sentence's pieces (texts in different elements: a link, a word in colour) are
            // put back one per element: as many, in the same order.
            assert_eq!(
                en.matches('¦').count(),
                translation.matches('¦').count(),
                "{tag}.txt:{line}: {en:?} and {translation:?} have different pieces"
            );
        }
    }
}

#[test]
fn every_language_translates_the_same_texts_once() {
    let english = |tag| catalogue(tag).into_iter().map(|(_, en, _)| en).collect::<Vec<_>>();
    let reference: BTreeSet<String> = english(LANGUAGES[0]).into_iter().collect();
    for tag in LANGUAGES {
        let texts = english(tag);
        let set: BTreeSet<String> = texts.iter().cloned().collect();
        assert_eq!(set.len(), texts.len(), "{tag}: a text translated twice");
        let (lacks, extra): (Vec<_>, Vec<_>) = (reference.difference(&set).collect(), set.difference(&reference).collect());
        assert!(lacks.is_empty() && extra.is_empty(), "{tag} lacks {lacks:#?} and has {extra:#?} beside {}", LANGUAGES[0]);
    }
}

#[test]
fn keys_are_unique() {
    let mut keys = BTreeMap::new();
    for (_, en, _) in catalogue(LANGUAGES[0]) {
        if let Some(other) = keys.insert(key(&en), en.clone()) {
            panic!("{en:?} and {other:?} have one key");
        }
    }
}

/// The page's source as its texts read: string literals continued over lines and adjacent
/// literals (a view's `"…" "…"`) joined, escaped quotes as quotes.
fn source_text() -> String {
    fn read(dir: &std::path::Path, out: &mut String) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                read(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push_str(&fs::read_to_string(&path).unwrap());
                out.push('\n');
            }
        }
    }
    let mut text = fs::read_to_string("index.html").unwrap();
    read(std::path::Path::new("src"), &mut text);
    // The escapes the page's texts use.
    let text = text.replace("\\u{ad}", "\u{ad}").replace("\\u{a0}", "\u{a0}");
    let mut joined = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find(['\\', '"']) {
        joined.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if rest[at..].starts_with('\\') {
            // A line continued: the next line's indentation is not in the text.
            if after.starts_with('\n') {
                rest = after.trim_start();
            } else if let Some(unescaped) = after.strip_prefix('"') {
                joined.push('"');
                rest = unescaped;
            } else {
                joined.push('\\');
                rest = after;
            }
        } else {
            // A literal closed and another opened after spaces only: one text.
            let spaces = after.len() - after.trim_start().len();
            if spaces > 0 && after[spaces..].starts_with('"') {
                rest = &after[spaces + 1..];
            } else {
                joined.push('"');
                rest = after;
            }
        }
    }
    joined.push_str(rest);
    joined
}

#[test]
fn every_english_text_is_one_the_page_still_says() {
    // Each stretch of words of a template (between its pieces and values) is in the page's
    // source, whole or as two literals around a value the page writes: a catalogue's text that
    // the page no longer says shows up here, to be dropped or updated.
    let source = source_text();
    // Said whole, or as stretches the source says with up to three runs of at most six words
    // between them that the page put there (a method's name, a chapter's title, "are" or "is":
    // `format!("{} divided by the factor")`), the source's stretches a third of it or more.
    let said = |words: &str| {
        if source.contains(words) {
            return true;
        }
        let mut bounds: Vec<usize> = words.match_indices(' ').map(|(i, _)| i).collect();
        bounds.insert(0, 0);
        bounds.push(words.len());
        // Runs of words the source does not say: how many, and the longest.
        let (mut at, mut gaps, mut gap, mut widest, mut found) = (0, 0, 0, 0, 0);
        while at + 1 < bounds.len() {
            match (at + 1..bounds.len()).rev().find(|&j| source.contains(&words[bounds[at]..bounds[j]])) {
                Some(j) => {
                    found += bounds[j] - bounds[at];
                    at = j;
                    gap = 0;
                }
                None => {
                    gaps += usize::from(gap == 0);
                    gap += 1;
                    widest = widest.max(gap);
                    at += 1;
                }
            }
        }
        gaps <= 3 && widest <= 6 && 3 * found >= words.len()
    };
    let mut stale = Vec::new();
    for (line, en, _) in catalogue(LANGUAGES[0]) {
        // Without the punctuation a value's sentence may put around them: `format!("({note})")`.
        let stretches = en
            .split('¦')
            .flat_map(|piece| piece.split(['{', '}']))
            .map(|s| s.trim_matches(|c: char| !c.is_alphanumeric() && !"“”'\"".contains(c)));
        for words in stretches.filter(|w| w.chars().filter(|c| c.is_ascii_alphabetic()).count() >= 2) {
            if !said(words) {
                stale.push(format!("{}.txt:{line}: {words:?}", LANGUAGES[0]));
            }
        }
    }
    assert!(stale.is_empty(), "texts the page no longer says: {stale:#?}");
}
