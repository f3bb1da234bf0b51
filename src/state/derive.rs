//! Everything computed from a [`LabState`], once per change, shared by every widget.

use super::LabState;
use crate::rope::{decay_bound, frequencies, wavelength, Frequencies, Position, RopeError, RopeParams, Rotary, Scores};

/// One rotation plane as the page lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct PlaneRow {
    pub plane: usize,
    /// The two dimensions of q and k that form this plane in the current layout.
    pub dims: (usize, usize),
    pub inv_freq: f64,
    /// Tokens per full turn; `None` for a plane that does not rotate.
    pub wavelength: Option<f64>,
}

/// The numbers the page shows for one state.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    pub frequencies: Frequencies,
    pub rotary: Rotary,
    pub q: Vec<f64>,
    pub k: Vec<f64>,
    pub scores: Scores,
    /// The RoFormer bound at relative distance `r`, for the frequencies in effect.
    pub decay_bound_at_r: f64,
    pub planes: Vec<PlaneRow>,
}

impl Derived {
    /// Computes every derived value. A state that came through [`LabState::from_query`] or
    /// [`LabState::normalize`] always succeeds; the error exists so that nothing here can panic.
    pub fn compute(state: &LabState) -> Result<Self, RopeError> {
        let params = RopeParams::new(state.base, state.dim)?;
        let frequencies = frequencies(params, &state.scaling_params())?;
        let rotary = Rotary::new(state.layout, &frequencies);
        let (q, k) = (state.query_vector(), state.key_vector());
        let scores = rotary.scores(&q, &k, Position::new(state.m)?, Position::new(state.n)?)?;
        let decay_bound_at_r = decay_bound(&frequencies.inv_freq, Position::new(state.r)?.get() as f64);
        let planes = frequencies
            .inv_freq
            .iter()
            .enumerate()
            .map(|(plane, &inv_freq)| PlaneRow {
                plane,
                dims: rotary.plane_dims(plane),
                inv_freq,
                wavelength: wavelength(inv_freq),
            })
            .collect();
        Ok(Self {
            frequencies,
            rotary,
            q,
            k,
            scores,
            decay_bound_at_r,
            planes,
        })
    }
}
