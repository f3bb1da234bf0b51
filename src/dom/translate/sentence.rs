//! Sentences (issue 49): the unit a page's text is translated in. A sentence element and the
//! texts within it (not within a sentence of their own or something never translated) make one
//! template, the pieces of different elements joined by `¦`; a translation puts each piece back
//! in its element. See DESIGN.md, "Why translations are the way they are".

use super::{ENGLISH, FOUND, KEEP, SHOWN};
use crate::dom::js::{call, get, set};
use crate::i18n;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

/// Whether `node` (a text node or an element) is somewhere that is never translated.
pub(super) fn kept(element: &JsValue) -> bool {
    element.is_null() || element.is_undefined() || !call(element, "closest", &[&JsValue::from_str(KEEP)]).is_null()
}

/// A text as the page should show it now, and whether the catalogue had it: `english` in the
/// installed language, or itself.
pub(super) fn render(english: &str) -> (String, bool) {
    match i18n::translate(english) {
        Some(text) => (text, true),
        None => (english.to_string(), false),
    }
}

/// The elements a sentence lives in: a text and the inline elements within one of these (a link,
/// a word in colour, a number Leptos writes) are translated together, as one text whose pieces
/// are joined by [`JOIN`], so that a language may reorder the words around them. A view marks
/// a sentence of its own within another with `class="sentence"`.
const UNIT: &str = "p, li, dt, dd, figcaption, td, th, h1, h2, h3, h4, h5, h6, label, button, summary, legend, \
                    caption, option, div, section, article, aside, header, footer, nav, main, dialog, figure, \
                    form, fieldset, ul, ol, table, tr, body, text, title, .sentence";
/// Between the pieces of a sentence's template; a translation has as many, in the same order.
const JOIN: char = '¦';
/// On a text node the catalogue lacked: the template of its sentence (what `e2e/i18n.spec.mjs`
/// lists, and a translator translates).
pub(super) const MISSING: &str = "ropeLabMissing";

/// The sentence element a node's text belongs to.
pub(super) fn unit_of(element: &JsValue) -> JsValue {
    call(element, "closest", &[&JsValue::from_str(UNIT)])
}

/// A text node's English: what it shows, unless that is what was put there (then what it kept).
fn english_of(node: &JsValue) -> Option<String> {
    let data = get(node, "data").as_string()?;
    match (get(node, SHOWN).as_string(), get(node, ENGLISH).as_string()) {
        (Some(shown), Some(english)) if shown == data => Some(english),
        _ => Some(data),
    }
}

/// Puts a text node's text, and what the catalogue said of it.
fn show(node: &JsValue, english: &str, text: &str, found: bool, missing: Option<&str>) {
    set(node, ENGLISH, &JsValue::from_str(english));
    set(node, SHOWN, &JsValue::from_str(text));
    set(node, FOUND, &JsValue::from_bool(found));
    set(node, MISSING, &missing.map_or(JsValue::UNDEFINED, JsValue::from_str));
    if get(node, "data").as_string().as_deref() != Some(text) {
        set(node, "data", &JsValue::from_str(text));
    }
}

/// Whether a text has words to translate: two letters in a row (a lone symbol such as q, k′ or
/// θᵢ is the same in every language, and so are numbers).
pub(super) fn worded(text: &str) -> bool {
    let mut letters = 0;
    text.chars().any(|c| {
        letters = if c.is_ascii_alphabetic() { letters + 1 } else { 0 };
        letters >= 2
    })
}

/// Whether `node` follows `before` directly, with at most Leptos' markers (comments) between:
/// two texts of one run, as a view's adjacent literals and the values between them are.
fn follows(node: &JsValue, before: &JsValue) -> bool {
    let mut sibling = get(node, "previousSibling");
    while get(&sibling, "nodeType").as_f64() == Some(8.0) {
        sibling = get(&sibling, "previousSibling");
    }
    sibling == *before
}

/// Translates the text nodes of one sentence (`nodes`, in order). Its pieces are the runs of
/// adjacent texts, between the elements within it; a piece with no words (numbers, a list of
/// them) stays as it is, its numbers written as the language writes them, and counts in the
/// sentence's template as an empty piece. The whole sentence if the catalogue has it, else
/// each piece it has on its own; the rest in English. A run's translation goes in its first
/// node, the others emptied.
pub(super) fn translate_unit(nodes: &[JsValue]) {
    let english: Vec<String> = nodes.iter().map(|n| english_of(n).unwrap_or_default()).collect();
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for i in 0..nodes.len() {
        match runs.last_mut() {
            Some(run) if follows(&nodes[i], &nodes[i - 1]) => run.end = i + 1,
            _ => runs.push(i..i + 1),
        }
    }
    let pieces: Vec<String> = runs.iter().map(|run| english[run.clone()].concat()).collect();
    let put = |run: &std::ops::Range<usize>, text: &str, found: bool, missing: Option<&str>| {
        for (j, i) in run.clone().enumerate() {
            show(&nodes[i], &english[i], if j == 0 { text } else { "" }, found, missing);
        }
    };
    // A piece without words, its numbers as the language writes them: in one node if that
    // changes it, else each node its own text (so that in English, with no observer, a value
    // Leptos writes later lands in its own node).
    let numbers = |run: &std::ops::Range<usize>, piece: &str| {
        let (template, numbers) = i18n::normalize(piece);
        let written: Vec<String> = numbers.iter().map(|n| i18n::number(n.to_string())).collect();
        let written = i18n::fill(&template, &written, &numbers);
        if written == piece {
            for i in run.clone() {
                show(&nodes[i], &english[i], &english[i], true, None);
            }
        } else {
            put(run, &written, true, None);
        }
    };
    let template: Vec<&str> = pieces.iter().map(|p| if worded(p) { p.as_str() } else { "" }).collect();
    let joined = template.join(&JOIN.to_string());
    if runs.len() > 1 {
        if let Some(text) = i18n::translate(&joined) {
            let translated: Vec<&str> = text.split(JOIN).collect();
            if translated.len() == runs.len() {
                for ((run, piece), text) in runs.iter().zip(&pieces).zip(translated) {
                    // A piece without words is as the page wrote it, unless the translation
                    // gives it punctuation of its own (Japanese "。" for ". ") and it holds no
                    // number to keep.
                    let punctuated = !text.is_empty() && !piece.bytes().any(|b| b.is_ascii_digit());
                    if worded(piece) || punctuated {
                        put(run, text, true, None);
                    } else {
                        numbers(run, piece);
                    }
                }
                return;
            }
        }
    }
    let missing = i18n::normalize(joined.trim()).0;
    for (run, piece) in runs.iter().zip(&pieces) {
        if !worded(piece) {
            numbers(run, piece);
            continue;
        }
        match i18n::translate(piece) {
            Some(text) => put(run, &text, true, None),
            // Untranslated: each node its own English.
            None => {
                for i in run.clone() {
                    show(&nodes[i], &english[i], &english[i], false, Some(&missing));
                }
            }
        }
    }
}

/// The text nodes of the sentence `unit`, in order: those within it but not within a sentence
/// of their own or something never translated.
pub(super) fn pieces_of(unit: &JsValue) -> Vec<JsValue> {
    let walker = call(&document(), "createTreeWalker", &[unit, &JsValue::from_f64(4.0)]);
    let mut nodes = Vec::new();
    loop {
        let node = call(&walker, "nextNode", &[]);
        if node.is_null() || node.is_undefined() {
            return nodes;
        }
        let parent = get(&node, "parentElement");
        if !kept(&parent) && unit_of(&parent) == *unit {
            nodes.push(node);
        }
    }
}
