//! xPos (Sun et al. 2022, "A Length-Extrapolatable Transformer", arXiv 2212.10554; its code is
//! torchscale's `XPOS`): RoPE whose planes also shrink or grow with position. Plane i has a scale
//! ζᵢ = (2i/d + γ)/(1 + γ) with γ = 0.4 (torchscale: `(arange(0, d, 2) + 0.4·d) / (1.4·d)`).
//! q at position m is multiplied by ζᵢ^(m/scale_base), k at position n by ζᵢ^(−n/scale_base), so
//! plane i's share of q_m · k_n is multiplied by ζᵢ^((m − n)/scale_base): for a key Δ = m − n
//! tokens before the query it shrinks as Δ grows, fastest in the fast planes (small ζᵢ).

/// γ of the paper and of torchscale.
pub const XPOS_GAMMA: f64 = 0.4;
/// torchscale's default `scale_base`.
pub const DEFAULT_SCALE_BASE: f64 = 512.0;

/// ζᵢ for each of `planes` planes (d = 2·planes), in (0, 1).
pub fn xpos_zeta(planes: usize) -> Vec<f64> {
    let d = (2 * planes.max(1)) as f64;
    (0..planes).map(|i| (2.0 * i as f64 / d + XPOS_GAMMA) / (1.0 + XPOS_GAMMA)).collect()
}

/// The xPos score of q = k with equal-length pairs, per unit norm, for a key `Δ` tokens before
/// the query, at each Δ of `distances`: the mean over planes of ζᵢ^(Δ/scale_base)·cos(Δθᵢ).
/// Planes that do not rotate (θᵢ = 0) still shrink. Finite for every Δ ≥ 0 and scale_base > 0
/// (each term lies in [−1, 1]); a negative Δ is read as its magnitude.
pub fn xpos_mean_cos(inv_freq: &[f64], distances: &[f64], scale_base: f64) -> Vec<f64> {
    let zeta = xpos_zeta(inv_freq.len());
    let planes = inv_freq.len().max(1) as f64;
    let ln_zeta: Vec<f64> = zeta.iter().map(|z| z.ln()).collect();
    distances
        .iter()
        .map(|delta| {
            let delta = delta.abs();
            let sum: f64 =
                inv_freq.iter().zip(&ln_zeta).map(|(theta, ln_z)| (ln_z * delta / scale_base).exp() * (delta * theta).cos()).sum();
            let mean = sum / planes;
            if mean.is_finite() {
                mean
            } else {
                0.0
            }
        })
        .collect()
}
