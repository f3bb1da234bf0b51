//! The questions of layouts, 2D RoPE and precision.

use super::Question;
use crate::charts::format::{short_number, whole_number};
use crate::rope::{Format, Patch, Rope2d, Trend};
use crate::state::{shifted_patches, PATCH_GRID};

/// "half-partner" (layouts): with rotate_half, which dimension shares a plane with dimension 0.
///
/// `dim` is the head dimension d, `rotary_dim` the dimensions rotate_half is applied to (d,
/// or int(d · partial_rotary_factor) with partial rotary), `partial` the partial_rotary_factor
/// in effect (named only when fewer than d rotate). rotate_half pairs dimension i with i + r/2
/// for i < r/2, r = `rotary_dim`.
pub fn half_partner(dim: usize, rotary_dim: usize, partial: f64) -> Question {
    let partial_rotary = rotary_dim < dim;
    let partner = rotary_dim / 2;
    // The right answer, and what a reader who forgot partial rotary (d/2) or mixed up the
    // layouts (1: interleaved) would pick; the last dimension of the rotating block beside them.
    let mut options = vec![1, partner, dim / 2, rotary_dim - 1];
    options.sort_unstable();
    options.dedup();
    options.retain(|o| *o > 0 && *o < dim);
    let mut choices: Vec<(String, String)> = options.into_iter().map(|o| (o.to_string(), format!("dimension {o}"))).collect();
    // At d = 2 the only other dimension is the answer: a second choice is that it turns alone.
    if choices.len() < 2 {
        choices.push(("none".to_string(), "none: dimension 0 turns alone".to_string()));
    }
    let ask = if partial_rotary {
        format!(
            "With rotate_half, d = {dim} and partial_rotary_factor = {} (the fraction of each head's dimensions that rotate: \
             here the first {rotary_dim}), which dimension shares a plane with dimension 0?",
            short_number(partial)
        )
    } else {
        format!("With rotate_half and d = {dim}, which dimension shares a plane with dimension 0?")
    };
    let why = if partial_rotary && partner == 1 {
        // One rotating plane: both layouts pair 0 with 1, so there is no contrast to draw.
        format!(
            "rotate_half acts on the 2 rotating dimensions only: one plane, dimensions 0 and 1, in either layout, so it \
             pairs dimension 0 with 0 + 2/2 = 1, not with half of d ({}). The other {} dimensions do not turn.",
            dim / 2,
            dim - rotary_dim
        )
    } else if partial_rotary {
        format!(
            "rotate_half acts on the {rotary_dim} rotating dimensions only, so it pairs dimension i with i + {rotary_dim}/2 = \
             i + {partner} (for i < {partner}): half of the rotating dimensions further on, not half of d ({}). The other {} \
             dimensions do not turn; the interleaved layout would pair 0 with 1.",
            dim / 2,
            dim - rotary_dim
        )
    } else if dim == 2 {
        "At d = 2 there is one plane, dimensions 0 and 1, in either layout: rotate_half pairs dimension i with i + d/2 = i + 1.".to_string()
    } else {
        format!(
            "rotate_half pairs dimension i with i + d/2 = i + {partner} (for i < {partner}), half the head further on; the interleaved \
             layout pairs each even dimension with the next, so 0 with 1."
        )
    };
    Question { ask, choices, right: partner.to_string(), why }
}

/// A move of one patch or both: (dx, dy) and how it reads.
const MOVES: [(i64, i64, &str); 8] = [
    (1, 1, "one column right and one row down"),
    (-1, -1, "one column left and one row up"),
    (1, -1, "one column right and one row up"),
    (-1, 1, "one column left and one row down"),
    (1, 0, "one column right"),
    (-1, 0, "one column left"),
    (0, 1, "one row down"),
    (0, -1, "one row up"),
];

fn signed(v: i64) -> String {
    match v {
        v if v > 0 => format!("+{v}"),
        v if v < 0 => format!("−{}", -v),
        _ => "0".to_string(),
    }
}

/// How the planes are split between the axes, in words, from the split itself.
fn split_words(rope: &Rope2d) -> String {
    match rope.split() {
        (x, 0) => format!("at d = {} the only plane turns with x and no plane is left for y, so the score ignores Δy", 2 * x),
        (x, y) => format!("axial RoPE turns {x} of the planes by x·θₐ and {y} by y·θₐ"),
    }
}

/// The move "shift-2d" (rope2d) asks about for patches `query` and `key` on the 8 × 8 grid:
/// `Some((dx, dy, words))` for the first move of both patches the grid allows, `None` when none
/// does (the two patches in opposite corners).
pub fn move_of_both(query: (u8, u8), key: (u8, u8)) -> Option<(i64, i64, &'static str)> {
    MOVES.into_iter().find(|(dx, dy, _)| shifted_patches((query, key), *dx, *dy).is_some())
}

/// "shift-2d" (rope2d): move both patches by a step the grid allows; the axial score stays. When
/// no move of both fits (opposite corners), the key alone moves one column towards the query,
/// which changes the offset; the answer is then read from the two scores.
pub fn shift_2d(rope: &Rope2d, q: &[f64], k: &[f64], query: (u8, u8), key: (u8, u8)) -> Question {
    let patch = |(x, y): (u8, u8)| -> Patch { (x as i64, y as i64) };
    let (qp, kp) = (patch(query), patch(key));
    let score = |qp: Patch, kp: Patch| rope.score(q, k, qp, kp).unwrap_or(0.0);
    let offset = (kp.0 - qp.0, kp.1 - qp.1);
    let choices = [("rise", "rise"), ("fall", "fall"), ("stay", "stay the same")];
    match move_of_both(query, key) {
        Some((dx, dy, words)) => {
            let before = score(qp, kp);
            let after = score((qp.0 + dx, qp.1 + dy), (kp.0 + dx, kp.1 + dy));
            Question::labelled(
                format!("Move both patches {words}. The axial 2D RoPE score will:"),
                &choices,
                Trend::of(before, after).as_str(),
                format!(
                    "Here {}. Moving both patches alike keeps the offset ({}, {}), and each plane's angle between q and k depends \
                     only on the offset along its axis, so the score does not change.",
                    split_words(rope),
                    signed(offset.0),
                    signed(offset.1)
                ),
            )
        }
        None => {
            // Opposite corners: qx ≠ kx, so one column towards the query stays on the grid.
            let dx = (qp.0 - kp.0).signum();
            let moved = (kp.0 + dx, kp.1);
            let (before, after) = (score(qp, kp), score(qp, moved));
            let trend = Trend::of(before, after);
            let new_offset = (moved.0 - qp.0, moved.1 - qp.1);
            let why = format!(
                "This changes the offset from ({}, {}) to ({}, {}): {}, so the planes that turn with x now hold q and k at other \
                 angles{}.",
                signed(offset.0),
                signed(offset.1),
                signed(new_offset.0),
                signed(new_offset.1),
                split_words(rope),
                match trend {
                    Trend::Stays => ", though with these q and k their shares of the score add up to the same value",
                    _ => " and the score moves with them",
                }
            );
            Question::labelled(
                format!(
                    "The query patch and the key patch sit in opposite corners, so no move of both fits the {g} × {g} grid. Move only the key one column {} \
                     (to column {}, row {}). The axial 2D RoPE score will:",
                    if dx > 0 { "right" } else { "left" },
                    moved.0,
                    moved.1,
                    g = PATCH_GRID
                ),
                &choices,
                trend.as_str(),
                why,
            )
        }
    }
}

/// A whole number grouped by three, or in scientific notation when it is too large for that.
fn count(v: f64) -> String {
    if v.abs() < 1e15 {
        whole_number(v as i64)
    } else {
        short_number(v)
    }
}

/// "stored-position" (precision): how `format` stores the position `m`. Rounding is to the
/// nearest value the format holds, a tie to the neighbour whose significand is even (IEEE 754's
/// default, and PyTorch's float → bfloat16); past the largest finite value, infinity.
pub fn stored_position(format: Format, m: i64) -> Question {
    let x = m as f64;
    let stored = format.round(x);
    let spacing = format.ulp(x);
    let name = format.as_str();
    // The value a number (or "infinity"), the label as people read it.
    let choice = |v: f64| {
        if v.is_finite() {
            ((v as i64).to_string(), whole_number(v as i64))
        } else {
            ("infinity".to_string(), "infinity".to_string())
        }
    };
    // The neighbours of m the format holds (below a power of two the lower one is nearer).
    let below = (x / spacing).floor() * spacing;
    let above = below + spacing;
    let tie = x - below == spacing / 2.0;
    let mut options: Vec<f64> = vec![x, stored];
    if stored.is_finite() {
        options.extend([stored - spacing.max(1.0), stored + spacing.max(1.0)]);
        if tie {
            options.extend([below, above]);
        }
    } else {
        // Overflow: the largest finite value is the tempting wrong answer.
        options.push(format.max_finite());
    }
    options.retain(|v| !v.is_finite() || (*v >= 0.0 && v.fract() == 0.0));
    options.sort_by(f64::total_cmp);
    options.dedup();
    let why = if !stored.is_finite() {
        let largest = format.max_finite();
        let next = largest + format.ulp(largest);
        format!(
            "{} is at or past {}, halfway between {name}'s largest value, {}, and the next step, {}, which {name} cannot hold: \
             it rounds to infinity.",
            whole_number(m),
            count((largest + next) / 2.0),
            count(largest),
            count(next)
        )
    } else if stored == x {
        format!(
            "Near {} the values {name} can hold are {} apart, and m is one of them: it is stored exactly.",
            whole_number(m),
            short_number(spacing)
        )
    } else if tie {
        format!(
            "Near {} the values {name} can hold are {} apart: m lies exactly halfway between {} and {}, and a tie goes to the \
             value whose significand is even, {}.",
            whole_number(m),
            short_number(spacing),
            whole_number(below as i64),
            whole_number(above as i64),
            whole_number(stored as i64)
        )
    } else {
        format!(
            "Near {} the values {name} can hold are {} apart, so m is stored as the nearest of them, {}.",
            whole_number(m),
            short_number(spacing),
            whole_number(stored as i64)
        )
    };
    Question {
        ask: format!(
            "{name} rounds to the nearest value it can hold (halfway: to the one whose significand is even). It stores position m = {} as:",
            whole_number(m)
        ),
        choices: options.into_iter().map(choice).collect(),
        right: choice(stored).0,
        why,
    }
}
