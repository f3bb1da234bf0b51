//! One function per context-extension method, all of the signature the dispatch in
//! [`super::frequencies`] expects, each named after the transformers function it transcribes.

use super::{parameter_error, Ctx, ScalingParams, MIN_PLANE_FACTOR};
use crate::rope::error::RopeError;
use crate::rope::frequency::default_inv_freq;
use std::f64::consts::PI;

/// transformers `_compute_default_rope_parameters`.
pub(super) fn default(ctx: &Ctx, _: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
    Ok((ctx.default_inv_freq(), 1.0))
}

/// transformers `_compute_linear_scaling_rope_parameters` (position interpolation, Chen et al. 2023):
/// dividing every frequency by `factor` is the same as dividing positions by it.
pub(super) fn linear(ctx: &Ctx, s: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
    let inv_freq = ctx.default_inv_freq().into_iter().map(|f| f / s.factor).collect();
    Ok((inv_freq, 1.0))
}

/// Fixed NTK-aware scaling (bloc97, 2023): base' = base * factor^(d/(d-2)), so plane i's
/// frequency is multiplied by factor^(-2i/(d-2)): plane 0 keeps it exactly, the slowest is
/// divided by the whole factor, and the planes near the fast end barely change. With one plane the
/// only frequency is base'^0 = 1 whatever the base, so the exponent's pole at d = 2 never matters.
pub(super) fn ntk(ctx: &Ctx, s: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
    Ok((ntk_inv_freq(ctx, s.factor), 1.0))
}

fn ntk_inv_freq(ctx: &Ctx, scale: f64) -> Vec<f64> {
    let d = ctx.rotary_dim as f64;
    let ln_base = if ctx.rotary_dim > 2 { ctx.base.ln() + d / (d - 2.0) * scale.ln() } else { ctx.base.ln() };
    default_inv_freq(ln_base, ctx.rotary_dim, ctx.planes())
}

/// transformers `_compute_dynamic_ntk_parameters`: the NTK base change with the scale
/// `factor * seq / orig - (factor - 1)`, where seq is at least `orig` (so short inputs are unscaled).
pub(super) fn dynamic(ctx: &Ctx, s: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
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
/// turn fewer than `beta_slow` times are interpolated by `factor`, a linear ramp in between
/// (while `low` <= `high`; when they cross, for `beta_fast` < `beta_slow` or an `orig` so long that
/// `low` passes `dim - 1`, the ramp runs backwards, as in transformers, and can interpolate plane 0).
pub(super) fn yarn(ctx: &Ctx, s: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
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
pub(super) fn llama3(ctx: &Ctx, s: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
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

/// transformers `_compute_longrope_parameters` (Ding et al. 2024, "LongRoPE", as in Phi-3):
/// per-plane factors, `long_factor` once seq exceeds orig, else `short_factor`.
pub(super) fn longrope(ctx: &Ctx, s: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
    let planes = ctx.planes();
    let check = |name: &'static str, list: &Option<Vec<f64>>| -> Result<(), RopeError> {
        if let Some(list) = list {
            if list.len() != planes {
                return Err(RopeError::FactorListLength { name, expected: planes, found: list.len() });
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
    let attention_factor = if s.factor <= 1.0 { 1.0 } else { (1.0 + s.factor.ln() / orig.ln()).sqrt() };
    let ext_factors = if s.seq_len > s.original_context { &s.long_factor } else { &s.short_factor };
    let inv_freq =
        ctx.default_inv_freq().into_iter().enumerate().map(|(i, f)| f / ext_factors.as_ref().map_or(1.0, |list| list[i])).collect();
    Ok((inv_freq, attention_factor))
}

/// transformers `_compute_proportional_rope_parameters` (the `proportional` rope_type, as in
/// Gemma 4): p-RoPE (Barbero et al. 2024) keeps the first `int(partial * d // 2)` planes at their
/// exponent 2i/d over the whole head and drops the lowest frequencies (0); the division of all by
/// `factor` is transformers', not Barbero et al.'s (their p-RoPE has no factor). The pairing spans
/// the whole head ([`ScalingMethod::rotary_dim`](super::ScalingMethod::rotary_dim)).
pub(super) fn proportional(ctx: &Ctx, s: &ScalingParams) -> Result<(Vec<f64>, f64), RopeError> {
    let rotating = ((s.partial * ctx.dim as f64) / 2.0).floor() as usize;
    let inv_freq = default_inv_freq(ctx.base.ln(), ctx.dim, rotating.min(ctx.dim / 2)).into_iter().map(|f| f / s.factor).collect();
    Ok((inv_freq, 1.0))
}
