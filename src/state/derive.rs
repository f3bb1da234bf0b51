//! Everything computed from a [`LabState`], once per change, shared by every widget.

use super::LabState;
use crate::rope::{absolute_bound, decay_bound, frequencies, Frequencies, Position, RopeError, RopeParams, Rotary, Scores};

/// q, k and the rotation in effect: what every drawing of scores needs. Unchanged when only
/// m, n or r move, so drawings that depend on it alone do not redraw then.
#[derive(Debug, Clone, PartialEq)]
pub struct Vectors {
    pub q: Vec<f64>,
    pub k: Vec<f64>,
    pub rotary: Rotary,
}

/// The numbers the page shows for one state.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    pub params: RopeParams,
    pub frequencies: Frequencies,
    pub vectors: Vectors,
    pub scores: Scores,
    /// The RoFormer bound at relative distance `r`, for the frequencies in effect.
    pub decay_bound_at_r: f64,
    /// RoFormer's bound on |score| at n − m = `r` for the current q and k (section 3.4.3).
    pub absolute_bound_at_r: f64,
    /// Where q and k came from, so that the next state can keep them.
    drawn: Drawn,
}

/// The seed and d that q and k are drawn from, and whether each was typed instead.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Drawn {
    seed: u64,
    dim: usize,
    q_typed: bool,
    k_typed: bool,
}

impl Drawn {
    fn of(state: &LabState) -> Self {
        Drawn { seed: state.seed, dim: state.dim, q_typed: state.q.is_some(), k_typed: state.k.is_some() }
    }

    /// Whether a vector drawn for `earlier` is the one drawn now (neither typed).
    fn keeps(self, earlier: Drawn, typed: fn(Drawn) -> bool) -> bool {
        !typed(self) && !typed(earlier) && (self.seed, self.dim) == (earlier.seed, earlier.dim)
    }
}

impl Derived {
    /// Computes every derived value. A state that came through [`LabState::from_query`] or a
    /// [`LabState::apply`] always succeeds; the error exists so that nothing here can panic.
    pub fn compute(state: &LabState) -> Result<Self, RopeError> {
        Self::compute_after(state, None)
    }

    /// [`Derived::compute`], taking q and k from `previous` when they were drawn from the same
    /// seed and d: a step of base, m or n does not draw them again (2·d normal draws).
    pub fn compute_after(state: &LabState, previous: Option<&Derived>) -> Result<Self, RopeError> {
        let params = RopeParams::new(state.base, state.dim)?;
        let frequencies = frequencies(params, &state.scaling_params())?;
        let rotary = Rotary::new(state.layout, &frequencies);
        let drawn = Drawn::of(state);
        let q = match previous {
            Some(p) if drawn.keeps(p.drawn, |d| d.q_typed) => p.vectors.q.clone(),
            _ => state.query_vector(),
        };
        let k = match previous {
            Some(p) if drawn.keeps(p.drawn, |d| d.k_typed) => p.vectors.k.clone(),
            _ => state.key_vector(),
        };
        let scores = rotary.scores(&q, &k, Position::new(state.m)?, Position::new(state.n)?)?;
        let decay_bound_at_r = decay_bound(&frequencies.inv_freq, Position::new(state.r)?.get() as f64);
        let absolute_bound_at_r = absolute_bound(&rotary, &q, &k, state.r as f64);
        Ok(Self { params, frequencies, vectors: Vectors { q, k, rotary }, scores, decay_bound_at_r, absolute_bound_at_r, drawn })
    }
}
