//! The one error type of the math core. Every fallible constructor and function in
//! [`crate::rope`] returns it instead of panicking, so the page can say what was wrong.

use std::fmt;

/// Which input vector an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorName {
    Query,
    Key,
    /// Any other vector handed to [`crate::rope::Rotary::rotate`].
    Input,
}

impl fmt::Display for VectorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VectorName::Query => "q",
            VectorName::Key => "k",
            VectorName::Input => "the vector",
        })
    }
}

/// Everything that can be wrong with an input to the RoPE core.
#[derive(Debug, Clone, PartialEq)]
pub enum RopeError {
    /// The head dimension must be even: RoPE rotates pairs of coordinates.
    DimensionOdd(usize),
    /// The head dimension must lie in `2..=MAX_DIM`.
    DimensionOutOfRange(usize),
    /// The base must be a finite number.
    BaseNotFinite,
    /// The base must be greater than 1 (else frequencies do not decrease) and at most `MAX_BASE`.
    BaseOutOfRange(f64),
    /// Positions are token indices: `0..=MAX_POSITION`.
    PositionOutOfRange(i64),
    /// A vector must have exactly `dim` components.
    VectorLength { vector: VectorName, expected: usize, found: usize },
    /// Every component of a vector must be finite.
    NonFiniteComponent { vector: VectorName, index: usize },
    /// A scaling parameter is outside its valid range; `name` is the contract's parameter name.
    ScalingParameter { name: &'static str, reason: &'static str },
    /// A per-plane factor list (LongRoPE) must have one entry per rotating plane.
    FactorListLength { name: &'static str, expected: usize, found: usize },
    /// `int(dim * partial)` must be a positive even number of rotating dimensions.
    RotaryDimension { dim: usize, partial: f64 },
}

impl fmt::Display for RopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RopeError::DimensionOdd(d) => write!(f, "dimension {d} is odd; RoPE rotates pairs of dimensions, so it must be even"),
            RopeError::DimensionOutOfRange(d) => write!(f, "dimension {d} is outside 2..={}", crate::rope::MAX_DIM),
            RopeError::BaseNotFinite => f.write_str("the base is not a finite number"),
            RopeError::BaseOutOfRange(b) => write!(f, "base {b} is outside (1, {:e}]", crate::rope::MAX_BASE),
            RopeError::PositionOutOfRange(p) => write!(f, "position {p} is outside 0..={}", crate::rope::MAX_POSITION),
            RopeError::VectorLength { vector, expected, found } => {
                write!(f, "{vector} has {found} components; it needs exactly {expected}")
            }
            RopeError::NonFiniteComponent { vector, index } => {
                write!(f, "{vector}[{index}] is not a finite number")
            }
            RopeError::ScalingParameter { name, reason } => write!(f, "{name}: {reason}"),
            RopeError::FactorListLength { name, expected, found } => {
                write!(f, "{name} has {found} entries; it needs one per rotating plane ({expected})")
            }
            RopeError::RotaryDimension { dim, partial } => {
                write!(f, "partial {partial} of dimension {dim} does not give a positive even number of rotating dimensions")
            }
        }
    }
}

impl std::error::Error for RopeError {}
