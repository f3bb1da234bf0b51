//! What the check-yourself questions need to know, computed from the current numbers: the page
//! never writes a state-dependent answer into its text. Each function is small; what they
//! share is that a question's right answer follows the sliders.

use super::encodings::{binary_code, MAX_CODE_POSITION};

/// How a number moved: the answer to "will it rise, fall or stay?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trend {
    Rises,
    Falls,
    Stays,
}

impl Trend {
    /// Every answer, in the order the questions list them.
    pub const ALL: [Trend; 3] = [Trend::Rises, Trend::Falls, Trend::Stays];

    /// From `before` to `after`: "stays" within rounding (a relative 1e-6 of the larger, or
    /// 1e-9 absolute): the float noise of recomputing the same value by another path, which
    /// grows with the angle (an f64 angle of 10⁹ radians is off by about 10⁻⁷).
    pub fn of(before: f64, after: f64) -> Trend {
        let tolerance = 1e-6 * before.abs().max(after.abs()) + 1e-9;
        if (after - before).abs() <= tolerance || !(before.is_finite() && after.is_finite()) {
            Trend::Stays
        } else if after > before {
            Trend::Rises
        } else {
            Trend::Falls
        }
    }

    /// Its value in `data-value`.
    pub fn as_str(self) -> &'static str {
        match self {
            Trend::Rises => "rise",
            Trend::Falls => "fall",
            Trend::Stays => "stay",
        }
    }
}

/// How many bits of the binary code flip from `p` to `p + 1` (at the last position the code
/// can write, from `p − 1` to `p`).
pub fn bits_flipped(p: u32) -> u32 {
    let p = p.min(MAX_CODE_POSITION - 1);
    binary_code(p).iter().zip(binary_code(p + 1)).filter(|(a, b)| **a != *b).count() as u32
}

/// The plane that completes a full turn first: the largest frequency θᵢ (the first, if two
/// tie). None without a positive frequency.
pub fn first_to_turn(inv_freq: &[f64]) -> Option<usize> {
    inv_freq
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_finite() && **f > 0.0)
        .fold(None, |best: Option<(usize, f64)>, (i, f)| match best {
            Some((_, b)) if b >= *f => best,
            _ => Some((i, *f)),
        })
        .map(|(i, _)| i)
}

/// Three to five whole-number choices around `answer`, in increasing order, within
/// `0..=largest`: the answer and its neighbours at a distance that scales with it (so that the
/// choices are not told apart by being off by one when the answer is 40), never repeated.
pub fn choices_around(answer: u64, largest: u64) -> Vec<u64> {
    let answer = answer.min(largest);
    let step = (answer / 4).max(1);
    let mut choices: Vec<u64> =
        [answer.checked_sub(2 * step), answer.checked_sub(step), Some(answer), Some(answer + step), Some(answer + 2 * step)]
            .into_iter()
            .flatten()
            .filter(|c| *c <= largest)
            .collect();
    choices.dedup();
    // Keep at most four, with the answer not always in the same place: an even answer drops
    // the smallest choice, an odd one the largest.
    while choices.len() > 4 {
        let at = choices.iter().position(|c| *c == answer).unwrap_or(0);
        if at + 1 == choices.len() || (answer % 2 == 0 && at > 0) {
            choices.remove(0);
        } else {
            choices.pop();
        }
    }
    choices
}
