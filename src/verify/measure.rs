//! Measuring a paste against a result: the planes as a rotation pairs them, and the largest
//! differences, whole, per plane and per row. Below the diagnosis, its fits and its words, which
//! all read these.

use super::rotation::Rotation;
use super::TestInput;
use crate::rope::Layout;

/// Relative error of an angle computed in float32 (8 steps of 2⁻²⁴).
pub(super) const ANGLE_TOLERANCE: f64 = 8.0 / 16_777_216.0;

/// `v`, or the largest finite number when it is not finite.
pub(super) fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        f64::MAX
    }
}

/// The largest |a − b| over two tables (missing entries and non-finite differences count as
/// infinitely far).
pub(super) fn max_difference(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
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
pub(super) fn all_planes(rotation: &Rotation, dim: usize) -> Vec<(usize, usize)> {
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

/// The largest |difference| per plane, the page's pairing.
pub(super) fn per_plane(input: &TestInput, own: &Rotation, expected: &[Vec<f64>], pasted: &[Vec<f64>]) -> Vec<f64> {
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
pub(super) fn per_row(expected: &[Vec<f64>], pasted: &[Vec<f64>]) -> Vec<f64> {
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
