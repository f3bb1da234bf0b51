//! SmolLM2-135M (its GGUF file, Q4_1) against an independent implementation:
//! `tests/model/smollm2_reference.py` (numpy in f64, Hugging Face's `tokenizers`), whose outputs
//! are `tests/fixtures/smollm2.json`, never the weights.
//!
//! The page computes in f32 from the same Q4_1 weights the reference dequantises exactly in f64,
//! so what differs is f32's rounding: sums of 576 to 1,536 products per number, over 30
//! layers. The tolerances below are about ten times the largest difference measured on these
//! texts (printed by each test with `--nocapture`: 1e-5 for a loss, 1e-7 to 3e-6 for attention,
//! 3e-5 for a logit), and far below what any view shows (losses and attention to two decimals).
//!
//! The file is not in the repository: these tests look for it in $ROPELAB_MODEL_DIR,
//! `models/smollm2-135m/` (`make model`) and `../shared/models/smollm2-135m/`, and say in one
//! line that they did not run when none has it.

use rope_lab::model::llama::{Hooks, LlamaModel};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::OnceLock;

const FILE: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";

fn model_path() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let named = std::env::var_os("ROPELAB_MODEL_DIR").map(PathBuf::from);
    [
        named.as_ref().map(|d| d.join("smollm2-135m")),
        named.clone(),
        Some(root.join("models/smollm2-135m")),
        Some(root.join("../shared/models/smollm2-135m")),
    ]
    .into_iter()
    .flatten()
    .map(|d| d.join(FILE))
    .find(|f| f.exists())
}

fn model() -> Option<&'static LlamaModel> {
    static MODEL: OnceLock<Option<LlamaModel>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let Some(path) = model_path() else {
                eprintln!("SmolLM2 tests did not run: {FILE} is not in $ROPELAB_MODEL_DIR, models/smollm2-135m/ or ../shared/models/smollm2-135m/ (run `make model`)");
                return None;
            };
            Some(LlamaModel::from_gguf(std::fs::read(path).unwrap()).expect("SmolLM2's file reads"))
        })
        .as_ref()
}

fn reference() -> &'static Value {
    static REFERENCE: OnceLock<Value> = OnceLock::new();
    REFERENCE.get_or_init(|| serde_json::from_str(include_str!("fixtures/smollm2.json")).unwrap())
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

fn ids(v: &Value) -> Vec<u32> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect()
}

/// The largest |a − b| over two lists of the same length.
fn largest_difference(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max)
}

/// The paragraph's reading with every plane turning, shared by the tests.
fn paragraph() -> Option<&'static rope_lab::model::llama::Reading> {
    static READING: OnceLock<Option<rope_lab::model::llama::Reading>> = OnceLock::new();
    READING.get_or_init(|| model().map(|m| m.read(&ids(&reference()["paragraph"]["ids"]), Hooks::default(), true))).as_ref()
}

#[test]
fn token_ids_and_pieces_are_the_references() {
    let Some(m) = model() else { return };
    for case in reference()["tokens"].as_array().unwrap() {
        let text = case["text"].as_str().unwrap();
        let want = ids(&case["ids"]);
        assert_eq!(m.encode(text), want, "{text:?}");
        for (id, hex) in want.iter().zip(case["pieces"].as_array().unwrap()) {
            let bytes: Vec<u8> = (0..hex.as_str().unwrap().len() / 2)
                .map(|i| u8::from_str_radix(&hex.as_str().unwrap()[2 * i..2 * i + 2], 16).unwrap())
                .collect();
            assert_eq!(m.tokenizer.piece(*id), bytes.as_slice(), "piece {id} of {text:?}");
        }
        assert_eq!(m.tokenizer.decode(&want), text);
    }
}

#[test]
fn the_check_texts_losses_logits_and_greedy_continuation() {
    let Some(m) = model() else { return };
    let check = &reference()["check"];
    let tokens = ids(&check["ids"]);
    let mut r = m.read(&tokens, Hooks::default(), false);
    let losses: Vec<f64> = r.losses()[1..].iter().map(|&l| l as f64).collect();
    let d = largest_difference(&losses, &numbers(&check["losses"]));
    eprintln!("check: loss {} (reference {}), largest per-token difference {d:.2e}", r.loss(), check["loss"]);
    assert!(d < 1e-4, "per-token losses differ by {d}");
    assert!((r.loss() - check["loss"].as_f64().unwrap()).abs() < 2e-5);
    // The logits themselves at three positions: the text up to the position read, then the
    // token at the position fed as a continuation would be (the second path through the code).
    let mut worst: f64 = 0.0;
    for at in check["logits"].as_array().unwrap() {
        let position = at["position"].as_u64().unwrap() as usize;
        let mut prefix = m.read(&tokens[..position], Hooks::default(), false);
        let logits = m.feed(&mut prefix, tokens[position]);
        let picked: Vec<f64> = ids(&at["ids"]).iter().map(|&i| logits[i as usize] as f64).collect();
        worst = worst.max(largest_difference(&picked, &numbers(&at["values"])));
        let max = logits.iter().fold(f32::MIN, |a, &b| a.max(b)) as f64;
        let lse = max + logits.iter().map(|&v| (v as f64 - max).exp()).sum::<f64>().ln();
        worst = worst.max((lse - at["logsumexp"].as_f64().unwrap()).abs());
        // The reference's best candidate is the page's.
        assert_eq!(argmax(&logits), ids(&at["ids"])[0], "position {position}");
    }
    eprintln!("logits at three positions within {worst:.2e} of the reference's");
    assert!(worst < 2e-4, "logits differ by {worst}");
    let greedy = ids(&check["greedy"]["ids"]);
    let mut next = r.top(tokens.len() - 1).unwrap()[0].0;
    let mut written = Vec::new();
    for _ in 0..greedy.len() {
        written.push(next);
        let logits = m.feed(&mut r, next);
        next = argmax(&logits);
    }
    assert_eq!(written, greedy, "{:?}", m.tokenizer.decode(&written));
    assert_eq!(m.tokenizer.decode(&written), check["greedy"]["text"].as_str().unwrap());
}

fn argmax(v: &[f32]) -> u32 {
    let mut best = 0;
    for (i, &x) in v.iter().enumerate() {
        if x > v[best] {
            best = i;
        }
    }
    best as u32
}

#[test]
fn every_heads_previous_and_first_token_attention() {
    let (Some(m), Some(r)) = (model(), paragraph()) else { return };
    let p = &reference()["paragraph"];
    let c = &m.config;
    let (mut prev, mut first): (f64, f64) = (0.0, 0.0);
    for l in 0..c.n_layers {
        for h in 0..c.n_heads {
            prev = prev.max((r.head_prev(c, l, h) - p["heads_prev"][l][h].as_f64().unwrap()).abs());
            first = first.max((r.head_first(c, l, h) - p["heads_first"][l][h].as_f64().unwrap()).abs());
        }
    }
    eprintln!(
        "paragraph: loss {} (reference {}); heads' previous-token attention within {prev:.2e}, first-token {first:.2e}",
        r.loss(),
        p["loss"]
    );
    assert!(prev < 2e-5 && first < 2e-5);
    assert!((r.loss() - p["loss"].as_f64().unwrap()).abs() < 2e-5);
    let losses: Vec<f64> = r.losses()[1..].iter().map(|&l| l as f64).collect();
    assert!(largest_difference(&losses, &numbers(&p["losses"])) < 1e-4);
    let next: Vec<u32> = r.top(r.len() - 1).unwrap().iter().map(|&(id, _)| id).collect();
    assert_eq!(next, ids(&p["next"]["ids"]));
    let probs: Vec<f64> = r.top(r.len() - 1).unwrap().iter().map(|&(_, p)| p as f64).collect();
    assert!(largest_difference(&probs, &numbers(&p["next"]["probs"])) < 1e-5);
}

#[test]
fn plane_shares_and_attention_maps() {
    let (Some(m), Some(r)) = (model(), paragraph()) else { return };
    let p = &reference()["paragraph"];
    let c = &m.config;
    let mut share: f64 = 0.0;
    for l in 0..c.n_layers {
        for h in 0..c.n_heads {
            share = share.max(largest_difference(&r.plane_share(c, l, h), &numbers(&p["plane_share"][l][h])));
        }
    }
    let mut map: f64 = 0.0;
    for head in p["attention"].as_array().unwrap() {
        let (l, h) = (head["layer"].as_u64().unwrap() as usize, head["head"].as_u64().unwrap() as usize);
        let rows = r.attention(c, l, h);
        for (row, want) in rows.iter().zip(head["weights"].as_array().unwrap()) {
            let row: Vec<f64> = row.iter().map(|&w| w as f64).collect();
            map = map.max(largest_difference(&row, &numbers(want)));
        }
    }
    eprintln!("plane shares within {share:.2e}; attention maps within {map:.2e}");
    assert!(share < 1e-5 && map < 1e-5);
}

#[test]
fn losses_with_planes_off() {
    let Some(m) = model() else { return };
    let p = &reference()["paragraph"];
    let tokens = ids(&p["ids"]);
    let mut worst: f64 = 0.0;
    for (i, want) in numbers(&p["group_off_loss"]).iter().enumerate() {
        worst = worst.max((m.loss(&tokens, Hooks::default().with_off(8 * i..8 * i + 8)) - want).abs());
    }
    for (range, planes) in [("0-3", 0..4), ("16-31", 16..32), ("0-31", 0..32), ("8", 8..9)] {
        worst = worst.max((m.loss(&tokens, Hooks::default().with_off(planes)) - p["off_loss"][range].as_f64().unwrap()).abs());
    }
    let off = m.read(&tokens, Hooks::default().with_off(0..4), true);
    let prev = off.head_prev(&m.config, 16, 0);
    eprintln!("losses with planes off within {worst:.2e}; head (16, 0) previous-token with planes 0-3 off {prev:.4}");
    assert!(worst < 1e-4);
    assert!((prev - p["prev_16_0_off_0_3"].as_f64().unwrap()).abs() < 2e-5);
}

/// RoPE's relative property in a real model: every position shifted by 100,000 reads the same
/// up to f32's rounding of the rotations' cosines and sines (the angles are exact in f64).
#[test]
fn a_text_shifted_by_a_hundred_thousand_reads_the_same() {
    let (Some(m), Some(plain)) = (model(), paragraph()) else { return };
    let p = &reference()["paragraph"];
    let shifted = m.read(&ids(&p["ids"]), Hooks { offset: 100_000, off: 0 }, true);
    let c = &m.config;
    let mut heads: f64 = 0.0;
    for l in 0..c.n_layers {
        for h in 0..c.n_heads {
            heads = heads.max((shifted.head_prev(c, l, h) - p["offset_heads_prev"][l][h].as_f64().unwrap()).abs());
        }
    }
    let change = (shifted.loss() - plain.loss()).abs();
    eprintln!("offset 100,000: loss {} (change {change:.2e}), heads within {heads:.2e}", shifted.loss());
    assert!((shifted.loss() - p["offset_loss"].as_f64().unwrap()).abs() < 2e-5);
    assert!(heads < 2e-5 && change < 2e-5);
}

#[test]
fn wavelengths_and_the_planes_that_turn_within_the_trained_context() {
    let Some(m) = model() else { return };
    let wavelengths: Vec<f64> = m.inv_freq().iter().map(|&t| rope_lab::rope::wavelength(t).unwrap()).collect();
    let want = numbers(&reference()["wavelengths"]);
    for (w, r) in wavelengths.iter().zip(&want) {
        assert!((w / r - 1.0).abs() < 1e-12, "{w} against {r}");
    }
    let turning = wavelengths.iter().filter(|&&w| w <= m.config.context as f64).count();
    assert_eq!(turning as u64, reference()["turning_planes"].as_u64().unwrap());
    assert_eq!((m.config.planes(), m.config.n_layers, m.config.n_heads, m.config.context), (32, 30, 9, 8192));
}
