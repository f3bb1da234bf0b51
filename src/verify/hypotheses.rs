//! Every way of getting RoPE wrong the diagnosis tries: one [`Hypothesis`] each, made from the
//! test input and, for the continuous ones (k, b, s), from what [`super::fit`] reads off the
//! paste; under the other layout, each with the layout's mistake too.

use super::fit::*;
use super::rotation::{AngleFormat, Rotation};
use super::words::*;
use super::TestInput;
use crate::rope::{frequencies, Format, Layout, RopeParams, ScalingMethod, ScalingParams, MAX_POSITION};
use crate::state::fmt_number;

/// How much a hypothesis is preferred when several explain the paste (lower first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Rank {
    Named,
    Fitted,
}

/// One way the paste may have been made.
#[derive(Clone)]
pub(super) struct Hypothesis {
    pub(super) verdict: String,
    /// What it is, for people (a sentence part).
    pub(super) text: String,
    pub(super) rotation: Rotation,
    pub(super) settings: Vec<(&'static str, String)>,
    pub(super) rank: Rank,
    /// Fitted values: how many significant digits (fewer preferred among equals).
    pub(super) digits: u32,
}

/// The frequencies for `scaling` at `base`, or `None` where the core refuses them.
pub(super) fn rotation_for(input: &TestInput, layout: Layout, base: f64, scaling: &ScalingParams) -> Option<Rotation> {
    let params = RopeParams::new(base, input.dim).ok()?;
    let f = frequencies(params, scaling).ok()?;
    Some(Rotation::new(layout, f.inv_freq, f.rotary_dim, f.attention_factor))
}

/// A hypothesis under `layout`: the prefix "layout+" and its words when it is the other one.
pub(super) fn named(input: &TestInput, layout: Layout, h: Hypothesis) -> Hypothesis {
    if layout == input.layout {
        return h;
    }
    let mut settings = h.settings;
    settings.insert(0, ("layout", layout.as_str().to_string()));
    Hypothesis {
        verdict: format!("layout+{}", h.verdict),
        text: format!("{}; and {}", layout_text(input.layout), lower_first(&h.text)),
        settings,
        ..h
    }
}

/// Every hypothesis to try under `layout` (the page's own layout: the single mistakes; the other:
/// the layout and one more, or the layout alone).
/// Also returns the paste's noise under this layout's pairing.
pub(super) fn hypotheses(input: &TestInput, own: &Rotation, pasted: &[Vec<f64>], layout: Layout) -> (Vec<Hypothesis>, f64) {
    let mut out = Vec::new();
    let base_rotation = Rotation { layout, ..own.clone() };
    let other = layout != input.layout;
    if other {
        out.push(Hypothesis {
            verdict: "layout".into(),
            text: layout_text(input.layout),
            rotation: base_rotation.clone(),
            settings: vec![("layout", layout.as_str().to_string())],
            rank: Rank::Named,
            digits: 0,
        });
    }
    let push = |out: &mut Vec<Hypothesis>, verdict: String, text: String, rotation: Rotation, settings, rank, digits| {
        out.push(named(input, layout, Hypothesis { verdict, text, rotation, settings, rank, digits }));
    };

    // Sin's sign, cos and sin swapped.
    push(
        &mut out,
        "direction".into(),
        "Your rotation turns the wrong way: sin has the wrong sign (the page turns each pair (x₁, x₂) to (x₁ cos − x₂ sin, \
         x₁ sin + x₂ cos); check the sign in rotate_half, which returns (−x₂, x₁), or a conjugated freqs_cis)"
            .into(),
        Rotation { sign: -1.0, ..base_rotation.clone() },
        Vec::new(),
        Rank::Named,
        0,
    );
    push(
        &mut out,
        "cos-sin".into(),
        "Your implementation swaps cos and sin (x·sin + rotate_half(x)·cos where x·cos + rotate_half(x)·sin belongs)".into(),
        Rotation { swap: true, ..base_rotation.clone() },
        Vec::new(),
        Rank::Named,
        0,
    );

    // The exponent's 2 forgotten: θᵢ = b^(−i/r) over the rotating dimensions.
    let r = own.rotary_dim as f64;
    let exponent: Vec<f64> =
        own.inv_freq.iter().enumerate().map(|(i, t)| if *t == 0.0 { 0.0 } else { input.base.powf(-(i as f64) / r) }).collect();
    let plain = ScalingParams { method: ScalingMethod::None, partial: input.scaling.partial, ..ScalingParams::default() };
    if input.scaling.method == ScalingMethod::None || input.scaling.method == ScalingMethod::Proportional {
        push(
            &mut out,
            "exponent".into(),
            format!(
                "θᵢ = b^(−i/d) instead of b^(−2i/d): the exponent's 2 is forgotten (e.g. base ** (arange(0, d/2) / d) where \
                 arange(0, d, 2) / d belongs), the same θᵢ as a base of √b = {}",
                fmt_number(input.base.sqrt())
            ),
            Rotation { inv_freq: exponent, ..base_rotation.clone() },
            Vec::new(),
            Rank::Named,
            0,
        );
    }

    // Angles in bf16 or fp16 (transformers PR #29285).
    for (format, name) in [(Format::Bf16, "bf16"), (Format::Fp16, "fp16")] {
        push(
            &mut out,
            format!("precision:{name}"),
            format!(
                "Your angles are computed in {name}: positions and θᵢ stored in {name} before their product (as transformers did \
                 under autocast before PR #29285), so the error grows with the position; compute position × θᵢ, cos and sin in float32"
            ),
            Rotation { angles: AngleFormat::In(format), ..base_rotation.clone() },
            Vec::new(),
            Rank::Named,
            0,
        );
    }

    // A scaling the state has and the paste leaves out.
    if input.scaling.method != ScalingMethod::None {
        let unscaled = if input.scaling.method == ScalingMethod::Proportional {
            ScalingParams { partial: 1.0, ..plain.clone() }
        } else {
            plain.clone()
        };
        if let Some(rotation) = rotation_for(input, layout, input.base, &unscaled) {
            let verdict = match input.scaling.method {
                ScalingMethod::Ntk | ScalingMethod::Dynamic => "ntk:1",
                _ => "linear:1",
            };
            push(
                &mut out,
                verdict.into(),
                format!(
                    "Your implementation applies no context extension: your output is plain RoPE, where the page uses {} with factor {}",
                    input.scaling.method.label(),
                    fmt_number(input.scaling.factor)
                ),
                rotation,
                vec![("scaling", "none".to_string())],
                Rank::Named,
                0,
            );
        }
    }

    // Fitted: the paste's own angles under this pairing.
    let noise = noise(input, &base_rotation, pasted);
    let angles = measured_angles(input, &base_rotation, pasted);

    // Positions shifted by k.
    let mut shifts: Vec<i64> = (-4..=4).filter(|k| *k != 0).collect();
    if let Some(k) = fit_shift(input, &angles, &base_rotation, noise) {
        let k = k.round();
        if k.abs() <= MAX_POSITION as f64 && k != 0.0 && !shifts.contains(&(k as i64)) {
            shifts.push(k as i64);
        }
    }
    for k in shifts {
        let text = match k {
            1 => "Your positions start at 1, not 0 (shifted by 1: a KV cache's offset or a position_ids off by one)".to_string(),
            -1 => "Your positions are 1 less than the page's (shifted by −1: position 1 rotated as 0)".to_string(),
            _ => format!(
                "Your positions are shifted by {}{}: the row at position m is rotated as if at m {} {}",
                if k > 0 { "" } else { "−" },
                k.abs(),
                if k > 0 { "+" } else { "−" },
                k.abs()
            ),
        };
        push(&mut out, format!("offset:{k}"), text, Rotation { shift: k, ..base_rotation.clone() }, Vec::new(), Rank::Fitted, 0);
    }

    let thetas = fitted_thetas(input, &angles, noise);
    let plain_rotation = rotation_for(input, layout, input.base, &plain);

    // Another base, the state's scaling kept.
    if let Some(fit) = fit_log_base_ratio(&thetas, &own.inv_freq, own.rotary_dim) {
        let ln_ratio = refine(input, pasted, fit, |ln| rotation_for(input, layout, input.base * ln.exp(), &input.scaling));
        let fitted = input.base * ln_ratio.exp();
        for (b, digits) in roundings(fitted) {
            if b == input.base {
                continue;
            }
            if let Some(rotation) = rotation_for(input, layout, b, &input.scaling) {
                push(
                    &mut out,
                    format!("base:{}", fmt_number(b)),
                    format!("Your base (rope_theta) is {}, the page's {}", group(b), group(input.base)),
                    rotation,
                    vec![("base", fmt_number(b))],
                    Rank::Fitted,
                    digits,
                );
            }
        }
    }

    if let Some(plain_rotation) = &plain_rotation {
        // NTK-aware: base × s^(r/(r−2)) on plain RoPE.
        if own.rotary_dim > 2 {
            if let Some((ln_ratio, spread)) = fit_log_base_ratio(&thetas, &plain_rotation.inv_freq, own.rotary_dim) {
                let ntk = |ln_s: f64| {
                    let scaling = ScalingParams { method: ScalingMethod::Ntk, factor: ln_s.exp(), ..plain.clone() };
                    rotation_for(input, layout, input.base, &scaling)
                };
                let s = refine(input, pasted, (ln_ratio * (r - 2.0) / r, spread * (r - 2.0) / r), ntk).exp();
                // Only a factor one would choose (two significant digits): otherwise it is a base.
                for (s, digits) in roundings(s).into_iter().filter(|(_, digits)| *digits <= 2) {
                    if s <= 1.0 || (input.scaling.method == ScalingMethod::Ntk && s == input.scaling.factor) {
                        continue;
                    }
                    let scaling = ScalingParams { method: ScalingMethod::Ntk, factor: s, ..plain.clone() };
                    if let Some(rotation) = rotation_for(input, layout, input.base, &scaling) {
                        push(
                            &mut out,
                            format!("ntk:{}", fmt_number(s)),
                            format!(
                                "Your implementation applies the NTK-aware base change with factor {}: base {} × {}^(d/(d−2)) = {}",
                                fmt_number(s),
                                group(input.base),
                                fmt_number(s),
                                group(input.base * s.powf(r / (r - 2.0)))
                            ),
                            rotation,
                            vec![("scaling", "ntk".into()), ("factor", fmt_number(s))],
                            Rank::Fitted,
                            digits,
                        );
                    }
                }
            }
        }
        // Linear (position interpolation): positions divided by s.
        if let Some(fit) = fit_log_division(&thetas, &plain_rotation.inv_freq) {
            let linear = |ln_s: f64| {
                let scaling = ScalingParams { method: ScalingMethod::Linear, factor: ln_s.exp(), ..plain.clone() };
                rotation_for(input, layout, input.base, &scaling)
            };
            let ln_s = refine(input, pasted, fit, linear);
            for (s, digits) in roundings(ln_s.exp()) {
                if s <= 1.0 || (input.scaling.method == ScalingMethod::Linear && s == input.scaling.factor) {
                    continue;
                }
                let scaling = ScalingParams { method: ScalingMethod::Linear, factor: s, ..plain.clone() };
                if let Some(rotation) = rotation_for(input, layout, input.base, &scaling) {
                    push(
                        &mut out,
                        format!("linear:{}", fmt_number(s)),
                        format!(
                            "Your implementation divides positions by {} (linear scaling, position interpolation, factor {})",
                            fmt_number(s),
                            fmt_number(s)
                        ),
                        rotation,
                        vec![("scaling", "linear".into()), ("factor", fmt_number(s))],
                        Rank::Fitted,
                        digits,
                    );
                }
            }
        }
    }

    // Partial rotary: only the first r dimensions turn, θᵢ = b^(−2i/r).
    let method = if input.scaling.method == ScalingMethod::Proportional { ScalingMethod::None } else { input.scaling.method };
    for rotary in (2..=input.dim).step_by(2) {
        if rotary == own.rotary_dim && method == input.scaling.method {
            continue;
        }
        let partial = rotary as f64 / input.dim as f64;
        let scaling = ScalingParams { method, partial, ..input.scaling.clone() };
        if scaling.method.rotary_dim(input.dim, partial).ok() != Some(rotary) {
            continue;
        }
        if let Some(rotation) = rotation_for(input, layout, input.base, &scaling) {
            let text = if rotary == input.dim {
                "Your implementation rotates every dimension: the page rotates only the first r = ".to_string()
                    + &format!("{} of {} (partial_rotary_factor {})", own.rotary_dim, input.dim, fmt_number(input.scaling.partial))
            } else {
                format!(
                    "Only the first r = {rotary} of your {} dimensions rotate (partial_rotary_factor {}), θᵢ = b^(−2i/{rotary}), the rest \
                     pass through",
                    input.dim,
                    fmt_number(partial)
                )
            };
            push(
                &mut out,
                format!("partial:{}", fmt_number(partial)),
                text,
                rotation,
                vec![("partial", fmt_number(partial))],
                Rank::Fitted,
                0,
            );
        }
    }
    (out, noise)
}
