//! Number formats as a model's rotary code stores positions and angles: bf16, fp16, f32 and
//! f64, emulated exactly in f64 (round to nearest, ties to even, subnormals, overflow to
//! infinity), and what they do to the angle m·θᵢ at long positions.

use super::error::{RopeError, VectorName};

/// A binary floating-point format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// bfloat16: 8 significant bits, f32's exponent range.
    #[default]
    Bf16,
    /// IEEE half: 11 significant bits, largest finite 65504.
    Fp16,
    F32,
    F64,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Bf16, Format::Fp16, Format::F32, Format::F64];

    pub fn as_str(self) -> &'static str {
        match self {
            Format::Bf16 => "bf16",
            Format::Fp16 => "fp16",
            Format::F32 => "f32",
            Format::F64 => "f64",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// (significant bits p, smallest normal exponent, largest exponent).
    fn shape(self) -> (i32, i32, i32) {
        match self {
            Format::Bf16 => (8, -126, 127),
            Format::Fp16 => (11, -14, 15),
            Format::F32 => (24, -126, 127),
            Format::F64 => (53, -1022, 1023),
        }
    }

    /// The largest finite value.
    pub fn max_finite(self) -> f64 {
        let (p, _, emax) = self.shape();
        (2.0 - 2f64.powi(1 - p)) * 2f64.powi(emax)
    }

    /// The spacing of the format's values around `x` (x finite): 2^(e − p + 1) for x in
    /// [2^e, 2^(e+1)), the subnormal spacing below the smallest normal.
    pub fn ulp(self, x: f64) -> f64 {
        let (p, emin, _) = self.shape();
        let e = if x == 0.0 { emin } else { (exponent(x.abs())).max(emin) };
        power_of_two(e - p + 1)
    }

    /// `x` as the format stores it: the nearest value, ties to the even significand; beyond the
    /// largest finite value (by half a spacing or more), ±infinity. NaN stays NaN.
    pub fn round(self, x: f64) -> f64 {
        if self == Format::F64 || !x.is_finite() || x == 0.0 {
            return x;
        }
        if self == Format::F32 {
            // Rust's conversion rounds to nearest, ties to even, and overflows to infinity: the
            // same rule, in one instruction (the chart calls this a million times).
            return x as f32 as f64;
        }
        let ulp = self.ulp(x);
        // x / ulp is exact (a power of two), and so is the product back.
        let stored = round_half_even(x / ulp) * ulp;
        if stored.abs() > self.max_finite() {
            f64::INFINITY.copysign(x)
        } else {
            stored
        }
    }

    /// The run of integer positions the format stores as the same value as `position`: its
    /// first and last (inclusive). `None` when `position` overflows the format.
    pub fn collapsed_run(self, position: u64) -> Option<(u64, u64)> {
        let stored = self.round(position as f64);
        if !stored.is_finite() {
            return None;
        }
        // Halfway to the neighbouring values, which may sit closer below a power of two.
        let above = stored + self.ulp(stored);
        let below = stored - self.ulp(stored - self.ulp(stored) / 2.0).min(self.ulp(stored));
        let same = |n: f64| self.round(n) == stored;
        let mut first = ((below + stored) / 2.0).ceil().max(0.0);
        if !same(first) {
            first += 1.0;
        }
        let mut last = ((stored + above) / 2.0).floor();
        if !same(last) {
            last -= 1.0;
        }
        Some((first as u64, last.max(first) as u64))
    }
}

/// The exponent e with 2^e <= x < 2^(e+1), for finite x > 0.
fn exponent(x: f64) -> i32 {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    if biased == 0 {
        // An f64 subnormal: far below every format's range here.
        -1074 + (63 - (bits & ((1 << 52) - 1)).leading_zeros() as i32)
    } else {
        biased - 1023
    }
}

/// 2^e for the exponents the formats use (well inside f64's normal range).
fn power_of_two(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

fn round_half_even(x: f64) -> f64 {
    let rounded = x.round();
    if (x - x.trunc()).abs() == 0.5 && rounded % 2.0 != 0.0 {
        rounded - x.signum()
    } else {
        rounded
    }
}

/// |a − b| as an angle, wrapped to [0, π].
pub fn angle_gap(a: f64, b: f64) -> f64 {
    let tau = std::f64::consts::TAU;
    let d = (a - b).rem_euclid(tau);
    d.min(tau - d)
}

/// How a rotary pipeline computes the angle m·θᵢ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pipeline {
    /// Everything in `format`: the position, θᵢ and their product rounded to it.
    All(Format),
    /// Positions kept as exact integers; θᵢ and the product in `format`.
    IntegerPositions(Format),
}

impl Pipeline {
    /// The angle of `position` in a plane of inverse frequency `theta`.
    pub fn angle(self, position: f64, theta: f64) -> f64 {
        match self {
            Pipeline::All(f) => f.round(f.round(position) * f.round(theta)),
            Pipeline::IntegerPositions(f) => f.round(position * f.round(theta)),
        }
    }
}

/// The largest error over the planes of the angle `pipeline` computes at `position`, against
/// m·θᵢ in f64, wrapped to [0, π]; π when the position or an angle overflows.
pub fn max_angle_error(pipeline: Pipeline, position: f64, inv_freq: &[f64]) -> f64 {
    plane_angle_errors(pipeline, position, inv_freq).into_iter().fold(0.0, f64::max)
}

/// Each plane's error of the angle `pipeline` computes at `position`, against m·θᵢ in f64,
/// wrapped to [0, π]; π where the position or the angle overflows.
pub fn plane_angle_errors(pipeline: Pipeline, position: f64, inv_freq: &[f64]) -> Vec<f64> {
    inv_freq
        .iter()
        .map(|theta| {
            let angle = pipeline.angle(position, *theta);
            if angle.is_finite() {
                angle_gap(angle, position * theta)
            } else {
                std::f64::consts::PI
            }
        })
        .collect()
}

/// What a curve of the precision chart measures at a position: the largest error over the
/// planes of the angle a pipeline computes, or of cos and sin from f32 tables cast to a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorSource {
    Angle(Pipeline),
    TableCast(Format),
}

impl ErrorSource {
    /// The error at `position` over the planes of `inv_freq`.
    pub fn at(self, position: f64, inv_freq: &[f64]) -> f64 {
        match self {
            ErrorSource::Angle(pipeline) => max_angle_error(pipeline, position, inv_freq),
            ErrorSource::TableCast(format) => table_cast_error(format, position, inv_freq),
        }
    }

    /// The largest error at any of `positions` up to each one (a running maximum: by
    /// position p, some plane has been off by this much), for increasing `positions`.
    pub fn envelope(self, positions: &[f64], inv_freq: &[f64]) -> Vec<f64> {
        let mut worst = 0.0_f64;
        positions
            .iter()
            .map(|p| {
                worst = worst.max(self.at(*p, inv_freq));
                worst
            })
            .collect()
    }
}

/// `count` integer positions from 1 to `last`, evenly spaced on a log axis, increasing and
/// without repeats (so fewer than `count` near 1).
pub fn log_positions(last: u64, count: usize) -> Vec<f64> {
    let top = (last.max(1) as f64).ln();
    let mut positions: Vec<f64> = (0..count).map(|i| (top * i as f64 / (count.max(2) - 1) as f64).exp().round()).collect();
    positions.dedup();
    positions
}

/// The error of cos and sin themselves when the tables are built in f32 from exact angles and
/// then cast to `format`: the largest |cast − exact| over the planes.
pub fn table_cast_error(format: Format, position: f64, inv_freq: &[f64]) -> f64 {
    inv_freq
        .iter()
        .map(|theta| {
            let angle = Format::F32.round(position * Format::F32.round(*theta));
            let (sin, cos) = angle.sin_cos();
            let (true_sin, true_cos) = (position * theta).sin_cos();
            let gap = |stored: f64, exact: f64| (format.round(Format::F32.round(stored)) - exact).abs();
            gap(sin, true_sin).max(gap(cos, true_cos))
        })
        .fold(0.0, f64::max)
}

/// The score of q at m and k at n (interleaved pairs) with angles from `pipeline`: each plane's
/// rest product hᵢ = q̃ᵢ·conj(k̃ᵢ) turned by angle(n) − angle(m).
pub fn score_with(pipeline: Pipeline, q: &[f64], k: &[f64], m: f64, n: f64, inv_freq: &[f64]) -> Result<f64, RopeError> {
    let expected = 2 * inv_freq.len();
    for (vector, v) in [(VectorName::Query, q), (VectorName::Key, k)] {
        if v.len() != expected {
            return Err(RopeError::VectorLength { vector, expected, found: v.len() });
        }
    }
    Ok(inv_freq
        .iter()
        .enumerate()
        .map(|(i, theta)| {
            let (a, b) = (q[2 * i], q[2 * i + 1]);
            let (c, d) = (k[2 * i], k[2 * i + 1]);
            let (re, im) = (a * c + b * d, b * c - a * d);
            let turn = pipeline.angle(n, *theta) - pipeline.angle(m, *theta);
            if !turn.is_finite() {
                return 0.0;
            }
            let (sin, cos) = turn.sin_cos();
            re * cos + im * sin
        })
        .sum())
}
