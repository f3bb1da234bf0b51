//! Per-plane quantities derived from the inverse frequencies.

use std::f64::consts::TAU;

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
