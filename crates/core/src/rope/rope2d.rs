//! RoPE for images: patches on a grid have a column x and a row y. Axial 2D RoPE gives half of
//! the planes to x and the other half to y, each axis with its own ladder of frequencies
//! θⱼ = b^(−j/A) over its A planes, so the score depends only on (kx − qx, ky − qy). The wrong
//! way beside it turns every plane by (x + y)·θᵢ: offsets with the same x + y collide.
//! Pairs are interleaved, (2i, 2i+1).

use super::error::{RopeError, VectorName};
use super::params::RopeParams;

/// A patch's column and row.
pub type Patch = (i64, i64);

/// Axial 2D RoPE over a head of `dim` dimensions.
#[derive(Debug, Clone, PartialEq)]
pub struct Rope2d {
    /// Each plane's axis (0: x, the column; 1: y, the row) and inverse frequency.
    planes: Vec<(usize, f64)>,
    /// Plain 1D frequencies θᵢ = b^(−2i/d), for the mixed variant.
    mixed: Vec<f64>,
}

impl Rope2d {
    /// The first ⌈d/4⌉ planes turn with x, the rest with y.
    pub fn new(params: RopeParams) -> Self {
        let planes = params.planes();
        let x_planes = planes.div_ceil(2);
        let y_planes = planes - x_planes;
        let ladder = |count: usize| (0..count).map(move |j| params.base().powf(-(j as f64) / count as f64));
        let mut axial: Vec<(usize, f64)> = ladder(x_planes).map(|t| (0, t)).collect();
        axial.extend(ladder(y_planes).map(|t| (1, t)));
        let mixed = (0..planes).map(|i| params.base().powf(-2.0 * i as f64 / params.dim() as f64)).collect();
        Self { planes: axial, mixed }
    }

    /// How many planes turn with x and with y.
    pub fn split(&self) -> (usize, usize) {
        let x = self.planes.iter().filter(|(axis, _)| *axis == 0).count();
        (x, self.planes.len() - x)
    }

    fn check(&self, q: &[f64], k: &[f64]) -> Result<(), RopeError> {
        let expected = 2 * self.planes.len();
        for (vector, v) in [(VectorName::Query, q), (VectorName::Key, k)] {
            if v.len() != expected {
                return Err(RopeError::VectorLength { vector, expected, found: v.len() });
            }
        }
        Ok(())
    }

    /// Σᵢ Re(hᵢ·e^(i·turnᵢ)) with hᵢ = q̃ᵢ·conj(k̃ᵢ): q turned by its angles, k by its own.
    fn score_by(q: &[f64], k: &[f64], turn: impl Fn(usize) -> f64) -> f64 {
        (0..q.len() / 2)
            .map(|i| {
                let (a, b, c, d) = (q[2 * i], q[2 * i + 1], k[2 * i], k[2 * i + 1]);
                let (sin, cos) = turn(i).sin_cos();
                (a * c + b * d) * cos + (b * c - a * d) * sin
            })
            .sum()
    }

    /// The axial score of q at patch `qp` with k at patch `kp`: a function of kp − qp alone.
    pub fn score(&self, q: &[f64], k: &[f64], qp: Patch, kp: Patch) -> Result<f64, RopeError> {
        self.check(q, k)?;
        let offset = [(kp.0 - qp.0) as f64, (kp.1 - qp.1) as f64];
        Ok(Self::score_by(q, k, |i| {
            let (axis, theta) = self.planes[i];
            offset[axis] * theta
        }))
    }

    /// The wrong way: every plane turned by (x + y)·θᵢ, so only (kx + ky) − (qx + qy) counts.
    pub fn mixed_score(&self, q: &[f64], k: &[f64], qp: Patch, kp: Patch) -> Result<f64, RopeError> {
        self.check(q, k)?;
        let shift = ((kp.0 + kp.1) - (qp.0 + qp.1)) as f64;
        Ok(Self::score_by(q, k, |i| shift * self.mixed[i]))
    }

    /// The axial score of the query at `qp` with a key at every patch of a `grid` × `grid`
    /// grid, row by row.
    pub fn score_grid(&self, q: &[f64], k: &[f64], qp: Patch, grid: usize) -> Result<Vec<f64>, RopeError> {
        self.grid_of(q, k, grid, |kp| self.score(q, k, qp, kp))
    }

    /// The same for the mixed way.
    pub fn mixed_score_grid(&self, q: &[f64], k: &[f64], qp: Patch, grid: usize) -> Result<Vec<f64>, RopeError> {
        self.grid_of(q, k, grid, |kp| self.mixed_score(q, k, qp, kp))
    }

    fn grid_of(&self, q: &[f64], k: &[f64], grid: usize, score: impl Fn(Patch) -> Result<f64, RopeError>) -> Result<Vec<f64>, RopeError> {
        self.check(q, k)?;
        (0..grid * grid).map(|cell| score(((cell % grid) as i64, (cell / grid) as i64))).collect()
    }
}

/// A key patch the mixed way cannot tell from `kp`: the nearest other patch of a `grid` × `grid`
/// grid with the same x + y (one step along k's anti-diagonal), so a different offset from the
/// query with the same mixed score. `None` in the two corners, whose anti-diagonal is one patch.
pub fn collision_partner(kp: Patch, grid: i64) -> Option<Patch> {
    let inside = |(x, y): Patch| (0..grid).contains(&x) && (0..grid).contains(&y);
    [(kp.0 - 1, kp.1 + 1), (kp.0 + 1, kp.1 - 1)].into_iter().find(|p| inside(*p))
}
