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
