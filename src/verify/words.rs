//! What the diagnosis says, in words: the other layout with the permutation that fixes it,
//! numbers as the page writes them, and the sentences for a match and for a mismatch.

use super::fit::round_to;
use super::measure::{all_planes, max_difference, per_plane, per_row, ANGLE_TOLERANCE};
use super::rotation::Rotation;
use super::TestInput;
use crate::rope::Layout;
use crate::state::fmt_number;

pub(super) fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) if !text.starts_with("θ") => c.to_lowercase().collect::<String>() + chars.as_str(),
        _ => text.to_string(),
    }
}

/// The other layout, in words, with the permutation that fixes it.
pub(super) fn layout_text(page: Layout) -> String {
    match page {
        Layout::Interleaved => "Your implementation pairs dimension i with i + d/2 (rotate_half, GPT-NeoX, transformers' Llama) where the \
                                page pairs 2i with 2i+1 (interleaved, Meta's Llama); permute the columns of W_q and W_k (dimension 2i \
                                to i, 2i+1 to i + d/2) or pair as the page does"
            .into(),
        Layout::Half => "Your implementation pairs dimension 2i with 2i+1 (interleaved, Meta's Llama) where the page pairs i with \
                         i + d/2 (rotate_half); permute the columns of W_q and W_k (dimension i to 2i, i + d/2 to 2i+1) or use \
                         rotate_half"
            .into(),
    }
}

/// A number with thousands separated by commas when whole ("500,000"), else as the page writes it.
pub(super) fn group(v: f64) -> String {
    // Six significant digits are more than any base needs to be recognised.
    let v = if v.abs() >= 1e5 { v.round() } else { round_to(v, 6) };
    if v.fract() != 0.0 || v.abs() >= 1e15 {
        return fmt_number(v);
    }
    crate::charts::format::whole_number(v as i64)
}

/// A difference in a few digits.
pub(super) fn short(v: f64) -> String {
    if !v.is_finite() {
        "too large to show".into()
    } else if v == 0.0 {
        "0".into()
    } else if (1e-3..1e4).contains(&v) {
        fmt_number(round_to(v, 3))
    } else {
        format!("{:.2e}", v)
    }
}

/// Whether every pasted value has at most 4 decimals (torch's default printout).
pub(super) fn four_decimals(pasted: &[Vec<f64>]) -> bool {
    pasted.iter().flatten().all(|v| ((v * 1e4).round() - v * 1e4).abs() < 1e-6)
}

/// The match sentence: the largest error and what precision it is consistent with.
pub(super) fn match_text(input: &TestInput, own: &Rotation, pasted: &[Vec<f64>], error: f64) -> String {
    // The largest error relative to its plane's length, the angle's float32 share taken off.
    let expected = own.apply(input);
    let planes = all_planes(own, input.dim);
    let mut relative = 0.0f64;
    for ((x, p), (o, y)) in input.x.iter().zip(&input.positions).zip(expected.iter().zip(pasted)) {
        for (plane, &(a, b)) in planes.iter().enumerate() {
            let (Some(&xa), Some(&xb)) = (x.get(a), x.get(b)) else { continue };
            let length = xa.hypot(xb) * own.amplitude.abs().max(1.0);
            if length < 1e-3 {
                continue;
            }
            let angle = if plane < own.planes() { own.angle(plane, *p).abs() } else { 0.0 };
            for dim in [a, b] {
                if let (Some(&e), Some(&v)) = (o.get(dim), y.get(dim)) {
                    let slack = (e - v).abs() - ANGLE_TOLERANCE * angle * length;
                    relative = relative.max(slack.max(0.0) / length);
                }
            }
        }
    }
    let precision = if error <= 1e-9 {
        "f64 (exact to the last digits)"
    } else if relative <= 4.0 * f32::EPSILON as f64 {
        "float32"
    } else if error <= 5.1e-5 && four_decimals(pasted) {
        "a printout to 4 decimals (torch's default; print(out.tolist()) shows every digit)"
    } else if relative <= 1.0 / 1024.0 {
        "float16"
    } else {
        "bfloat16"
    };
    format!("Right: your RoPE gives the page's result. The largest difference is {}, consistent with {precision}.", short(error))
}

/// The mismatch sentence: where the error sits.
pub(super) fn mismatch_text(input: &TestInput, own: &Rotation, expected: &[Vec<f64>], pasted: &[Vec<f64>]) -> String {
    let planes = per_plane(input, own, expected, pasted);
    let rows = per_row(expected, pasted);
    let worst_plane = planes.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map_or(0, |(i, _)| i);
    let worst_row = rows.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map_or(0, |(i, _)| i);
    let clean_rows: Vec<String> = rows.iter().zip(&input.positions).filter(|(e, _)| **e <= 1e-3).map(|(_, p)| p.to_string()).collect();
    let mut text = format!(
        "Not the page's result, and none of the known mistakes explains it. The largest difference is {}, at position {} \
         (plane {worst_plane} differs most)",
        short(max_difference(expected, pasted)),
        input.positions.get(worst_row).copied().unwrap_or(0),
    );
    if !clean_rows.is_empty() {
        text += &format!("; the rows at position {} agree", clean_rows.join(", "));
    }
    text + "."
}
