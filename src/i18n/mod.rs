//! The page in the reader's language (issue 49). English is the page's own text, in the code
//! that says it (each chapter's words in its part, costing a first visit nothing more). Another
//! language is a catalogue fetched when it is chosen: the translation of each English text, its
//! numbers written `{0}`, `{1}`… ([`normalize`]), found by a hash of that template ([`key`]).
//! The page is translated where it stands (`dom/translate.rs`: every text and accessible name,
//! and each one Leptos writes afterwards); a text the catalogue lacks stays in English.
//!
//! The catalogues' sources are `src/i18n/locales/<lang>.txt`, each English template followed by
//! its translation; the build (`.ci/locales.mjs`) ships them as `locales/<lang>.txt`, one
//! `<key in hex>\t<translation>` line per text, which [`install`] reads. Plain Rust, tested
//! natively; `e2e/i18n.spec.mjs` lists what each language leaves in English.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

/// A language the page speaks: `lang=` in the URL (the contract), `<html lang>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    En,
    ZhCn,
    Es,
    Ja,
}

impl Lang {
    /// Every language, in the order the switch lists them.
    pub const ALL: [Lang; 4] = [Lang::En, Lang::ZhCn, Lang::Es, Lang::Ja];

    /// Its tag: `lang=`, `<html lang>` and the catalogue's file name.
    pub fn as_str(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
            Lang::Es => "es",
            Lang::Ja => "ja",
        }
    }

    /// Its name in itself, as the switch shows it.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::ZhCn => "简体中文",
            Lang::Es => "Español",
            Lang::Ja => "日本語",
        }
    }

    /// The language a tag names (letter case aside: `zh-cn` is `zh-CN`).
    pub fn parse(tag: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.as_str().eq_ignore_ascii_case(tag))
    }

    /// The first of the browser's preferred languages (`navigator.languages`, most preferred
    /// first) that the page speaks: by its primary subtag, so `es-MX` is Spanish and `ja-JP`
    /// Japanese; Chinese is `zh-CN`'s simplified script unless the tag asks for the traditional
    /// one (`zh-TW`, `zh-HK`, `zh-Hant`), which the page does not have. Else English.
    pub fn preferred<T: AsRef<str>>(tags: impl IntoIterator<Item = T>) -> Lang {
        for tag in tags {
            // Its subtags in lower case, between '-' or '_' (bytes: no string searching code in
            // the page's frame for this).
            let tag: Vec<u8> = tag.as_ref().bytes().map(|b| b.to_ascii_lowercase()).collect();
            let mut subtags = tag.split(|&b| b == b'-' || b == b'_');
            let found = match subtags.next().unwrap_or_default() {
                b"en" => Lang::En,
                b"es" => Lang::Es,
                b"ja" => Lang::Ja,
                b"zh" if !subtags.any(|s| matches!(s, b"tw" | b"hk" | b"mo" | b"hant")) => Lang::ZhCn,
                _ => continue,
            };
            return found;
        }
        Lang::En
    }

    /// Whether it writes a decimal comma and groups thousands with points (1.234,5).
    pub fn decimal_comma(self) -> bool {
        self == Lang::Es
    }
}

/// The catalogue in use: its language and each translation by key, sorted by key.
struct Catalogue {
    lang: Lang,
    texts: Vec<(u32, &'static str)>,
}

/// A text in the page's language, if the catalogue has it ([`translate`]).
pub type Translator = fn(&str) -> Option<String>;

thread_local! {
    // Per thread: the page has one; native tests each install their own without meeting.
    static CATALOGUE: RefCell<Option<Catalogue>> = const { RefCell::new(None) };
    // What [`say`] translates with: [`translate`] once a language is installed. A pointer, so
    // that the page's frame (whose charts call `say`) holds none of the translating code.
    static SAY: Cell<Option<Translator>> = const { Cell::new(None) };
}

/// Sets what [`say`] translates with (after [`install`], which sets [`translate`]): the page's
/// translating part notes what the catalogue lacks.
pub fn say_with(translator: Translator) {
    if SAY.get().is_some() {
        SAY.set(Some(translator));
    }
}

/// `english` (a text the page draws itself: a chart's axis, a legend, a caption) in the page's
/// language, or itself.
pub fn say(english: &str) -> Cow<'_, str> {
    match SAY.get().and_then(|translate| translate(english)) {
        Some(text) => Cow::Owned(text),
        None => Cow::Borrowed(english),
    }
}

/// The key of an English text: FNV-1a (32 bits) of its UTF-8 bytes. `.ci/locales.mjs` computes
/// the same, and refuses two texts with one key.
pub fn key(english: &str) -> u32 {
    english.bytes().fold(0x811c_9dc5_u32, |hash, byte| (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193))
}

/// The language the page speaks now: the installed catalogue's, else English.
pub fn current() -> Lang {
    CATALOGUE.with_borrow(|c| c.as_ref().map_or(Lang::En, |c| c.lang))
}

/// The translation of an English template (a text with its numbers written `{0}`, `{1}`…, as
/// [`normalize`] makes it) in the installed catalogue.
pub fn lookup(template: &str) -> Option<&'static str> {
    CATALOGUE.with_borrow(|catalogue| {
        let catalogue = catalogue.as_ref()?;
        let i = catalogue.texts.binary_search_by_key(&key(template), |(k, _)| *k).ok()?;
        Some(catalogue.texts[i].1)
    })
}

/// Whether `c` may stand next to a number without making it part of a word (`f32`, `2i`).
fn apart(c: Option<char>) -> bool {
    !c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// `text` as a template: each number (digits, with `,` grouping thousands, a decimal point, a
/// sign `−`/`-` before it and an exponent `e-5` or `e−5`; not one glued to a letter, as in `f32` or
/// `2i`) replaced by `{0}`, `{1}`…, and the numbers in order. A catalogue is written in
/// templates, so that "64 planes" and "4 planes" are one text.
pub fn normalize(text: &str) -> (String, Vec<&str>) {
    let mut template = String::with_capacity(text.len());
    let mut numbers = Vec::new();
    let mut rest = text;
    let mut before = None;
    while let Some(c) = rest.chars().next() {
        let signed = matches!(c, '-' | '−') && rest[c.len_utf8()..].starts_with(|d: char| d.is_ascii_digit());
        if (c.is_ascii_digit() || signed) && apart(before) {
            let mut end = c.len_utf8();
            let bytes = rest.as_bytes();
            let digits = |from: usize| bytes[from..].iter().take_while(|b| b.is_ascii_digit()).count();
            end += digits(end);
            // Groups of three after a comma, then a decimal part, then an exponent.
            while bytes.get(end) == Some(&b',') && digits(end + 1) == 3 && !bytes.get(end + 4).is_some_and(u8::is_ascii_digit) {
                end += 4;
            }
            if bytes.get(end) == Some(&b'.') && digits(end + 1) > 0 {
                end += 1 + digits(end + 1);
            }
            if bytes.get(end) == Some(&b'e') {
                // The page writes exponents with a minus sign: 1.33e−3.
                let sign = if matches!(bytes.get(end + 1), Some(b'-' | b'+')) {
                    1
                } else if rest[end + 1..].starts_with('−') {
                    '−'.len_utf8()
                } else {
                    0
                };
                if digits(end + 1 + sign) > 0 {
                    end += 1 + sign + digits(end + 1 + sign);
                }
            }
            if apart(rest[end..].chars().next()) {
                template.push('{');
                template.push_str(&numbers.len().to_string());
                template.push('}');
                numbers.push(&rest[..end]);
                before = rest[..end].chars().next_back();
                rest = &rest[end..];
                continue;
            }
            // Glued to a word ("3rd"): text, up to where it stops.
            template.push_str(&rest[..end]);
            before = rest[..end].chars().next_back();
            rest = &rest[end..];
            continue;
        }
        template.push(c);
        before = Some(c);
        rest = &rest[c.len_utf8()..];
    }
    (template, numbers)
}

/// `template` with each `{i}` replaced by `values[i]` (a translation may put them in another
/// order) and each `{=i}` by `raw[i]` (a number that is part of a name, as in Llama 3.1, keeps
/// its English point); a `{…}` that names no value stays as it is.
pub fn fill(template: &str, values: &[String], raw: &[&str]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after.find('}').and_then(|close| {
            let value = match after[..close].strip_prefix('=') {
                Some(i) => *raw.get(i.parse::<usize>().ok()?)?,
                None => values.get(after[..close].parse::<usize>().ok()?)?.as_str(),
            };
            Some((close, value))
        });
        match value {
            Some((close, value)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `english` (a text the page shows) in the installed language, its spaces around kept and its
/// numbers written as the language writes them; `None` if the catalogue has no translation.
pub fn translate(english: &str) -> Option<String> {
    let text = english.trim();
    if !text.chars().any(char::is_alphabetic) {
        return None;
    }
    let (template, numbers) = normalize(text);
    let translation = lookup(&template)?;
    let written: Vec<String> = numbers.iter().map(|n| number(n.to_string())).collect();
    let start = english.len() - english.trim_start().len();
    let end = english.trim_end().len();
    Some(format!("{}{}{}", &english[..start], fill(translation, &written, &numbers), &english[end..]))
}

/// A line a take-away draws under its picture ("RoPE Lab · what it shows, m = 5, b = 10,000,
/// d = 64"), in the installed language: whole if the catalogue has it; else each of its
/// comma-separated parts the catalogue has (what a chart shows, "trained on {0} tokens"), the
/// others as written with their numbers in the language's way, joined as the language lists
/// them. The name "RoPE Lab" before " · " stays. `missed` hears each part left in English.
/// `None` if nothing changed.
pub fn translate_caption(english: &str, missed: &mut dyn FnMut(&str)) -> Option<String> {
    if let Some(text) = translate(english) {
        return Some(text);
    }
    let (brand, what) = match english.strip_prefix("RoPE Lab · ") {
        Some(what) => ("RoPE Lab · ", what),
        None => ("", english),
    };
    let comma = match current() {
        Lang::ZhCn => "，",
        Lang::Ja => "、",
        Lang::En | Lang::Es => ", ",
    };
    let parts: Vec<String> = what
        .split(", ")
        .map(|part| {
            translate(part).unwrap_or_else(|| {
                missed(part);
                let (template, numbers) = normalize(part);
                let written: Vec<String> = numbers.iter().map(|n| number(n.to_string())).collect();
                fill(&template, &written, &numbers)
            })
        })
        .collect();
    let text = format!("{brand}{}", parts.join(comma));
    (text != english).then_some(text)
}

/// Why a shipped catalogue could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueError {
    /// The line (from 1) that is not `<hex key>\t<text>`, or whose key is not above the one before.
    pub line: usize,
}

/// Makes `lang` the page's language with the catalogue `shipped` (`<hex key>\t<translation>`
/// lines in ascending order of key, as `.ci/locales.mjs` writes them, `\n` written `\\n`);
/// English needs none (`""`). Returns how many texts it holds. The texts live as long as the
/// page: a language is installed once per visit and switch.
pub fn install(lang: Lang, shipped: &str) -> Result<usize, CatalogueError> {
    let mut texts: Vec<(u32, &'static str)> = Vec::new();
    for (i, line) in shipped.lines().enumerate().filter(|(_, l)| !l.is_empty()) {
        let parsed = line.split_once('\t').and_then(|(k, text)| Some((u32::from_str_radix(k, 16).ok()?, text)));
        let Some((key, text)) = parsed.filter(|(key, _)| texts.last().is_none_or(|(before, _)| before < key)) else {
            return Err(CatalogueError { line: i + 1 });
        };
        texts.push((key, Box::leak(text.replace("\\n", "\n").into_boxed_str())));
    }
    let count = texts.len();
    CATALOGUE.set((lang != Lang::En).then_some(Catalogue { lang, texts }));
    SAY.set((lang != Lang::En).then_some(translate as Translator));
    Ok(count)
}

/// A number as the page's language writes it: `1,234.5` becomes `1.234,5` in Spanish. For
/// text the page formatted in English; `data-value`s stay in English (the contract).
pub fn number(english: String) -> String {
    if !current().decimal_comma() || !english.bytes().any(|b| b == b'.' || b == b',') {
        return english;
    }
    english
        .chars()
        .map(|c| match c {
            '.' => ',',
            ',' => '.',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests;
