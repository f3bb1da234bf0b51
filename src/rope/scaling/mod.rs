//! Inverse frequencies and attention factor for every context-extension method.
//!
//! Mirrors Hugging Face transformers 5.x `modeling_rope_utils.ROPE_INIT_FUNCTIONS`: one
//! function per method, all of the same signature, one dispatch ([`frequencies`]). The
//! formulas are transcribed from those functions (named on each) and computed in f64, where
//! transformers uses float32: values agree to about 1e-6 relative.
//!
//! Unlike transformers, the result always has d/2 entries, one per plane of the head; planes
//! that do not rotate (beyond `partial`, or dropped by `proportional`) have inverse frequency 0.

use super::error::RopeError;
use super::params::RopeParams;
use std::f64::consts::PI;

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
            ScalingMethod::Llama3 => "Llama 3",
            ScalingMethod::LongRope => "LongRoPE",
            ScalingMethod::Proportional => "proportional (p-RoPE)",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// The factor a method uses when the URL sets none (contract: 8 for llama3 and yarn).
    pub fn default_factor(self) -> f64 {
        match self {
            ScalingMethod::Llama3 | ScalingMethod::Yarn => 8.0,
            _ => 1.0,
        }
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
            original_context: 4096,
            seq_len: 4096,
            beta_fast: 32.0,
            beta_slow: 1.0,
            mscale: None,
            mscale_all_dim: None,
            low_freq_factor: 1.0,
            high_freq_factor: 4.0,
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

/// Computes the frequencies in effect for `params` under `scaling` (the `ROPE_INIT_FUNCTIONS` dispatch).
pub fn frequencies(params: RopeParams, scaling: &ScalingParams) -> Result<Frequencies, RopeError> {
    validate_common(scaling)?;
    let compute: fn(&Ctx, &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> = match scaling.method {
        ScalingMethod::None => compute_default,
        ScalingMethod::Linear => compute_linear,
        ScalingMethod::Ntk => compute_ntk,
        ScalingMethod::Dynamic => compute_dynamic,
        ScalingMethod::Yarn => compute_yarn,
        ScalingMethod::Llama3 => compute_llama3,
        ScalingMethod::LongRope => compute_longrope,
        ScalingMethod::Proportional => {
            return compute_proportional(params, scaling);
        }
    };
    let rotary_dim = rotary_dim(params.dim(), scaling.partial)?;
    let ctx = Ctx {
        base: params.base(),
        rotary_dim,
    };
    let (mut inv_freq, attention_factor) = compute(&ctx, scaling)?;
    inv_freq.resize(params.planes(), 0.0);
    Ok(Frequencies {
        inv_freq,
        attention_factor,
        rotary_dim,
    })
}

/// `int(dim * partial)` as transformers computes it; must be even and positive here, since an
/// odd rotary dimension has no valid pairing (transformers would fail at `rotate_half`).
pub fn rotary_dim(dim: usize, partial: f64) -> Result<usize, RopeError> {
    if !partial.is_finite() || partial <= 0.0 || partial > 1.0 {
        return Err(RopeError::ScalingParameter {
            name: "partial",
            reason: "must be in (0, 1]",
        });
    }
    let rotary = (dim as f64 * partial).floor() as usize;
    if rotary == 0 || rotary % 2 != 0 {
        return Err(RopeError::RotaryDimension { dim, partial });
    }
    Ok(rotary)
}

/// What the per-method functions share: the base and the number of rotating dimensions.
struct Ctx {
    base: f64,
    rotary_dim: usize,
}

impl Ctx {
    fn planes(&self) -> usize {
        self.rotary_dim / 2
    }

    fn default_inv_freq(&self) -> Vec<f64> {
        default_inv_freq(self.base.ln(), self.rotary_dim, self.planes())
    }
}

/// base^(-2i/dim) for i in 0..planes, computed from ln(base) so that a huge NTK-adjusted base
/// cannot overflow. Plane 0 is exactly 1 for every base.
fn default_inv_freq(ln_base: f64, dim: usize, planes: usize) -> Vec<f64> {
    (0..planes)
        .map(|i| {
            if i == 0 {
                1.0
            } else {
                (-(2.0 * i as f64 / dim as f64) * ln_base).exp()
            }
        })
        .collect()
}

fn parameter_error(name: &'static str, reason: &'static str) -> RopeError {
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

/// transformers `_compute_default_rope_parameters`.
fn compute_default(ctx: &Ctx, _: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
    Ok((ctx.default_inv_freq(), 1.0))
}

/// transformers `_compute_linear_scaling_rope_parameters` (position interpolation, Chen et al. 2023):
/// dividing every frequency by `factor` is the same as dividing positions by it.
fn compute_linear(ctx: &Ctx, s: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
    let inv_freq = ctx.default_inv_freq().into_iter().map(|f| f / s.factor).collect();
    Ok((inv_freq, 1.0))
}

/// Fixed NTK-aware scaling (bloc97, 2023): base' = base * factor^(d/(d-2)). With one plane the
/// only frequency is base'^0 = 1 whatever the base, so the exponent's pole at d = 2 never matters.
fn compute_ntk(ctx: &Ctx, s: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
    Ok((ntk_inv_freq(ctx, s.factor), 1.0))
}

fn ntk_inv_freq(ctx: &Ctx, scale: f64) -> Vec<f64> {
    let d = ctx.rotary_dim as f64;
    let ln_base = if ctx.rotary_dim > 2 {
        ctx.base.ln() + d / (d - 2.0) * scale.ln()
    } else {
        ctx.base.ln()
    };
    default_inv_freq(ln_base, ctx.rotary_dim, ctx.planes())
}

/// transformers `_compute_dynamic_ntk_parameters`: the NTK base change with the scale
/// `factor * seq / orig - (factor - 1)`, where seq is at least `orig` (so short inputs are unscaled).
fn compute_dynamic(ctx: &Ctx, s: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
    let orig = s.original_context as f64;
    let seq = (s.seq_len as f64).max(orig);
    // transformers writes factor·seq/orig − (factor − 1); the same number written as below
    // cannot cancel to 0 for huge factors, and is at least 1 since seq >= orig.
    let scale = 1.0 + s.factor * (seq / orig - 1.0);
    Ok((ntk_inv_freq(ctx, scale), 1.0))
}

/// YaRN's attention temperature, transformers `get_mscale` inside `_compute_yarn_parameters`.
fn yarn_mscale(scale: f64, mscale: f64) -> f64 {
    if scale <= 1.0 {
        1.0
    } else {
        0.1 * mscale * scale.ln() + 1.0
    }
}

/// transformers `_compute_yarn_parameters` (Peng et al. 2023, "YaRN"), with `truncate` = true:
/// planes that turn more than `beta_fast` times within `orig` keep their frequency, planes that
/// turn fewer than `beta_slow` times are interpolated by `factor`, a linear ramp in between.
fn compute_yarn(ctx: &Ctx, s: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
    for (name, value) in [("beta_fast", s.beta_fast), ("beta_slow", s.beta_slow)] {
        if !value.is_finite() || value <= 0.0 {
            return Err(parameter_error(name, "must be a finite number > 0"));
        }
    }
    for (name, value) in [("mscale", s.mscale), ("mscale_all_dim", s.mscale_all_dim)] {
        if value.is_some_and(|v| !v.is_finite() || v < 0.0) {
            return Err(parameter_error(name, "must be a finite number >= 0"));
        }
    }
    // `if mscale and mscale_all_dim`: both set and non-zero.
    let attention_factor = match (s.mscale, s.mscale_all_dim) {
        (Some(a), Some(b)) if a != 0.0 && b != 0.0 => yarn_mscale(s.factor, a) / yarn_mscale(s.factor, b),
        _ => yarn_mscale(s.factor, 1.0),
    };

    let dim = ctx.rotary_dim as f64;
    let ln_base = ctx.base.ln();
    let orig = s.original_context as f64;
    // dim·ln(orig / (2π·rotations)) / (2 ln base), taken apart in logarithms: a tiny positive
    // beta would otherwise overflow the quotient to infinity and the ramp to NaN.
    let correction_dim = |rotations: f64| dim * (orig.ln() - rotations.ln() - (2.0 * PI).ln()) / (2.0 * ln_base);
    let low = correction_dim(s.beta_fast).floor().max(0.0);
    let mut high = correction_dim(s.beta_slow).ceil().min(dim - 1.0);
    if low == high {
        high += 0.001; // transformers: "Prevent singularity"
    }

    let inv_freq = ctx
        .default_inv_freq()
        .into_iter()
        .enumerate()
        .map(|(i, extrapolation)| {
            let ramp = ((i as f64 - low) / (high - low)).clamp(0.0, 1.0);
            let extrapolation_weight = 1.0 - ramp;
            let interpolation = extrapolation / s.factor;
            interpolation * (1.0 - extrapolation_weight) + extrapolation * extrapolation_weight
        })
        .collect();
    Ok((inv_freq, attention_factor))
}

/// transformers `_compute_llama3_parameters` (Meta's Llama 3.1 `apply_scaling`): wavelengths
/// shorter than orig/high_freq keep their frequency, longer than orig/low_freq are divided by
/// `factor`, and the band in between is blended smoothly.
fn compute_llama3(ctx: &Ctx, s: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
    let (low, high) = (s.low_freq_factor, s.high_freq_factor);
    if !low.is_finite() || !high.is_finite() || low <= 0.0 || high <= 0.0 {
        return Err(parameter_error("low_freq/high_freq", "must be finite numbers > 0"));
    }
    if low >= high {
        return Err(parameter_error("low_freq/high_freq", "low_freq must be less than high_freq"));
    }
    let old_context = s.original_context as f64;
    let low_freq_wavelen = old_context / low;
    let high_freq_wavelen = old_context / high;
    let inv_freq = ctx
        .default_inv_freq()
        .into_iter()
        .map(|f| {
            let wavelen = 2.0 * PI / f;
            if wavelen < high_freq_wavelen {
                f
            } else if wavelen > low_freq_wavelen {
                f / s.factor
            } else {
                let smooth = (old_context / wavelen - low) / (high - low);
                (1.0 - smooth) * f / s.factor + smooth * f
            }
        })
        .collect();
    Ok((inv_freq, 1.0))
}

/// The smallest LongRoPE per-plane factor accepted (frequencies are divided by it).
pub const MIN_PLANE_FACTOR: f64 = 1e-12;

/// transformers `_compute_longrope_parameters` (Ding et al. 2024, "LongRoPE", as in Phi-3):
/// per-plane factors, `long_factor` once seq exceeds orig, else `short_factor`.
fn compute_longrope(ctx: &Ctx, s: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
    let planes = ctx.planes();
    let check = |name: &'static str, list: &Option<Vec<f64>>| -> Result<(), RopeError> {
        if let Some(list) = list {
            if list.len() != planes {
                return Err(RopeError::FactorListLength {
                    name,
                    expected: planes,
                    found: list.len(),
                });
            }
            // Each frequency is divided by its entry: below 1e-12 it would overflow.
            if list.iter().any(|v| !v.is_finite() || *v < MIN_PLANE_FACTOR) {
                return Err(parameter_error(name, "every entry must be a finite number >= 1e-12"));
            }
        }
        Ok(())
    };
    check("short_factor", &s.short_factor)?;
    check("long_factor", &s.long_factor)?;

    let orig = s.original_context as f64;
    let attention_factor = if s.factor <= 1.0 {
        1.0
    } else {
        (1.0 + s.factor.ln() / orig.ln()).sqrt()
    };
    let ext_factors = if s.seq_len > s.original_context {
        &s.long_factor
    } else {
        &s.short_factor
    };
    let inv_freq = ctx
        .default_inv_freq()
        .into_iter()
        .enumerate()
        .map(|(i, f)| f / ext_factors.as_ref().map_or(1.0, |list| list[i]))
        .collect();
    Ok((inv_freq, attention_factor))
}

/// transformers `_compute_proportional_rope_parameters` (p-RoPE, Barbero et al. 2024, as in
/// Gemma): the first `int(partial * d // 2)` planes keep their exponent 2i/d over the whole head,
/// the lowest frequencies are dropped (0), and all are divided by `factor`. The pairing spans
/// the whole head.
fn compute_proportional(params: RopeParams, s: &ScalingParams) -> Result<Frequencies, RopeError> {
    if !s.partial.is_finite() || s.partial <= 0.0 || s.partial > 1.0 {
        return Err(parameter_error("partial", "must be in (0, 1]"));
    }
    let dim = params.dim();
    let rotating = ((s.partial * dim as f64) / 2.0).floor() as usize;
    let mut inv_freq = default_inv_freq(params.base().ln(), dim, rotating.min(params.planes()));
    inv_freq.resize(params.planes(), 0.0);
    for f in &mut inv_freq {
        *f /= s.factor;
    }
    Ok(Frequencies {
        inv_freq,
        attention_factor: 1.0,
        rotary_dim: dim,
    })
}
