//! The context-extension chapter's question (`fastest-plane`) against an independent
//! computation: plane 0's frequency before and after each method, written out here from the
//! methods' definitions (transformers' modeling_rope_utils), over random states read from URLs
//! the page accepts, plus the edge cases of issue 45 (LongRoPE factors below 1 or not monotone,
//! orig < 2π, d = 2).

use proptest::prelude::*;
use rope_lab::quiz::scaling::fastest_plane;
use rope_lab::quiz::Question;
use rope_lab::rope::{frequencies, stretch, RopeParams, ScalingMethod, ScalingParams};
use rope_lab::state::LabState;
use std::f64::consts::TAU;

/// The chapter's inputs for a state: θᵢ unscaled (p-RoPE keeps its dropped planes dropped) and
/// in effect at the target (seq_len = the target, or seq if larger), as the chapter computes them.
fn chapter_inputs(s: &LabState) -> (Vec<f64>, Vec<f64>) {
    let params = RopeParams::new(s.base, s.dim).expect("a reachable state has a valid base and d");
    let scaling = s.scaling_params();
    let at_target = ScalingParams { seq_len: s.target_context().max(scaling.seq_len), ..scaling };
    let after = frequencies(params, &at_target).map(|f| f.inv_freq).unwrap_or_default();
    let before = frequencies(params, &s.unscaled_params()).map(|f| f.inv_freq).unwrap_or_default();
    (before, after)
}

/// θ₀ without and with the extension, from each method's definition. θ₀ = b⁰ = 1 whenever plane 0
/// rotates: only p-RoPE can drop it, when it keeps int(partial·d/2) = 0 planes.
fn plane_zero_by_definition(s: &LabState) -> (f64, f64) {
    let factor = s.effective_factor();
    let orig = s.orig as f64;
    if s.scaling == ScalingMethod::Proportional {
        let kept = (s.partial * s.dim as f64 / 2.0).floor() as usize;
        return if kept == 0 { (0.0, 0.0) } else { (1.0, 1.0 / factor) };
    }
    let after = match s.scaling {
        // A larger base leaves base'⁰ = 1.
        ScalingMethod::None | ScalingMethod::Ntk | ScalingMethod::Dynamic => 1.0,
        // YaRN's ramp at plane 0: 0 (kept) when its low edge is at or below its high edge, but a
        // beta_fast below beta_slow can put the high edge below the low one.
        ScalingMethod::Yarn => {
            let rotary = (s.dim as f64 * s.partial).floor();
            let edge = |turns: f64| rotary * (orig / (turns * TAU)).ln() / (2.0 * s.base.ln());
            let low = edge(s.beta_fast).floor().max(0.0);
            let mut high = edge(s.beta_slow).ceil().min(rotary - 1.0);
            if low == high {
                high += 0.001;
            }
            let ramp = ((0.0 - low) / (high - low)).clamp(0.0, 1.0);
            ramp / factor + (1.0 - ramp)
        }
        ScalingMethod::Linear => 1.0 / factor,
        ScalingMethod::Llama3 => {
            let wavelength = TAU;
            if wavelength < orig / s.high_freq {
                1.0
            } else if wavelength > orig / s.low_freq {
                1.0 / factor
            } else {
                let smooth = (orig / wavelength - s.low_freq) / (s.high_freq - s.low_freq);
                (1.0 - smooth) / factor + smooth
            }
        }
        ScalingMethod::LongRope => {
            let seq = s.target_context().max(s.seq.unwrap_or(s.orig));
            let list = if seq > s.orig { &s.long_factor } else { &s.short_factor };
            1.0 / list.as_ref().map_or(1.0, |l| l[0])
        }
        ScalingMethod::Proportional => unreachable!(),
    };
    (1.0, after)
}

/// The right answer for θ₀ going from `was` to `now`, or None where the change is too close to
/// the rounding tolerance to call.
fn expected(was: f64, now: f64) -> Option<&'static str> {
    if was == 0.0 && now == 0.0 {
        return Some("no");
    }
    let change = (now - was) / was;
    if change.abs() < 1e-8 {
        Some("no")
    } else if change.abs() < 1e-4 {
        None
    } else if change < 0.0 {
        Some("yes")
    } else {
        Some("faster")
    }
}

fn ask(s: &LabState) -> Question {
    let (before, after) = chapter_inputs(s);
    fastest_plane(s.scaling, &before, &after, s.orig)
}

fn state(query: &str) -> LabState {
    LabState::from_query(query).state
}

/// Checks one state: the answer, the choices, and that the why says what happened.
fn check(s: &LabState) -> Result<(), TestCaseError> {
    let q = ask(s);
    let values: Vec<&str> = q.choices.iter().map(|(v, _)| v.as_str()).collect();
    prop_assert_eq!(values, vec!["yes", "no", "faster"]);
    prop_assert!(q.choices.iter().any(|(v, _)| *v == q.right));
    let (was, now) = plane_zero_by_definition(s);
    if let Some(want) = expected(was, now) {
        prop_assert_eq!(q.right.as_str(), want, "θ₀ {} → {} in {:?}: {}", was, now, s.to_query(), q.why);
        match want {
            "yes" => prop_assert!(q.why.contains("divides it by") || q.why.contains("no longer turns"), "{}", q.why),
            "faster" => prop_assert!(q.why.contains("as fast as without it"), "{}", q.why),
            _ => prop_assert!(!q.why.contains("divides it") && !q.why.contains("as fast as"), "{}", q.why),
        }
    }
    // At d = 2 the only plane is not called the fastest.
    if s.dim == 2 {
        prop_assert!(!q.ask.contains("the fastest") && q.ask.contains("only plane"), "{}", q.ask);
    } else {
        prop_assert!(q.ask.contains("the fastest"), "{}", q.ask);
    }
    // "Turns many times within orig" is no longer claimed; the count it gives is that of
    // positions 0 to orig − 1, (orig − 1)·θ₀/2π.
    if q.right == "no" && was > 0.0 && s.scaling != ScalingMethod::None {
        let turns = rope_lab::charts::format::short_number((s.orig - 1) as f64 * was / TAU);
        prop_assert!(q.why.contains(&format!("through {turns} turns")), "{}", q.why);
    }
    Ok(())
}

const METHODS: [&str; 8] = ["none", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "proportional"];

/// A number from 10^lo to 10^hi, spread evenly in its logarithm.
fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo..hi).prop_map(|e| 10f64.powf(e))
}

prop_compose! {
    fn query()(
        method in 0..METHODS.len(),
        dim in prop_oneof![Just(2usize), Just(4), 2usize..=512],
        base in log_uniform(0.01, 9.0),
        factor in prop::option::of(log_uniform(0.0, 4.0)),
        orig in prop_oneof![2u64..=7, 8u64..=200_000, 200_000u64..=10_000_000_000_000],
        target in prop::option::of(2u64..=2_000_000),
        seq in prop::option::of(1u64..=2_000_000),
        low in log_uniform(-1.5, 1.0),
        high in log_uniform(-1.0, 1.5),
        beta_fast in log_uniform(-1.0, 2.0),
        beta_slow in log_uniform(-1.0, 1.0),
        partial in prop_oneof![Just(1.0f64), 0.001f64..=1.0],
        // LongRoPE factors: below 1, above, in no order.
        short in prop::collection::vec(log_uniform(-3.0, 3.0), 256),
        long in prop::collection::vec(log_uniform(-3.0, 3.0), 256),
        lists in any::<bool>(),
    ) -> String {
        let mut q = format!(
            "scaling={}&dim={dim}&base={base}&orig={orig}&low_freq={low}&high_freq={high}&beta_fast={beta_fast}&beta_slow={beta_slow}&partial={partial}",
            METHODS[method]
        );
        if let Some(f) = factor { q += &format!("&factor={f}"); }
        if let Some(t) = target { q += &format!("&target={t}"); }
        if let Some(s) = seq { q += &format!("&seq={s}"); }
        if lists {
            // One entry per rotating plane, as the state asks (else it drops the list).
            let state = LabState::from_query(&q).state;
            let planes = state.scaling.rotary_dim(state.dim, state.partial).unwrap_or(state.dim) / 2;
            let join = |v: &[f64]| v[..planes].iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
            q += &format!("&short_factor={}&long_factor={}", join(&short), join(&long));
        }
        q
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn fastest_plane_is_right_in_every_reachable_state(q in query()) {
        let s = state(&q);
        check(&s)?;
    }

    /// Each plane's largest angle in training is (orig − 1)·θᵢ (positions 0 to orig − 1, the
    /// frequencies chapter's rule) and within the target (target − 1)·θ′ᵢ; a plane goes beyond
    /// training when it never completed a turn there and its target angle is larger.
    #[test]
    fn plane_angles_count_positions_zero_to_length_minus_one(q in query()) {
        let s = state(&q);
        let (before, after) = chapter_inputs(&s);
        let (orig, target) = (s.orig as f64, s.target_context() as f64);
        let planes = stretch(&before, &after, s.effective_factor(), orig, target);
        for ((p, was), now) in planes.iter().zip(&before).zip(&after) {
            if *now == 0.0 {
                continue;
            }
            let (trained, reached) = ((orig - 1.0) * was, (target - 1.0) * now);
            prop_assert!((p.trained_angle - trained).abs() <= 1e-12 * trained.abs().max(1e-300), "{} vs {trained}", p.trained_angle);
            prop_assert!((p.target_angle - reached).abs() <= 1e-12 * reached.abs().max(1e-300), "{} vs {reached}", p.target_angle);
            let beyond = trained > 0.0 && trained < TAU && reached > trained * (1.0 + 1e-9);
            let clear = trained >= TAU || trained == 0.0 || reached < trained * (1.0 - 1e-9) || (reached - trained).abs() <= 1e-13 * trained;
            if beyond {
                prop_assert!(p.unseen(), "{q}: {trained} -> {reached}");
                prop_assert!((p.overshoot() - reached / trained).abs() <= 1e-9 * reached / trained);
            } else if clear {
                prop_assert!(!p.unseen(), "{q}: {trained} -> {reached}");
            }
        }
    }
}

/// The review's example: at orig = 7 plane 0 (wavelength 2π ≈ 6.28, in (6, 7]) never completes
/// a turn over positions 0 to 6 (6 rad < 2π), so linear ×4 to 28 tokens, 27/4 = 6.75 rad, goes
/// beyond it; and Llama 3.1 8B's divided planes go about twice as far: 131,071 / (8 × 8,191).
#[test]
fn a_plane_that_never_completes_a_turn_over_orig_minus_one() {
    let s = state("scaling=linear&factor=4&orig=7&dim=2&base=10");
    let (before, after) = chapter_inputs(&s);
    let plane = &stretch(&before, &after, 4.0, 7.0, s.target_context() as f64)[0];
    assert_eq!(s.target_context(), 28);
    assert!((plane.trained_angle - 6.0).abs() < 1e-12 && (plane.target_angle - 27.0 / 4.0).abs() < 1e-12, "{plane:?}");
    assert!(plane.unseen() && (plane.overshoot() - 6.75 / 6.0).abs() < 1e-12, "{plane:?}");

    let s = state("preset=llama-3.1-8b");
    let (before, after) = chapter_inputs(&s);
    let planes = stretch(&before, &after, s.effective_factor(), s.orig as f64, s.target_context() as f64);
    let worst = planes.iter().map(|p| p.overshoot()).fold(1.0, f64::max);
    assert!((worst - 131_071.0 / (8.0 * 8_191.0)).abs() < 1e-9, "{worst}");
}

#[test]
fn the_chapter_computes_theta_zero_as_defined() {
    // The independent formulas agree with the chapter's inputs in a few plain states (so the
    // property above compares like with like).
    for q in [
        "scaling=linear&factor=4",
        "scaling=yarn",
        "scaling=llama3&orig=4",
        "scaling=proportional&partial=0.5&factor=2",
        "dim=2&scaling=ntk&factor=8",
    ] {
        let s = state(q);
        let (before, after) = chapter_inputs(&s);
        let (was, now) = plane_zero_by_definition(&s);
        assert!((before[0] - was).abs() < 1e-12 && (after[0] - now).abs() < 1e-12, "{q}: {before:?} {after:?} against {was} {now}");
    }
}

#[test]
fn edge_cases_of_issue_45() {
    // PI slows plane 0; YaRN keeps it (the e2e check's two states).
    assert_eq!(ask(&state("scaling=linear&factor=4")).right, "yes");
    let yarn = ask(&state("scaling=yarn&factor=4"));
    assert_eq!(yarn.right, "no");
    let turns = rope_lab::charts::format::short_number(4095.0 / TAU);
    assert!(yarn.why.contains(&format!("orig − 1 = 4095 take plane 0 through {turns} turns")), "{}", yarn.why);

    // LongRoPE with plane 0's factor below 1: plane 0 turns faster, and the why says so.
    let planes = 32;
    let mut factors: Vec<String> = (0..planes).map(|i| format!("{}", 1.0 + (i % 5) as f64)).collect();
    factors[0] = "0.5".to_string();
    let list = factors.join(",");
    let s = state(&format!("dim=64&scaling=longrope&factor=8&orig=4096&target=8192&short_factor={list}&long_factor={list}"));
    assert_eq!(s.long_factor.as_ref().map(Vec::len), Some(planes), "the list is kept");
    let q = ask(&s);
    assert_eq!(q.right, "faster", "{}", q.why);
    assert!(q.why.contains("2× as fast") && q.why.contains("below 1"), "{}", q.why);

    // Not monotone, plane 0's factor above 1: slower.
    factors[0] = "3".to_string();
    let list = factors.join(",");
    let q = ask(&state(&format!("dim=64&scaling=longrope&orig=4096&target=8192&short_factor={list}&long_factor={list}")));
    assert_eq!(q.right, "yes", "{}", q.why);
    assert!(q.why.contains("divides it by 3"), "{}", q.why);

    // orig < 2π: Llama 3.1's rule divides even plane 0 (its wavelength 2π is longer than orig);
    // the why gives no "many turns within orig".
    let q = ask(&state("scaling=llama3&orig=4&factor=8"));
    assert_eq!(q.right, "yes", "{}", q.why);
    assert!(!q.why.contains("many times within"), "{}", q.why);
    // YaRN keeps plane 0 even then, and counts its turns: positions 0 to 3 reach 3 rad, 3/2π ≈ 0.4775.
    let q = ask(&state("scaling=yarn&orig=4&factor=8"));
    assert_eq!(q.right, "no");
    assert!(q.why.contains("through 0.4775 turns"), "{}", q.why);

    // An orig so long that every plane turns more than beta_fast times: transformers' ramp runs
    // backwards and YaRN divides plane 0 too (128·ln(10¹²/64π)/(2 ln 10⁴) ≈ 155 > 127).
    let q = ask(&state("dim=128&scaling=yarn&orig=1000000000000&factor=8"));
    assert_eq!(q.right, "yes", "{}", q.why);
    assert!(q.why.contains("divides it by 8"), "{}", q.why);

    // d = 2: one plane, not "the fastest"; still three choices, and the answer stands.
    let q = ask(&state("dim=2&scaling=linear&factor=2"));
    assert!(q.ask.contains("only plane") && !q.ask.contains("fastest"), "{}", q.ask);
    assert_eq!(q.right, "yes");

    // p-RoPE that keeps no plane: θ₀ = 0 with and without it.
    let q = ask(&state("dim=64&scaling=proportional&partial=0.01&factor=4"));
    assert_eq!(q.right, "no");
    assert!(q.why.contains("does not turn in this head at all"), "{}", q.why);

    // No frequencies at all (not reachable from the page, but the function must not panic).
    let q = fastest_plane(ScalingMethod::Linear, &[], &[], 4096);
    assert_eq!(q.right, "no");
}
