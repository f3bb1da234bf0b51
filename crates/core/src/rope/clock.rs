//! The geometry of one rotation plane as a clock face: where q's and k's hands point after
//! rotation, and what the plane adds to the score.
//!
//! In plane i, q's pair (a, b) is the complex number q̃ = a + ib; rotating it to position m
//! multiplies it by e^{i m θ_i} (RoFormer eq. 12-13), so its hand turns by m·θ_i from its
//! resting angle atan2(b, a). The plane's share of q_m · k_n is |q̃||k̃| cos(angle between the
//! hands), and that angle is (resting angle difference) + (n − m)·θ_i: only n − m matters.

use super::rotate::{plane_share, Rotary};
use std::f64::consts::{PI, TAU};

/// One plane's two hands and what they make.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PlaneHands {
    /// Angle of q's hand after rotation to m, in radians in (−π, π], counter-clockwise from +x.
    pub q_angle: f64,
    /// Length of q's pair, |q̃_i|.
    pub q_length: f64,
    /// Angle of k's hand after rotation to n.
    pub k_angle: f64,
    /// Length of k's pair, |k̃_i|.
    pub k_length: f64,
    /// Angle from q's hand to k's hand, in (−π, π].
    pub between: f64,
    /// The plane's share of the score, q_length · k_length · cos(between) ([`plane_share`]).
    pub contribution: f64,
    /// How far q's hand has turned from rest, m·θ_i (unwrapped, may exceed 2π).
    pub q_turn: f64,
    /// How far k's hand has turned from rest, n·θ_i.
    pub k_turn: f64,
}

/// Wraps an angle into (−π, π].
pub fn wrap_angle(angle: f64) -> f64 {
    if !angle.is_finite() {
        return 0.0;
    }
    let wrapped = angle.rem_euclid(TAU); // [0, 2π)
    if wrapped > PI {
        wrapped - TAU
    } else {
        wrapped
    }
}

impl Rotary {
    /// The hands of `plane` for q at position `m` and k at position `n`. Positions may be
    /// fractional, for smooth animation. `q` and `k` must have `dim` entries (checked by the
    /// caller through [`Rotary::scores`]); a plane outside the head gives zero-length hands.
    pub fn plane_hands(&self, q: &[f64], k: &[f64], plane: usize, m: f64, n: f64) -> PlaneHands {
        let (a, b) = self.plane_dims(plane);
        let pair = |v: &[f64]| match (v.get(a), v.get(b)) {
            (Some(x), Some(y)) => (*x, *y),
            _ => (0.0, 0.0),
        };
        let ((qa, qb), (ka, kb)) = (pair(q), pair(k));
        let q_turn = self.angle(plane, m);
        let k_turn = self.angle(plane, n);
        let q_length = qa.hypot(qb);
        let k_length = ka.hypot(kb);
        let q_angle = wrap_angle(qb.atan2(qa) + q_turn);
        let k_angle = wrap_angle(kb.atan2(ka) + k_turn);
        let between = wrap_angle(k_angle - q_angle);
        PlaneHands {
            q_angle,
            q_length,
            k_angle,
            k_length,
            between,
            contribution: plane_share(self.plane_product(q, k, plane), self.inv_freq().get(plane).copied().unwrap_or(0.0), n - m),
            q_turn,
            k_turn,
        }
    }
}
