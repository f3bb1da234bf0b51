//! Finding the mistake: which known way of getting RoPE wrong explains a paste.
//!
//! Each hypothesis is a [`Rotation`] made from the test input (the other layout, sin's sign
//! flipped, cos and sin swapped, positions shifted by k, another base, the exponent's 2
//! forgotten, only r dimensions rotated, a linear or NTK-aware scaling, angles computed in bf16
//! or fp16, a scaling left out, and the other layout with each of these); its output is compared
//! with the paste element by element. The continuous ones (k, b, s) are first read from the
//! paste: each plane's angle at each row, unwrapped from the small positions to the large.
//!
//! A hypothesis explains the paste when every element is within what bf16 arithmetic can do
//! (2⁻⁵ of the plane's length: x, cos, sin, the products and the sum each rounded to 8 bits)
//! plus what float32 angles can do (8 float32 steps of the angle m·θᵢ, which grows with the
//! position). So an answer computed right in f64, f32, fp16 or bf16 is always `match`. A fitted
//! value is reported with the fewest significant digits that fit the paste as well as its
//! noise allows (the noise read from how far each plane's length moved, which no rotation does).
//!
//! A scaling the state has and the paste does not is said as the paste's own: `linear:1`
//! (`ntk:1` for the NTK-aware and dynamic methods), with the setting `scaling=none`.

use super::hypotheses::{hypotheses, Hypothesis};
use super::measure::{all_planes, finite, max_difference, per_plane, per_row, ANGLE_TOLERANCE};
use super::rotation::Rotation;
use super::words::*;
use super::TestInput;

/// What the paste was found to be.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnosis {
    /// The contract's verdict: `match`, `layout`, `direction`, `cos-sin`, `offset:<k>`,
    /// `base:<b>`, `exponent`, `partial:<r>`, `linear:<s>`, `ntk:<s>`, `precision:bf16`,
    /// `precision:fp16`, `mismatch`; two found mistakes joined by `+` (the layout first).
    /// `partial:<r>` gives r as a fraction of d (`partial_rotary_factor`).
    pub verdict: String,
    /// One or two sentences for people.
    pub text: String,
    /// The largest |difference| once the diagnosis is applied (against the page's own result
    /// for match and mismatch). Always finite.
    pub max_error: f64,
    /// The largest |difference| against the page's own result per plane (d/2) and per row (T).
    pub per_plane: Vec<f64>,
    pub per_row: Vec<f64>,
    /// URL parameters that set the page to what the paste was found to be.
    pub settings: Vec<(&'static str, String)>,
}

/// Relative rounding a right answer may carry: bf16 throughout (2⁻⁵ of the plane's length).
const VALUE_TOLERANCE: f64 = 1.0 / 32.0;
/// What float32 code's angles carry: θᵢ and the product each rounded, 4 steps of 2⁻²⁴.
const F32_ANGLE: f64 = 4.0 / 16_777_216.0;
/// Below any format's noise: what f64 arithmetic leaves.
const FLOOR: f64 = 1e-12;

/// Names what `pasted` (T × d, as [`super::parse::read_paste`] returns it) does differently from the page.
pub fn diagnose(input: &TestInput, pasted: &[Vec<f64>]) -> Diagnosis {
    let dim = input.dim;
    let rows = input.x.len();
    let own = match input.rotation() {
        Ok(r) => r,
        Err(e) => return unexplained(input, pasted, format!("The page cannot rotate with these settings ({e})."), None),
    };
    let expected = own.apply(input);
    let shape_ok = pasted.len() == rows && pasted.iter().all(|r| r.len() == dim);
    if !shape_ok {
        let text = format!("The paste has not the test input's shape ({rows} rows of {dim} numbers), so it cannot be compared.");
        return unexplained(input, pasted, text, Some(&expected));
    }
    if pasted.iter().flatten().any(|v| !v.is_finite()) {
        return unexplained(input, pasted, "The paste holds numbers that are not finite.".into(), Some(&expected));
    }

    let right_error = max_difference(&expected, pasted);
    if explains(input, &own, pasted) {
        return Diagnosis {
            verdict: "match".into(),
            text: match_text(input, &own, pasted, right_error),
            max_error: finite(right_error),
            per_plane: per_plane(input, &own, &expected, pasted),
            per_row: per_row(&expected, pasted),
            settings: Vec::new(),
        };
    }

    let mut best: Option<(Hypothesis, f64)> = None;
    for layout in [input.layout, input.layout.other()] {
        if layout != input.layout && own.planes() < 2 {
            continue; // One plane pairs (0, 1) in either layout.
        }
        let (tried, noise) = hypotheses(input, &own, pasted, layout);
        let evaluated: Vec<(Hypothesis, f64)> =
            tried.into_iter().map(|h| (max_difference(&h.rotation.apply(input), pasted), h)).map(|(e, h)| (h, e)).collect();
        // A fitted value is given to the fewest digits that fit as well as the paste's noise
        // allows: within twice the best of its family, plus that noise.
        let family = |h: &Hypothesis| h.verdict.split(':').next().unwrap_or_default().to_string();
        let best_of = |name: &str| evaluated.iter().filter(|(h, _)| family(h) == name).map(|(_, e)| *e).fold(f64::INFINITY, f64::min);
        for (h, error) in evaluated.iter() {
            let key = (h.rank, h.verdict.contains('+'), h.digits);
            if best.as_ref().is_some_and(|(b, _)| (b.rank, b.verdict.contains('+'), b.digits) < key) || *error > loosest(input, &h.rotation)
            {
                continue; // A simpler one explains it already, or no element could be within rounding.
            }
            // Float32 code's own angles (θᵢ and the product rounded: a few steps of 2⁻²⁴) may
            // move a fit's last digits; they do not count against a rounder value.
            let allow = Allowance { relative: 0.0, absolute: 2.0 * best_of(&family(h)) + 3.0 * noise + FLOOR, angle: F32_ANGLE };
            if h.digits > 0 && !within(input, &h.rotation, pasted, allow) {
                continue;
            }
            if !explains(input, &h.rotation, pasted) {
                continue;
            }
            let better = match &best {
                None => true,
                Some((b, e)) => {
                    let other = (b.rank, b.verdict.contains('+'), b.digits);
                    key < other || (key == other && error < e)
                }
            };
            if better {
                best = Some((h.clone(), *error));
            }
        }
    }
    match best {
        Some((h, error)) => Diagnosis {
            text: format!(
                "{}. Once that is applied, the largest difference is {} (against the page's own result: {}).",
                h.text,
                short(error),
                short(right_error)
            ),
            verdict: h.verdict,
            max_error: finite(error),
            per_plane: per_plane(input, &own, &expected, pasted),
            per_row: per_row(&expected, pasted),
            settings: h.settings,
        },
        None => {
            let text = mismatch_text(input, &own, &expected, pasted);
            unexplained(input, pasted, text, Some(&expected))
        }
    }
}

/// `mismatch`: no hypothesis, the errors against the page's own result.
fn unexplained(input: &TestInput, pasted: &[Vec<f64>], text: String, expected: Option<&Vec<Vec<f64>>>) -> Diagnosis {
    let (per_plane_errors, per_row_errors, error) = match (expected, input.rotation()) {
        (Some(e), Ok(own)) => (per_plane(input, &own, e, pasted), per_row(e, pasted), max_difference(e, pasted)),
        _ => (vec![0.0; input.dim / 2], vec![0.0; input.x.len()], 0.0),
    };
    Diagnosis {
        verdict: "mismatch".into(),
        text,
        max_error: finite(error),
        per_plane: per_plane_errors,
        per_row: per_row_errors,
        settings: Vec::new(),
    }
}

/// Whether `rotation`'s output is the paste within what a right answer's rounding allows: bf16
/// arithmetic on the values, float32 on the angles.
fn explains(input: &TestInput, rotation: &Rotation, pasted: &[Vec<f64>]) -> bool {
    within(input, rotation, pasted, Allowance { relative: VALUE_TOLERANCE, absolute: FLOOR, angle: ANGLE_TOLERANCE })
}

/// The largest tolerance [`explains`] gives any element of `rotation`'s output: a bound that
/// spares comparing element by element when the largest difference is beyond it.
fn loosest(input: &TestInput, rotation: &Rotation) -> f64 {
    let length =
        input.x.iter().flat_map(|r| r.iter()).fold(0.0f64, |m, v| m.max(v.abs())) * 2f64.sqrt() * rotation.amplitude.abs().max(1.0);
    let position = input.positions.iter().map(|p| (p + rotation.shift).unsigned_abs()).max().unwrap_or(0) as f64;
    let theta = rotation.inv_freq.iter().fold(0.0f64, |m, t| m.max(t.abs()));
    // Angles in a short format may round up by a step of 2⁻⁸: 1 % covers it.
    VALUE_TOLERANCE * length + ANGLE_TOLERANCE * position * theta * 1.01 * length + FLOOR
}

/// What an element may differ by: `relative` × its plane's length, plus `absolute`, plus `angle`
/// × the plane's angle × its length (an angle computed with that relative error).
#[derive(Clone, Copy)]
struct Allowance {
    relative: f64,
    absolute: f64,
    angle: f64,
}

fn within(input: &TestInput, rotation: &Rotation, pasted: &[Vec<f64>], allow: Allowance) -> bool {
    let out = rotation.apply(input);
    let planes = all_planes(rotation, input.dim);
    for ((x, p), (o, y)) in input.x.iter().zip(&input.positions).zip(out.iter().zip(pasted)) {
        for (plane, &(a, b)) in planes.iter().enumerate() {
            let (Some(&xa), Some(&xb), Some(&oa), Some(&ob), Some(&ya), Some(&yb)) =
                (x.get(a), x.get(b), o.get(a), o.get(b), y.get(a), y.get(b))
            else {
                return false;
            };
            let length = xa.hypot(xb) * rotation.amplitude.abs().max(1.0);
            let angle = if plane < rotation.planes() { rotation.angle(plane, *p).abs() } else { 0.0 };
            let tolerance = allow.relative * length + allow.angle * angle * length + allow.absolute;
            let (da, db) = ((oa - ya).abs(), (ob - yb).abs());
            if !(da <= tolerance && db <= tolerance) {
                return false;
            }
        }
    }
    true
}
