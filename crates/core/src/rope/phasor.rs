//! Every plane's unit phasor e^{i r θᵢ} = (cos rθᵢ, sin rθᵢ) along a run of distances r: what
//! the decay curves, the heatmap window and the encodings added to q and k sum over.
//!
//! Along evenly spaced distances a phasor advances by one complex multiplication with
//! e^{i step θᵢ} per point, and is recomputed exactly (a sin and cos) only every
//! [`RESYNC_EVERY`] points: 64 times fewer sin and cos calls than one per plane per point, the
//! cost that dominated a base or dimension step with the decay chart or the heatmap in view.

/// How many steps the recurrence takes before the unit phasors are recomputed exactly; keeps
/// the accumulated rounding far below 1e-12 however long the run.
pub(crate) const RESYNC_EVERY: usize = 64;

/// Calls `visit(point, phasors)` for `point` in `0..count`, with `phasors[i]` the unit phasor of
/// plane i at distance `start + step * point`.
pub(crate) fn walk(inv_freq: &[f64], start: f64, step: f64, count: usize, mut visit: impl FnMut(usize, &[(f64, f64)])) {
    let unit = |angle: f64| {
        let (sin, cos) = angle.sin_cos();
        (cos, sin)
    };
    let advance: Vec<(f64, f64)> = inv_freq.iter().map(|theta| unit(step * theta)).collect();
    let mut phasors = vec![(1.0_f64, 0.0_f64); inv_freq.len()];
    for point in 0..count {
        if point % RESYNC_EVERY == 0 {
            let distance = start + step * point as f64;
            for (z, theta) in phasors.iter_mut().zip(inv_freq) {
                *z = unit(distance * theta);
            }
        } else {
            for (z, (c, s)) in phasors.iter_mut().zip(&advance) {
                *z = (z.0 * c - z.1 * s, z.0 * s + z.1 * c);
            }
        }
        visit(point, &phasors);
    }
}

/// `(start, step)` when `distances` (three or more) are evenly spaced, each within 1e-12 of
/// its place relative to the largest; `None` otherwise, and for any non-finite entry.
pub(crate) fn even_spacing(distances: &[f64]) -> Option<(f64, f64)> {
    let (&first, &last) = (distances.first()?, distances.last()?);
    if distances.len() < 3 {
        return None;
    }
    let step = (last - first) / (distances.len() - 1) as f64;
    let tolerance = 1e-12 * first.abs().max(last.abs()).max(1.0);
    let even = distances.iter().enumerate().all(|(i, d)| (d - (first + step * i as f64)).abs() <= tolerance);
    (even && step.is_finite()).then_some((first, step))
}

/// Calls `visit(point, phasors)` for each distance of `distances` in order, with `phasors[i]`
/// the unit phasor of plane i there: by [`walk`] when the distances are evenly spaced, else by a
/// sin and cos per plane and point.
pub(crate) fn each(inv_freq: &[f64], distances: &[f64], mut visit: impl FnMut(usize, &[(f64, f64)])) {
    if let Some((start, step)) = even_spacing(distances) {
        return walk(inv_freq, start, step, distances.len(), visit);
    }
    let mut phasors = vec![(1.0_f64, 0.0_f64); inv_freq.len()];
    for (point, distance) in distances.iter().enumerate() {
        for (z, theta) in phasors.iter_mut().zip(inv_freq) {
            let (sin, cos) = (distance * theta).sin_cos();
            *z = (cos, sin);
        }
        visit(point, &phasors);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn direct(inv_freq: &[f64], distance: f64) -> Vec<(f64, f64)> {
        inv_freq.iter().map(|t| ((distance * t).cos(), (distance * t).sin())).collect()
    }

    /// Within 1e-11, plus what the direct way itself loses far out: the angle r·θ carries a
    /// rounding of about ε·|r| (2e-10 at r = 10⁶), allowed five times over.
    #[test]
    fn a_walk_matches_a_sin_and_cos_per_point_far_out() {
        let inv_freq: Vec<f64> = (0..64).map(|i| 10_000f64.powf(-(i as f64) / 64.0)).collect();
        for (start, step) in [(0.0, 1.0), (-255.0, 1.0), (1e6, 1.0), (0.0, 2048.0), (3.5, 0.25)] {
            walk(&inv_freq, start, step, 513, |point, got| {
                let distance = start + step * point as f64;
                let allowed = 1e-11 + 5.0 * f64::EPSILON * distance.abs();
                for (g, w) in got.iter().zip(direct(&inv_freq, distance)) {
                    let off = (g.0 - w.0).abs().max((g.1 - w.1).abs());
                    assert!(off < allowed, "start {start} step {step} point {point}: off by {off}");
                }
            });
        }
    }

    #[test]
    fn uneven_or_non_finite_distances_are_taken_one_by_one() {
        assert_eq!(even_spacing(&[0.0, 1.0, 2.0, 3.0]), Some((0.0, 1.0)));
        assert_eq!(even_spacing(&[1.0, 2.0, 4.0, 8.0]), None);
        assert_eq!(even_spacing(&[0.0, f64::NAN, 2.0]), None);
        assert_eq!(even_spacing(&[0.0, f64::INFINITY]), None);
        assert_eq!(even_spacing(&[5.0, 6.0]), None);
        let log = [1.0, 10.0, 100.0];
        let mut seen = Vec::new();
        each(&[0.5], &log, |point, z| seen.push((point, z[0])));
        assert_eq!(seen, log.iter().enumerate().map(|(i, d)| (i, ((d * 0.5).cos(), (d * 0.5).sin()))).collect::<Vec<_>>());
    }
}
