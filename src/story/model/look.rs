//! What both models' views of the chapter share, and nothing that looks up the chapter's state:
//! a weight's colour and the ink on it, a token's chip text, an offset's label.

use crate::charts::palette::{ACCENT, INK, PAPER, SURFACE};

/// A weight's colour: the card's surface at 0, the accent at 1.
pub(super) fn shade(weight: f64, dark: bool) -> (u8, u8, u8) {
    let (a, b) = (SURFACE.pick(dark), ACCENT.pick(dark));
    let w = weight.clamp(0.0, 1.0);
    let mix = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * w).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Black or white, whichever reads best on `background` (WCAG's contrast ratio of relative
/// luminances): one of the two always reaches 4.58, where the page's own text colours can fall
/// short of 4.5 on the mid-tones of the dark theme.
pub(super) fn ink_on(background: (u8, u8, u8)) -> (u8, u8, u8) {
    let luminance = |(r, g, b): (u8, u8, u8)| {
        let linear = |c: u8| {
            let c = c as f64 / 255.0;
            if c <= 0.039_28 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    };
    let contrast = |a: (u8, u8, u8)| {
        let (x, y) = (luminance(a), luminance(background));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    };
    let [ink, paper] = [INK.pick(false), PAPER.pick(false)].map(|c| (c.0, c.1, c.2));
    if contrast(ink) >= contrast(paper) {
        ink
    } else {
        paper
    }
}

pub(super) fn css((r, g, b): (u8, u8, u8)) -> String {
    format!("rgb({r},{g},{b})")
}

/// A token as its chip shows it: a leading space as ␣ and no other change.
pub(super) fn chip_text(piece: &str) -> String {
    match piece.strip_prefix(' ') {
        Some("") => "␣".to_string(),
        Some(rest) => format!("␣{rest}"),
        None => piece.replace('\n', "⏎"),
    }
}

pub(super) fn fmt_offset(v: u64) -> String {
    match v {
        0 => "0".into(),
        1_000 => "1,000".into(),
        100_000 => "100,000".into(),
        _ => "1,000,000".into(),
    }
}
