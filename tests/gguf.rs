//! GGUF files the tests make themselves: a small llama model in every supported tensor type
//! reads and computes finite numbers; hostile files (cut anywhere, wrong magic, impossible
//! counts and offsets, unknown types, another architecture, a vocabulary that does not match
//! the embedding) are typed errors, never a panic or an allocation without bound.

use proptest::prelude::*;
use rope_lab::model::gguf::Gguf;
use rope_lab::model::llama::{Hooks, LlamaModel};
use rope_lab::model::ModelError;

/// A metadata value as the tests write it.
enum Meta {
    U32(u32),
    F32(f32),
    Bool(bool),
    Str(String),
    Strs(Vec<String>),
    I32s(Vec<i32>),
}

fn string(out: &mut Vec<u8>, s: &str) {
    out.extend((s.len() as u64).to_le_bytes());
    out.extend(s.as_bytes());
}

/// The bytes of a GGUF v3 file, and the offsets where each section ends (for cutting).
fn write(meta: &[(&str, Meta)], tensors: &[(&str, Vec<u64>, u32, Vec<u8>)]) -> (Vec<u8>, Vec<usize>) {
    let mut out = b"GGUF".to_vec();
    out.extend(3u32.to_le_bytes());
    out.extend((tensors.len() as u64).to_le_bytes());
    out.extend((meta.len() as u64).to_le_bytes());
    let mut ends = vec![out.len()];
    for (key, value) in meta {
        string(&mut out, key);
        match value {
            Meta::U32(v) => out.extend(4u32.to_le_bytes().into_iter().chain(v.to_le_bytes())),
            Meta::F32(v) => out.extend(6u32.to_le_bytes().into_iter().chain(v.to_le_bytes())),
            Meta::Bool(v) => out.extend(7u32.to_le_bytes().into_iter().chain([*v as u8])),
            Meta::Str(s) => {
                out.extend(8u32.to_le_bytes());
                string(&mut out, s);
            }
            Meta::Strs(items) => {
                out.extend(9u32.to_le_bytes().into_iter().chain(8u32.to_le_bytes()).chain((items.len() as u64).to_le_bytes()));
                items.iter().for_each(|s| string(&mut out, s));
            }
            Meta::I32s(items) => {
                out.extend(9u32.to_le_bytes().into_iter().chain(5u32.to_le_bytes()).chain((items.len() as u64).to_le_bytes()));
                items.iter().for_each(|v| out.extend(v.to_le_bytes()));
            }
        }
        ends.push(out.len());
    }
    let mut offset = 0u64;
    for (name, dims, kind, data) in tensors {
        string(&mut out, name);
        out.extend((dims.len() as u32).to_le_bytes());
        dims.iter().for_each(|d| out.extend(d.to_le_bytes()));
        out.extend(kind.to_le_bytes());
        out.extend(offset.to_le_bytes());
        offset += (data.len() as u64).div_ceil(32) * 32;
        ends.push(out.len());
    }
    out.resize(out.len().div_ceil(32) * 32, 0);
    for (_, _, _, data) in tensors {
        out.extend(data);
        out.resize(out.len().div_ceil(32) * 32, 0);
        ends.push(out.len());
    }
    (out, ends)
}

/// Deterministic small numbers.
fn noise(seed: u64, n: usize) -> Vec<f32> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.2
        })
        .collect()
}

fn f16(v: f32) -> [u8; 2] {
    // Round-to-nearest f16 of a small normal number (the tests' scales are between 1e-4 and 1).
    let bits = v.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let mant = ((bits >> 13) & 0x3ff) as u16;
    (sign | ((exp.clamp(1, 30) as u16) << 10) | mant).to_le_bytes()
}

/// `values` (rows of `cols`) in ggml type `kind`: 0 F32, 1 F16, 2 Q4_0, 3 Q4_1, 8 Q8_0, 30 BF16.
fn encode(kind: u32, values: &[f32]) -> Vec<u8> {
    let mut out = Vec::new();
    match kind {
        0 => values.iter().for_each(|v| out.extend(v.to_le_bytes())),
        1 => values.iter().for_each(|v| out.extend(f16(*v))),
        30 => values.iter().for_each(|v| out.extend(((v.to_bits() >> 16) as u16).to_le_bytes())),
        _ => {
            for block in values.chunks(32) {
                let max = block.iter().fold(1e-4f32, |m, v| m.max(v.abs()));
                match kind {
                    8 => {
                        out.extend(f16(max / 127.0));
                        out.extend(block.iter().map(|v| (v / (max / 127.0)).round() as i8 as u8));
                    }
                    2 => {
                        out.extend(f16(max / 8.0));
                        let q = |v: f32| ((v / (max / 8.0)).round() + 8.0).clamp(0.0, 15.0) as u8;
                        out.extend((0..16).map(|j| q(block[j]) | (q(block[j + 16]) << 4)));
                    }
                    _ => {
                        let min = block.iter().fold(f32::MAX, |m, v| m.min(*v));
                        let d = (block.iter().fold(f32::MIN, |m, v| m.max(*v)) - min).max(1e-4) / 15.0;
                        out.extend(f16(d));
                        out.extend(f16(min));
                        let q = |v: f32| ((v - min) / d).round().clamp(0.0, 15.0) as u8;
                        out.extend((0..16).map(|j| q(block[j]) | (q(block[j + 16]) << 4)));
                    }
                }
            }
        }
    }
    out
}

/// GPT-2's byte characters (the vocabulary's first 256 tokens).
fn byte_chars() -> Vec<String> {
    let mut next = 256u32;
    (0..256u32)
        .map(|b| {
            let printable = (0x21..=0x7e).contains(&b) || (0xa1..=0xac).contains(&b) || (0xae..=0xff).contains(&b);
            let c = if printable {
                b
            } else {
                next += 1;
                next - 1
            };
            char::from_u32(c).unwrap().to_string()
        })
        .collect()
}

/// A small llama model: 2 layers, 4 heads over 2 key/value heads of 16 dimensions (8 planes),
/// its matrices in the six supported types, a byte-level vocabulary of 256 bytes, 3 merges and
/// one control token.
fn small_model(architecture: &str) -> (Vec<u8>, Vec<usize>) {
    let (dim, hidden, layers, heads, kv, hd) = (64u64, 96u64, 2, 4u64, 2u64, 16u64);
    let mut tokens = byte_chars();
    let merges = ["Ġ t", "h e", "Ġt he"];
    tokens.extend(["Ġt", "he", "Ġthe", "<|end|>"].map(String::from));
    let mut types = vec![1; tokens.len()];
    *types.last_mut().unwrap() = 3;
    let vocab = tokens.len() as u64;
    let meta = vec![
        ("general.architecture", Meta::Str(architecture.into())),
        ("llama.block_count", Meta::U32(layers)),
        ("llama.embedding_length", Meta::U32(dim as u32)),
        ("llama.feed_forward_length", Meta::U32(hidden as u32)),
        ("llama.attention.head_count", Meta::U32(heads as u32)),
        ("llama.attention.head_count_kv", Meta::U32(kv as u32)),
        ("llama.rope.dimension_count", Meta::U32(hd as u32)),
        ("llama.rope.freq_base", Meta::F32(10000.0)),
        ("llama.context_length", Meta::U32(256)),
        ("llama.attention.layer_norm_rms_epsilon", Meta::F32(1e-5)),
        ("tokenizer.ggml.model", Meta::Str("gpt2".into())),
        ("tokenizer.ggml.pre", Meta::Str("smollm".into())),
        ("tokenizer.ggml.tokens", Meta::Strs(tokens)),
        ("tokenizer.ggml.token_type", Meta::I32s(types)),
        ("tokenizer.ggml.merges", Meta::Strs(merges.map(String::from).to_vec())),
        ("tokenizer.ggml.add_bos_token", Meta::Bool(false)),
    ];
    let kinds = [0u32, 1, 2, 3, 8, 30];
    let mut tensors = vec![("token_embd.weight".to_string(), vec![dim, vocab], 8u32, encode(8, &noise(1, (dim * vocab) as usize)))];
    let mut seed = 2;
    for l in 0..layers {
        let shapes = [
            ("attn_q", dim, heads * hd),
            ("attn_k", dim, kv * hd),
            ("attn_v", dim, kv * hd),
            ("attn_output", heads * hd, dim),
            ("ffn_gate", dim, hidden),
            ("ffn_up", dim, hidden),
            ("ffn_down", hidden, dim),
        ];
        for (i, (name, cols, rows)) in shapes.into_iter().enumerate() {
            let kind = kinds[(i + l as usize) % kinds.len()];
            seed += 1;
            tensors.push((format!("blk.{l}.{name}.weight"), vec![cols, rows], kind, encode(kind, &noise(seed, (cols * rows) as usize))));
        }
        for name in ["attn_norm", "ffn_norm"] {
            tensors.push((format!("blk.{l}.{name}.weight"), vec![dim], 0, encode(0, &vec![1.0; dim as usize])));
        }
    }
    tensors.push(("output_norm.weight".into(), vec![dim], 0, encode(0, &vec![1.0; dim as usize])));
    let tensors: Vec<(&str, Vec<u64>, u32, Vec<u8>)> = tensors.iter().map(|(n, d, k, b)| (n.as_str(), d.clone(), *k, b.clone())).collect();
    write(&meta, &tensors)
}

#[test]
fn a_small_model_in_every_tensor_type_reads_and_computes() {
    let (bytes, _) = small_model("llama");
    let model = LlamaModel::from_gguf(bytes).expect("the small model reads");
    assert_eq!((model.config.planes(), model.config.n_layers, model.config.vocab_size), (8, 2, 260));
    let ids = model.encode("the the<|end|> 42");
    assert_eq!(model.tokenizer.decode(&ids), "the the<|end|> 42");
    assert!(ids.contains(&258) && ids.contains(&259), "the merges and the control token: {ids:?}");
    let r = model.read(&ids, Hooks::default(), true);
    assert!(r.loss().is_finite() && r.loss() > 0.0);
    let share: f64 = r.plane_share(&model.config, 1, 3).iter().sum();
    assert!((share - 1.0).abs() < 1e-9);
    // Shifting every position leaves the reading as it was, up to f32's rounding.
    let shifted = model.read(&ids, Hooks { offset: 1_000_000, off: 0 }, true);
    assert!((shifted.loss() - r.loss()).abs() < 1e-4, "{} against {}", shifted.loss(), r.loss());
}

#[test]
fn a_file_cut_anywhere_is_a_typed_error() {
    let (bytes, ends) = small_model("llama");
    let mut cuts: Vec<usize> = ends.iter().flat_map(|&e| [e.saturating_sub(1), e, e + 1]).collect();
    cuts.extend((0..bytes.len()).step_by(997));
    for cut in cuts.into_iter().filter(|&c| c < bytes.len()) {
        let result = LlamaModel::from_gguf(bytes[..cut].to_vec());
        assert!(result.is_err(), "a file cut at {cut} of {} read", bytes.len());
    }
}

#[test]
fn what_is_not_supported_is_named() {
    let (bytes, _) = small_model("qwen2");
    assert_eq!(LlamaModel::from_gguf(bytes).unwrap_err(), ModelError::Unsupported { what: "architecture", name: "qwen2".into() });
    let mut bytes = small_model("llama").0;
    bytes[..4].copy_from_slice(b"GGML");
    assert_eq!(LlamaModel::from_gguf(bytes).unwrap_err(), ModelError::NotGguf);
    // A tensor of type Q4_K (12): named in the error.
    let (bytes, _) = write(&[], &[("blk.0.attn_q.weight", vec![256, 1], 12, vec![0; 144])]);
    match Gguf::read(&bytes) {
        Err(ModelError::Unsupported { what: "tensor type", name }) => assert!(name.contains("Q4_K"), "{name}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn impossible_counts_and_offsets_are_refused() {
    // A tensor count of 2^62 with nothing after it.
    let mut huge = b"GGUF".to_vec();
    huge.extend(3u32.to_le_bytes());
    huge.extend((1u64 << 62).to_le_bytes());
    huge.extend(0u64.to_le_bytes());
    assert!(matches!(Gguf::read(&huge), Err(ModelError::BadHeader { .. })));
    // An array claiming 2^40 strings.
    let mut array = b"GGUF".to_vec();
    array.extend(3u32.to_le_bytes().into_iter().chain(0u64.to_le_bytes()).chain(1u64.to_le_bytes()));
    string(&mut array, "tokenizer.ggml.tokens");
    array.extend(9u32.to_le_bytes().into_iter().chain(8u32.to_le_bytes()).chain((1u64 << 40).to_le_bytes()));
    assert!(matches!(Gguf::read(&array), Err(ModelError::BadHeader { .. })));
    // A tensor whose data would lie past the file's end.
    let (bytes, _) = write(&[], &[("x", vec![32, 4], 0, vec![0; 64])]);
    assert!(matches!(Gguf::read(&bytes), Err(ModelError::BadTensor { .. })));
    // Dimensions whose product overflows.
    let (bytes, _) = write(&[], &[("x", vec![1 << 40, 1 << 40], 0, vec![0; 32])]);
    assert!(matches!(Gguf::read(&bytes), Err(ModelError::BadTensor { .. })));
}

#[test]
fn a_vocabulary_that_does_not_match_the_embedding_is_refused() {
    let (mut bytes, _) = small_model("llama");
    // token_embd's second dimension (260 tokens) read as 261: find it after its name.
    let name = b"token_embd.weight";
    let at = bytes.windows(name.len()).position(|w| w == name).unwrap() + name.len() + 4 + 8;
    bytes[at..at + 8].copy_from_slice(&259u64.to_le_bytes());
    assert!(LlamaModel::from_gguf(bytes).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any bytes changed in the header and tensor table: a model or a typed error.
    #[test]
    fn a_header_with_bytes_changed_never_panics(changes in proptest::collection::vec((0usize..4096, any::<u8>()), 1..8)) {
        let (mut bytes, _) = small_model("llama");
        let header = Gguf::read(&bytes).unwrap().tensors.iter().map(|t| t.start).min().unwrap();
        for (at, value) in changes {
            let at = at % header;
            bytes[at] = value;
        }
        if let Ok(model) = LlamaModel::from_gguf(bytes) {
            let r = model.read(&model.encode("the end"), Hooks::default(), true);
            prop_assert!(r.loss().is_finite() || r.loss().is_nan());
        }
    }

    /// Random bytes after the magic: never a panic.
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut file = b"GGUF\x03\0\0\0".to_vec();
        file.extend(bytes);
        let _ = Gguf::read(&file);
        let _ = LlamaModel::from_gguf(file);
    }
}
