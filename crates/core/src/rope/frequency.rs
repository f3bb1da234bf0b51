//! Per-plane frequencies: θᵢ itself and what follows from it (wavelength, turns).
//!
//! θᵢ = base^(−2i/d) is computed here and nowhere else: RoFormer eq. 15, the same frequencies
//! as the sinusoidal encoding of Vaswani et al. 2017 (section 3.5), and transformers
//! `_compute_default_rope_parameters`.

use std::f64::consts::TAU;

/// θᵢ = base^(−2i/dim) for i in `0..planes`, from ln(base) so that a huge NTK-adjusted base
/// cannot overflow. Plane 0 is exactly 1 for every base.
pub fn default_inv_freq(ln_base: f64, dim: usize, planes: usize) -> Vec<f64> {
    (0..planes).map(|i| if i == 0 { 1.0 } else { (-(2.0 * i as f64 / dim as f64) * ln_base).exp() }).collect()
}

/// The wavelength of a plane in tokens: how far apart two positions are when the plane has
/// turned once, 2*pi/theta_i = 2*pi*base^(2i/d) for plain RoPE. `None` for a plane that does
/// not rotate (theta_i = 0), whose wavelength is infinite.
pub fn wavelength(inv_freq: f64) -> Option<f64> {
    (inv_freq.is_finite() && inv_freq > 0.0).then(|| TAU / inv_freq).filter(|w| w.is_finite())
}

/// How many full turns a plane makes over `tokens` positions (0 for a plane that does not rotate).
pub fn turns_within(inv_freq: f64, tokens: f64) -> f64 {
    if inv_freq.is_finite() && inv_freq > 0.0 && tokens.is_finite() {
        inv_freq * tokens / TAU
    } else {
        0.0
    }
}
