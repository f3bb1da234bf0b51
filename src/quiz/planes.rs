//! The questions of frequencies, the heatmap and decay, and the numbers they share with their
//! chapter's readouts (which planes turn within the context, the slowest wavelength and what
//! context extension did to it), so that a readout and its question cannot disagree.

use super::Question;
use crate::charts::format::short_number;
use crate::rope::{
    choices_around, cosine_by_distance, decay_bound, score_window, turns_within, wavelength, HeatmapMode, ModeInputs, Rotary,
    ScalingMethod, Trend,
};

/// The farthest two positions of a context of `context` tokens are apart: positions 0 to
/// L − 1, so L − 1 tokens. A plane turns by at most (L − 1)·θᵢ within the context.
pub fn reach(context: u64) -> f64 {
    context.saturating_sub(1) as f64
}

/// How many full turns plane θᵢ makes within a context of `context` tokens: (L − 1)·θᵢ / 2π.
pub fn turns_in_context(inv_freq: f64, context: u64) -> f64 {
    turns_within(inv_freq, reach(context))
}

/// (planes that complete at least one turn within the context, planes that do not): a plane
/// completes one when (L − 1)·θᵢ ≥ 2π, that is when its wavelength 2π/θᵢ is at most L − 1.
/// The `planes-turning` readout and the `planes-turning` question both read this.
pub fn turning_counts(inv_freq: &[f64], context: u64) -> (usize, usize) {
    let turning = inv_freq.iter().filter(|f| wavelength(**f).is_some_and(|w| w <= reach(context))).count();
    (turning, inv_freq.len() - turning)
}

/// The longest wavelength among the planes that rotate (θᵢ > 0); None when none rotates.
pub fn slowest_wavelength(inv_freq: &[f64]) -> Option<f64> {
    inv_freq.iter().filter_map(|f| wavelength(*f)).reduce(f64::max)
}

/// The hint of the `slowest-wavelength` readout: `inv_freq` in effect under `method`, `plain`
/// the same head with plain RoPE (no method; every plane turning where p-RoPE drops some),
/// `kept` the head's planes under `method` before its factor (p-RoPE's kept planes; read only
/// for p-RoPE), `base` b. Without scaling it says where the value comes from; with scaling it
/// compares the value with plain RoPE's and says whether it is longer, shorter or the same; for
/// p-RoPE it says both steps, dropping planes and then the factor.
pub fn slowest_hint(inv_freq: &[f64], plain: &[f64], kept: &[f64], base: f64, method: ScalingMethod) -> String {
    let (Some(scaled), Some(before)) = (slowest_wavelength(inv_freq), slowest_wavelength(plain)) else {
        return "no plane of this head rotates: no wavelength".to_string();
    };
    // How many planes turn in effect (p-RoPE and partial rotary leave some still).
    let rotating = inv_freq.iter().filter(|f| wavelength(**f).is_some()).count();
    let some = if rotating < inv_freq.len() { format!("; {} of {} planes rotate", rotating, inv_freq.len()) } else { String::new() };
    if method == ScalingMethod::None {
        let share = 100.0 * before / (std::f64::consts::TAU * base);
        let share = if share >= 1.0 { short_number(share.round()) } else { short_number(share) };
        return format!("the slowest plane's 2π/θᵢ: {share}% of 2π·b = {} tokens{some}", short_number(std::f64::consts::TAU * base));
    }
    let same = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b;
    // How `now` compares with plain RoPE's `before`.
    let versus = |now: f64| {
        if same(now, before) {
            "as long as plain RoPE's".to_string()
        } else if now > before {
            format!("{}× longer than plain RoPE's", short_number(now / before))
        } else {
            format!("{}× shorter than plain RoPE's", short_number(before / now))
        }
    };
    if method == ScalingMethod::Proportional {
        // Two steps: p-RoPE keeps the fastest planes (dropping the slow ones), then divides
        // their θᵢ by the factor, which multiplies each wavelength by it.
        let Some(middle) = slowest_wavelength(kept) else { return "no plane of this head rotates: no wavelength".to_string() };
        let planes = inv_freq.len();
        let first = if rotating == planes {
            format!("p-RoPE keeps all {planes} planes, so the slowest wavelength stays {} tokens", short_number(before))
        } else {
            format!(
                "p-RoPE keeps {rotating} of {planes} planes, so the slowest wavelength falls from {} to {} tokens",
                short_number(before),
                short_number(middle)
            )
        };
        let factor = scaled / middle;
        let second = if same(scaled, middle) {
            format!("the factor leaves it there, {}", versus(scaled))
        } else {
            let verb = if scaled > middle { "lengthens" } else { "shortens" };
            format!("the factor {} then {verb} it to {} tokens, {}", short_number(factor), short_number(scaled), versus(scaled))
        };
        return format!("{first}; {second}");
    }
    let label = method.label();
    let plain_words = format!("plain RoPE: {} tokens", short_number(before));
    if same(scaled, before) {
        let why =
            if method == ScalingMethod::Dynamic { " (dynamic NTK changes nothing until the sequence is longer than orig)" } else { "" };
        format!("{label} leaves it unchanged{why} ({plain_words} too){some}")
    } else if scaled > before {
        format!("{label} lengthens it {}× ({plain_words}){some}", short_number(scaled / before))
    } else {
        format!("{label} shortens it {}× ({plain_words}){some}", short_number(before / scaled))
    }
}

/// `planes-turning`: how many planes complete a turn within the context of `context` tokens,
/// its answer [`turning_counts`], as the readout shows it.
pub fn planes_turning(inv_freq: &[f64], context: u64) -> Question {
    let (turning, still) = turning_counts(inv_freq, context);
    let planes = turning + still;
    let idle = inv_freq.iter().filter(|f| wavelength(**f).is_none()).count();
    let length = short_number(context as f64);
    let last = short_number(reach(context));
    let count = match (turning, still) {
        (0, _) => "none does".to_string(),
        (_, 0) if planes == 1 => "it does".to_string(),
        (_, 0) => format!("all {planes} do"),
        (1, 1) => "1 of 2 does; the other never completes one".to_string(),
        (1, _) => format!("1 of {planes} does; the other {still} never complete one"),
        (_, 1) => format!("{turning} of {planes} do; the other one never completes one"),
        _ => format!("{turning} of {planes} do; the other {still} never complete one"),
    };
    let idle = match idle {
        0 => String::new(),
        1 => " (1 plane does not rotate at all)".to_string(),
        n => format!(" ({n} planes do not rotate at all)"),
    };
    Question::plain(
        format!("How many of this head's {planes} planes complete at least one turn within the context of {length} tokens?"),
        choices_around(turning as u64, planes as u64).into_iter().map(|c| c.to_string()),
        turning.to_string(),
        format!(
            "Positions 0 to {last} reach the angle {last}·θᵢ, so a plane completes a turn within the context when {last}·θᵢ ≥ 2π, \
             that is when its wavelength 2π/θᵢ is at most {last} tokens: {count}{idle}."
        ),
    )
}

/// `slowest-vs-context`: is the slowest rotating plane's wavelength longer than the context?
/// `method` names the context extension in effect (None: no sentence about it).
pub fn slowest_vs_context(inv_freq: &[f64], context: u64, base: f64, dim: usize, method: ScalingMethod) -> Question {
    let length = short_number(context as f64);
    let settings = if method == ScalingMethod::None {
        format!("With base {} and d = {dim}", short_number(base))
    } else {
        format!("With base {}, d = {dim} and {} (a context extension, explained in its own chapter)", short_number(base), method.label())
    };
    let ask = format!("{settings}, is the slowest wavelength longer than the context of {length} tokens?");
    let choices = [("yes", "yes"), ("no", "no")];
    let Some(slowest) = slowest_wavelength(inv_freq) else {
        return Question::labelled(
            ask,
            &choices,
            "yes",
            "No plane rotates here (θᵢ = 0 for every plane): a plane that never turns has no finite wavelength, longer than any context."
                .to_string(),
        );
    };
    let longer = slowest > context as f64;
    let last = short_number(reach(context));
    let turns = slowest <= reach(context);
    let compared = if longer { "longer than" } else { "at most" };
    let then = if turns {
        format!("positions 0 to {last} reach {last}·θᵢ ≥ 2π, so even the slowest plane completes a turn within the context")
    } else if longer {
        "that plane never completes a turn within the context".to_string()
    } else {
        format!("yet positions 0 to {last} reach only {last}·θᵢ < 2π, so that plane still never completes a turn within the context")
    };
    Question::labelled(
        ask,
        &choices,
        if longer { "yes" } else { "no" },
        format!("The slowest rotating plane's wavelength is {} tokens, {compared} the context's {length}: {then}.", short_number(slowest)),
    )
}

/// `score-decays`: the cursor distance `r`, q and k rotated by `rotary`. At r > 0 it gives
/// RoFormer's relative bound at 0 and at r as they are (it may not fall: at d = 2 it is 1 at
/// every distance) and asks whether this q and k's score is smaller in size at r than at 0;
/// at r = 0 there is nothing to compare, and it asks where the bound is highest instead.
pub fn score_decays(rotary: &Rotary, q: &[f64], k: &[f64], r: i64) -> Question {
    let inv_freq = rotary.inv_freq();
    let (bound_zero, bound_r) = (decay_bound(inv_freq, 0.0), decay_bound(inv_freq, r as f64));
    let choices = [("yes", "yes"), ("no", "no")];
    if r == 0 {
        return Question::labelled(
            format!(
                "The cursor is at r = 0, where RoFormer's relative bound is {}. Is that the bound's highest value over all distances?",
                short_number(bound_zero)
            ),
            &choices,
            "yes",
            format!(
                "At r = 0 every phasor e^(j·0·θᵢ) is 1, so each |Sₜ| = t, the most a sum of t unit phasors can be: the bound is \
                 (d/2 + 1)/2 = {}, and at no distance higher{}. Move r to compare this q and k's score with it.",
                short_number(bound_zero),
                if inv_freq.len() == 1 { " (with one plane, d = 2, it is 1 at every distance)" } else { "" }
            ),
        );
    }
    let c = cosine_by_distance(rotary, q, k, &[0.0, r as f64]);
    let (at_zero, at_r) = (c[0], c[1]);
    // Apart only beyond rounding, which grows with the largest angle r·θᵢ (cosines are in [−1, 1]).
    let largest = inv_freq.iter().copied().filter(|t| t.is_finite()).fold(0.0, f64::max) * r.unsigned_abs() as f64;
    let tolerance = 1e-12 + 16.0 * f64::EPSILON * (1.0 + largest);
    let trend = match at_r.abs() - at_zero.abs() {
        gap if gap < -tolerance => Trend::Falls,
        gap if gap > tolerance => Trend::Rises,
        _ => Trend::Stays,
    };
    let bound_trend = match Trend::of(bound_zero, bound_r) {
        Trend::Falls => "lower",
        Trend::Rises => "higher",
        Trend::Stays => "the same",
    };
    let distance = short_number(r as f64);
    let pair = match trend {
        Trend::Falls => "smaller in size",
        Trend::Rises => "larger in size",
        Trend::Stays => "the same size",
    };
    Question::labelled(
        format!(
            "RoFormer's relative bound is {} at r = 0 and {} at r = {distance}. Is this q and k's score smaller in size at r = {distance} than at 0?",
            short_number(bound_zero),
            short_number(bound_r)
        ),
        &choices,
        if trend == Trend::Falls { "yes" } else { "no" },
        format!(
            "Its score ÷ |q||k| is {} at 0 and {} at r = {distance}: {pair} at r, while the ceiling is {bound_trend} there. RoFormer's \
             bound caps |score| for each q and k (Σⱼ|Sⱼ| times their maxᵢ |hᵢ₊₁ − hᵢ|): a ceiling, not the path of one q and k. \
             Move r or the seed and the answer can change.",
            short_number(at_zero),
            short_number(at_r)
        ),
    )
}

/// `diagonal`: whether the four cells from (m, n) down its diagonal, (m + t, n + t) for t = 0 to
/// 3, share a colour in `mode`, computed as the map computes them (`rotary` is the rotation the
/// map uses, the original θᵢ when it shows them), and why.
pub fn diagonal(rotary: &Rotary, q: &[f64], k: &[f64], (m, n): (i64, i64), mode: HeatmapMode, inputs: ModeInputs) -> Question {
    let cells = score_window(rotary, q, k, (m, n), 4, mode, inputs);
    let one_colour = cells.len() == 16 && (1..4).all(|t| Trend::of(cells[0], cells[5 * t]) == Trend::Stays);
    let why = match (mode, one_colour) {
        (HeatmapMode::Rotated, _) => {
            "With RoPE each plane of q turns by m·θᵢ and of k by n·θᵢ, and the score sees only the angle between them, (n − m)·θᵢ: \
             it depends on n − m alone, and a diagonal keeps n − m, so it keeps the colour."
        }
        (HeatmapMode::Unrotated, _) => "With no position the score is q·k in every cell: one colour everywhere, along every diagonal too.",
        (HeatmapMode::T5, _) => {
            "T5's bias depends on the bucket of n − m, and q·k on no position: a diagonal keeps n − m, so it keeps the colour."
        }
        (HeatmapMode::Alibi, _) => {
            "ALiBi's bias −slope·|n − m| depends on n − m alone, and q·k on no position: a diagonal keeps n − m, so it keeps the colour."
        }
        (HeatmapMode::Sinusoidal, false) => {
            "With sinusoids added, the cross terms q·PE(n) and PE(m)·k follow m and n themselves, so the colour changes along a diagonal."
        }
        (HeatmapMode::Sinusoidal, true) => {
            "With sinusoids added, only PE(m)·PE(n) depends on n − m alone; here the cross terms q·PE(n) and PE(m)·k change by at \
             most about a millionth of the score along this diagonal (as when q and k are 0), so the colour stays."
        }
    };
    Question::labelled(
        "Along one diagonal of the current picture (n − m fixed), are the cells all one colour?".to_string(),
        &[("yes", "yes"), ("no", "no")],
        if one_colour { "yes" } else { "no" },
        why.to_string(),
    )
}
