//! A small RoPE with every knob a mistake turns: the page's rotation and each hypothesis the
//! diagnosis tries are values of one [`Rotation`].

use super::TestInput;
use crate::rope::{Format, Layout};

/// In what format the angles m·θᵢ are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AngleFormat {
    /// Exactly (f64), as the page does and as float32 code does to its precision.
    Exact,
    /// Position and θᵢ stored in `Format`, and their product rounded to it (the matmul of
    /// transformers' rotary embedding under bf16 autocast, before PR #29285).
    In(Format),
}

/// How to rotate the rows of a test input.
#[derive(Debug, Clone, PartialEq)]
pub struct Rotation {
    pub layout: Layout,
    /// θᵢ per plane, d/2 entries (0 for a plane that does not turn).
    pub inv_freq: Vec<f64>,
    /// How many leading dimensions pair up; the rest pass through unchanged.
    pub rotary_dim: usize,
    /// cos and sin are multiplied by it (transformers' attention_factor).
    pub amplitude: f64,
    /// −1: sin with the wrong sign, the rotation the wrong way round.
    pub sign: f64,
    /// cos and sin swapped.
    pub swap: bool,
    /// Added to every position.
    pub shift: i64,
    pub angles: AngleFormat,
}

impl Rotation {
    pub fn new(layout: Layout, inv_freq: Vec<f64>, rotary_dim: usize, amplitude: f64) -> Self {
        Self { layout, inv_freq, rotary_dim, amplitude, sign: 1.0, swap: false, shift: 0, angles: AngleFormat::Exact }
    }

    /// The planes that turn (pairs among the first `rotary_dim` dimensions).
    pub fn planes(&self) -> usize {
        (self.rotary_dim / 2).min(self.inv_freq.len())
    }

    /// The two dimensions of plane `plane` (< [`Rotation::planes`]): (2i, 2i+1) interleaved,
    /// (i, i + r/2) as rotate_half pairs the first r dimensions.
    pub fn plane_dims(&self, plane: usize) -> (usize, usize) {
        match self.layout {
            Layout::Interleaved => (2 * plane, 2 * plane + 1),
            Layout::Half => (plane, plane + self.rotary_dim / 2),
        }
    }

    /// Plane `plane`'s angle at `position`, as this rotation computes it.
    pub fn angle(&self, plane: usize, position: i64) -> f64 {
        let theta = self.inv_freq.get(plane).copied().unwrap_or(0.0);
        let p = (position + self.shift) as f64;
        match self.angles {
            AngleFormat::Exact => p * theta,
            AngleFormat::In(format) => format.round(format.round(p) * format.round(theta)),
        }
    }

    /// One row rotated to `position`. Entries the row lacks count as 0; non-finite angles
    /// (a format's overflow) give non-finite entries, which the comparison counts as wrong.
    pub fn rotate(&self, x: &[f64], position: i64) -> Vec<f64> {
        let mut out = x.to_vec();
        for plane in 0..self.planes() {
            let (a, b) = self.plane_dims(plane);
            let (Some(&xa), Some(&xb)) = (x.get(a), x.get(b)) else { continue };
            let (sin, cos) = self.angle(plane, position).sin_cos();
            let (sin, cos) = (self.sign * sin * self.amplitude, cos * self.amplitude);
            let (s, c) = if self.swap { (cos, sin) } else { (sin, cos) };
            out[a] = xa * c - xb * s;
            out[b] = xa * s + xb * c;
        }
        out
    }

    /// Every row of `input` rotated to its position.
    pub fn apply(&self, input: &TestInput) -> Vec<Vec<f64>> {
        input.x.iter().zip(&input.positions).map(|(row, p)| self.rotate(row, *p)).collect()
    }
}
