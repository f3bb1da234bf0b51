//! Fuzzing the URL parser and the core with many generated cases (proptest; FUZZ_CASES sets
//! how many, 3,000 by default). No input may panic or put a non-finite number out, and the
//! state a URL becomes must write itself back to a URL that reads as the same state, silently.
//! Failures proptest finds are kept in `tests/fuzz.proptest-regressions` and replayed first.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rope_lab::rope::{frequencies, RopeParams, ScalingMethod, ScalingParams};
use rope_lab::state::{param, Derived, LabState};

fn cases() -> u32 {
    std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(3_000)
}

/// A parameter name: mostly real ones, sometimes junk.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::sample::select(param::ALL.iter().map(|p| p.name.to_string()).collect::<Vec<_>>()),
        1 => "[a-z_%&=]{0,12}",
    ]
}

/// A value a URL might hold: numbers at every extreme, lists, and junk.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<f64>().prop_map(|v| format!("{v:?}")),
        any::<i64>().prop_map(|v| v.to_string()),
        "[-+]?[0-9]{0,22}(\\.[0-9]{0,6})?([eE][-+]?[0-9]{1,4})?",
        prop::collection::vec(any::<f64>().prop_map(|v| format!("{v}")), 0..12).prop_map(|v| v.join(",")),
        prop::sample::select(vec![
            "none",
            "linear",
            "ntk",
            "dynamic",
            "yarn",
            "llama3",
            "longrope",
            "proportional",
            "half",
            "interleaved",
            "dark",
            "light",
            "sinusoidal",
            "clocks",
            "1",
            "0",
            "inf",
            "-inf",
            "NaN",
            "%zz",
            ""
        ])
        .prop_map(str::to_string),
        ".{0,24}",
    ]
}

fn finite(d: &Derived) -> bool {
    d.scores.score.is_finite()
        && d.scores.score_relative.is_finite()
        && d.scores.score_unrotated.is_finite()
        && d.scores.q_rot.iter().chain(&d.scores.k_rot).all(|v| v.is_finite())
        && d.frequencies.inv_freq.iter().all(|f| f.is_finite())
        && d.frequencies.attention_factor.is_finite()
        && d.decay_bound_at_r.is_finite()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn any_url_gives_a_state_that_computes_and_writes_itself_back(
        pairs in prop::collection::vec((name(), value()), 0..10),
    ) {
        let query: String = pairs.iter().map(|(n, v)| format!("{n}={}", rope_lab::state::query::encode(v))).collect::<Vec<_>>().join("&");
        let parsed = LabState::from_query(&query);
        let derived = Derived::compute(&parsed.state).expect("a parsed state always computes");
        prop_assert!(finite(&derived), "{query}");
        // Written back and read again: the same state, and nothing left to correct.
        let again = LabState::from_query(&parsed.state.to_query());
        prop_assert!(again.notices.is_empty(), "{query} -> {} -> {:?}", parsed.state.to_query(), again.notices);
        prop_assert_eq!(again.state, parsed.state);
    }

    #[test]
    fn any_text_typed_into_any_field_keeps_the_state_valid(
        start in prop::collection::vec((name(), value()), 0..4),
        edits in prop::collection::vec((0..param::ALL.len(), value()), 1..6),
    ) {
        let query: String = start.iter().map(|(n, v)| format!("{n}={}", rope_lab::state::query::encode(v))).collect::<Vec<_>>().join("&");
        let mut state = LabState::from_query(&query).state;
        let mut previous = Derived::compute(&state).ok();
        for (index, text) in edits {
            let notices = state.set_text(param::ALL[index], &text);
            // Every notice names what stays in effect and still describes the state.
            prop_assert!(notices.iter().all(|n| state.still_applies(n)), "{:?}", notices);
            let derived = Derived::compute(&state).expect("an edited state always computes");
            prop_assert!(finite(&derived));
            // The page computes each state from the one before (q and k kept when they were
            // drawn alike): the same numbers as from scratch, whatever the edit.
            let after = Derived::compute_after(&state, previous.as_ref()).expect("an edited state always computes");
            prop_assert_eq!(&after, &derived, "{}", state.to_query());
            previous = Some(after);
        }
    }

    #[test]
    fn the_scaling_methods_take_any_numbers_without_panicking(
        base in any::<f64>(), half in 1usize..=512, method in prop::sample::select(ScalingMethod::ALL.to_vec()),
        factor in any::<f64>(), orig in any::<u64>(), seq in any::<u64>(), beta_fast in any::<f64>(),
        beta_slow in any::<f64>(), mscale in prop::option::of(any::<f64>()), mscale_all_dim in prop::option::of(any::<f64>()),
        low in any::<f64>(), high in any::<f64>(), partial in any::<f64>(),
        factors in prop::option::of(prop::collection::vec(any::<f64>(), 0..8)),
    ) {
        let Ok(params) = RopeParams::new(base, half * 2) else { return Ok(()) };
        let scaling = ScalingParams {
            method, factor, original_context: orig, seq_len: seq, beta_fast, beta_slow, mscale, mscale_all_dim,
            low_freq_factor: low, high_freq_factor: high, short_factor: factors.clone(), long_factor: factors, partial,
        };
        // A typed error or finite frequencies: never a panic, never NaN or infinity.
        if let Ok(f) = frequencies(params, &scaling) {
            prop_assert!(f.inv_freq.iter().all(|x| x.is_finite() && *x >= 0.0), "{scaling:?}");
            prop_assert!(f.attention_factor.is_finite(), "{scaling:?}");
            prop_assert_eq!(f.inv_freq.len(), half);
        }
    }
}
