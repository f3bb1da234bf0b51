//! The math of RoPE: pure Rust, f64, no web or drawing crates, so it runs the same natively,
//! in benchmarks and in the browser. Nothing here panics on any input; invalid input is a
//! [`RopeError`].
//!
//! Sources: RoFormer (Su et al. 2021, arXiv 2104.09864); Hugging Face transformers
//! `modeling_rope_utils.py` and `apply_rotary_pos_emb`; Meta's Llama `apply_rotary_emb`.

mod clock;
mod curves;
mod decay;
mod error;
mod frequency;
mod params;
mod random;
mod rotate;
mod scaling;
mod sinusoidal;

pub use clock::{wrap_angle, PlaneHands};
pub use curves::{abel_factor, cosine_by_distance, mean_cos_by_distance, score_by_distance, score_window, HeatmapMode};
pub use decay::{decay_bound, decay_curve};
pub use error::{RopeError, VectorName};
pub use frequency::{turns_within, wavelength};
pub use params::{check_vector, Position, RopeParams, MAX_BASE, MAX_DIM, MAX_POSITION};
pub use random::{seeded_vector, SplitMix64, Stream};
pub use rotate::{dot, interleaved_to_half, Layout, Rotary, Scores};
pub use scaling::{frequencies, rotary_dim, Frequencies, ScalingMethod, ScalingParams, MIN_PLANE_FACTOR};
pub use sinusoidal::sinusoidal_encoding;
