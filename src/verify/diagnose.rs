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

use super::rotation::{AngleFormat, Rotation};
use super::TestInput;
use crate::rope::{frequencies, Format, Layout, RopeParams, ScalingMethod, ScalingParams, MAX_POSITION};
use crate::state::fmt_number;

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
/// Relative error of an angle computed in float32 (8 steps of 2⁻²⁴).
const ANGLE_TOLERANCE: f64 = 8.0 / 16_777_216.0;
/// What float32 code's angles carry: θᵢ and the product each rounded, 4 steps of 2⁻²⁴.
const F32_ANGLE: f64 = 4.0 / 16_777_216.0;
/// Below any format's noise: what f64 arithmetic leaves.
const FLOOR: f64 = 1e-12;

/// How much a hypothesis is preferred when several explain the paste (lower first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Named,
    Fitted,
}

/// One way the paste may have been made.
#[derive(Clone)]
struct Hypothesis {
    verdict: String,
    /// What it is, for people (a sentence part).
    text: String,
    rotation: Rotation,
    settings: Vec<(&'static str, String)>,
    rank: Rank,
    /// Fitted values: how many significant digits (fewer preferred among equals).
    digits: u32,
}

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

fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        f64::MAX
    }
}

/// The largest |a − b| over two tables (missing entries and non-finite differences count as
/// infinitely far).
fn max_difference(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    if a.len() != b.len() {
        return f64::INFINITY;
    }
    let mut worst = 0.0f64;
    for (ra, rb) in a.iter().zip(b) {
        if ra.len() != rb.len() {
            return f64::INFINITY;
        }
        for (x, y) in ra.iter().zip(rb) {
            let d = (x - y).abs();
            if !d.is_finite() {
                return f64::INFINITY;
            }
            worst = worst.max(d);
        }
    }
    worst
}

/// The dimensions of each of the d/2 planes as `rotation` pairs them (the non-rotating ones
/// grouped among themselves as [`crate::rope::Rotary`] does).
fn all_planes(rotation: &Rotation, dim: usize) -> Vec<(usize, usize)> {
    let r = rotation.rotary_dim.min(dim);
    (0..dim / 2)
        .map(|plane| {
            if plane < r / 2 {
                rotation.plane_dims(plane)
            } else {
                match rotation.layout {
                    Layout::Interleaved => (2 * plane, 2 * plane + 1),
                    Layout::Half => {
                        let j = plane - r / 2;
                        (r + j, r + (dim - r) / 2 + j)
                    }
                }
            }
        })
        .collect()
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

/// The paste's noise as its planes' lengths show it (a rotation keeps them): the largest
/// change of a pair's length under `rotation`'s pairing, amplitude included.
fn noise(input: &TestInput, rotation: &Rotation, pasted: &[Vec<f64>]) -> f64 {
    let planes = all_planes(rotation, input.dim);
    let mut worst = 0.0f64;
    for (x, y) in input.x.iter().zip(pasted) {
        for (plane, &(a, b)) in planes.iter().enumerate() {
            let (Some(&xa), Some(&xb), Some(&ya), Some(&yb)) = (x.get(a), x.get(b), y.get(a), y.get(b)) else { continue };
            let amplitude = if plane < rotation.planes() { rotation.amplitude } else { 1.0 };
            worst = worst.max((ya.hypot(yb) - amplitude * xa.hypot(xb)).abs());
        }
    }
    worst
}

/// Each plane's angle at each row, as the paste turned it under `pairing` (radians in (−π, π]),
/// with the plane's length |x̃ᵢ| at that row.
fn measured_angles(input: &TestInput, pairing: &Rotation, pasted: &[Vec<f64>]) -> Vec<Vec<(f64, f64)>> {
    input
        .x
        .iter()
        .zip(pasted)
        .map(|(x, y)| {
            (0..pairing.planes())
                .map(|plane| {
                    let (a, b) = pairing.plane_dims(plane);
                    match (x.get(a), x.get(b), y.get(a), y.get(b)) {
                        (Some(&xa), Some(&xb), Some(&ya), Some(&yb)) => ((xa * yb - xb * ya).atan2(xa * ya + xb * yb), xa.hypot(xb)),
                        _ => (0.0, 0.0),
                    }
                })
                .collect()
        })
        .collect()
}

/// The angle nearest `predicted` that equals `measured` modulo 2π.
fn unwrap(measured: f64, predicted: f64) -> f64 {
    let tau = std::f64::consts::TAU;
    measured + tau * ((predicted - measured) / tau).round()
}

/// Each plane's θ as the paste shows it, with its uncertainty: the angle at position 1, then
/// unwrapped at each larger position while the estimate so far predicts it to within a radian.
/// `None` for a plane the positions cannot tell.
fn fitted_thetas(input: &TestInput, angles: &[Vec<(f64, f64)>], noise: f64) -> Vec<Option<(f64, f64)>> {
    let planes = angles.first().map_or(0, Vec::len);
    let mut rows: Vec<usize> = (0..input.positions.len()).filter(|&t| input.positions[t] > 0).collect();
    rows.sort_by_key(|&t| input.positions[t]);
    (0..planes)
        .map(|plane| {
            let mut estimate: Option<(f64, f64)> = None;
            for &t in &rows {
                let p = input.positions[t] as f64;
                let Some(&(phi, length)) = angles.get(t).and_then(|r| r.get(plane)) else { continue };
                if length < 1e-6 {
                    continue;
                }
                // The angle's uncertainty: the noise across the pair's length, at least f32's.
                let sigma = (3.0 * noise / length).max(1e-7) + 1e-7 * p;
                estimate = match estimate {
                    None => (sigma < 1.0).then_some((phi / p, sigma / p)),
                    Some((theta, spread)) if spread * p < 1.0 => {
                        let angle = unwrap(phi, theta * p);
                        let new_spread = sigma / p;
                        if new_spread < spread {
                            Some((angle / p, new_spread))
                        } else {
                            Some((theta, spread))
                        }
                    }
                    keep => keep,
                };
            }
            estimate
        })
        .collect()
}

/// The weighted mean of (value, spread) estimates, weights 1/spread².
fn weighted_mean(estimates: impl Iterator<Item = (f64, f64)>) -> Option<(f64, f64)> {
    let (mut sum, mut weight) = (0.0, 0.0);
    for (v, s) in estimates {
        if v.is_finite() && s.is_finite() && s > 0.0 {
            let w = 1.0 / (s * s);
            sum += w * v;
            weight += w;
        }
    }
    (weight > 0.0 && weight.is_finite()).then(|| (sum / weight, 1.0 / weight.sqrt()))
}

/// The sum of squared differences between `rotation`'s output and the paste.
fn squared_error(input: &TestInput, rotation: &Rotation, pasted: &[Vec<f64>]) -> f64 {
    let out = rotation.apply(input);
    out.iter().flatten().zip(pasted.iter().flatten()).map(|(a, b)| (a - b) * (a - b)).sum()
}

/// `estimate` (a logarithm, with its spread) refined by a golden-section search of the squared
/// error within four spreads, where the angles read one by one leave digits to gain.
fn refine(input: &TestInput, pasted: &[Vec<f64>], (estimate, spread): (f64, f64), make: impl Fn(f64) -> Option<Rotation>) -> f64 {
    let reach = 4.0 * spread + 1e-12;
    if reach.is_nan() || reach >= 0.5 {
        return estimate;
    }
    let cost = |v: f64| make(v).map_or(f64::INFINITY, |r| squared_error(input, &r, pasted));
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (estimate - reach, estimate + reach);
    let (mut a, mut b) = (hi - golden * (hi - lo), lo + golden * (hi - lo));
    let (mut ca, mut cb) = (cost(a), cost(b));
    for _ in 0..48 {
        if ca <= cb {
            hi = b;
            (b, cb) = (a, ca);
            a = hi - golden * (hi - lo);
            ca = cost(a);
        } else {
            lo = a;
            (a, ca) = (b, cb);
            b = lo + golden * (hi - lo);
            cb = cost(b);
        }
    }
    let best = (lo + hi) / 2.0;
    if cost(best) <= cost(estimate) {
        best
    } else {
        estimate
    }
}

/// ln ρ with paste θᵢ = reference θᵢ · ρ^(−2i/r): a base ρ times the reference's.
fn fit_log_base_ratio(thetas: &[Option<(f64, f64)>], reference: &[f64], rotary_dim: usize) -> Option<(f64, f64)> {
    let r = rotary_dim as f64;
    weighted_mean(thetas.iter().zip(reference).enumerate().filter_map(|(i, (fit, reference))| {
        let (theta, spread) = (*fit)?;
        if i == 0 || theta <= 0.0 || *reference <= 0.0 || spread >= theta / 2.0 {
            return None;
        }
        let k = r / (2.0 * i as f64);
        Some((-k * (theta / reference).ln(), k * spread / theta))
    }))
}

/// ln s with paste θᵢ = reference θᵢ / s: positions divided by s.
fn fit_log_division(thetas: &[Option<(f64, f64)>], reference: &[f64]) -> Option<(f64, f64)> {
    weighted_mean(thetas.iter().zip(reference).filter_map(|(fit, reference)| {
        let (theta, spread) = (*fit)?;
        if theta <= 0.0 || *reference <= 0.0 || spread >= theta / 2.0 {
            return None;
        }
        Some(((reference / theta).ln(), spread / theta))
    }))
}

/// The shift k with paste angle (p + k)·θᵢ at the row at position 0, read from the slowest plane
/// up, each faster plane unwrapped by the estimate so far.
fn fit_shift(input: &TestInput, angles: &[Vec<(f64, f64)>], own: &Rotation, noise: f64) -> Option<f64> {
    let t = input.positions.iter().position(|&p| p == 0)?;
    let row = angles.get(t)?;
    let mut planes: Vec<usize> = (0..row.len()).filter(|&i| own.inv_freq.get(i).is_some_and(|f| *f > 0.0)).collect();
    planes.sort_by(|&a, &b| own.inv_freq[a].total_cmp(&own.inv_freq[b]));
    let mut estimate: Option<(f64, f64)> = None;
    for i in planes {
        let theta = own.inv_freq[i];
        let (phi, length) = row[i];
        if length < 1e-6 {
            continue;
        }
        let sigma = (3.0 * noise / length).max(1e-7);
        estimate = match estimate {
            None => Some((phi / theta, sigma / theta)),
            Some((k, spread)) if spread * theta < 1.0 => {
                let new_spread = sigma / theta;
                if new_spread < spread {
                    Some((unwrap(phi, k * theta) / theta, new_spread))
                } else {
                    Some((k, spread))
                }
            }
            keep => keep,
        };
    }
    estimate.map(|(k, _)| k)
}

/// `v` rounded to `digits` significant digits.
fn round_to(v: f64, digits: u32) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    // Through decimal text, so 500000 comes out as 500000, not 499999.99999999994.
    format!("{:.*e}", digits.saturating_sub(1) as usize, v).parse().unwrap_or(v)
}

/// The fitted value at 1 to 8 significant digits (each once), with its digits.
fn roundings(v: f64) -> Vec<(f64, u32)> {
    let mut out: Vec<(f64, u32)> = Vec::new();
    for digits in 1..=8 {
        let r = round_to(v, digits);
        if r.is_finite() && r > 0.0 && !out.iter().any(|(x, _)| *x == r) {
            out.push((r, digits));
        }
    }
    out
}

/// The frequencies for `scaling` at `base`, or `None` where the core refuses them.
fn rotation_for(input: &TestInput, layout: Layout, base: f64, scaling: &ScalingParams) -> Option<Rotation> {
    let params = RopeParams::new(base, input.dim).ok()?;
    let f = frequencies(params, scaling).ok()?;
    Some(Rotation::new(layout, f.inv_freq, f.rotary_dim, f.attention_factor))
}

/// A hypothesis under `layout`: the prefix "layout+" and its words when it is the other one.
fn named(input: &TestInput, layout: Layout, h: Hypothesis) -> Hypothesis {
    if layout == input.layout {
        return h;
    }
    let mut settings = h.settings;
    settings.insert(0, ("layout", layout.as_str().to_string()));
    Hypothesis {
        verdict: format!("layout+{}", h.verdict),
        text: format!("{}; and {}", layout_text(input.layout), lower_first(&h.text)),
        settings,
        ..h
    }
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) if !text.starts_with("θ") => c.to_lowercase().collect::<String>() + chars.as_str(),
        _ => text.to_string(),
    }
}

/// The other layout, in words, with the permutation that fixes it.
fn layout_text(page: Layout) -> String {
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

/// Every hypothesis to try under `layout` (the page's own layout: the single mistakes; the other:
/// the layout and one more, or the layout alone).
/// Also returns the paste's noise under this layout's pairing.
fn hypotheses(input: &TestInput, own: &Rotation, pasted: &[Vec<f64>], layout: Layout) -> (Vec<Hypothesis>, f64) {
    let mut out = Vec::new();
    let base_rotation = Rotation { layout, ..own.clone() };
    let other = layout != input.layout;
    if other {
        out.push(Hypothesis {
            verdict: "layout".into(),
            text: layout_text(input.layout),
            rotation: base_rotation.clone(),
            settings: vec![("layout", layout.as_str().to_string())],
            rank: Rank::Named,
            digits: 0,
        });
    }
    let push = |out: &mut Vec<Hypothesis>, verdict: String, text: String, rotation: Rotation, settings, rank, digits| {
        out.push(named(input, layout, Hypothesis { verdict, text, rotation, settings, rank, digits }));
    };

    // Sin's sign, cos and sin swapped.
    push(
        &mut out,
        "direction".into(),
        "Your rotation turns the wrong way: sin has the wrong sign (the page turns each pair (x₁, x₂) to (x₁ cos − x₂ sin, \
         x₁ sin + x₂ cos); check the sign in rotate_half, which returns (−x₂, x₁), or a conjugated freqs_cis)"
            .into(),
        Rotation { sign: -1.0, ..base_rotation.clone() },
        Vec::new(),
        Rank::Named,
        0,
    );
    push(
        &mut out,
        "cos-sin".into(),
        "Your implementation swaps cos and sin (x·sin + rotate_half(x)·cos where x·cos + rotate_half(x)·sin belongs)".into(),
        Rotation { swap: true, ..base_rotation.clone() },
        Vec::new(),
        Rank::Named,
        0,
    );

    // The exponent's 2 forgotten: θᵢ = b^(−i/r) over the rotating dimensions.
    let r = own.rotary_dim as f64;
    let exponent: Vec<f64> =
        own.inv_freq.iter().enumerate().map(|(i, t)| if *t == 0.0 { 0.0 } else { input.base.powf(-(i as f64) / r) }).collect();
    let plain = ScalingParams { method: ScalingMethod::None, partial: input.scaling.partial, ..ScalingParams::default() };
    if input.scaling.method == ScalingMethod::None || input.scaling.method == ScalingMethod::Proportional {
        push(
            &mut out,
            "exponent".into(),
            format!(
                "θᵢ = b^(−i/d) instead of b^(−2i/d): the exponent's 2 is forgotten (e.g. base ** (arange(0, d/2) / d) where \
                 arange(0, d, 2) / d belongs), the same θᵢ as a base of √b = {}",
                fmt_number(input.base.sqrt())
            ),
            Rotation { inv_freq: exponent, ..base_rotation.clone() },
            Vec::new(),
            Rank::Named,
            0,
        );
    }

    // Angles in bf16 or fp16 (transformers PR #29285).
    for (format, name) in [(Format::Bf16, "bf16"), (Format::Fp16, "fp16")] {
        push(
            &mut out,
            format!("precision:{name}"),
            format!(
                "Your angles are computed in {name}: positions and θᵢ stored in {name} before their product (as transformers did \
                 under autocast before PR #29285), so the error grows with the position; compute position × θᵢ, cos and sin in float32"
            ),
            Rotation { angles: AngleFormat::In(format), ..base_rotation.clone() },
            Vec::new(),
            Rank::Named,
            0,
        );
    }

    // A scaling the state has and the paste leaves out.
    if input.scaling.method != ScalingMethod::None {
        let unscaled = if input.scaling.method == ScalingMethod::Proportional {
            ScalingParams { partial: 1.0, ..plain.clone() }
        } else {
            plain.clone()
        };
        if let Some(rotation) = rotation_for(input, layout, input.base, &unscaled) {
            let verdict = match input.scaling.method {
                ScalingMethod::Ntk | ScalingMethod::Dynamic => "ntk:1",
                _ => "linear:1",
            };
            push(
                &mut out,
                verdict.into(),
                format!(
                    "Your implementation applies no context extension: your output is plain RoPE, where the page uses {} with factor {}",
                    input.scaling.method.label(),
                    fmt_number(input.scaling.factor)
                ),
                rotation,
                vec![("scaling", "none".to_string())],
                Rank::Named,
                0,
            );
        }
    }

    // Fitted: the paste's own angles under this pairing.
    let noise = noise(input, &base_rotation, pasted);
    let angles = measured_angles(input, &base_rotation, pasted);

    // Positions shifted by k.
    let mut shifts: Vec<i64> = (-4..=4).filter(|k| *k != 0).collect();
    if let Some(k) = fit_shift(input, &angles, &base_rotation, noise) {
        let k = k.round();
        if k.abs() <= MAX_POSITION as f64 && k != 0.0 && !shifts.contains(&(k as i64)) {
            shifts.push(k as i64);
        }
    }
    for k in shifts {
        let text = match k {
            1 => "Your positions start at 1, not 0 (shifted by 1: a KV cache's offset or a position_ids off by one)".to_string(),
            -1 => "Your positions are 1 less than the page's (shifted by −1: position 1 rotated as 0)".to_string(),
            _ => format!(
                "Your positions are shifted by {}{}: the row at position m is rotated as if at m {} {}",
                if k > 0 { "" } else { "−" },
                k.abs(),
                if k > 0 { "+" } else { "−" },
                k.abs()
            ),
        };
        push(&mut out, format!("offset:{k}"), text, Rotation { shift: k, ..base_rotation.clone() }, Vec::new(), Rank::Fitted, 0);
    }

    let thetas = fitted_thetas(input, &angles, noise);
    let plain_rotation = rotation_for(input, layout, input.base, &plain);

    // Another base, the state's scaling kept.
    if let Some(fit) = fit_log_base_ratio(&thetas, &own.inv_freq, own.rotary_dim) {
        let ln_ratio = refine(input, pasted, fit, |ln| rotation_for(input, layout, input.base * ln.exp(), &input.scaling));
        let fitted = input.base * ln_ratio.exp();
        for (b, digits) in roundings(fitted) {
            if b == input.base {
                continue;
            }
            if let Some(rotation) = rotation_for(input, layout, b, &input.scaling) {
                push(
                    &mut out,
                    format!("base:{}", fmt_number(b)),
                    format!("Your base (rope_theta) is {}, the page's {}", group(b), group(input.base)),
                    rotation,
                    vec![("base", fmt_number(b))],
                    Rank::Fitted,
                    digits,
                );
            }
        }
    }

    if let Some(plain_rotation) = &plain_rotation {
        // NTK-aware: base × s^(r/(r−2)) on plain RoPE.
        if own.rotary_dim > 2 {
            if let Some((ln_ratio, spread)) = fit_log_base_ratio(&thetas, &plain_rotation.inv_freq, own.rotary_dim) {
                let ntk = |ln_s: f64| {
                    let scaling = ScalingParams { method: ScalingMethod::Ntk, factor: ln_s.exp(), ..plain.clone() };
                    rotation_for(input, layout, input.base, &scaling)
                };
                let s = refine(input, pasted, (ln_ratio * (r - 2.0) / r, spread * (r - 2.0) / r), ntk).exp();
                // Only a factor one would choose (two significant digits): otherwise it is a base.
                for (s, digits) in roundings(s).into_iter().filter(|(_, digits)| *digits <= 2) {
                    if s <= 1.0 || (input.scaling.method == ScalingMethod::Ntk && s == input.scaling.factor) {
                        continue;
                    }
                    let scaling = ScalingParams { method: ScalingMethod::Ntk, factor: s, ..plain.clone() };
                    if let Some(rotation) = rotation_for(input, layout, input.base, &scaling) {
                        push(
                            &mut out,
                            format!("ntk:{}", fmt_number(s)),
                            format!(
                                "Your implementation applies the NTK-aware base change with factor {}: base {} × {}^(d/(d−2)) = {}",
                                fmt_number(s),
                                group(input.base),
                                fmt_number(s),
                                group(input.base * s.powf(r / (r - 2.0)))
                            ),
                            rotation,
                            vec![("scaling", "ntk".into()), ("factor", fmt_number(s))],
                            Rank::Fitted,
                            digits,
                        );
                    }
                }
            }
        }
        // Linear (position interpolation): positions divided by s.
        if let Some(fit) = fit_log_division(&thetas, &plain_rotation.inv_freq) {
            let linear = |ln_s: f64| {
                let scaling = ScalingParams { method: ScalingMethod::Linear, factor: ln_s.exp(), ..plain.clone() };
                rotation_for(input, layout, input.base, &scaling)
            };
            let ln_s = refine(input, pasted, fit, linear);
            for (s, digits) in roundings(ln_s.exp()) {
                if s <= 1.0 || (input.scaling.method == ScalingMethod::Linear && s == input.scaling.factor) {
                    continue;
                }
                let scaling = ScalingParams { method: ScalingMethod::Linear, factor: s, ..plain.clone() };
                if let Some(rotation) = rotation_for(input, layout, input.base, &scaling) {
                    push(
                        &mut out,
                        format!("linear:{}", fmt_number(s)),
                        format!(
                            "Your implementation divides positions by {} (linear scaling, position interpolation, factor {})",
                            fmt_number(s),
                            fmt_number(s)
                        ),
                        rotation,
                        vec![("scaling", "linear".into()), ("factor", fmt_number(s))],
                        Rank::Fitted,
                        digits,
                    );
                }
            }
        }
    }

    // Partial rotary: only the first r dimensions turn, θᵢ = b^(−2i/r).
    let method = if input.scaling.method == ScalingMethod::Proportional { ScalingMethod::None } else { input.scaling.method };
    for rotary in (2..=input.dim).step_by(2) {
        if rotary == own.rotary_dim && method == input.scaling.method {
            continue;
        }
        let partial = rotary as f64 / input.dim as f64;
        let scaling = ScalingParams { method, partial, ..input.scaling.clone() };
        if scaling.method.rotary_dim(input.dim, partial).ok() != Some(rotary) {
            continue;
        }
        if let Some(rotation) = rotation_for(input, layout, input.base, &scaling) {
            let text = if rotary == input.dim {
                "Your implementation rotates every dimension: the page rotates only the first r = ".to_string()
                    + &format!("{} of {} (partial_rotary_factor {})", own.rotary_dim, input.dim, fmt_number(input.scaling.partial))
            } else {
                format!(
                    "Only the first r = {rotary} of your {} dimensions rotate (partial_rotary_factor {}), θᵢ = b^(−2i/{rotary}), the rest \
                     pass through",
                    input.dim,
                    fmt_number(partial)
                )
            };
            push(
                &mut out,
                format!("partial:{}", fmt_number(partial)),
                text,
                rotation,
                vec![("partial", fmt_number(partial))],
                Rank::Fitted,
                0,
            );
        }
    }
    (out, noise)
}

/// A number with thousands separated by commas when whole ("500,000"), else as the page writes it.
fn group(v: f64) -> String {
    // Six significant digits are more than any base needs to be recognised.
    let v = if v.abs() >= 1e5 { v.round() } else { round_to(v, 6) };
    if v.fract() != 0.0 || v.abs() >= 1e15 {
        return fmt_number(v);
    }
    let digits = format!("{}", v.abs() as u64);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if v < 0.0 {
        format!("−{out}")
    } else {
        out
    }
}

/// A difference in a few digits.
fn short(v: f64) -> String {
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
fn four_decimals(pasted: &[Vec<f64>]) -> bool {
    pasted.iter().flatten().all(|v| ((v * 1e4).round() - v * 1e4).abs() < 1e-6)
}

/// The match sentence: the largest error and what precision it is consistent with.
fn match_text(input: &TestInput, own: &Rotation, pasted: &[Vec<f64>], error: f64) -> String {
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
fn mismatch_text(input: &TestInput, own: &Rotation, expected: &[Vec<f64>], pasted: &[Vec<f64>]) -> String {
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

/// The largest |difference| per plane, the page's pairing.
fn per_plane(input: &TestInput, own: &Rotation, expected: &[Vec<f64>], pasted: &[Vec<f64>]) -> Vec<f64> {
    all_planes(own, input.dim)
        .iter()
        .map(|&(a, b)| {
            let worst = expected
                .iter()
                .zip(pasted)
                .flat_map(|(e, y)| {
                    [a, b].map(|d| match (e.get(d), y.get(d)) {
                        (Some(e), Some(y)) => (e - y).abs(),
                        _ => 0.0,
                    })
                })
                .fold(0.0f64, f64::max);
            finite(worst)
        })
        .collect()
}

/// The largest |difference| per row.
fn per_row(expected: &[Vec<f64>], pasted: &[Vec<f64>]) -> Vec<f64> {
    expected
        .iter()
        .enumerate()
        .map(|(t, e)| {
            let worst = match pasted.get(t) {
                Some(y) => e.iter().zip(y).map(|(a, b)| (a - b).abs()).fold(0.0f64, f64::max),
                None => 0.0,
            };
            finite(worst)
        })
        .collect()
}
