//! Small helpers for the charts drawn as SVG markup (the context-extension chapter's comparison
//! and wavelength charts, the precision chapter's): text, a turned axis title, a circle as a
//! path. Plain strings, no Leptos.

use super::format::{fixed, push_fixed};
use crate::state::Plain;
use std::fmt::Write;

/// Appends an SVG `<text>` of class `class` at (x, y), its `content` escaped.
pub fn text(svg: &mut String, class: &str, x: f64, y: f64, anchor: &str, content: &str) {
    let _ = write!(svg, r#"<text class="{class}" x="{}" y="{}" text-anchor="{anchor}">"#, fixed(x, 1), fixed(y, 1));
    for c in content.chars() {
        match c {
            '<' => svg.push_str("&lt;"),
            '&' => svg.push_str("&amp;"),
            c => svg.push(c),
        }
    }
    svg.push_str("</text>");
}

/// An axis title turned a quarter turn, centred on (x, y).
pub fn vertical_title(svg: &mut String, x: f64, y: f64, content: &str) {
    let _ = write!(svg, r#"<g transform="rotate(-90 {} {})">"#, Plain(x), fixed(y, 1));
    text(svg, "axis-title", x, y, "middle", content);
    svg.push_str("</g>");
}

/// Appends a circle of radius `r` at (x, y) to path data: two half arcs from its left edge.
pub fn circle(path: &mut String, x: f64, y: f64, r: f64) {
    let (radius, across) = (fixed(r, 2), fixed(2.0 * r, 2));
    path.push('M');
    push_fixed(path, x - r, 2);
    path.push(',');
    push_fixed(path, y, 1);
    let _ = write!(path, "a{radius},{radius} 0 1 0 {across},0a{radius},{radius} 0 1 0 -{across},0");
}
