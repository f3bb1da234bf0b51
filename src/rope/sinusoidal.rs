//! The sinusoidal position encoding of Vaswani et al. 2017 ("Attention Is All You Need", 3.5),
//! which RoPE's frequencies come from.

use super::params::RopeParams;

/// PE(p, 2i) = sin(p / base^(2i/d)), PE(p, 2i+1) = cos(p / base^(2i/d)); base 10000 in the paper.
///
/// Each (sin, cos) pair is a point on the unit circle at angle p * theta_i, so PE(p + k) is
/// PE(p) turned by k * theta_i in every pair: a rotation, the seed of RoPE.
pub fn sinusoidal_encoding(params: RopeParams, position: f64) -> Vec<f64> {
    let d = params.dim() as f64;
    let ln_base = params.base().ln();
    let mut out = Vec::with_capacity(params.dim());
    for i in 0..params.planes() {
        let theta = (-(2.0 * i as f64 / d) * ln_base).exp();
        let (sin, cos) = (position * theta).sin_cos();
        out.push(sin);
        out.push(cos);
    }
    out
}
