//! The core against values computed outside this project (`tests/fixtures/oracle.json`, see its README):
//! Hugging Face transformers' ROPE_INIT_FUNCTIONS, its Llama apply_rotary_pos_emb
//! (rotate_half), Meta's Llama apply_rotary_emb (interleaved), and the RoFormer decay bound.
#![cfg(not(target_arch = "wasm32"))]

use rope_lab::rope::{
    decay_bound, decay_curve, frequencies, Frequencies, Layout, Position, RopeParams, Rotary, ScalingMethod, ScalingParams,
};
use serde_json::Value;

fn oracle() -> Value {
    let path = std::env::var("ROPE_ORACLE").unwrap_or_else(|_| format!("{}/tests/fixtures/oracle.json", env!("CARGO_MANIFEST_DIR")));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read oracle {path}: {e}"));
    serde_json::from_str(&text).expect("oracle is valid JSON")
}

fn floats(value: &Value) -> Vec<f64> {
    value.as_array().expect("a list").iter().map(|v| v.as_f64().expect("a number")).collect()
}

fn assert_close(what: &str, got: f64, want: f64, rel: f64) {
    // Relative to the expected value; the floor only matters for values that are exactly 0.
    let scale = want.abs().max(1e-12);
    assert!(
        (got - want).abs() <= rel * scale,
        "{what}: got {got:?}, want {want:?} (relative error {:e} > {rel:e})",
        (got - want).abs() / scale
    );
}

fn assert_all_close(what: &str, got: &[f64], want: &[f64], rel: f64) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_close(&format!("{what}[{i}]"), *g, *w, rel);
    }
}

#[test]
fn inverse_frequencies_and_attention_factor_match_transformers() {
    let oracle = oracle();
    let cases = oracle["inv_freq"].as_array().expect("inv_freq cases");
    assert!(!cases.is_empty());
    for case in cases {
        let kind = case["type"].as_str().expect("type");
        let params =
            RopeParams::new(case["base"].as_f64().unwrap(), case["dim"].as_u64().unwrap() as usize).expect("oracle parameters are valid");
        let p = &case["params"];
        let get = |name: &str| p.get(name).and_then(Value::as_f64);
        let max_pos = case.get("max_position_embeddings").and_then(Value::as_u64);
        let mut scaling = ScalingParams {
            method: if kind == "default" { ScalingMethod::None } else { ScalingMethod::parse(kind).expect("known type") },
            ..ScalingParams::default()
        };
        if let Some(factor) = get("factor") {
            scaling.factor = factor;
        }
        // `orig` is original_max_position_embeddings, and max_position_embeddings for dynamic.
        if let Some(orig) = p.get("original_max_position_embeddings").and_then(Value::as_u64).or(max_pos) {
            scaling.original_context = orig;
        }
        if let Some(seq) = case.get("seq_len").and_then(Value::as_u64) {
            scaling.seq_len = seq;
        }
        if let Some(v) = get("low_freq_factor") {
            scaling.low_freq_factor = v;
        }
        if let Some(v) = get("high_freq_factor") {
            scaling.high_freq_factor = v;
        }
        let got: Frequencies = frequencies(params, &scaling).unwrap_or_else(|e| panic!("{kind}: {e}"));
        let label = format!("{kind} base={} dim={}", params.base(), params.dim());
        assert_all_close(&format!("{label} inv_freq"), &got.inv_freq, &floats(&case["inv_freq"]), 2e-6);
        assert_close(&format!("{label} attention_factor"), got.attention_factor, case["attention_factor"].as_f64().unwrap(), 1e-6);
    }
}

#[test]
fn rotated_vectors_and_scores_match_both_reference_implementations() {
    let oracle = oracle();
    let cases = oracle["scores"].as_array().expect("score cases");
    assert!(!cases.is_empty());
    for case in cases {
        let params = RopeParams::new(case["base"].as_f64().unwrap(), case["dim"].as_u64().unwrap() as usize).unwrap();
        let (q, k) = (floats(&case["q"]), floats(&case["k"]));
        let m = Position::new(case["m"].as_i64().unwrap()).unwrap();
        let n = Position::new(case["n"].as_i64().unwrap()).unwrap();
        for (layout, key) in [(Layout::Half, "half"), (Layout::Interleaved, "interleaved")] {
            let rotary = Rotary::new(layout, &Frequencies::plain(params));
            let got = rotary.scores(&q, &k, m, n).unwrap();
            let want = &case[key];
            let label = format!("{key} d={} m={} n={}", params.dim(), m.get(), n.get());
            assert_close(&format!("{label} score"), got.score, want["score"].as_f64().unwrap(), 1e-9);
            assert_close(&format!("{label} score-relative"), got.score_relative, want["score"].as_f64().unwrap(), 1e-9);
            assert_all_close(&format!("{label} q_rot"), &got.q_rot, &floats(&want["q_rot"]), 1e-9);
            assert_all_close(&format!("{label} k_rot"), &got.k_rot, &floats(&want["k_rot"]), 1e-9);
        }
    }
}

#[test]
fn decay_bound_matches_the_roformer_formula() {
    let oracle = oracle();
    let cases = oracle["decay_bound"].as_array().expect("decay cases");
    assert!(!cases.is_empty());
    for case in cases {
        let params = RopeParams::new(case["base"].as_f64().unwrap(), case["dim"].as_u64().unwrap() as usize).unwrap();
        let r = case["r"].as_u64().unwrap() as f64;
        let want = case["value"].as_f64().unwrap();
        let inv_freq = Frequencies::plain(params).inv_freq;
        let label = format!("d={} base={} r={r}", params.dim(), params.base());
        assert_close(&format!("{label} decay_bound"), decay_bound(&inv_freq, r), want, 1e-12);
        // The fast curve agrees at the same distance, reached by the recurrence.
        let curve = decay_curve(&inv_freq, 0.0, 1.0, r as usize + 1);
        assert_close(&format!("{label} decay_curve"), curve[r as usize], want, 1e-10);
    }
}
