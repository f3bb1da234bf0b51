//! Scores as functions of relative distance and of both positions: what the decay and heatmap
//! charts plot. Each uses the fact that with RoPE the score depends only on n − m, so a curve
//! or a whole window needs one evaluation per distinct distance.

use super::biases::ScoreBias;
use super::decay::decay_bound;
use super::frequency::default_inv_freq;
use super::params::RopeParams;
use super::phasor;
use super::rotate::{dot, Rotary};
use super::sinusoidal::encoding_dots;

/// Every plane's rest-state product hᵢ = q̃ᵢ·conj(k̃ᵢ) ([`Rotary::plane_product`]).
fn plane_products(rotary: &Rotary, q: &[f64], k: &[f64]) -> Vec<(f64, f64)> {
    (0..rotary.planes()).map(|plane| rotary.plane_product(q, k, plane)).collect()
}

/// The rotated score q · R(r) k at each relative distance r in `distances` (n − m = r).
/// Equal to `Rotary::scores(..).score` for any m, n with n − m = r. Evenly spaced distances
/// take one complex multiplication per plane and point ([`phasor::each`]).
pub fn score_by_distance(rotary: &Rotary, q: &[f64], k: &[f64], distances: &[f64]) -> Vec<f64> {
    let products = plane_products(rotary, q, k);
    let mut scores = Vec::with_capacity(distances.len());
    phasor::each(rotary.inv_freq(), distances, |_, phasors| {
        scores.push(products.iter().zip(phasors).map(|(h, z)| h.0 * z.0 + h.1 * z.1).sum());
    });
    scores
}

/// [`score_by_distance`] divided by |q||k|: the cosine of the angle between q and R(r)k, in
/// [−1, 1] whatever the vectors' lengths (all zeros for a zero vector).
pub fn cosine_by_distance(rotary: &Rotary, q: &[f64], k: &[f64], distances: &[f64]) -> Vec<f64> {
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let norms = norm(q) * norm(k);
    let norms = if norms > 0.0 { norms } else { 1.0 };
    score_by_distance(rotary, q, k, distances).into_iter().map(|s| s / norms).collect()
}

/// The score of a vector with itself at distance r, per unit norm: the mean of cos(r θᵢ) over
/// the planes when every plane carries the same weight (q = k with equal-length pairs).
pub fn mean_cos_by_distance(inv_freq: &[f64], distances: &[f64]) -> Vec<f64> {
    let planes = inv_freq.len().max(1) as f64;
    let Some((start, step)) = phasor::even_spacing(distances) else {
        // Uneven (a log axis): a cos per plane and point, no sin.
        return distances.iter().map(|r| inv_freq.iter().map(|theta| (r * theta).cos()).sum::<f64>() / planes).collect();
    };
    let mut means = Vec::with_capacity(distances.len());
    phasor::walk(inv_freq, start, step, distances.len(), |_, phasors| {
        means.push(phasors.iter().map(|z| z.0).sum::<f64>() / planes);
    });
    means
}

/// The largest |q̃ᵢ k̃ᵢ* − q̃ᵢ₊₁ k̃ᵢ₊₁*| over the planes, with a zero after the last one: the
/// factor that turns RoFormer's relative bound into a bound on |score| (section 3.4.3).
pub fn abel_factor(rotary: &Rotary, q: &[f64], k: &[f64]) -> f64 {
    let products = plane_products(rotary, q, k);
    let mut largest = 0.0_f64;
    for i in 0..products.len() {
        let next = products.get(i + 1).copied().unwrap_or((0.0, 0.0));
        let (da, db) = (products[i].0 - next.0, products[i].1 - next.1);
        largest = largest.max(da.hypot(db));
    }
    largest
}

/// RoFormer's bound on |q_m · k_n| at n − m = `distance` (section 3.4.3): by Abel summation,
/// |Σᵢ hᵢ e^{i r θᵢ}| ≤ (maxᵢ |hᵢ₊₁ − hᵢ|) · Σ_{j=1}^{d/2} |S_j|, with S_j = Σ_{i<j} e^{i r θᵢ}
/// and h_{d/2} = 0. It holds for every q and k, and it is loose.
pub fn absolute_bound(rotary: &Rotary, q: &[f64], k: &[f64], distance: f64) -> f64 {
    abel_factor(rotary, q, k) * decay_bound(rotary.inv_freq(), distance) * rotary.planes() as f64
}

/// What a heatmap cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HeatmapMode {
    /// RoPE: q rotated to m, k rotated to n. Depends only on n − m: diagonal stripes.
    #[default]
    Rotated,
    /// No position information: q · k everywhere.
    Unrotated,
    /// Vaswani-style: sinusoidal encodings added, (q + PE(m)) · (k + PE(n)). The PE·PE term
    /// depends on n − m, the cross terms on m and n alone: blurred stripes.
    Sinusoidal,
    /// T5's relative bias: q · k plus one bias per bucket of n − m ([`t5_bucket`](crate::rope::t5_bucket)), the 32
    /// biases drawn from the seed ([`T5Biases`](crate::rope::T5Biases)): bands of equal colour
    /// along the diagonals.
    T5,
    /// ALiBi: q · k − slope·|n − m| for head 4 of 8 ([`ScoreBias::alibi`], slope 1/16):
    /// darker the farther from the main diagonal.
    Alibi,
}

impl HeatmapMode {
    /// In the order of the story: no position, sinusoids added to q and k, biases added to the
    /// score (T5's learned buckets, ALiBi's fixed line), RoPE.
    pub const ALL: [HeatmapMode; 5] =
        [HeatmapMode::Unrotated, HeatmapMode::Sinusoidal, HeatmapMode::T5, HeatmapMode::Alibi, HeatmapMode::Rotated];

    /// The name used in the URL (`heatmap=`).
    pub fn as_str(self) -> &'static str {
        match self {
            HeatmapMode::Rotated => "rotated",
            HeatmapMode::Unrotated => "unrotated",
            HeatmapMode::Sinusoidal => "sinusoidal",
            HeatmapMode::T5 => "t5",
            HeatmapMode::Alibi => "alibi",
        }
    }

    /// A label for people.
    pub fn label(self) -> &'static str {
        match self {
            HeatmapMode::Rotated => "RoPE (rotated)",
            HeatmapMode::Unrotated => "no position information",
            HeatmapMode::Sinusoidal => "sinusoidal encodings added",
            HeatmapMode::T5 => "T5 bucket bias added",
            HeatmapMode::Alibi => "ALiBi bias added",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|mode| mode.as_str() == name)
    }

    /// What the mode adds to q·k by n − m (T5's buckets drawn from `seed` at the scale of q
    /// and k, ALiBi's line); None for the modes that add nothing to the score.
    pub fn bias(self, q: &[f64], k: &[f64], seed: u64) -> Option<ScoreBias> {
        match self {
            HeatmapMode::T5 => Some(ScoreBias::t5(q, k, seed)),
            HeatmapMode::Alibi => Some(ScoreBias::alibi()),
            HeatmapMode::Rotated | HeatmapMode::Unrotated | HeatmapMode::Sinusoidal => None,
        }
    }
}

/// What the modes read besides q, k and the rotation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModeInputs {
    /// The base and dimension of the sinusoidal encodings added to q and k.
    pub params: RopeParams,
    /// The seed T5's bucket biases are drawn from (the lab's `seed=`, as for q and k).
    pub seed: u64,
}

/// The window's scores by distance, where they depend on n − m alone (every mode but the
/// sinusoidal one): value j is the score at n − m = n0 − (m0 + size − 1) + j, for the
/// 2·size − 1 distances of the window; cell (row, col) has j = col − row + size − 1. `seed`
/// draws T5's bucket biases.
pub fn score_diagonals(
    rotary: &Rotary,
    q: &[f64],
    k: &[f64],
    (m0, n0): (i64, i64),
    size: usize,
    mode: HeatmapMode,
    seed: u64,
) -> Option<Vec<f64>> {
    let size_i = size as i64;
    let first = n0 - (m0 + size_i - 1);
    let count = (2 * size).saturating_sub(1);
    let relative = (0..count as i64).map(|i| first + i);
    let plain = dot(q, k);
    match mode {
        HeatmapMode::Unrotated => Some(vec![plain; count]),
        HeatmapMode::Rotated => {
            let distances: Vec<f64> = relative.map(|r| r as f64).collect();
            Some(score_by_distance(rotary, q, k, &distances))
        }
        HeatmapMode::T5 | HeatmapMode::Alibi => {
            let bias = mode.bias(q, k, seed)?;
            Some(relative.map(|r| plain + bias.at(r)).collect())
        }
        HeatmapMode::Sinusoidal => None,
    }
}

/// Scores for m in `m0..m0+size` (rows) and n in `n0..n0+size` (columns), row-major, computed
/// from the 2·size − 1 distinct distances (and, for sinusoidal, 2·size encodings of
/// `inputs.params`, the base and dimension of the encodings added to q and k).
pub fn score_window(
    rotary: &Rotary,
    q: &[f64],
    k: &[f64],
    (m0, n0): (i64, i64),
    size: usize,
    mode: HeatmapMode,
    inputs: ModeInputs,
) -> Vec<f64> {
    let params = inputs.params;
    let size_i = size as i64;
    // Distance n − m runs from n0 − (m0 + size − 1) to n0 + size − 1 − m0.
    let first = n0 - (m0 + size_i - 1);
    let distances: Vec<f64> = (0..2 * size_i - 1).map(|i| (first + i) as f64).collect();
    let cell = |row: usize, col: usize| ((n0 + col as i64) - (m0 + row as i64) - first) as usize;
    let mut cells = vec![0.0; size * size];
    if let Some(by_distance) = score_diagonals(rotary, q, k, (m0, n0), size, mode, inputs.seed) {
        for (i, c) in cells.iter_mut().enumerate() {
            *c = by_distance[cell(i / size, i % size)];
        }
        return cells;
    }
    // Sinusoidal: (q + PE(m))·(k + PE(n)) = q·k + q·PE(n) + PE(m)·k + PE(m)·PE(n).
    let plain = dot(q, k);
    let run = |from: i64| (0..size_i).map(|i| (from + i) as f64).collect::<Vec<f64>>();
    let q_pe = encoding_dots(params, q, &run(n0));
    let pe_k = encoding_dots(params, k, &run(m0));
    // PE(m)·PE(n) = Σᵢ cos((n − m)θᵢ): one value per distance.
    let planes = params.planes() as f64;
    let theta = default_inv_freq(params.base().ln(), params.dim(), params.planes());
    let pe_pe: Vec<f64> = mean_cos_by_distance(&theta, &distances).into_iter().map(|c| c * planes).collect();
    for (i, c) in cells.iter_mut().enumerate() {
        let (row, col) = (i / size, i % size);
        *c = plain + q_pe[col] + pe_k[row] + pe_pe[cell(row, col)];
    }
    cells
}
