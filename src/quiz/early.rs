//! The questions of counting, sinusoids, add or rotate, the scores, the complex view and the rotation lab.
//!
//! Several of these questions ask whether a number stays when both positions move. In real
//! numbers it does; in f64 each angle p·θᵢ is rounded to about ε·p·θᵢ, so two ways of computing
//! the same score differ by up to about ε·|q||k|·(d + p·θ) ([`rounding`]). A change within that is
//! rounding, not a change: at positions near 10⁷ with a score near 0, a fixed tolerance would
//! call rounding a rise or a fall.

use super::Question;
use crate::charts::format::{short_number, whole_number};
use crate::rope::{
    bits_flipped, choices_around, dot, first_to_turn, sinusoidal_encoding, wavelength, RopeParams, Trend, VectorName, BITS,
    MAX_CODE_POSITION,
};
use crate::state::Vectors;
use std::f64::consts::TAU;

/// The answers of "will it rise, fall or stay?", as the page lists them.
const TRENDS: [(&str, &str); 3] = [("rise", "rise"), ("fall", "fall"), ("stay", "stay the same")];

/// How far rounding can move a number of size up to `scale` (|q||k| for a score) that adds up
/// `terms` products of pairs turned by angles up to `angle` radians: each rounded angle is off
/// by ε·angle, each sum by ε per term; 32 of those, a margin of about 8 over the worst case. Never
/// more than 2·scale, the most any turn can move such a score.
pub fn rounding(scale: f64, terms: usize, angle: f64) -> f64 {
    let bound = 32.0 * f64::EPSILON * scale * (terms as f64 + 1.0 + angle.abs());
    if bound.is_finite() {
        bound.min(2.0 * scale)
    } else {
        2.0 * scale
    }
}

/// From `before` to `after`: "stays" within `tolerance`.
pub fn trend_within(before: f64, after: f64, tolerance: f64) -> Trend {
    if !(before.is_finite() && after.is_finite()) || (after - before).abs() <= tolerance {
        Trend::Stays
    } else if after > before {
        Trend::Rises
    } else {
        Trend::Falls
    }
}

/// The largest frequency of a list (0 if none is positive).
fn fastest(inv_freq: &[f64]) -> f64 {
    inv_freq.iter().copied().filter(|f| f.is_finite()).fold(0.0, f64::max)
}

/// Euclidean length.
fn length(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// `bits-flip`: how many bits of the 16-bit code flip from p to p + 1. At p = 65,535 there is
/// no p + 1 to write (65,536 needs a 17th bit), so the question steps from 65,534 instead.
pub fn bits_flip(p: u32) -> Question {
    let at = p.min(MAX_CODE_POSITION - 1);
    let flips = bits_flipped(at);
    let ones = flips - 1;
    let from = whole_number(at.into());
    let tail = match ones {
        0 => format!("{from} ends in 0 in binary; adding 1 turns that last bit to 1: 1 bit."),
        1 => format!("{from} ends in one 1 in binary; adding 1 turns it to 0 and the 0 above it to 1: 2 bits."),
        _ => format!("{from} ends in {ones} ones in binary; adding 1 turns them to 0 and the 0 above them to 1: {flips} bits."),
    };
    let last = if p >= MAX_CODE_POSITION {
        format!(" (From {}, the last position 16 bits can write, there is no next code: 65,536 needs a 17th bit.)", whole_number(p.into()))
    } else {
        String::new()
    };
    Question::plain(
        format!("Step p from {from} to {}. How many bits of the binary code flip?", whole_number(i64::from(at) + 1)),
        choices_around(u64::from(flips), BITS as u64).into_iter().filter(|c| *c > 0).map(|c| c.to_string()),
        flips.to_string(),
        format!("{tail} Binary steps are uneven.{last}"),
    )
}

/// `pe-dot`: keep the shift Δ and move p 1,000 further; does PE(p)·PE(p + Δ) change? It is
/// Σᵢ cos Δθᵢ, whatever p is.
pub fn pe_dot(params: RopeParams, p: u32, shift: u32) -> Question {
    const FURTHER: f64 = 1000.0;
    let (p, shift) = (f64::from(p), f64::from(shift));
    let dot_at = |p: f64| dot(&sinusoidal_encoding(params, p), &sinusoidal_encoding(params, p + shift));
    let (before, after) = (dot_at(p), dot_at(p + FURTHER));
    // Each code has length √(d/2); plane 0 turns fastest, 1 radian per token.
    let planes = params.planes();
    let tolerance = rounding(planes as f64, 2 * planes, p + shift + FURTHER);
    let sum: f64 = (0..planes).map(|i| (shift * params.base().powf(-2.0 * i as f64 / params.dim() as f64)).cos()).sum();
    Question::labelled(
        format!("Keep Δ = {} and move p 1,000 further. The dot product PE(p)·PE(p + Δ) will:", whole_number(shift as i64)),
        &TRENDS,
        trend_within(before, after, tolerance).as_str(),
        format!(
            "PE(p)·PE(p + Δ) = Σᵢ (sin pθᵢ sin (p+Δ)θᵢ + cos pθᵢ cos (p+Δ)θᵢ) = Σᵢ cos Δθᵢ: the angle between the two codes in \
             each plane is Δθᵢ, wherever p is. Here Σᵢ cos Δθᵢ = {}; at p and at p + 1,000 the dot product is {} and {}.",
            short_number(sum),
            short_number(before),
            short_number(after)
        ),
    )
}

/// `shift-added`: with the code added, (q + PE(m))·(k + PE(n)), move both tokens `shift`
/// positions later. Expanded: q·k + q·PE(n) + PE(m)·k + PE(m)·PE(n); the first and the last
/// depend on n − m alone, the two cross terms on m and n themselves.
pub fn shift_added(q: &[f64], k: &[f64], params: RopeParams, m: i64, n: i64, shift: i64) -> Question {
    let pe = |p: i64| sinusoidal_encoding(params, p as f64);
    let added = |m: i64, n: i64| {
        let (a, b) = (pe(m), pe(n));
        let qa: Vec<f64> = q.iter().zip(&a).map(|(x, y)| x + y).collect();
        let kb: Vec<f64> = k.iter().zip(&b).map(|(x, y)| x + y).collect();
        (dot(&qa, &kb), dot(q, &b) + dot(&a, k), length(&qa) * length(&kb))
    };
    let (before, cross_before, scale_before) = added(m, n);
    let (after, cross_after, scale_after) = added(m + shift, n + shift);
    let angle = (m.max(n) + shift) as f64;
    let tolerance = rounding(scale_before.max(scale_after), q.len() + 2, angle);
    let trend = trend_within(before, after, tolerance);
    let zero = |x: &[f64]| x.iter().all(|v| *v == 0.0);
    let numbers = format!("here the score goes from {} to {}", short_number(before), short_number(after));
    let why = if zero(q) && zero(k) {
        format!(
            "q and k are zero here, so the cross terms q·PE(n) and PE(m)·k vanish and the score is PE(m)·PE(n) = Σᵢ cos((n − m)θᵢ) \
             alone, which depends on n − m only: {numbers}. With any other q or k the cross terms follow m and n themselves."
        )
    } else if trend == Trend::Stays {
        format!(
            "Expanded, q·k + q·PE(n) + PE(m)·k + PE(m)·PE(n): the cross terms follow m and n themselves, but here they move \
             only from {} to {}, within rounding: {numbers}.",
            short_number(cross_before),
            short_number(cross_after)
        )
    } else {
        format!(
            "Expanded, q·k + q·PE(n) + PE(m)·k + PE(m)·PE(n): q·k and PE(m)·PE(n) = Σᵢ cos((n − m)θᵢ) stay, but the cross terms \
             q·PE(n) + PE(m)·k follow m and n themselves, not n − m: they go from {} to {}, and {numbers}.",
            short_number(cross_before),
            short_number(cross_after)
        )
    };
    Question::labelled(
        format!("With the code added, (q + PE(m))·(k + PE(n)), move both tokens {shift} positions later. The score will:"),
        &TRENDS,
        trend.as_str(),
        why,
    )
}

/// The rotated score R(m)q · R(n)k at (m, n) and at (m + shift, n + shift), and how far
/// rounding can move it.
fn rotated_scores(v: &Vectors, m: i64, n: i64, shift: i64) -> (f64, f64, f64) {
    let rotated = |x: &[f64], p: i64, name| v.rotary.rotate(name, x, p).unwrap_or_default();
    let score = |m, n| dot(&rotated(&v.q, m, VectorName::Query), &rotated(&v.k, n, VectorName::Key));
    let angle = (m.max(n) + shift) as f64 * fastest(v.rotary.inv_freq());
    (score(m, n), score(m + shift, n + shift), rounding(length(&v.q) * length(&v.k), v.q.len(), angle))
}

/// `shift-rope`: with RoPE, move both tokens `shift` positions later. R(m)q · R(n)k =
/// q · R(n − m)k, so the score stays (to rounding, [`rounding`]).
pub fn shift_rope(v: &Vectors, m: i64, n: i64, shift: i64) -> Question {
    let (before, after, tolerance) = rotated_scores(v, m, n, shift);
    Question::labelled(
        format!("With RoPE, R(m)q · R(n)k, move both tokens {shift} positions later. The score will:"),
        &TRENDS,
        trend_within(before, after, tolerance).as_str(),
        format!(
            "R(m)q · R(n)k = q · R(n − m)k: both turn {shift}·θᵢ further in each plane, and the angle between them stays. \
             Here {} → {}.",
            short_number(before),
            short_number(after)
        ),
    )
}

/// Whether turning every plane by `shift`·θᵢ changes `x`, and if not, why not (`None`: it
/// changes). A pair changes unless it is zero or its plane does not turn (θᵢ = 0: the planes
/// partial rotary and p-RoPE leave alone).
fn why_unturned(v: &Vectors, x: &[f64]) -> Option<&'static str> {
    let turns = (0..v.rotary.planes()).any(|plane| {
        let (a, b) = v.rotary.plane_dims(plane);
        let theta = v.rotary.inv_freq()[plane];
        theta != 0.0 && theta.is_finite() && (x.get(a).is_some_and(|x| *x != 0.0) || x.get(b).is_some_and(|x| *x != 0.0))
    });
    if turns {
        None
    } else if x.iter().all(|x| *x == 0.0) {
        Some("is zero, and a turned zero is zero")
    } else {
        Some("has weight only on planes that do not turn (θᵢ = 0)")
    }
}

/// `shift-both`: add `shift` to both m and n; which numbers change? Computed from q and k both:
/// each of R(m)q and R(n)k changes unless it is zero or lies on planes that do not turn; the
/// score stays.
pub fn shift_both(v: &Vectors, m: i64, n: i64, shift: i64) -> Question {
    let (q_still, k_still) = (why_unturned(v, &v.q), why_unturned(v, &v.k));
    let (before, after, tolerance) = rotated_scores(v, m, n, shift);
    let trend = trend_within(before, after, tolerance);
    let right = match (trend, q_still, k_still) {
        (Trend::Rises | Trend::Falls, _, _) => "score",
        (_, None, None) => "vectors",
        (_, None, Some(_)) => "q",
        (_, Some(_), None) => "k",
        (_, Some(_), Some(_)) => "nothing",
    };
    let say = |name: &str, still: Option<&str>| match still {
        None => format!("{name} has a non-zero part on a plane that turns, so {name} rotated changes"),
        Some(why) => format!("{name} {why}, so it stays"),
    };
    let score = match trend {
        Trend::Stays => format!(
            "the angle the rotation adds between them, (n − m)θᵢ, does not change, and neither does the score ({} → {})",
            short_number(before),
            short_number(after)
        ),
        _ => format!("the score goes from {} to {}", short_number(before), short_number(after)),
    };
    Question::labelled(
        format!("Add {shift} to both m and n. Which numbers change?"),
        &[
            ("vectors", "q and k rotated both change; the score does not"),
            ("q", "only q rotated changes; the score does not"),
            ("k", "only k rotated changes; the score does not"),
            ("score", "the score changes too"),
            ("nothing", "nothing changes"),
        ],
        right,
        format!("Each plane of q and k turns a further {shift}·θᵢ. Here {}; {}; {score}.", say("q", q_still), say("k", k_still)),
    )
}

/// `turn-length`: does multiplying q̃ᵢ, q's part in plane i, by e^(jmθᵢ) change its length? Never: |e^(jφ)| = 1.
/// The right answer is "not at all" in every state; the why shows both lengths, which agree to
/// rounding (a difference beyond rounding would be a fault of the page, not another answer).
pub fn turn_length(pair: (f64, f64), m: i64, theta: f64) -> Question {
    let (sin, cos) = (m as f64 * theta).sin_cos();
    let turned = (pair.0 * cos - pair.1 * sin, pair.0 * sin + pair.1 * cos);
    let (before, after) = (pair.0.hypot(pair.1), turned.0.hypot(turned.1));
    Question::labelled(
        "Multiplying q̃ᵢ, q's part in plane i, by e^(jmθᵢ) changes its length |q̃ᵢ| how?".to_string(),
        &[("none", "not at all"), ("grows", "it grows with m"), ("shrinks", "it shrinks by a factor cos mθᵢ")],
        "none",
        format!(
            "|e^(jφ)| = √(cos²φ + sin²φ) = 1 for every angle φ, so |q̃ᵢ·e^(jmθᵢ)| = |q̃ᵢ|: here {} before and {} after. \
             A rotation moves only the angle.",
            short_number(before),
            short_number(after)
        ),
    )
}

/// `first-turn`: which plane's hand completes a full turn first as m grows? The one with the
/// largest θᵢ (radians per token), wherever it is: the why does not assume that θᵢ shrinks with i
/// (LongRoPE's per-plane factors need not be monotone and may be below 1). With one plane
/// (d = 2), "which plane" has one choice: the question asks how many tokens its turn takes.
pub fn first_turn(inv_freq: &[f64]) -> Question {
    let planes = inv_freq.len();
    let Some(first) = first_to_turn(inv_freq).filter(|i| wavelength(inv_freq[*i]).is_some()) else {
        return Question::labelled(
            "As m grows, which plane's hand completes a full turn first?".to_string(),
            &[("0", "plane 0"), ("none", "none: no plane turns")],
            "none",
            "Every θᵢ is 0 in these settings, so no hand turns at all.".to_string(),
        );
    };
    let theta = inv_freq[first];
    let lambda = TAU / theta;
    let within = if lambda < 1.0 { " (less than one token: a single step of m turns it more than once)" } else { "" };
    // Planes tied with the first (LongRoPE's factors can make two equal) would be right too:
    // they are left out of the choices, and the why names them.
    let tied: Vec<usize> = (0..planes).filter(|i| *i != first && inv_freq[*i] == theta).collect();
    if planes <= 1 || tied.len() + 1 == planes {
        // d = 2 (one plane), or every plane tied: "which plane" would have one choice. Ask how
        // long the turn takes.
        let options = [TAU / theta, 1.0 / theta, std::f64::consts::PI / theta, theta];
        let mut values: Vec<f64> = Vec::new();
        for value in options {
            if !values.iter().any(|v| short_number(*v) == short_number(value)) {
                values.push(value);
            }
        }
        values.sort_by(f64::total_cmp);
        let label = |v: f64| format!("{} tokens", short_number(v));
        let ask = if planes <= 1 {
            format!("At d = 2 the head has one plane, plane 0, turning by θ₀ = {} rad per token.", short_number(theta))
        } else {
            format!("Here every plane turns by the same θᵢ = {} rad per token.", short_number(theta))
        };
        let theta_name = if planes <= 1 { "θ₀" } else { "θᵢ" };
        return Question {
            ask: format!("{ask} After how many tokens does a hand complete a full turn?"),
            choices: values.into_iter().map(|v| (label(v), label(v))).collect(),
            right: label(lambda),
            why: format!(
                "A full turn is 2π radians, so it takes 2π/{theta_name} = {} tokens{within}: the plane's wavelength λ.",
                short_number(lambda)
            ),
        };
    }
    let mut options: Vec<usize> = [0, planes / 2, planes - 1].into_iter().filter(|i| !tied.contains(i)).collect();
    options.push(first);
    options.sort_unstable();
    options.dedup();
    if options.len() < 2 {
        options.extend((0..planes).filter(|i| *i != first && !tied.contains(i)).take(1));
        options.sort_unstable();
    }
    let ties = match tied.as_slice() {
        [] => String::new(),
        [one] => format!(" Plane {one} has the same θᵢ and turns with it; it is not among the choices."),
        more => format!(" {} other planes have the same θᵢ and turn with it; they are not among the choices.", more.len()),
    };
    let steady = inv_freq.windows(2).all(|w| w[1] <= w[0]);
    let order = if steady {
        "here θᵢ shrinks as i grows".to_string()
    } else {
        "here θᵢ does not shrink steadily with i (the context extension scales the planes unevenly)".to_string()
    };
    Question {
        ask: "As m grows, which plane's hand completes a full turn first?".to_string(),
        choices: options.into_iter().map(|i| (i.to_string(), format!("plane {i}"))).collect(),
        right: first.to_string(),
        why: format!(
            "Plane i turns by θᵢ radians per token, so the plane with the largest θᵢ turns first, whatever its index; {order}. \
             The largest is plane {first}'s, {} rad per token: it completes a turn every 2π/θᵢ = {} tokens{within}.{ties}",
            short_number(theta),
            short_number(lambda)
        ),
    }
}
