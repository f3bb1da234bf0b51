//! What an implementation does differently: the paste against the page's own result and
//! against each known mistake (the other layout, the rotation's direction, cos and sin swapped,
//! shifted positions, another base, the exponent's 2 forgotten, partial rotary, a linear or NTK
//! scaling, angles in bf16 or fp16), alone and with the other layout. A mistake is named only
//! when it explains the paste to within the precision a paste can have (bf16 rounding of its
//! numbers); otherwise nothing is guessed.

use super::{Rotation, TestInput};
use crate::rope::{Format, Layout, ScalingMethod, ScalingParams};
use crate::state::fmt_number;

/// What the page says of a paste.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnosis {
    /// The contract's verdict: `match`, `layout`, `direction`, `cos-sin`, `offset:<k>`,
    /// `base:<b>`, `exponent`, `partial:<r>`, `linear:<s>`, `ntk:<s>`, `precision:bf16`,
    /// `precision:fp16` or `mismatch`; two joined by `+`.
    pub verdict: String,
    /// The same for people.
    pub text: String,
    /// The largest |difference| once the mistake found is applied (for `match` and `mismatch`,
    /// against the page's own result). Finite.
    pub max_error: f64,
    /// The largest |difference| from the page's own result in each plane, and in each row.
    pub per_plane: Vec<f64>,
    pub per_row: Vec<f64>,
    /// URL parameters that set the page to what the paste was found to be.
    pub settings: Vec<(&'static str, String)>,
}

/// The largest difference a paste may keep from what explains it, relative to its largest
/// value: rounding each number to bf16 (8 significant bits) moves it by at most 2⁻⁹ of its size;
/// with room for an implementation's own f32 arithmetic.
const TOLERANCE: f64 = 6e-3;

/// A mistake tried: what it is called, in words, the rotation it makes, and the settings.
struct Candidate {
    verdict: String,
    text: String,
    rotation: Rotation,
    settings: Vec<(&'static str, String)>,
}

/// The paste against the page's result and against every mistake.
pub fn diagnose(input: &TestInput, pasted: &[Vec<f64>]) -> Diagnosis {
    let Ok(own) = input.rotation() else {
        return Diagnosis {
            verdict: "mismatch".into(),
            text: "These settings have no frequencies to compare with.".into(),
            max_error: 0.0,
            per_plane: Vec::new(),
            per_row: Vec::new(),
            settings: Vec::new(),
        };
    };
    let expected = input.apply(&own);
    let (per_plane, per_row) = places(input, &own, &expected, pasted);
    let scale = expected.iter().flatten().fold(0.0_f64, |m, v| m.max(v.abs())).max(1e-12);
    let tolerance = TOLERANCE * scale;
    let own_error = max_difference(&expected, pasted);
    let found = |verdict: &str, text: String, max_error: f64, settings| Diagnosis {
        verdict: verdict.to_string(),
        text,
        max_error: finite(max_error),
        per_plane: per_plane.clone(),
        per_row: per_row.clone(),
        settings,
    };

    // Right, up to rounding (or with transformers' attention_factor on cos and sin, or with
    // angles in f32, which long positions round visibly).
    let mut right = vec![(own.clone(), "")];
    let factor = input.frequencies_with(input.base, &input.scaling).map_or(1.0, |f| f.attention_factor);
    if (factor - 1.0).abs() > 1e-12 && factor.is_finite() {
        right.push((Rotation { amplitude: factor, ..own.clone() }, " with the attention factor on cos and sin"));
    }
    right.push((Rotation { angles_in: Some(Format::F32), ..own.clone() }, " with the angles in f32"));
    let best_right = right
        .iter()
        .map(|(rotation, how)| (max_difference(&input.apply(rotation), pasted), *how))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap_or((own_error, ""));
    if best_right.0 <= tolerance {
        let precision = if best_right.0 <= 1e-9 * scale {
            "to f64 precision"
        } else if best_right.0 <= 2e-6 * scale {
            "to f32 precision"
        } else {
            "within bf16 or fp16 rounding of the numbers"
        };
        let text =
            format!("Right: your RoPE gives the page's result{}, {precision} (largest difference {}).", best_right.1, short(best_right.0));
        return found("match", text, best_right.0, Vec::new());
    }

    let tried: Vec<(f64, Candidate)> =
        candidates(input, &own, pasted).into_iter().map(|c| (max_difference(&input.apply(&c.rotation), pasted), c)).collect();
    let mut best = tried.iter().min_by(|a, b| a.0.total_cmp(&b.0));
    // θᵢ = b^(−i/d) is θᵢ = (√b)^(−2i/d): the forgotten 2 and a base of √b make the same
    // numbers. The named bug is the likelier, and its words say the base it amounts to.
    if let Some((_, c)) = best.filter(|(_, c)| c.verdict.contains("base:")) {
        let exponent = c.verdict.split('+').map(|v| if v.starts_with("base:") { "exponent" } else { v }).collect::<Vec<_>>().join("+");
        if let Some(same) = tried.iter().find(|(e, t)| t.verdict == exponent && *e <= tolerance) {
            best = Some(same);
        }
    }
    match best.map(|(e, c)| (*e, c)) {
        Some((error, c)) if error <= tolerance && error < own_error / 2.0 => {
            let text = format!("{} (largest difference once that is applied: {}).", c.text, short(error));
            found(&c.verdict, text, error, c.settings.clone())
        }
        _ => {
            let worst_plane = per_plane.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map_or(0, |(i, _)| i);
            let worst_row = per_row.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map_or(0, |(i, _)| i);
            let text = format!(
                "Not the page's result, and none of the known mistakes explains it: the largest difference is {}, \
                 largest in plane {worst_plane} and at position {} (see where below).",
                short(own_error),
                input.positions.get(worst_row).copied().unwrap_or_default()
            );
            found("mismatch", text, own_error, Vec::new())
        }
    }
}

/// Every mistake tried, in both layouts (the other layout alone, and with each other mistake).
fn candidates(input: &TestInput, own: &Rotation, pasted: &[Vec<f64>]) -> Vec<Candidate> {
    let planes = own.inv_freq.len();
    let rotating = own.inv_freq.iter().filter(|t| **t != 0.0).count();
    let mut singles: Vec<Candidate> = Vec::new();
    let single = |verdict: String, text: String, rotation: Rotation, settings: Vec<(&'static str, String)>| Candidate {
        verdict,
        text,
        rotation,
        settings,
    };
    singles.push(single(
        "direction".into(),
        "Rotated the wrong way round: sin has the wrong sign (out = x·cos + rotate(x)·sin with rotate giving (x2, −x1), or a transposed rotation matrix)".into(),
        Rotation { sign: -1.0, ..own.clone() },
        Vec::new(),
    ));
    singles.push(single(
        "cos-sin".into(),
        "cos and sin are swapped (out = x·sin + rotate(x)·cos)".into(),
        Rotation { swap: true, ..own.clone() },
        Vec::new(),
    ));
    for k in (-8i64..=8).filter(|k| *k != 0) {
        let text = match k {
            1 => "Your positions start at 1, not 0: every position is 1 too far (off by one, as a KV cache that counts the token before it is added)".to_string(),
            -1 => "Your positions are 1 short: each row is rotated to the position before its own".to_string(),
            _ => format!("Your positions are shifted by {k}: each row is rotated to its position {}", if k > 0 { format!("+ {k}") } else { format!("− {}", -k) }),
        };
        singles.push(single(format!("offset:{k}"), text, Rotation { shift: k, ..own.clone() }, Vec::new()));
    }
    for (format, name) in [(Format::Bf16, "bf16"), (Format::Fp16, "fp16")] {
        singles.push(single(
            format!("precision:{name}"),
            format!(
                "The angles are computed in {name}: positions and θᵢ stored in {name} and their product rounded to it, as in transformers before PR #29285; the error grows with position. Compute position × θᵢ in f32 (or f64)"
            ),
            Rotation { angles_in: Some(format), ..own.clone() },
            Vec::new(),
        ));
    }
    // θᵢ = b^(−i/d): the exponent's 2 forgotten (over the rotating dimensions).
    if input.scaling.method == ScalingMethod::None && rotating > 0 {
        let rd = own.rotary_dim.max(2) as f64;
        let inv_freq =
            own.inv_freq.iter().enumerate().map(|(i, t)| if *t == 0.0 { 0.0 } else { input.base.powf(-(i as f64) / rd) }).collect();
        singles.push(single(
            "exponent".into(),
            format!(
                "θᵢ = b^(−i/d) instead of b^(−2i/d): the exponent's 2 is forgotten (arange(0, d/2) where arange(0, d, 2) belongs), \
                 so the slow planes turn far too fast (the same θᵢ as a base of √b = {})",
                fmt_number(input.base.sqrt())
            ),
            Rotation { inv_freq, ..own.clone() },
            Vec::new(),
        ));
    }
    // Partial rotary: only the first 2n dimensions turn.
    for n in (1..=planes).filter(|n| *n != rotating) {
        let partial = 2.0 * n as f64 / input.dim as f64;
        let scaling = ScalingParams { partial, ..input.scaling.clone() };
        if let Some(f) = input.frequencies_with(input.base, &scaling) {
            let r = fmt_number(partial);
            singles.push(single(
                format!("partial:{r}"),
                format!("Only the first {} of {} dimensions turn: partial rotary with partial_rotary_factor {r}", 2 * n, input.dim),
                Rotation { inv_freq: f.inv_freq, rotary_dim: f.rotary_dim, ..own.clone() },
                vec![("partial", r)],
            ));
        }
    }
    // Another base, and a scaling the state does not have (or lacks one it has).
    for layout in [input.layout, input.layout.other()] {
        let fitted = fitted_theta_1(input, own, layout, pasted);
        if let Some(theta_1) = fitted {
            for base in nice_values(base_from_theta_1(theta_1, own.rotary_dim)) {
                if (base / input.base - 1.0).abs() < 1e-9 {
                    continue;
                }
                if let Some(f) = input.frequencies_with(base, &input.scaling) {
                    let b = fmt_number(base);
                    let ntk = (input.scaling.method == ScalingMethod::None)
                        .then(|| (base / input.base).powf((input.dim as f64 - 2.0) / input.dim as f64))
                        .filter(|s| *s > 1.0 && is_nice(*s) && !is_nice(base));
                    let (verdict, text, settings) = match ntk {
                        Some(s) => (
                            format!("ntk:{}", fmt_number(s.round())),
                            format!(
                                "NTK-aware scaling with factor {}: your base is {} × {}^(d/(d−2)) = {b}",
                                fmt_number(s.round()),
                                fmt_number(input.base),
                                fmt_number(s.round())
                            ),
                            vec![("scaling", "ntk".to_string()), ("factor", fmt_number(s.round()))],
                        ),
                        None => {
                            (format!("base:{b}"), format!("Your base is {b}, not {}", fmt_number(input.base)), vec![("base", b.clone())])
                        }
                    };
                    singles.push(single(
                        verdict,
                        text,
                        Rotation { inv_freq: f.inv_freq, rotary_dim: f.rotary_dim, ..own.clone() },
                        settings,
                    ));
                }
            }
            // Positions divided by s: linear scaling (position interpolation).
            let own_theta_1 = own.inv_freq.get(1).copied().unwrap_or(0.0);
            if input.scaling.method == ScalingMethod::None && theta_1 > 0.0 && own_theta_1 > 0.0 {
                for factor in nice_values(own_theta_1 / theta_1).into_iter().filter(|s| *s > 1.0) {
                    let scaling = ScalingParams { method: ScalingMethod::Linear, factor, ..input.scaling.clone() };
                    if let Some(f) = input.frequencies_with(input.base, &scaling) {
                        let s = fmt_number(factor);
                        singles.push(single(
                            format!("linear:{s}"),
                            format!("Linear scaling (position interpolation) with factor {s}: every position is divided by {s}"),
                            Rotation { inv_freq: f.inv_freq, rotary_dim: f.rotary_dim, ..own.clone() },
                            vec![("scaling", "linear".to_string()), ("factor", s)],
                        ));
                    }
                }
            }
        }
    }
    if input.scaling.method != ScalingMethod::None && input.scaling.method != ScalingMethod::Proportional {
        let plain = ScalingParams { method: ScalingMethod::None, partial: input.scaling.partial, ..ScalingParams::default() };
        if let Some(f) = input.frequencies_with(input.base, &plain) {
            let (verdict, method) = match input.scaling.method {
                ScalingMethod::Ntk | ScalingMethod::Dynamic => ("ntk:1", "NTK"),
                _ => ("linear:1", input.scaling.method.as_str()),
            };
            singles.push(single(
                verdict.into(),
                format!("Plain RoPE: the {method} scaling in effect here is not applied"),
                Rotation { inv_freq: f.inv_freq, rotary_dim: f.rotary_dim, ..own.clone() },
                vec![("scaling", "none".to_string())],
            ));
        }
    }

    // Each mistake alone, then with the other layout; the other layout alone.
    let other = input.layout.other();
    let (moved, to) = layout_words(other);
    let mut all = vec![Candidate {
        verdict: "layout".into(),
        text: format!(
            "Right for the other layout: your code pairs {moved}. Use {to}, or permute the weights of W_q and W_k between the layouts"
        ),
        rotation: Rotation { layout: other, ..own.clone() },
        settings: vec![("layout", other.as_str().to_string())],
    }];
    for c in singles {
        let mut settings = c.settings.clone();
        settings.push(("layout", other.as_str().to_string()));
        all.push(Candidate {
            verdict: format!("layout+{}", c.verdict),
            text: format!("Two mistakes: your code pairs {moved}; and {}", lower_first(&c.text)),
            rotation: Rotation { layout: other, ..c.rotation.clone() },
            settings,
        });
        all.push(c);
    }
    all
}

/// How the other layout pairs dimensions, and what to use instead.
fn layout_words(other: Layout) -> (&'static str, &'static str) {
    match other {
        Layout::Half => (
            "(i, i + d/2), as rotate_half does, where this page pairs (2i, 2i+1)",
            "interleaved pairs (x[..., 0::2], x[..., 1::2]), or permute the columns of W_q and W_k so that dimension 2i becomes i and 2i+1 becomes i + d/2",
        ),
        Layout::Interleaved => (
            "(2i, 2i+1), interleaved, where this page pairs (i, i + d/2) as rotate_half does",
            "rotate_half, or permute the columns of W_q and W_k so that dimension i becomes 2i and i + d/2 becomes 2i+1",
        ),
    }
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
}

/// θ₁ as the paste shows it: plane 1's angle at position 1 (less than a turn for any base above
/// 1), read from the row at position 1 with `layout`'s pairs.
fn fitted_theta_1(input: &TestInput, own: &Rotation, layout: Layout, pasted: &[Vec<f64>]) -> Option<f64> {
    if own.inv_freq.len() < 2 {
        return None;
    }
    let row = input.positions.iter().position(|p| *p == 1)?;
    let (a, b) = own.rotary(layout).plane_dims(1);
    let (x, out) = (input.x.get(row)?, pasted.get(row)?);
    angle_between((*x.get(a)?, *x.get(b)?), (*out.get(a)?, *out.get(b)?))
}

/// The angle that turns (x_a, x_b) to (o_a, o_b), in (0, π), if they are long enough to say.
fn angle_between(x: (f64, f64), o: (f64, f64)) -> Option<f64> {
    let re = o.0 * x.0 + o.1 * x.1;
    let im = o.1 * x.0 - o.0 * x.1;
    let angle = im.atan2(re);
    (x.0.hypot(x.1) > 1e-3 && angle > 0.0 && angle.is_finite()).then_some(angle)
}

/// The base b for which θ₁ = b^(−2/r) (r the rotating dimensions).
fn base_from_theta_1(theta_1: f64, rotary_dim: usize) -> f64 {
    theta_1.powf(-(rotary_dim.max(2) as f64) / 2.0)
}

/// `v` and its roundings to 1, 2 and 3 significant digits (the value a config most likely has).
fn nice_values(v: f64) -> Vec<f64> {
    if !(v.is_finite() && v > 0.0) {
        return Vec::new();
    }
    let mut out: Vec<f64> = (1..=3)
        .map(|digits| {
            let step = 10f64.powf(v.log10().floor() - (digits as f64 - 1.0));
            (v / step).round() * step
        })
        .collect();
    out.push(v);
    out.dedup_by(|a, b| (*a / *b - 1.0).abs() < 1e-12);
    out
}

/// Whether `v` is a round number: at most two significant digits.
fn is_nice(v: f64) -> bool {
    v.is_finite() && v > 0.0 && {
        let step = 10f64.powf(v.log10().floor() - 1.0);
        ((v / step).round() * step / v - 1.0).abs() < 1e-3
    }
}

/// The largest |a − b| over every number (infinite when the shapes differ).
fn max_difference(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    if a.len() != b.len() || a.iter().zip(b).any(|(x, y)| x.len() != y.len()) {
        return f64::INFINITY;
    }
    a.iter().zip(b).flat_map(|(x, y)| x.iter().zip(y).map(|(p, q)| (p - q).abs())).fold(0.0, |m, d| {
        if d.is_nan() {
            f64::INFINITY
        } else {
            m.max(d)
        }
    })
}

/// The largest difference from `expected` in each plane (its two dimensions under the page's
/// layout) and in each row.
fn places(input: &TestInput, own: &Rotation, expected: &[Vec<f64>], pasted: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>) {
    let rotary = own.rotary(own.layout);
    let diff = |row: usize, dim: usize| -> f64 {
        match (expected.get(row).and_then(|r| r.get(dim)), pasted.get(row).and_then(|r| r.get(dim))) {
            (Some(e), Some(p)) => finite((e - p).abs()),
            _ => 0.0,
        }
    };
    let per_plane = (0..own.inv_freq.len())
        .map(|plane| {
            let (a, b) = rotary.plane_dims(plane);
            (0..input.x.len()).map(|row| diff(row, a).max(diff(row, b))).fold(0.0, f64::max)
        })
        .collect();
    let per_row = (0..input.x.len()).map(|row| (0..input.dim).map(|dim| diff(row, dim)).fold(0.0, f64::max)).collect();
    (per_plane, per_row)
}

fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        f64::MAX
    }
}

fn short(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else {
        format!("{v:.1e}")
    }
}
