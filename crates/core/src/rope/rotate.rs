//! Rotating vectors to a position, plane by plane, and the attention scores RoPE produces.
//!
//! RoFormer (Su et al. 2021) eq. 34: R^d_{Theta,m} x is computed pair by pair, never as a
//! d x d matrix. Each plane i turns by the angle m * theta_i.

use super::error::{RopeError, VectorName};
use super::params::{check_vector, Position};
use super::scaling::Frequencies;

/// How the d dimensions of a head are grouped into 2D planes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Layout {
    /// Pairs (2i, 2i+1): the RoFormer paper and Meta's Llama code (`torch.view_as_complex`).
    #[default]
    Interleaved,
    /// Pairs (i, i + d/2): `rotate_half` in GPT-NeoX and Hugging Face transformers.
    Half,
}

impl Layout {
    pub const ALL: [Layout; 2] = [Layout::Interleaved, Layout::Half];

    /// The name used in the URL (`layout=`).
    pub fn as_str(self) -> &'static str {
        match self {
            Layout::Interleaved => "interleaved",
            Layout::Half => "half",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Layout::Interleaved => "interleaved: (2i, 2i+1)",
            Layout::Half => "half: (i, i+d/2)",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.as_str() == name)
    }

    /// The other layout.
    pub fn other(self) -> Self {
        match self {
            Layout::Interleaved => Layout::Half,
            Layout::Half => Layout::Interleaved,
        }
    }
}

/// A rotation ready to apply: the layout, the head dimension and the frequencies in effect.
#[derive(Debug, Clone, PartialEq)]
pub struct Rotary {
    layout: Layout,
    rotary_dim: usize,
    inv_freq: Vec<f64>,
}

impl Rotary {
    pub fn new(layout: Layout, frequencies: &Frequencies) -> Self {
        Self { layout, rotary_dim: frequencies.rotary_dim, inv_freq: frequencies.inv_freq.clone() }
    }

    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The same frequencies, pairing dimensions as `layout` does.
    pub fn with_layout(&self, layout: Layout) -> Self {
        Self { layout, ..self.clone() }
    }

    /// `x` with each plane's pair moved from where this rotation keeps it to where `other`
    /// does: the fixed permutation of dimensions that turns one layout's weights into the
    /// other's (what Hugging Face's Llama conversion applies to W_q and W_k).
    pub fn permute_into(&self, x: &[f64], other: &Rotary) -> Vec<f64> {
        let mut out = x.to_vec();
        for plane in 0..self.planes().min(other.planes()) {
            let ((a, b), (c, d)) = (self.plane_dims(plane), other.plane_dims(plane));
            if let (Some(&xa), Some(&xb)) = (x.get(a), x.get(b)) {
                if c < out.len() && d < out.len() {
                    out[c] = xa;
                    out[d] = xb;
                }
            }
        }
        out
    }

    /// The head dimension d.
    pub fn dim(&self) -> usize {
        self.inv_freq.len() * 2
    }

    pub fn planes(&self) -> usize {
        self.inv_freq.len()
    }

    pub fn inv_freq(&self) -> &[f64] {
        &self.inv_freq
    }

    /// The two dimensions that form `plane`.
    ///
    /// Interleaved: (2i, 2i+1). Half: (i, i + r/2) among the first r rotating dimensions, as
    /// `rotate_half` applied to `x[..r]` does; the remaining, non-rotating dimensions are grouped
    /// the same way among themselves (their pairing does not change any value).
    pub fn plane_dims(&self, plane: usize) -> (usize, usize) {
        match self.layout {
            Layout::Interleaved => (2 * plane, 2 * plane + 1),
            Layout::Half => {
                let rotating_planes = self.rotary_dim / 2;
                if plane < rotating_planes {
                    (plane, plane + rotating_planes)
                } else {
                    let rest_half = (self.dim() - self.rotary_dim) / 2;
                    let j = plane - rotating_planes;
                    (self.rotary_dim + j, self.rotary_dim + rest_half + j)
                }
            }
        }
    }

    /// The angle of `plane` at `position`: position * theta_i, in radians.
    pub fn angle(&self, plane: usize, position: f64) -> f64 {
        self.inv_freq.get(plane).map_or(0.0, |f| position * f)
    }

    /// Plane `plane`'s pairs of q and k at rest as complex numbers q̃ = a + ib, k̃ = c + id, and
    /// their product h = q̃·conj(k̃) = (ac + bd) + i(bc − ad): everything the plane adds to any
    /// score (RoFormer section 3.4.3 calls it hᵢ). Missing entries count as 0.
    pub fn plane_product(&self, q: &[f64], k: &[f64], plane: usize) -> (f64, f64) {
        let (x, y) = self.plane_dims(plane);
        let pair = |v: &[f64]| (v.get(x).copied().unwrap_or(0.0), v.get(y).copied().unwrap_or(0.0));
        let ((qa, qb), (ka, kb)) = (pair(q), pair(k));
        (qa * ka + qb * kb, qb * ka - qa * kb)
    }

    /// `x` rotated to `position`: each plane (a, b) becomes
    /// (a cos - b sin, a sin + b cos) with angle position * theta_i.
    pub fn rotate(&self, vector: VectorName, x: &[f64], position: i64) -> Result<Vec<f64>, RopeError> {
        check_vector(vector, x, self.dim())?;
        let mut out = vec![0.0; x.len()];
        for plane in 0..self.planes() {
            let (a, b) = self.plane_dims(plane);
            let (sin, cos) = self.angle(plane, position as f64).sin_cos();
            out[a] = x[a] * cos - x[b] * sin;
            out[b] = x[a] * sin + x[b] * cos;
        }
        Ok(out)
    }

    /// The score q_m . k_n and its ingredients, checking q and k once.
    pub fn scores(&self, q: &[f64], k: &[f64], m: Position, n: Position) -> Result<Scores, RopeError> {
        let q_rot = self.rotate(VectorName::Query, q, m.get())?;
        let k_rot = self.rotate(VectorName::Key, k, n.get())?;
        let score = dot(&q_rot, &k_rot);
        // The relative way: q . R(n - m) k, RoFormer eq. 16.
        let k_relative = self.rotate(VectorName::Key, k, m.distance_to(n))?;
        let score_relative = dot(q, &k_relative);
        Ok(Scores { score, score_relative, score_unrotated: dot(q, k), q_rot, k_rot })
    }
}

/// Everything the page reads out about one (q, m, k, n).
#[derive(Debug, Clone, PartialEq)]
pub struct Scores {
    /// (R_m q) . (R_n k).
    pub score: f64,
    /// q . (R_{n-m} k): the same number, computed from the relative position alone.
    pub score_relative: f64,
    /// q . k without rotation.
    pub score_unrotated: f64,
    pub q_rot: Vec<f64>,
    pub k_rot: Vec<f64>,
}

/// The plain dot product of two equally long slices.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Reorders an interleaved-layout vector into the half layout: dimension 2i goes to i and
/// 2i+1 to i + d/2, so plane i holds the same pair in both layouts. Odd lengths are returned as is.
pub fn interleaved_to_half(x: &[f64]) -> Vec<f64> {
    if x.len() % 2 != 0 {
        return x.to_vec();
    }
    let half = x.len() / 2;
    let mut out = vec![0.0; x.len()];
    for i in 0..half {
        out[i] = x[2 * i];
        out[i + half] = x[2 * i + 1];
    }
    out
}

/// The inverse of [`interleaved_to_half`]: dimension i goes to 2i and i + d/2 to 2i+1.
pub fn half_to_interleaved(x: &[f64]) -> Vec<f64> {
    if x.len() % 2 != 0 {
        return x.to_vec();
    }
    let half = x.len() / 2;
    let mut out = vec![0.0; x.len()];
    for i in 0..half {
        out[2 * i] = x[i];
        out[2 * i + 1] = x[i + half];
    }
    out
}

/// A plane's share of the score when k sits `distance` = n − m tokens after q:
/// Re[h·e^{−i·distance·θ}] = h.re·cos(distance·θ) + h.im·sin(distance·θ), with h from
/// [`Rotary::plane_product`] (RoFormer eq. 12–16: only n − m is left). The shares of all planes
/// add up to the score.
pub fn plane_share(product: (f64, f64), theta: f64, distance: f64) -> f64 {
    let (sin, cos) = (distance * theta).sin_cos();
    product.0 * cos + product.1 * sin
}
