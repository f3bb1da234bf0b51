//! The long-term decay bound of RoFormer (Su et al. 2021), section 3.4.3.
//!
//! With h_i = q_i k_i* per plane and S_j = sum_{k<j} e^{i r theta_k}, Abel summation gives
//! |q_m . k_n| <= (max_i |h_{i+1} - h_i|) * sum_{j=1..d/2} |S_j|. The paper plots the
//! relative upper bound (1/(d/2)) sum_j |S_j| against r = n - m; that is [`decay_bound`].
//! It bounds a worst case; it is not the expected score (see the decay chapter).

use super::phasor;

/// (1/(d/2)) * sum_{j=1..d/2} |S_j| at relative distance `distance`, with one entry of
/// `inv_freq` per plane. At distance 0 every |S_j| = j, so the value is (d/2 + 1)/2.
/// Returns 0 for an empty list.
pub fn decay_bound(inv_freq: &[f64], distance: f64) -> f64 {
    if inv_freq.is_empty() {
        return 0.0;
    }
    let (mut re, mut im, mut total) = (0.0_f64, 0.0_f64, 0.0_f64);
    for theta in inv_freq {
        let (sin, cos) = (distance * theta).sin_cos();
        re += cos;
        im += sin;
        total += (re * re + im * im).sqrt();
    }
    total / inv_freq.len() as f64
}

/// [`decay_bound`] at `count` distances `start, start + step, start + 2*step, ...`.
///
/// Fast enough to run on every slider move: the phasors e^{i r theta_k} advance by one complex
/// multiplication per point ([`phasor::walk`]) instead of a sin and cos per plane per point.
pub fn decay_curve(inv_freq: &[f64], start: f64, step: f64, count: usize) -> Vec<f64> {
    let planes = inv_freq.len();
    if planes == 0 {
        return vec![0.0; count];
    }
    let mut curve = Vec::with_capacity(count);
    phasor::walk(inv_freq, start, step, count, |_, phasors| {
        let (mut re, mut im, mut total) = (0.0_f64, 0.0_f64, 0.0_f64);
        for z in phasors {
            re += z.0;
            im += z.1;
            total += (re * re + im * im).sqrt();
        }
        curve.push(total / planes as f64);
    });
    curve
}
