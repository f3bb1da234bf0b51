//! The sinusoidal position encoding of Vaswani et al. 2017 ("Attention Is All You Need", 3.5),
//! which RoPE's frequencies come from.

use super::frequency::default_inv_freq;
use super::params::RopeParams;
use super::phasor;

/// PE(p, 2i) = sin(p·θᵢ), PE(p, 2i+1) = cos(p·θᵢ) with θᵢ = base^(−2i/d); base 10000 in the paper.
///
/// Each (sin, cos) pair is a point on the unit circle at angle p * theta_i, so PE(p + k) is
/// PE(p) turned by k * theta_i in every pair: a rotation, the seed of RoPE.
pub fn sinusoidal_encoding(params: RopeParams, position: f64) -> Vec<f64> {
    default_inv_freq(params.base().ln(), params.dim(), params.planes())
        .into_iter()
        .flat_map(|theta| {
            let (sin, cos) = (position * theta).sin_cos();
            [sin, cos]
        })
        .collect()
}

/// v · PE(p) at each position p of `positions`: what adding the encoding to v contributes to a
/// dot product, without building the encodings (one complex multiplication per plane and
/// position when the positions are evenly spaced, [`phasor::each`]).
pub(crate) fn encoding_dots(params: RopeParams, v: &[f64], positions: &[f64]) -> Vec<f64> {
    let theta = default_inv_freq(params.base().ln(), params.dim(), params.planes());
    let at = |i: usize| v.get(i).copied().unwrap_or(0.0);
    let mut dots = Vec::with_capacity(positions.len());
    phasor::each(&theta, positions, |_, phasors| {
        dots.push(phasors.iter().enumerate().map(|(i, z)| at(2 * i) * z.1 + at(2 * i + 1) * z.0).sum());
    });
    dots
}
