//! The math of RoPE: pure Rust, f64, no web or drawing crates, so it runs the same natively,
//! in benchmarks and in the browser. Nothing here panics on any input; invalid input is a
//! [`RopeError`].
//!
//! Sources: RoFormer (Su et al. 2021, arXiv 2104.09864); Hugging Face transformers
//! `modeling_rope_utils.py` and `apply_rotary_pos_emb`; Meta's Llama `apply_rotary_emb`; for the
//! biases RoPE replaced, transformers' `T5Attention._relative_position_bucket` and ALiBi (Press
//! et al. 2022, arXiv 2108.12409).

mod attention;
mod biases;
mod checks;
mod clock;
mod curves;
mod decay;
mod encodings;
mod error;
mod frequency;
mod params;
mod phasor;
mod precision;
mod random;
mod rope2d;
mod rotate;
mod scaling;
mod sinusoidal;
mod xpos;

pub use attention::{
    order_report, shuffle, softmax, AttentionPass, Mask, OrderReport, PositionMode, TinyAttention, DOGS, MODEL_DIM, SENTENCE, SHUFFLE,
};
pub use biases::{
    alibi_bias, alibi_slope, score_scale, t5_bucket, ScoreBias, T5Biases, ALIBI_HEAD, ALIBI_HEADS, T5_BUCKETS, T5_MAX_DISTANCE,
};
pub use checks::{bits_flipped, choices_around, first_to_turn, Trend};
pub use clock::{wrap_angle, PlaneHands};
pub use curves::{
    abel_factor, absolute_bound, cosine_by_distance, mean_cos_by_distance, score_by_distance, score_diagonals, score_window, HeatmapMode,
    ModeInputs,
};
pub use decay::{decay_bound, decay_curve};
pub use encodings::{add_encoding, apply_blocks, binary_code, norm, pe_rotation_error, pe_shift_blocks, Code, BITS, MAX_CODE_POSITION};
pub use error::{RopeError, VectorName};
pub use frequency::{default_inv_freq, turns_within, wavelength};
pub use params::{check_vector, Position, RopeParams, DEFAULT_BASE, MAX_BASE, MAX_DIM, MAX_POSITION};
pub use precision::{
    angle_gap, log_positions, max_angle_error, plane_angle_errors, score_with, table_cast_error, ErrorSource, Format, Pipeline,
};
pub use random::{seeded_vector, SplitMix64, Stream};
pub use rope2d::{collision_partner, Patch, Rope2d};
pub use rotate::{dot, half_to_interleaved, interleaved_to_half, plane_share, Layout, Rotary, Scores};
pub use scaling::{
    frequencies, stretch, Frequencies, PlaneChange, PlaneStretch, ScalingMethod, ScalingParams, DEFAULT_BETA_FAST, DEFAULT_BETA_SLOW,
    DEFAULT_HIGH_FREQ_FACTOR, DEFAULT_LOW_FREQ_FACTOR, DEFAULT_ORIGINAL_CONTEXT, MIN_PLANE_FACTOR,
};
pub use sinusoidal::sinusoidal_encoding;
pub use xpos::{xpos_mean_cos, xpos_zeta, DEFAULT_SCALE_BASE, XPOS_GAMMA};
