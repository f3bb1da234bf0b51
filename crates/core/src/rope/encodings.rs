//! Ways to write a position as numbers, from counting to sinusoids, and the rotation hidden in
//! the sinusoidal encoding: the first half of the story (the "counting", "pe-rotation" and
//! "add-or-rotate" chapters). The sequence integer → binary → sinusoidal follows the Hugging
//! Face post "You could have designed state of the art positional encoding" (Fleetwood, 2024).

use super::frequency::default_inv_freq;
use super::params::RopeParams;
use super::sinusoidal::sinusoidal_encoding;

/// Bits of the binary code: positions 0..=65535.
pub const BITS: usize = 16;
/// The largest position the counting chapters show (the 16-bit range).
pub const MAX_CODE_POSITION: u32 = (1 << BITS) - 1;

/// The bits of `p`, least significant first (bit 0 flips every token, bit 15 every 32768).
pub fn binary_code(p: u32) -> [u8; BITS] {
    let mut bits = [0; BITS];
    for (i, bit) in bits.iter_mut().enumerate() {
        *bit = ((p >> i) & 1) as u8;
    }
    bits
}

/// A position code, as the counting chapter compares them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// p itself.
    Integer,
    /// p / (L − 1) for an input of L tokens: always in [0, 1].
    Normalised,
    /// The 16 bits of p.
    Binary,
    /// sin and cos of p·θᵢ (Vaswani et al. 2017).
    Sinusoidal,
}

impl Code {
    pub const ALL: [Code; 4] = [Code::Integer, Code::Normalised, Code::Binary, Code::Sinusoidal];

    pub fn label(self) -> &'static str {
        match self {
            Code::Integer => "integer",
            Code::Normalised => "normalised",
            Code::Binary => "binary",
            Code::Sinusoidal => "sinusoidal",
        }
    }

    /// The code of position `p` in an input of `length` tokens, with `params` for the sinusoids.
    pub fn encode(self, p: u32, length: u32, params: RopeParams) -> Vec<f64> {
        match self {
            Code::Integer => vec![p as f64],
            Code::Normalised => vec![p as f64 / (length.max(2) - 1) as f64],
            Code::Binary => binary_code(p).iter().map(|b| *b as f64).collect(),
            Code::Sinusoidal => sinusoidal_encoding(params, p as f64),
        }
    }

    /// How far the code moves from p to p + 1 (Euclidean): the same everywhere only for the
    /// integer and sinusoidal codes (for sinusoids, √(2 Σᵢ (1 − cos θᵢ)) whatever p is).
    pub fn step(self, p: u32, length: u32, params: RopeParams) -> f64 {
        let (a, b) = (self.encode(p, length, params), self.encode(p.saturating_add(1), length, params));
        a.iter().zip(&b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
    }
}

/// M_k: one 2×2 block per (sin, cos) pair of the sinusoidal encoding, [[cos kθᵢ, sin kθᵢ],
/// [−sin kθᵢ, cos kθᵢ]], so that M_k · PE(p) = PE(p + k) for every p (the angle-sum formulas:
/// sin(a+b) = sin a cos b + cos a sin b, cos(a+b) = cos a cos b − sin a sin b).
pub fn pe_shift_blocks(params: RopeParams, k: f64) -> Vec<[[f64; 2]; 2]> {
    default_inv_freq(params.base().ln(), params.dim(), params.planes())
        .into_iter()
        .map(|theta| {
            let (sin, cos) = (k * theta).sin_cos();
            [[cos, sin], [-sin, cos]]
        })
        .collect()
}

/// M_k · `pe`, block by block.
pub fn apply_blocks(blocks: &[[[f64; 2]; 2]], pe: &[f64]) -> Vec<f64> {
    blocks.iter().zip(pe.chunks_exact(2)).flat_map(|(m, x)| [m[0][0] * x[0] + m[0][1] * x[1], m[1][0] * x[0] + m[1][1] * x[1]]).collect()
}

/// max over entries of |M_k PE(p) − PE(p + k)|, in f64: rounding only.
pub fn pe_rotation_error(params: RopeParams, p: f64, k: f64) -> f64 {
    let moved = apply_blocks(&pe_shift_blocks(params, k), &sinusoidal_encoding(params, p));
    moved.iter().zip(sinusoidal_encoding(params, p + k)).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max)
}

/// The Euclidean length of a vector.
pub fn norm(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// `x` + PE(`position`), for `params` (x shorter or longer than d: the common entries).
pub fn add_encoding(x: &[f64], params: RopeParams, position: f64) -> Vec<f64> {
    x.iter().zip(sinusoidal_encoding(params, position)).map(|(a, b)| a + b).collect()
}
