//! Where the decay chart samples its curves: at every whole distance while a range is short,
//! else at evenly spaced or (log) geometric distances; and RoFormer's bound at them.

use crate::rope::{decay_bound, decay_curve};

/// Points per curve: plenty for a chart a few hundred pixels wide.
pub(super) const SAMPLES: usize = 512;

/// The distances drawn over `0..=range`: every whole one while there are at most `SAMPLES` + 1
/// (positions are whole tokens: at the default 256 there is nothing between them to draw, and
/// half-token samples only doubled the work of every step); else `SAMPLES + 1` evenly spaced, or
/// (log) geometric from 1.
pub(super) fn distances(range: u64, log: bool) -> Vec<f64> {
    let range = range.max(2);
    let samples = if log || range > SAMPLES as u64 { SAMPLES } else { range as usize };
    let (range, last) = (range as f64, samples as f64);
    (0..=samples)
        .map(|i| {
            // range · i / samples: exactly i when every distance is drawn.
            let i = i as f64;
            if log {
                range.powf(i / last)
            } else {
                range * i / last
            }
        })
        .collect()
}

/// The bound at each distance: by the fast recurrence when evenly spaced, else point by point.
pub(super) fn bound_curve(inv_freq: &[f64], distances: &[f64], log: bool) -> Vec<f64> {
    if log {
        distances.iter().map(|r| decay_bound(inv_freq, *r)).collect()
    } else {
        let start = distances.first().copied().unwrap_or(0.0);
        let step = distances.get(1).map_or(1.0, |next| next - start);
        decay_curve(inv_freq, start, step, distances.len())
    }
}
