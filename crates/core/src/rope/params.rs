//! Validated inputs: a head dimension and base that RoPE can use, token positions,
//! and query/key vectors with exactly `dim` finite components.

use super::error::{RopeError, VectorName};

/// The base of RoFormer, Llama 1 and 2 and the sinusoidal encoding (Vaswani et al. 2017).
pub const DEFAULT_BASE: f64 = 10_000.0;
/// Largest head dimension the lab accepts (d/2 = 512 planes).
pub const MAX_DIM: usize = 1024;
/// Largest base (theta) the lab accepts.
pub const MAX_BASE: f64 = 1e9;
/// Largest token position the lab accepts.
pub const MAX_POSITION: i64 = 10_000_000;

/// A head dimension and RoPE base that passed validation.
///
/// `dim` is even and in `2..=MAX_DIM`; `base` is finite and in `(1, MAX_BASE]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RopeParams {
    base: f64,
    dim: usize,
}

impl RopeParams {
    /// Checks `base` and `dim`; returns the first problem found as a typed error.
    pub fn new(base: f64, dim: usize) -> Result<Self, RopeError> {
        if dim == 0 || dim > MAX_DIM {
            return Err(RopeError::DimensionOutOfRange(dim));
        }
        if dim % 2 != 0 {
            return Err(RopeError::DimensionOdd(dim));
        }
        if !base.is_finite() {
            return Err(RopeError::BaseNotFinite);
        }
        if base <= 1.0 || base > MAX_BASE {
            return Err(RopeError::BaseOutOfRange(base));
        }
        Ok(Self { base, dim })
    }

    pub fn base(&self) -> f64 {
        self.base
    }

    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Number of 2D rotation planes, d/2.
    pub fn planes(&self) -> usize {
        self.dim / 2
    }
}

/// A token position in `0..=MAX_POSITION`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position(i64);

impl Position {
    pub fn new(position: i64) -> Result<Self, RopeError> {
        if (0..=MAX_POSITION).contains(&position) {
            Ok(Self(position))
        } else {
            Err(RopeError::PositionOutOfRange(position))
        }
    }

    pub fn get(self) -> i64 {
        self.0
    }

    /// The relative distance `other - self` (n - m when `self` is m and `other` is n).
    pub fn distance_to(self, other: Position) -> i64 {
        other.0 - self.0
    }
}

/// Checks that `values` has exactly `dim` finite components.
pub fn check_vector(vector: VectorName, values: &[f64], dim: usize) -> Result<(), RopeError> {
    if values.len() != dim {
        return Err(RopeError::VectorLength { vector, expected: dim, found: values.len() });
    }
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(RopeError::NonFiniteComponent { vector, index }),
        None => Ok(()),
    }
}
