//! Inverse frequencies and attention factor for every context-extension method.
//!
//! Mirrors Hugging Face transformers 5.x `modeling_rope_utils.ROPE_INIT_FUNCTIONS`: one
//! function per method ([`methods`]), all of the same signature, one dispatch ([`frequencies`]).
//! The formulas are transcribed from those functions (named on each) and computed in f64, where
//! transformers uses float32: values agree to about 1e-6 relative.
//!
//! Unlike transformers, the result always has d/2 entries, one per plane of the head; planes
//! that do not rotate (beyond `partial`, or dropped by `proportional`) have inverse frequency 0.

mod methods;

use super::error::RopeError;
use super::frequency::default_inv_freq;
use super::params::RopeParams;

/// `original_max_position_embeddings` when none is given (Llama 2's context).
pub const DEFAULT_ORIGINAL_CONTEXT: u64 = 4096;
/// YaRN's `beta_fast` and `beta_slow` defaults in transformers (Peng et al. 2023).
pub const DEFAULT_BETA_FAST: f64 = 32.0;
pub const DEFAULT_BETA_SLOW: f64 = 1.0;
/// Llama 3's `low_freq_factor` and `high_freq_factor` as Llama 3.1 ships them.
pub const DEFAULT_LOW_FREQ_FACTOR: f64 = 1.0;
pub const DEFAULT_HIGH_FREQ_FACTOR: f64 = 4.0;
/// The smallest LongRoPE per-plane factor accepted (frequencies are divided by it).
pub const MIN_PLANE_FACTOR: f64 = 1e-12;

/// The context-extension methods, by their names in the URL (`scaling=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScalingMethod {
    None,
    Linear,
    Ntk,
    Dynamic,
    Yarn,
    Llama3,
    LongRope,
    Proportional,
}

impl ScalingMethod {
    pub const ALL: [ScalingMethod; 8] = [
        ScalingMethod::None,
        ScalingMethod::Linear,
        ScalingMethod::Ntk,
        ScalingMethod::Dynamic,
        ScalingMethod::Yarn,
        ScalingMethod::Llama3,
        ScalingMethod::LongRope,
        ScalingMethod::Proportional,
    ];

    /// The name used in the URL and in transformers' `rope_type`.
    pub fn as_str(self) -> &'static str {
        match self {
            ScalingMethod::None => "none",
            ScalingMethod::Linear => "linear",
            ScalingMethod::Ntk => "ntk",
            ScalingMethod::Dynamic => "dynamic",
            ScalingMethod::Yarn => "yarn",
            ScalingMethod::Llama3 => "llama3",
            ScalingMethod::LongRope => "longrope",
            ScalingMethod::Proportional => "proportional",
        }
    }

    /// A label for people.
    pub fn label(self) -> &'static str {
        match self {
            ScalingMethod::None => "none",
            ScalingMethod::Linear => "linear (PI)",
            ScalingMethod::Ntk => "NTK-aware",
            ScalingMethod::Dynamic => "dynamic NTK",
            ScalingMethod::Yarn => "YaRN",
            ScalingMethod::Llama3 => "Llama 3.1",
            ScalingMethod::LongRope => "LongRoPE",
            ScalingMethod::Proportional => "proportional (p-RoPE)",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// The factor a method uses when the URL sets none (8 for llama3 and yarn).
    pub fn default_factor(self) -> f64 {
        match self {
            ScalingMethod::Llama3 | ScalingMethod::Yarn => 8.0,
            _ => 1.0,
        }
    }

    /// How many leading dimensions take part in the pairing for `partial` (`partial_rotary_factor`).
    ///
    /// `int(dim * partial)` as transformers computes it; it must be even and positive, since an
    /// odd rotary dimension has no valid pairing (transformers would fail at `rotate_half`).
    /// `proportional` pairs the whole head and drops planes instead, so any partial in (0, 1] works.
    pub fn rotary_dim(self, dim: usize, partial: f64) -> Result<usize, RopeError> {
        if !partial.is_finite() || partial <= 0.0 || partial > 1.0 {
            return Err(parameter_error("partial", "must be in (0, 1]"));
        }
        if self == ScalingMethod::Proportional {
            return Ok(dim);
        }
        let rotary = (dim as f64 * partial).floor() as usize;
        if rotary == 0 || rotary % 2 != 0 {
            return Err(RopeError::RotaryDimension { dim, partial });
        }
        Ok(rotary)
    }
}

/// Every parameter any method reads, named as in the contract; each method reads its own.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalingParams {
    pub method: ScalingMethod,
    /// `factor`: finite, >= 1.
    pub factor: f64,
    /// `orig`: `original_max_position_embeddings` (and `max_position_embeddings` for `dynamic`).
    pub original_context: u64,
    /// `seq`: the current sequence length (`dynamic`, `longrope`).
    pub seq_len: u64,
    pub beta_fast: f64,
    pub beta_slow: f64,
    pub mscale: Option<f64>,
    pub mscale_all_dim: Option<f64>,
    pub low_freq_factor: f64,
    pub high_freq_factor: f64,
    /// LongRoPE per-plane factors; `None` means all 1.
    pub short_factor: Option<Vec<f64>>,
    pub long_factor: Option<Vec<f64>>,
    /// `partial`: fraction of the head's dimensions that rotate, in (0, 1].
    pub partial: f64,
}

impl Default for ScalingParams {
    fn default() -> Self {
        Self {
            method: ScalingMethod::None,
            factor: 1.0,
            original_context: DEFAULT_ORIGINAL_CONTEXT,
            seq_len: DEFAULT_ORIGINAL_CONTEXT,
            beta_fast: DEFAULT_BETA_FAST,
            beta_slow: DEFAULT_BETA_SLOW,
            mscale: None,
            mscale_all_dim: None,
            low_freq_factor: DEFAULT_LOW_FREQ_FACTOR,
            high_freq_factor: DEFAULT_HIGH_FREQ_FACTOR,
            short_factor: None,
            long_factor: None,
            partial: 1.0,
        }
    }
}

/// The frequencies in effect: what the rotation and every chart use.
#[derive(Debug, Clone, PartialEq)]
pub struct Frequencies {
    /// One inverse frequency (radians per token) per plane, d/2 entries; 0 where a plane does not rotate.
    pub inv_freq: Vec<f64>,
    /// The attention (mscale) factor; 1 for methods without one.
    pub attention_factor: f64,
    /// How many leading dimensions take part in the rotation pairing (see [`crate::rope::Rotary`]).
    pub rotary_dim: usize,
}

impl Frequencies {
    /// Plain RoPE, theta_i = base^(-2i/d) (RoFormer eq. 15), no scaling.
    pub fn plain(params: RopeParams) -> Self {
        Self {
            inv_freq: default_inv_freq(params.base().ln(), params.dim(), params.planes()),
            attention_factor: 1.0,
            rotary_dim: params.dim(),
        }
    }
}

/// What every per-method function receives besides the [`ScalingParams`].
pub(crate) struct Ctx {
    pub base: f64,
    /// The head dimension d.
    pub dim: usize,
    /// How many leading dimensions pair up ([`ScalingMethod::rotary_dim`]).
    pub rotary_dim: usize,
}

impl Ctx {
    /// Planes among the rotating dimensions.
    pub fn planes(&self) -> usize {
        self.rotary_dim / 2
    }

    /// θᵢ over the rotating dimensions, before any scaling.
    pub fn default_inv_freq(&self) -> Vec<f64> {
        default_inv_freq(self.base.ln(), self.rotary_dim, self.planes())
    }
}

/// The signature every method shares: inverse frequencies of the rotating planes and the
/// attention factor.
type Method = fn(&Ctx, &ScalingParams) -> Result<(Vec<f64>, f64), RopeError>;

/// Computes the frequencies in effect for `params` under `scaling` (the `ROPE_INIT_FUNCTIONS` dispatch).
pub fn frequencies(params: RopeParams, scaling: &ScalingParams) -> Result<Frequencies, RopeError> {
    validate_common(scaling)?;
    let compute: Method = match scaling.method {
        ScalingMethod::None => methods::default,
        ScalingMethod::Linear => methods::linear,
        ScalingMethod::Ntk => methods::ntk,
        ScalingMethod::Dynamic => methods::dynamic,
        ScalingMethod::Yarn => methods::yarn,
        ScalingMethod::Llama3 => methods::llama3,
        ScalingMethod::LongRope => methods::longrope,
        ScalingMethod::Proportional => methods::proportional,
    };
    let rotary_dim = scaling.method.rotary_dim(params.dim(), scaling.partial)?;
    let ctx = Ctx { base: params.base(), dim: params.dim(), rotary_dim };
    let (mut inv_freq, attention_factor) = compute(&ctx, scaling)?;
    inv_freq.resize(params.planes(), 0.0);
    Ok(Frequencies { inv_freq, attention_factor, rotary_dim })
}

pub(crate) fn parameter_error(name: &'static str, reason: &'static str) -> RopeError {
    RopeError::ScalingParameter { name, reason }
}

fn validate_common(s: &ScalingParams) -> Result<(), RopeError> {
    if !s.factor.is_finite() || s.factor < 1.0 {
        return Err(parameter_error("factor", "must be a finite number >= 1"));
    }
    if s.original_context < 2 {
        return Err(parameter_error("orig", "must be an integer >= 2"));
    }
    if s.seq_len < 1 {
        return Err(parameter_error("seq", "must be an integer >= 1"));
    }
    Ok(())
}

/// What scaling did to one plane, comparing its frequency before (θᵢ) and after (θ'ᵢ).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaneChange {
    /// θ'ᵢ = θᵢ: the plane keeps its frequency (extrapolates).
    Kept,
    /// θ'ᵢ = θᵢ / factor: the plane is interpolated like PI.
    Interpolated,
    /// Anything else (a ramp, a blend, a new base, a per-plane factor).
    Blended,
    /// θ'ᵢ = 0: the plane does not rotate (beyond `partial`, or dropped by p-RoPE).
    Still,
}

/// One plane before and after scaling, over the original and the target context.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlaneStretch {
    pub change: PlaneChange,
    /// 2π/θᵢ before and 2π/θ'ᵢ after, in tokens (infinite for a plane that does not rotate).
    pub wavelength_before: f64,
    pub wavelength_after: f64,
    /// The largest angle the plane reached in training, (orig − 1)·θᵢ (positions 0 to orig − 1,
    /// as the frequencies chapter counts a turn within a context), and reaches within the target
    /// context with the frequencies in effect, (target − 1)·θ′ᵢ, in radians.
    pub trained_angle: f64,
    pub target_angle: f64,
}

impl PlaneStretch {
    /// Whether, within the target context, the plane reaches angles it never reached in
    /// training: it did not complete a turn in training and now goes beyond where it stopped.
    /// Interpolation's point is that no plane does.
    pub fn unseen(&self) -> bool {
        self.overshoot() > 1.0 + 1e-12
    }

    /// How far beyond training the plane turns within the target context: target angle over
    /// trained angle for a plane that never completed a turn in training, else 1 (every angle
    /// was seen).
    pub fn overshoot(&self) -> f64 {
        if self.trained_angle > 0.0 && self.trained_angle < 2.0 * std::f64::consts::PI {
            (self.target_angle / self.trained_angle).max(1.0)
        } else {
            1.0
        }
    }
}

/// Each plane of `scaled` against `unscaled` (plain θᵢ of the same head), for a model trained
/// on `orig` tokens and run on `target`.
pub fn stretch(unscaled: &[f64], scaled: &[f64], factor: f64, orig: f64, target: f64) -> Vec<PlaneStretch> {
    let same = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs());
    unscaled
        .iter()
        .zip(scaled)
        .map(|(&before, &after)| {
            let change = if after == 0.0 {
                PlaneChange::Still
            } else if same(after, before) {
                PlaneChange::Kept
            } else if same(after, before / factor) {
                PlaneChange::Interpolated
            } else {
                PlaneChange::Blended
            };
            let wavelength = |f: f64| if f > 0.0 { 2.0 * std::f64::consts::PI / f } else { f64::INFINITY };
            PlaneStretch {
                change,
                wavelength_before: wavelength(before),
                wavelength_after: wavelength(after),
                trained_angle: (orig - 1.0).max(0.0) * if after == 0.0 { 0.0 } else { before },
                target_angle: (target - 1.0).max(0.0) * after,
            }
        })
        .collect()
}
