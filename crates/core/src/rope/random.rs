//! Reproducible pseudo-random query and key vectors, the same in every browser and in tests.

/// SplitMix64 (Steele, Lea and Flood 2014): a tiny generator with good statistical quality,
/// fully determined by its seed.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The generator of `stream` for `seed`: each stream its own sequence of the one seed.
    pub fn for_stream(seed: u64, stream: Stream) -> Self {
        Self::new(seed ^ (stream as u64).wrapping_mul(0xD1B5_4A32_D192_ED03))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1]: never 0, so its logarithm is finite.
    pub fn next_unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal by the Box-Muller transform.
    pub fn next_normal(&mut self) -> f64 {
        let radius = (-2.0 * self.next_unit().ln()).sqrt();
        radius * (std::f64::consts::TAU * self.next_unit()).cos()
    }
}

/// What is drawn from the seed: the two default vectors, and the heatmap's stand-in for T5's
/// learned bucket biases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Query = 1,
    Key = 2,
    Bias = 3,
}

/// A vector of `dim` standard-normal components for `seed`, rounded to 3 decimals so that it
/// reads well and survives a round trip through the URL unchanged.
pub fn seeded_vector(seed: u64, stream: Stream, dim: usize) -> Vec<f64> {
    let mut rng = SplitMix64::for_stream(seed, stream);
    (0..dim).map(|_| (rng.next_normal() * 1000.0).round() / 1000.0).collect()
}
