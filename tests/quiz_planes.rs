//! The questions of frequencies, the heatmap and decay (`src/quiz/planes.rs`), and the slowest
//! wavelength's hint, checked against independent computations over random reachable states:
//! states are read from random URLs as the page reads them, and every expectation is computed
//! here from θᵢ = b^(−2i/d), plain rotations and plain sums, not by the code that asks.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rope_lab::charts::FrequencyChart;
use rope_lab::quiz::planes::{diagonal, planes_turning, score_decays, slowest_hint, slowest_vs_context, turning_counts};
use rope_lab::quiz::Question;
use rope_lab::rope::{HeatmapMode, Layout, ModeInputs, ScalingMethod};
use rope_lab::state::{Derived, LabState};
use std::f64::consts::TAU;

/// A state read from `query` as the page reads it, and what the page computes from it (None
/// when these settings cannot be computed: the page shows an error and asks nothing).
fn read(query: &str) -> Option<(LabState, Derived)> {
    let state = LabState::from_query(query).state;
    let derived = Derived::compute(&state).ok()?;
    Some((state, derived))
}

/// A random URL over the parameters these chapters read: base, d, the context, every scaling
/// method with its factor, partial rotary, seq, layout, seed or typed vectors, r, m, n, the
/// heatmap's mode.
fn query() -> impl Strategy<Value = String> {
    let method = prop::sample::select(ScalingMethod::ALL.to_vec());
    // d from 2 to 512 (wider heads are reachable too, but slow to rotate by hand here); bases
    // from 1.0001 (log₁₀ ≈ 0.0000434) to 10⁹.
    let dims = prop_oneof![Just(2usize), Just(4), Just(6), 1usize..=64, 65usize..=256].prop_map(|d| if d > 6 { 2 * d } else { d });
    let log_bases = prop_oneof![Just(1.0001f64.log10()), 1.0001f64.log10()..=1.0, 0.0001f64..=9.0];
    let head = (log_bases, dims, 1u32..=24, method, 1.0f64..=64.0, prop::option::of(0.01f64..=1.0));
    let rest = (
        prop::option::of(1u64..=4_000_000),
        prop_oneof![Just("interleaved"), Just("half")],
        0u64..1000,
        prop_oneof![Just(0i64), 1i64..=300, 0i64..=10_000_000],
        (0i64..=10_000_000, 0i64..=10_000_000),
        prop::sample::select(HeatmapMode::ALL.to_vec()),
        prop::option::of(0usize..3),
    );
    (head, rest).prop_map(|((log_base, dim, log2_orig, method, factor, partial), (seq, layout, seed, r, (m, n), mode, typed))| {
        let base = 10f64.powf(log_base).min(1e9);
        let orig = 2f64.powf(log2_orig as f64 + (log_base * 7.3).fract()).round() as u64;
        let mut q = format!(
            "base={base}&dim={dim}&orig={orig}&scaling={}&factor={factor}&layout={layout}&seed={seed}&r={r}&m={m}&n={n}&heatmap={}",
            method.as_str(),
            mode.as_str()
        );
        if let Some(p) = partial {
            q += &format!("&partial={p}");
        }
        if let Some(s) = seq {
            q += &format!("&seq={s}");
        }
        // Typed vectors: zeros, or one-hot on the last dimension (a plane that may not rotate).
        match typed {
            Some(0) => q += &format!("&q={0}&k={0}", vec!["0"; dim].join(",")),
            Some(1) => {
                let mut v = vec!["0"; dim];
                v[dim - 1] = "1";
                q += &format!("&q={0}&k={0}", v.join(","));
            }
            _ => {}
        }
        q
    })
}

fn choices_hold(question: &Question) -> Result<(), TestCaseError> {
    prop_assert!(question.choices.len() >= 2, "one choice: {question:?}");
    prop_assert!(question.choices.iter().any(|(v, _)| *v == question.right), "answer not offered: {question:?}");
    let mut values: Vec<&String> = question.choices.iter().map(|(v, _)| v).collect();
    values.dedup();
    prop_assert_eq!(values.len(), question.choices.len());
    Ok(())
}

/// Plane `plane`'s two dimensions in `layout` for a plane that rotates, `rotary` the rotating
/// dimensions (written out here, not taken from the page's `Rotary`).
fn dims(layout: Layout, rotary: usize, plane: usize) -> (usize, usize) {
    match layout {
        Layout::Interleaved => (2 * plane, 2 * plane + 1),
        Layout::Half => (plane, plane + rotary / 2),
    }
}

/// q rotated to m dotted with k rotated to n, plane by plane with cos and sin.
fn rotated_score(state: &LabState, d: &Derived, q: &[f64], k: &[f64], m: f64, n: f64) -> f64 {
    let mut q = q.to_vec();
    let mut k = k.to_vec();
    for (plane, theta) in d.frequencies.inv_freq.iter().enumerate() {
        if *theta == 0.0 {
            continue;
        }
        let (x, y) = dims(state.layout, d.frequencies.rotary_dim, plane);
        for (v, p) in [(&mut q, m), (&mut k, n)] {
            let (s, c) = (p * theta).sin_cos();
            let (a, b) = (v[x], v[y]);
            v[x] = a * c - b * s;
            v[y] = a * s + b * c;
        }
    }
    q.iter().zip(&k).map(|(a, b)| a * b).sum()
}

/// RoFormer's relative bound, (1/(d/2))·Σⱼ |Σ_{l<j} e^(i·r·θₗ)|, with cos and sin.
fn relative_bound(inv_freq: &[f64], r: f64) -> f64 {
    let mut total = 0.0;
    for j in 1..=inv_freq.len() {
        let (re, im) = inv_freq[..j].iter().fold((0.0, 0.0), |(re, im), t| (re + (r * t).cos(), im + (r * t).sin()));
        total += f64::hypot(re, im);
    }
    total / inv_freq.len() as f64
}

/// θᵢ of the same head with plain RoPE, from b, d and partial alone: the rotating planes keep
/// b^(−2i/r) over r = ⌊d·partial⌋ rotating dimensions (partial rotary); under p-RoPE every plane
/// turns, b^(−2i/d). Zeros for the rest.
fn trained_theta(state: &LabState) -> Vec<f64> {
    let (b, d) = (state.base, state.dim);
    let (rotating, exponent_over) = if state.scaling == ScalingMethod::Proportional {
        (d / 2, d)
    } else {
        let r = (d as f64 * state.partial).floor() as usize;
        (r / 2, r)
    };
    (0..d / 2).map(|i| if i < rotating { b.powf(-(2.0 * i as f64) / exponent_over as f64) } else { 0.0 }).collect()
}

/// Under p-RoPE, θᵢ of the planes it keeps before its factor: b^(−2i/d) for the first
/// ⌊partial·d/2⌋ planes, zeros for the rest.
fn kept_theta(state: &LabState) -> Vec<f64> {
    let (b, d) = (state.base, state.dim);
    let kept = (state.partial * d as f64 / 2.0).floor() as usize;
    (0..d / 2).map(|i| if i < kept { b.powf(-(2.0 * i as f64) / d as f64) } else { 0.0 }).collect()
}

fn slowest(theta: &[f64]) -> Option<f64> {
    theta.iter().filter(|t| **t > 0.0).map(|t| TAU / t).reduce(f64::max)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A plane completes a turn within L tokens when positions 0 to L − 1 reach 2π: (L − 1)·θᵢ ≥ 2π.
    #[test]
    fn planes_turning_counts_the_angle_reached_at_the_last_position(query in query()) {
        let Some((state, d)) = read(&query) else { return Ok(()) };
        let theta = &d.frequencies.inv_freq;
        let last = (state.orig - 1) as f64;
        // Skip a plane within rounding of the boundary, where two sound computations may differ.
        prop_assume!(theta.iter().all(|t| *t == 0.0 || (last * t - TAU).abs() > 1e-9 * TAU));
        let expected = theta.iter().filter(|t| **t > 0.0 && last * **t >= TAU).count();
        let question = planes_turning(theta, state.orig);
        prop_assert_eq!(&question.right, &expected.to_string());
        choices_hold(&question)?;
        prop_assert!(question.ask.starts_with("How many of this head"));
        prop_assert!(question.ask.contains(&format!("{} planes", theta.len())), "{}", question.ask);
        // The readout shows the same count, and so does the chart's dots and rings.
        prop_assert_eq!(turning_counts(theta, state.orig), (expected, theta.len() - expected));
        let chart = FrequencyChart { inv_freq: theta.clone(), context: state.orig as f64, selected: None };
        prop_assert_eq!(chart.turning_within_context(), (expected, theta.len() - expected));
    }

    #[test]
    fn slowest_vs_context_compares_the_slowest_rotating_plane(query in query()) {
        let Some((state, d)) = read(&query) else { return Ok(()) };
        let theta = &d.frequencies.inv_freq;
        let question = slowest_vs_context(theta, state.orig, state.base, state.dim, state.scaling);
        choices_hold(&question)?;
        let context = state.orig as f64;
        match slowest(theta) {
            None => prop_assert_eq!(&question.right, "yes"),
            Some(w) => {
                prop_assume!((w - context).abs() > 1e-9 * context && (w - (context - 1.0)).abs() > 1e-9 * context);
                prop_assert_eq!(&question.right, if w > context { "yes" } else { "no" });
                // The why says whether that plane completes a turn: (L − 1)·θ ≥ 2π.
                if w <= context - 1.0 {
                    prop_assert!(question.why.contains("completes a turn") && !question.why.contains("never"), "{}", question.why);
                } else {
                    prop_assert!(question.why.contains("never completes a turn"), "{}", question.why);
                }
            }
        }
        // Context extension is named only when one is chosen.
        if state.scaling == ScalingMethod::None {
            prop_assert!(!question.ask.contains("context extension"), "{}", question.ask);
        } else {
            prop_assert!(question.ask.contains(state.scaling.label()), "{}", question.ask);
        }
    }

    /// The hint compares the slowest wavelength with the same head's with plain RoPE, computed
    /// here from b, d and partial.
    #[test]
    fn the_slowest_wavelength_hint_says_what_scaling_did(query in query()) {
        let Some((state, d)) = read(&query) else { return Ok(()) };
        let trained = trained_theta(&state);
        let unscaled = rope_lab::rope::frequencies(d.params, &state.plain_params()).unwrap().inv_freq;
        for (a, b) in trained.iter().zip(&unscaled) {
            prop_assert!((a - b).abs() <= 1e-12 * a.abs().max(1e-300), "trained θ {a} vs {b}");
        }
        let hint = slowest_hint(&d.frequencies.inv_freq, &unscaled, &kept_theta(&state), state.base, state.scaling);
        let (Some(now), Some(before)) = (slowest(&d.frequencies.inv_freq), slowest(&trained)) else {
            prop_assert!(hint.contains("no plane"), "{hint}");
            return Ok(());
        };
        if state.scaling == ScalingMethod::None {
            prop_assert!(hint.contains("2π·b"), "{hint}");
            prop_assert!(!hint.contains("lengthens") && !hint.contains("shortens"), "{hint}");
            return Ok(());
        }
        let short = rope_lab::charts::format::short_number;
        prop_assert!(hint.contains(&short(before)), "{hint} lacks {before}");
        if state.scaling == ScalingMethod::Proportional {
            // Both steps: the planes kept (the page's kept θᵢ are these), then the factor.
            let kept = kept_theta(&state);
            let page = rope_lab::rope::frequencies(d.params, &state.unscaled_params()).unwrap().inv_freq;
            for (a, b) in kept.iter().zip(&page) {
                prop_assert!((a - b).abs() <= 1e-12 * a.abs().max(1e-300), "kept θ {a} vs {b}");
            }
            let count = kept.iter().filter(|t| **t > 0.0).count();
            let middle = slowest(&kept).unwrap();
            if count < kept.len() {
                let falls = format!("keeps {count} of {} planes, so the slowest wavelength falls from {} to {} tokens", kept.len(), short(before), short(middle));
                prop_assert!(hint.contains(&falls), "{hint} lacks '{falls}'");
            } else {
                prop_assert!(hint.contains(&format!("keeps all {} planes", kept.len())), "{hint}");
            }
            if (now - middle).abs() > 1e-6 * middle {
                prop_assert!(hint.contains(&format!("to {} tokens", short(now))), "{hint} lacks {now}");
                prop_assert!(hint.contains(if now > middle { "then lengthens" } else { "then shortens" }), "{hint}");
            }
            if now > before * (1.0 + 1e-6) {
                prop_assert!(hint.contains(&format!("{}× longer than plain RoPE's", short(now / before))), "{hint}");
            } else if now < before * (1.0 - 1e-6) {
                prop_assert!(hint.contains(&format!("{}× shorter than plain RoPE's", short(before / now))), "{hint}");
            }
            return Ok(());
        }
        prop_assert!(hint.starts_with(state.scaling.label()), "{hint}");
        if now > before * (1.0 + 1e-6) {
            prop_assert!(hint.contains("lengthens"), "{now} > {before}: {hint}");
        } else if now < before * (1.0 - 1e-6) {
            prop_assert!(hint.contains("shortens"), "{now} < {before}: {hint}");
        } else if (now - before).abs() <= 1e-12 * before {
            prop_assert!(hint.contains("leaves it unchanged"), "{now} = {before}: {hint}");
        }
    }

    /// The premise gives the bound's two values as they are, and the answer compares this q and
    /// k's |score| at r and at 0 by plain rotations.
    #[test]
    fn score_decays_states_the_bound_and_compares_the_scores(query in query()) {
        let Some((state, d)) = read(&query) else { return Ok(()) };
        let (q, k, r) = (&d.vectors.q, &d.vectors.k, state.r);
        let question = score_decays(&d.vectors.rotary, q, k, r);
        choices_hold(&question)?;
        prop_assert!(!question.ask.contains("falls"), "{}", question.ask);
        let theta = &d.frequencies.inv_freq;
        let short = rope_lab::charts::format::short_number;
        prop_assert!(question.ask.contains(&short(relative_bound(theta, 0.0))), "{}", question.ask);
        if r == 0 {
            // At r = 0 the bound is (d/2 + 1)/2 (each |Sₜ| = t), and the answer says whether no
            // distance goes higher: checked here against the bound summed by hand at many r.
            let planes = theta.len() as f64;
            let top = (planes + 1.0) / 2.0;
            prop_assert!((relative_bound(theta, 0.0) - top).abs() <= 1e-9 * top);
            let highest = (1..=400).map(|t| relative_bound(theta, (t * t) as f64)).fold(top, f64::max);
            prop_assert_eq!(&question.right, if highest <= top * (1.0 + 1e-12) { "yes" } else { "no" });
            prop_assert!(question.ask.contains(&format!("relative bound is {}", short(top))), "{}", question.ask);
            prop_assert!(question.why.contains(&format!("(d/2 + 1)/2 = {}", short(top))), "{}", question.why);
            prop_assert_eq!(question.why.contains("1 at every distance"), theta.len() == 1, "{}", question.why);
            return Ok(());
        }
        prop_assert!(question.ask.contains(&short(relative_bound(theta, r as f64))), "{}", question.ask);
        let norms = (q.iter().map(|x| x * x).sum::<f64>() * k.iter().map(|x| x * x).sum::<f64>()).sqrt();
        let at = |n: f64| if norms > 0.0 { rotated_score(&state, &d, q, k, 0.0, n).abs() / norms } else { 0.0 };
        let (zero, far) = (at(0.0), at(r as f64));
        let gap = (far - zero).abs();
        // Clearly apart (well beyond the rounding of angles up to r·θᵢ) or clearly the same.
        let largest = theta.iter().copied().fold(0.0, f64::max) * r as f64;
        if gap > 1e-9 * (1.0 + largest) + 1e-10 {
            prop_assert_eq!(&question.right, if far < zero { "yes" } else { "no" });
        } else if gap <= 1e-13 {
            prop_assert_eq!(&question.right, "no");
        }
    }

    /// Every mode but sinusoids added depends on n − m alone (checked here for RoPE with plain
    /// rotations); with sinusoids added, the four cells are computed from PE written out.
    #[test]
    fn diagonal_answers_from_the_cells(query in query()) {
        let Some((state, d)) = read(&query) else { return Ok(()) };
        let (q, k, (m, n)) = (&d.vectors.q, &d.vectors.k, (state.m, state.n));
        let question = diagonal(&d.vectors.rotary, q, k, (m, n), state.heatmap, ModeInputs { params: d.params, seed: state.seed });
        choices_hold(&question)?;
        match state.heatmap {
            HeatmapMode::Sinusoidal => {
                let (b, dim) = (state.base, state.dim);
                let pe = |p: f64| -> Vec<f64> {
                    (0..dim / 2).flat_map(|i| { let t = b.powf(-(2.0 * i as f64) / dim as f64); [(p * t).sin(), (p * t).cos()] }).collect()
                };
                let cell = |t: i64| -> f64 {
                    let (a, c) = (pe((m + t) as f64), pe((n + t) as f64));
                    (0..dim).map(|i| (q[i] + a[i]) * (k[i] + c[i])).sum()
                };
                let cells: Vec<f64> = (0..4).map(cell).collect();
                let spread = cells.iter().map(|c| (c - cells[0]).abs()).fold(0.0, f64::max);
                let size = cells.iter().map(|c| c.abs()).fold(0.0, f64::max);
                if spread > 1e-4 * size + 1e-6 {
                    prop_assert_eq!(&question.right, "no");
                } else if spread <= 1e-9 * size {
                    prop_assert_eq!(&question.right, "yes");
                }
            }
            mode => {
                prop_assert_eq!(&question.right, "yes");
                if mode == HeatmapMode::Rotated {
                    let first = rotated_score(&state, &d, q, k, m as f64, n as f64);
                    let scale = (q.iter().map(|x| x * x).sum::<f64>() * k.iter().map(|x| x * x).sum::<f64>()).sqrt();
                    for t in 1..4 {
                        let other = rotated_score(&state, &d, q, k, (m + t) as f64, (n + t) as f64);
                        prop_assert!((other - first).abs() <= 1e-6 * scale + 1e-12, "{first} vs {other}");
                    }
                }
            }
        }
    }
}

/// The issue's cases: p-RoPE at d = 64 keeps 16 planes, so its slowest wavelength is far below
/// plain RoPE's 2π·b^(62/64) ≈ 47,117 even times the factor; dynamic NTK at seq ≤ orig leaves it;
/// d = 2's bound is flat.
#[test]
fn the_cases_the_issue_names() {
    let (state, d) = read("scaling=proportional&partial=0.5&factor=8&dim=64").unwrap();
    let unscaled = rope_lab::rope::frequencies(d.params, &state.plain_params()).unwrap().inv_freq;
    let hint = slowest_hint(&d.frequencies.inv_freq, &unscaled, &kept_theta(&state), state.base, state.scaling);
    // 16 planes are kept: the slowest is plane 15, 2π·10000^(30/64) ≈ 471 tokens against plain
    // RoPE's 2π·10000^(62/64) ≈ 47,117; times 8 ≈ 3,769, 12.5 times shorter than plain RoPE's.
    let (kept, now, plain) = (TAU * 10000f64.powf(30.0 / 64.0), 8.0 * TAU * 10000f64.powf(30.0 / 64.0), TAU * 10000f64.powf(62.0 / 64.0));
    let short = rope_lab::charts::format::short_number;
    assert_eq!(
        hint,
        format!(
            "p-RoPE keeps 16 of 32 planes, so the slowest wavelength falls from {} to {} tokens; the factor 8 then lengthens it to {} \
             tokens, {}× shorter than plain RoPE's",
            short(plain),
            short(kept),
            short(now),
            short(plain / now)
        )
    );
    assert!(
        hint.contains("from 47117.2 to 471.172 tokens") && hint.contains("to 3769.4 tokens") && hint.contains("12.5× shorter"),
        "{hint}"
    );
    // Without a factor p-RoPE still shortens it: 100 times.
    let (state, d) = read("scaling=proportional&partial=0.5&dim=64").unwrap();
    let unscaled = rope_lab::rope::frequencies(d.params, &state.plain_params()).unwrap().inv_freq;
    let hint = slowest_hint(&d.frequencies.inv_freq, &unscaled, &kept_theta(&state), state.base, state.scaling);
    assert!(hint.contains("falls from 47117.2 to 471.172 tokens") && hint.contains("100× shorter than plain RoPE's"), "{hint}");

    let (state, d) = read("scaling=dynamic&factor=4&orig=4096&seq=2048").unwrap();
    let unscaled = rope_lab::rope::frequencies(d.params, &state.plain_params()).unwrap().inv_freq;
    let hint = slowest_hint(&d.frequencies.inv_freq, &unscaled, &kept_theta(&state), state.base, state.scaling);
    assert!(hint.contains("leaves it unchanged"), "{hint}");

    for query in ["scaling=yarn", "scaling=llama3", "scaling=linear&factor=4"] {
        let (state, d) = read(query).unwrap();
        let unscaled = rope_lab::rope::frequencies(d.params, &state.plain_params()).unwrap().inv_freq;
        let hint = slowest_hint(&d.frequencies.inv_freq, &unscaled, &kept_theta(&state), state.base, state.scaling);
        assert!(hint.contains("lengthens it") && hint.contains("plain RoPE: 47117"), "{query}: {hint}");
    }

    // At d = 2 the bound is 1 everywhere: the premise says so, not that it falls.
    let (_, d) = read("dim=2&r=1000").unwrap();
    let question = score_decays(&d.vectors.rotary, &d.vectors.q, &d.vectors.k, 1000);
    assert!(question.ask.starts_with("RoFormer's relative bound is 1 at r = 0 and 1 at r = 1000"), "{}", question.ask);
    assert!(question.why.contains("the ceiling is the same there"), "{}", question.why);
    let (_, d) = read("dim=2&r=0").unwrap();
    let question = score_decays(&d.vectors.rotary, &d.vectors.q, &d.vectors.k, 0);
    assert_eq!(question.right, "yes");

    // A wavelength between L − 1 and L: not longer than the context, and still no full turn.
    let theta = [TAU / 4095.5];
    assert_eq!(turning_counts(&theta, 4096), (0, 1));
    let question = slowest_vs_context(&theta, 4096, 10000.0, 2, ScalingMethod::None);
    assert_eq!(question.right, "no");
    assert!(question.why.contains("still never completes a turn"), "{}", question.why);
    assert_eq!(planes_turning(&theta, 4096).right, "0");

    // Sinusoids added with q = k = 0: PE(m)·PE(n) alone, one colour along the diagonal.
    let (state, d) = read(&format!("heatmap=sinusoidal&dim=8&q={0}&k={0}", ["0"; 8].join(","))).unwrap();
    let question = diagonal(
        &d.vectors.rotary,
        &d.vectors.q,
        &d.vectors.k,
        (state.m, state.n),
        state.heatmap,
        ModeInputs { params: d.params, seed: state.seed },
    );
    assert_eq!(question.right, "yes");
    assert!(question.why.contains("only PE(m)·PE(n)"), "{}", question.why);
}
