//! Reading the continuous mistakes off a paste: its noise (how far each plane's length moved,
//! which no rotation does), each plane's angle at each row unwrapped from the small positions to
//! the large, the θᵢ they imply, and from those a base ratio, a division of positions or a
//! shift, refined by a 1-D search and offered at each number of significant digits.

use super::measure::all_planes;
use super::rotation::Rotation;
use super::TestInput;

/// The paste's noise as its planes' lengths show it (a rotation keeps them): the largest
/// change of a pair's length under `rotation`'s pairing, amplitude included.
pub(super) fn noise(input: &TestInput, rotation: &Rotation, pasted: &[Vec<f64>]) -> f64 {
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
pub(super) fn measured_angles(input: &TestInput, pairing: &Rotation, pasted: &[Vec<f64>]) -> Vec<Vec<(f64, f64)>> {
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
pub(super) fn unwrap(measured: f64, predicted: f64) -> f64 {
    let tau = std::f64::consts::TAU;
    measured + tau * ((predicted - measured) / tau).round()
}

/// Each plane's θ as the paste shows it, with its uncertainty: the angle at position 1, then
/// unwrapped at each larger position while the estimate so far predicts it to within a radian.
/// `None` for a plane the positions cannot tell.
pub(super) fn fitted_thetas(input: &TestInput, angles: &[Vec<(f64, f64)>], noise: f64) -> Vec<Option<(f64, f64)>> {
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
pub(super) fn weighted_mean(estimates: impl Iterator<Item = (f64, f64)>) -> Option<(f64, f64)> {
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
pub(super) fn squared_error(input: &TestInput, rotation: &Rotation, pasted: &[Vec<f64>]) -> f64 {
    let out = rotation.apply(input);
    out.iter().flatten().zip(pasted.iter().flatten()).map(|(a, b)| (a - b) * (a - b)).sum()
}

/// `estimate` (a logarithm, with its spread) refined by a golden-section search of the squared
/// error within four spreads, where the angles read one by one leave digits to gain.
pub(super) fn refine(
    input: &TestInput,
    pasted: &[Vec<f64>],
    (estimate, spread): (f64, f64),
    make: impl Fn(f64) -> Option<Rotation>,
) -> f64 {
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
pub(super) fn fit_log_base_ratio(thetas: &[Option<(f64, f64)>], reference: &[f64], rotary_dim: usize) -> Option<(f64, f64)> {
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
pub(super) fn fit_log_division(thetas: &[Option<(f64, f64)>], reference: &[f64]) -> Option<(f64, f64)> {
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
pub(super) fn fit_shift(input: &TestInput, angles: &[Vec<(f64, f64)>], own: &Rotation, noise: f64) -> Option<f64> {
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
pub(super) fn round_to(v: f64, digits: u32) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    // Through decimal text, so 500000 comes out as 500000, not 499999.99999999994.
    format!("{:.*e}", digits.saturating_sub(1) as usize, v).parse().unwrap_or(v)
}

/// The fitted value at 1 to 8 significant digits (each once), with its digits.
pub(super) fn roundings(v: f64) -> Vec<(f64, u32)> {
    let mut out: Vec<(f64, u32)> = Vec::new();
    for digits in 1..=8 {
        let r = round_to(v, digits);
        if r.is_finite() && r > 0.0 && !out.iter().any(|(x, _)| *x == r) {
            out.push((r, digits));
        }
    }
    out
}
