//! What RoPE replaced: position as a number added to the score q·k, one per relative position
//! r = n − m (key position minus query position), instead of a rotation of q and k.
//!
//! - T5 (Raffel et al. 2020) learns one bias per bucket of r and per head. The buckets are those
//!   of transformers' `T5Attention._relative_position_bucket(relative_position,
//!   bidirectional=True, num_buckets=32, max_distance=128)`, with relative_position =
//!   memory_position − query_position = n − m.
//! - ALiBi (Press et al. 2022) adds −slope·|r|, with the head slopes 2^(−8h/H), h = 1..H.

use super::random::{SplitMix64, Stream};

/// T5's `relative_attention_num_buckets`: 16 for r ≤ 0, 16 for r > 0.
pub const T5_BUCKETS: usize = 32;
/// T5's `relative_attention_max_distance`: from here on every |r| shares the last bucket.
pub const T5_MAX_DISTANCE: u64 = 128;

/// The bucket of relative position `relative_position` = n − m, as transformers computes it
/// with `bidirectional=True, num_buckets=32, max_distance=128`:
///
/// - r > 0 adds 16 (half the buckets); then |r| is bucketed within the 16.
/// - |r| < 8 (`max_exact` = 16 / 2) is its own bucket.
/// - else 8 + trunc(ln(|r| / 8) / ln(128 / 8) · (16 − 8)), at most 15.
///
/// The logarithm is evaluated exactly, in integers: 8·log₁₆(|r|/8) = log₂(r²) − 6, so its
/// integer part is ⌊log₂ r²⌋ − 6, and the bucket is min(15, ⌊log₂ r²⌋ + 2). transformers
/// computes it in float32; at the distances where the logarithm is a whole number (16, 32, 64,
/// 128) float32 gives that whole number, so the two agree for every r (tests/properties.rs
/// compares them). Bucket 16 (r > 0 with |r| = 0) is never used.
pub fn t5_bucket(relative_position: i64) -> usize {
    let half = T5_BUCKETS / 2;
    let side = if relative_position > 0 { half } else { 0 };
    let distance = relative_position.unsigned_abs();
    let max_exact = (half / 2) as u64;
    if distance < max_exact {
        return side + distance as usize;
    }
    if distance >= T5_MAX_DISTANCE {
        return side + half - 1;
    }
    // 8 ≤ |r| < 128: r² < 2¹⁴, no overflow.
    let log2_square = (distance * distance).ilog2() as usize;
    side + (log2_square + 2).min(half - 1)
}

/// T5's 32 bucket biases for one head. A trained model has learned them; here they are drawn
/// from `seed` (standard normal, [`Stream::Bias`]) and multiplied by `scale`, so what a
/// picture of them shows is the bucket pattern, not any model's preferences.
#[derive(Debug, Clone, PartialEq)]
pub struct T5Biases {
    biases: Vec<f64>,
}

impl T5Biases {
    /// The biases for `seed`, each a standard normal draw times `scale` (0 unless finite).
    pub fn drawn(seed: u64, scale: f64) -> Self {
        let scale = if scale.is_finite() { scale } else { 0.0 };
        let mut rng = SplitMix64::for_stream(seed, Stream::Bias);
        Self { biases: (0..T5_BUCKETS).map(|_| rng.next_normal() * scale).collect() }
    }

    /// The bias of bucket `bucket` (0 past the last one).
    pub fn of_bucket(&self, bucket: usize) -> f64 {
        self.biases.get(bucket).copied().unwrap_or(0.0)
    }

    /// The bias added to the score at n − m = `relative_position`.
    pub fn at(&self, relative_position: i64) -> f64 {
        self.of_bucket(t5_bucket(relative_position))
    }
}

/// The typical size of q·k for two vectors of these lengths pointing in unrelated directions,
/// |q||k|/√d: also the spread of RoPE's scores over distance for random q and k (about √d for
/// standard normal components). T5's drawn biases take this scale, so they are neither lost
/// under the scores nor drowning them.
pub fn score_scale(q: &[f64], k: &[f64]) -> f64 {
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let scale = norm(q) * norm(k) / (q.len().max(1) as f64).sqrt();
    if scale.is_finite() {
        scale
    } else {
        0.0
    }
}

/// The heads of the ALiBi model the heatmap shows one head of.
pub const ALIBI_HEADS: u32 = 8;
/// The head it shows: slope 2^(−8·4/8) = 1/16, so that over the 256-wide window the bias
/// (down to −16) is of the size of the scores (about ±√d).
pub const ALIBI_HEAD: u32 = 4;

/// ALiBi's slope for head `head` (1-based) of `heads`: 2^(−8·head/heads), the geometric
/// sequence of the paper for a power-of-two number of heads. None for any other count of
/// heads (the paper interpolates between powers of two there) or a head outside 1..=heads.
pub fn alibi_slope(head: u32, heads: u32) -> Option<f64> {
    (heads.is_power_of_two() && (1..=heads).contains(&head)).then(|| (-8.0 * f64::from(head) / f64::from(heads)).exp2())
}

/// ALiBi's bias at n − m = `relative_position`: −slope·|n − m|. A causal model uses only
/// n ≤ m; the formula is the same on both sides.
pub fn alibi_bias(slope: f64, relative_position: i64) -> f64 {
    let bias = -slope * relative_position.unsigned_abs() as f64;
    if bias.is_nan() {
        0.0
    } else {
        bias
    }
}

/// What a heatmap mode adds to q·k by n − m: T5's bucket biases or ALiBi's line.
#[derive(Debug, Clone, PartialEq)]
pub enum ScoreBias {
    /// T5: one bias per bucket, drawn from the seed at the scale of q·k ([`score_scale`]).
    T5(T5Biases),
    /// ALiBi: −slope·|n − m|, this slope.
    Alibi(f64),
}

impl ScoreBias {
    /// T5's biases drawn from `seed` at the scale of `q` and `k`.
    pub fn t5(q: &[f64], k: &[f64], seed: u64) -> Self {
        ScoreBias::T5(T5Biases::drawn(seed, score_scale(q, k)))
    }

    /// ALiBi's head [`ALIBI_HEAD`] of [`ALIBI_HEADS`].
    pub fn alibi() -> Self {
        ScoreBias::Alibi(alibi_slope(ALIBI_HEAD, ALIBI_HEADS).unwrap_or(0.0))
    }

    /// The bias at n − m = `relative_position`.
    pub fn at(&self, relative_position: i64) -> f64 {
        match self {
            ScoreBias::T5(biases) => biases.at(relative_position),
            ScoreBias::Alibi(slope) => alibi_bias(*slope, relative_position),
        }
    }
}
