//! Pasted configs and real-model presets: the JSON reader, what a config becomes, every preset
//! against transformers' numbers (the oracle) or the published formulas, and the Python export.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rope_lab::rope::{Layout, ScalingMethod};
use rope_lab::state::config::read_config;
use rope_lab::state::json::Json;
use rope_lab::state::presets::PRESETS;
use rope_lab::state::{Derived, LabState};
use serde_json::Value;

fn oracle() -> Value {
    let path = format!("{}/tests/fixtures/oracle.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("oracle")).expect("oracle is JSON")
}

fn assert_close(what: &str, got: f64, want: f64, rel: f64) {
    let scale = want.abs().max(1e-30);
    assert!((got - want).abs() <= rel * scale, "{what}: got {got:?}, want {want:?}");
}

/// A state after pasting `text` into the default page.
fn pasted(text: &str) -> (LabState, Vec<String>, Vec<String>) {
    let reading = read_config(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut state = LabState::default();
    let notices = state.apply_config(&reading);
    (state, reading.skipped, notices.into_iter().map(|n| n.message).collect())
}

#[test]
fn json_reads_what_configs_hold() {
    let v = Json::parse(r#" {"a": [1, -2.5e3, true, null], "b": {"c": "x\"y\u00e9"}} "#).unwrap();
    assert_eq!(v.get("a"), Some(&Json::Array(vec![Json::Number(1.0), Json::Number(-2500.0), Json::Bool(true), Json::Null])));
    assert_eq!(v.get("b").and_then(|b| b.get("c")).and_then(Json::as_str), Some("x\"yé"));
}

#[test]
fn json_errors_say_where_the_text_broke() {
    let cases = [
        ("{\"a\": 1,}", 1, 9, "trailing"),
        ("{\n  'a': 1\n}", 2, 3, "double quotes"),
        ("{\"a\": NaN}", 1, 7, "NaN"),
        ("{\"a\": True}", 1, 7, "Python"),
        ("{\"a\": [1, 2", 1, 12, "expected , or ]"),
        ("{\"a\": 01}", 1, 7, "not a JSON number"),
        ("{\"a\": 1e999}", 1, 7, "too large"),
        ("{\"a\": 1} x", 1, 10, "after the end"),
        ("", 1, 1, "ends"),
    ];
    for (text, line, column, words) in cases {
        let error = Json::parse(text).expect_err(text);
        assert_eq!((error.line, error.column), (line, column), "{text}: {error}");
        assert!(error.to_string().contains(words), "{text}: {error}");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let text = "[".repeat(100_000);
    assert!(Json::parse(&text).unwrap_err().reason.contains("deeply"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    /// Any text: a value or an error, never a panic; and any config text leaves a valid state.
    #[test]
    fn any_text_is_read_without_a_panic(text in "[\\[\\]{}\",:0-9eE.+\\- a-z_\\\\]{0,80}") {
        let _ = Json::parse(&text);
        if let Ok(reading) = read_config(&text) {
            let mut state = LabState::default();
            state.apply_config(&reading);
            let derived = Derived::compute(&state).expect("a pasted config leaves a valid state");
            prop_assert!(derived.frequencies.inv_freq.iter().all(|f| f.is_finite()));
        }
    }

    /// Any numbers in a realistic config: the state stays valid and every number finite.
    #[test]
    fn any_numbers_in_a_config_leave_a_valid_state(
        theta in -1e12f64..1e12, head in -10f64..3000.0, factor in -5f64..1e6, orig in -10f64..1e7,
        kind in prop::sample::select(vec!["linear", "dynamic", "yarn", "llama3", "longrope", "su", "proportional", "mrope"]),
        partial in -1f64..2.0,
    ) {
        let text = format!(r#"{{"rope_theta": {theta}, "head_dim": {head}, "partial_rotary_factor": {partial},
            "max_position_embeddings": 131072, "rope_scaling": {{"rope_type": "{kind}", "factor": {factor},
            "original_max_position_embeddings": {orig}}}}}"#);
        let (state, _, _) = pasted(&text);
        let derived = Derived::compute(&state).expect("valid state");
        prop_assert!(derived.frequencies.inv_freq.iter().all(|f| f.is_finite() && *f >= 0.0));
        prop_assert!(derived.frequencies.attention_factor.is_finite());
    }
}

#[test]
fn a_whole_config_is_read_as_transformers_reads_it() {
    // Every oracle case, written as a transformers 5 config (rope_parameters), gives its numbers.
    let oracle = oracle();
    for case in oracle["inv_freq"].as_array().unwrap() {
        let mut params = case.get("params").cloned().unwrap_or(serde_json::json!({}));
        params["rope_type"] = case["type"].clone();
        params["rope_theta"] = case["base"].clone();
        let mut config = serde_json::json!({
            "hidden_size": case["dim"].as_u64().unwrap() * 8, "num_attention_heads": 8,
            "rope_parameters": params,
        });
        if let Some(max) = case.get("max_position_embeddings") {
            config["max_position_embeddings"] = max.clone();
        }
        let (mut state, skipped, notices) = pasted(&config.to_string());
        assert!(skipped.is_empty() && notices.is_empty(), "{config}: {skipped:?} {notices:?}");
        if let Some(seq) = case.get("seq_len").and_then(Value::as_u64) {
            state.seq = Some(seq);
        }
        let derived = Derived::compute(&state).unwrap();
        let want: Vec<f64> = case["inv_freq"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        assert_eq!(derived.frequencies.inv_freq.len(), want.len());
        for (i, (g, w)) in derived.frequencies.inv_freq.iter().zip(&want).enumerate() {
            assert_close(&format!("{} inv_freq[{i}]", case["type"]), *g, *w, 2e-6);
        }
        assert_close("attention factor", derived.frequencies.attention_factor, case["attention_factor"].as_f64().unwrap(), 2e-6);
    }
}

#[test]
fn llama_3_1_preset_gives_transformers_numbers() {
    let oracle = oracle();
    let case = oracle["inv_freq"].as_array().unwrap().iter().find(|c| c["type"] == "llama3").unwrap();
    let state = LabState::from_query("preset=llama-3.1-8b").state;
    assert_eq!((state.base, state.dim, state.scaling, state.orig), (500000.0, 128, ScalingMethod::Llama3, 8192));
    assert_eq!((state.effective_factor(), state.target_context(), state.layout), (8.0, 131072, Layout::Half));
    let derived = Derived::compute(&state).unwrap();
    for (i, (g, w)) in derived.frequencies.inv_freq.iter().zip(case["inv_freq"].as_array().unwrap()).enumerate() {
        assert_close(&format!("inv_freq[{i}]"), *g, w.as_f64().unwrap(), 2e-6);
    }
}

#[test]
fn every_preset_reads_cleanly_and_round_trips_through_the_url() {
    for preset in &PRESETS {
        let reading = read_config(preset.published_config()).unwrap_or_else(|e| panic!("{}: {e}", preset.id));
        assert!(reading.skipped.is_empty(), "{}: {:?}", preset.id, reading.skipped);
        // The page loads the changes written out in presets.rs: exactly what the reader makes
        // of the published config, as a whole config.
        assert!(reading.whole, "{}", preset.id);
        assert_eq!(reading.changes, (preset.changes)(), "{}", preset.id);
        let parsed = LabState::from_query(&format!("preset={}", preset.id));
        assert!(parsed.notices.is_empty(), "{}: {:?}", preset.id, parsed.notices);
        assert_eq!(parsed.state.preset, Some(preset.id));
        let derived = Derived::compute(&parsed.state).unwrap();
        assert!(derived.frequencies.inv_freq.iter().all(|f| f.is_finite()));
        // The URL holds the plain parameters too: reading it back gives the same state.
        let again = LabState::from_query(&parsed.state.to_query()).state;
        assert_eq!(again, parsed.state, "{}", preset.id);
        // And a plain parameter beside the preset overrides it, wherever it stands.
        let edited = LabState::from_query(&format!("base=123&preset={}", preset.id)).state;
        assert_eq!(edited.base, 123.0);
    }
}

#[test]
fn presets_match_their_published_formulas() {
    let state = |id: &str| LabState::from_query(&format!("preset={id}")).state;
    let inv = |s: &LabState| Derived::compute(s).unwrap().frequencies;

    // GPT-NeoX-20B: head 6144 / 64 = 96, rotary_pct 0.25: 24 dimensions (12 planes) rotate at
    // 10000^(-2i/24); the other 36 planes do not.
    let neox = state("gpt-neox-20b");
    assert_eq!((neox.dim, neox.partial, neox.layout), (96, 0.25, Layout::Half));
    let f = inv(&neox);
    for i in 0..48 {
        let want = if i < 12 { 10000f64.powf(-(2.0 * i as f64) / 24.0) } else { 0.0 };
        assert_close(&format!("neox {i}"), f.inv_freq[i], want, 1e-12);
    }

    // Phi-3 mini 128K: LongRoPE, factor = 131072 / 4096 = 32, attention factor
    // sqrt(1 + ln 32 / ln 4096); beyond orig the long factors divide the frequencies.
    let mut phi = state("phi-3-mini-128k");
    assert_eq!((phi.dim, phi.scaling, phi.orig), (96, ScalingMethod::LongRope, 4096));
    assert_close("phi factor", phi.effective_factor(), 32.0, 1e-15);
    assert_close("phi attention", inv(&phi).attention_factor, (1.0 + 32f64.ln() / 4096f64.ln()).sqrt(), 1e-12);
    phi.seq = Some(8192);
    let long = phi.long_factor.clone().expect("long factors");
    let f = inv(&phi);
    assert_eq!(long.len(), 48);
    for (i, factor) in long.iter().enumerate() {
        assert_close(&format!("phi {i}"), f.inv_freq[i], 10000f64.powf(-(2.0 * i as f64) / 96.0) / factor, 1e-12);
    }

    // DeepSeek-V3: the rotary part of the head (qk_rope_head_dim 64), YaRN with factor 40 from
    // 4096; mscale = mscale_all_dim makes the rope's attention factor 1 (DeepSeek scales the
    // softmax instead).
    let ds = state("deepseek-v3");
    assert_eq!((ds.dim, ds.scaling, ds.orig, ds.effective_factor()), (64, ScalingMethod::Yarn, 4096, 40.0));
    // transformers' DeepseekV3Config defaults rope_interleave to true.
    assert_eq!(ds.layout, Layout::Interleaved);
    assert_close("deepseek attention", inv(&ds).attention_factor, 1.0, 1e-15);

    // Plain presets: theta and head dimension only.
    for (id, base, dim, target) in [
        ("llama-2-7b", 10000.0, 128, 4096),
        ("mistral-7b-v0.1", 10000.0, 128, 32768),
        ("qwen2.5-7b", 1_000_000.0, 128, 131072),
        ("gemma-2-9b", 10000.0, 256, 8192),
    ] {
        let s = state(id);
        assert_eq!((s.base, s.dim, s.scaling, s.target_context()), (base, dim, ScalingMethod::None, target), "{id}");
    }
}

#[test]
fn a_rope_block_alone_changes_only_the_scaling() {
    let mut state = LabState::from_query("base=500000&dim=128").state;
    let reading = read_config(r#"{"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}"#).unwrap();
    assert!(!reading.whole);
    assert!(state.apply_config(&reading).is_empty());
    assert_eq!((state.base, state.dim, state.scaling, state.orig), (500000.0, 128, ScalingMethod::Yarn, 32768));
    assert_eq!(state.effective_factor(), 4.0);
}

#[test]
fn a_rope_block_alone_says_what_it_leaves_and_reads_each_field_once() {
    let reading = read_config(r#"{"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}"#).unwrap();
    assert!(reading.skipped.iter().any(|s| s.contains("no rope_theta or head_dim")), "{:?}", reading.skipped);
    let originals = reading.read.iter().filter(|r| r.contains("original_max_position_embeddings")).count();
    assert_eq!(originals, 1, "{:?}", reading.read);
    // transformers 5's rope_parameters may hold the base: then only the head dimension is left.
    let reading = read_config(r#"{"rope_type": "default", "rope_theta": 500000.0}"#).unwrap();
    assert!(reading.skipped.iter().any(|s| s.contains("no head_dim") && !s.contains("rope_theta")), "{:?}", reading.skipped);
}

#[test]
fn qwen2_5_yarn_recipe_stretches_to_factor_times_the_original() {
    // Qwen2.5-7B-Instruct's config.json with the rope_scaling its model card adds for 131,072 tokens.
    let (state, _, _) = pasted(
        r#"{"hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 32768, "rope_theta": 1000000.0,
            "rope_scaling": {"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"}}"#,
    );
    assert_eq!((state.scaling, state.orig, state.effective_factor()), (ScalingMethod::Yarn, 32768, 4.0));
    assert_eq!(state.target_context(), 131072);
    // A config whose max_position_embeddings says the target keeps it (Llama 3.1: 131,072 from 8,192).
    let (state, _, _) = pasted(
        r#"{"head_dim": 128, "max_position_embeddings": 131072, "rope_theta": 500000.0, "rope_scaling": {"rope_type": "llama3",
            "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}"#,
    );
    assert_eq!(state.target_context(), 131072);
}

#[test]
fn lines_copied_out_of_a_config_read_as_one_object() {
    // The members as they sit in a config.json, braces left behind, with the trailing comma.
    let lines = r#""rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192}, "rope_theta": 500000.0,"#;
    let reading = read_config(lines).unwrap_or_else(|e| panic!("{e}"));
    let mut state = LabState::default();
    state.apply_config(&reading);
    assert_eq!((state.base, state.scaling, state.orig), (500000.0, ScalingMethod::Llama3, 8192));
    assert!(reading.read.iter().any(|r| r.contains("members of one object")), "{:?}", reading.read);
    // What is not JSON either way is still refused, with where it broke.
    assert!(read_config(r#""rope_theta": 500000.0, oops"#).is_err());
}

#[test]
fn longrope_without_its_lists_says_every_factor_is_1() {
    let (state, skipped, _) = pasted(r#"{"rope_theta": 10000, "head_dim": 96, "rope_scaling": {"type": "su", "factor": 32}}"#);
    assert_eq!(state.scaling, ScalingMethod::LongRope);
    for list in ["short_factor", "long_factor"] {
        assert!(skipped.iter().any(|s| s.contains(list) && s.contains("factor is 1")), "{list}: {skipped:?}");
    }
    let one = read_config(r#"{"rope_type": "longrope", "short_factor": [1.5], "long_factor": [2, 3]}"#).unwrap();
    assert!(one.read.iter().any(|r| r == "short_factor = [1 number]"), "{:?}", one.read);
    assert!(one.read.iter().any(|r| r == "long_factor = [2 numbers]"), "{:?}", one.read);
}

#[test]
fn what_cannot_be_used_is_named_with_why() {
    let (state, skipped, _) = pasted(
        r#"{"rope_theta": 1000000, "head_dim": 128, "max_position_embeddings": 32768,
            "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}}"#,
    );
    assert_eq!(state.scaling, ScalingMethod::None);
    assert!(skipped.iter().any(|s| s.contains("\"mrope\"") && s.contains("scaling left as none")), "{skipped:?}");
    assert!(skipped.iter().any(|s| s.contains("mrope_section")), "{skipped:?}");

    let (_, skipped, _) = pasted(
        r#"{"rope_theta": "10000", "rope_scaling": {"rope_type": "yarn", "factor": 4, "attention_factor": 0.9, "low_freq_factor": 1}}"#,
    );
    assert!(skipped.iter().any(|s| s.starts_with("rope_theta is a string")), "{skipped:?}");
    assert!(skipped.iter().any(|s| s.contains("attention_factor")), "{skipped:?}");
    assert!(skipped.iter().any(|s| s.contains("low_freq_factor: not read by this method")), "{skipped:?}");

    // Values out of range are clamped with the usual notices.
    let (state, _, notices) = pasted(r#"{"rope_theta": 0.5, "head_dim": 7}"#);
    assert_eq!(state.dim, 8);
    assert!(notices.iter().any(|n| n.contains("dim 7 is odd")), "{notices:?}");
    assert!(notices.iter().any(|n| n.contains("base")), "{notices:?}");
}

#[test]
fn python_export_also_spells_the_settings_for_transformers_4() {
    // Llama 3.1's published config.json, as transformers 4.x took it: rope_theta and rope_scaling.
    let llama = LabState::from_query("preset=llama-3.1-8b").state.python();
    assert!(llama.contains("# transformers 5.x"), "{llama}");
    assert!(llama.contains(r#"rope_theta=500000.0, rope_scaling={"rope_type": "llama3", "factor": 8.0, "#), "{llama}");
    let plain = LabState::default().python();
    assert!(plain.contains("rope_theta=10000.0, rope_scaling=None"), "{plain}");
    let neox = LabState::from_query("preset=gpt-neox-20b").state.python();
    assert!(neox.contains("partial_rotary_factor=0.25, rope_theta=10000.0"), "{neox}");
}

#[test]
fn python_export_reads_back_as_the_same_settings() {
    for query in [
        "",
        "preset=llama-3.1-8b",
        "preset=phi-3-mini-128k",
        "preset=deepseek-v3",
        "preset=gpt-neox-20b",
        "scaling=dynamic&factor=2&seq=16384",
    ] {
        let state = LabState::from_query(query).state;
        let python = state.python();
        // The dict is JSON once Python's literals are: read it back as a rope block.
        let start = python.find("rope_parameters = {").unwrap() + "rope_parameters = ".len();
        let end = start + python[start..].find("\n}").unwrap() + 2;
        let dict = python[start..end].replace(",\n}", "\n}");
        let mut back = state.clone();
        let reading = read_config(&dict).unwrap_or_else(|e| panic!("{dict}: {e}"));
        // Nothing skipped but the reminder that a block alone carries no head dimension.
        let skipped: Vec<_> = reading.skipped.iter().filter(|s| !s.starts_with("a rope block alone has no head_dim")).collect();
        assert!(skipped.is_empty(), "{query}: {skipped:?}");
        back.apply_config(&reading);
        // The context lengths in use are not rope parameters: the export passes them to the call.
        (back.target, back.seq) = (state.target, state.seq);
        let (a, b) = (Derived::compute(&state).unwrap(), Derived::compute(&back).unwrap());
        assert_eq!(a.frequencies, b.frequencies, "{query}\n{python}");
        assert!(python.contains("ROPE_INIT_FUNCTIONS") || python.contains("inv_freq = 1.0 /"), "{python}");
    }
}

#[test]
fn a_rope_block_pasted_with_its_key_says_what_it_leaves_too() {
    // Llama 3.1's block as it sits in config.json, key and all: it names no base, head size or
    // layout, so the lab's stay, and the reading says so (it once mixed in silently).
    let keyed = r#""rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192, "rope_type": "llama3"},"#;
    let mut state = LabState::from_query("base=10000&dim=64&layout=interleaved").state;
    let reading = read_config(keyed).unwrap();
    assert!(
        reading.skipped.iter().any(|s| s.starts_with("a rope_scaling block alone has no rope_theta or head_dim")),
        "{:?}",
        reading.skipped
    );
    state.apply_config(&reading);
    assert_eq!((state.base, state.dim, state.layout, state.scaling), (10000.0, 64, Layout::Interleaved, ScalingMethod::Llama3));
    // With its base beside it: only the head and the layout are left as they were.
    let reading = read_config(&format!("{keyed} \"rope_theta\": 500000.0")).unwrap();
    assert!(reading.skipped.iter().any(|s| s.contains("has no head_dim:") && !s.contains("rope_theta")), "{:?}", reading.skipped);
    // A model's config says its layout, and the reading says which it took.
    let reading = read_config(r#"{"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 500000.0}"#).unwrap();
    assert!(reading.read.iter().any(|r| r.contains("rotate_half")), "{:?}", reading.read);
    let mut state = LabState::from_query("layout=interleaved").state;
    state.apply_config(&reading);
    assert_eq!((state.dim, state.layout), (128, Layout::Half));
}

#[test]
fn a_pasted_deepseek_config_says_its_rope_is_decoupled() {
    // As the preset's note says it: d is the part of each query and key RoPE turns.
    let text = include_str!("../src/state/presets/deepseek-v3.json");
    let reading = read_config(text).unwrap();
    let said = reading.read.iter().find(|r| r.contains("decoupled RoPE")).unwrap_or_else(|| panic!("{:?}", reading.read));
    let v: Value = serde_json::from_str(text).unwrap();
    assert!(said.contains(&format!("{}-dimension part", v["qk_rope_head_dim"])), "{said}");
    assert!(said.contains(&format!("{} dimensions without position", v["qk_nope_head_dim"])), "{said}");
}
