//! Check your own RoPE (issue 47): each known mistake, made by a small RoPE written here from
//! RoFormer (eq. 34) and transformers' rotate_half (not from the page's code), is named with
//! what was found; a right answer, in f64, f32 or bf16, is never called wrong; pastes are read
//! as numpy, torch and JSON print them, and garbage says what was read.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rope_lab::state::LabState;
use rope_lab::verifier::diagnose::diagnose;
use rope_lab::verifier::parse::read_paste;
use rope_lab::verifier::{test_input, TestInput};

/// A mistake, as an implementation makes it.
#[derive(Clone, Copy, Default)]
struct Mistake {
    other_layout: bool,
    sign: Option<f64>,
    swap: bool,
    shift: i64,
    base: Option<f64>,
    exponent_one: bool,
    /// Planes that turn (the first n), when fewer than all.
    planes: Option<usize>,
    /// Positions divided by this.
    linear: Option<f64>,
    bf16_angles: bool,
    fp16_angles: bool,
}

/// bf16 rounding (round to nearest even on 8 significant bits), written out.
fn bf16(x: f64) -> f64 {
    round_bits(x, 8)
}

/// IEEE half rounding (11 significant bits; the test's values stay far inside its range).
fn fp16(x: f64) -> f64 {
    round_bits(x, 11)
}

fn round_bits(x: f64, bits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let e = x.abs().log2().floor();
    let ulp = 2f64.powf(e - f64::from(bits - 1));
    let q = x / ulp;
    let r = q.round();
    let r = if (q - q.trunc()).abs() == 0.5 { 2.0 * (q / 2.0).round() } else { r };
    r * ulp
}

/// The test input rotated by an implementation with `mistake`, for a state without scaling.
fn their_rope(input: &TestInput, half_layout: bool, mistake: Mistake) -> Vec<Vec<f64>> {
    let d = input.dim;
    let base = mistake.base.unwrap_or(input.base);
    let half = if mistake.other_layout { !half_layout } else { half_layout };
    let turning = mistake.planes.unwrap_or(d / 2);
    let rd = 2 * turning;
    input
        .x
        .iter()
        .zip(&input.positions)
        .map(|(x, p)| {
            let mut out = x.clone();
            let position = (*p + mistake.shift) as f64 / mistake.linear.unwrap_or(1.0);
            for i in 0..turning {
                let exponent = if mistake.exponent_one { i as f64 / rd as f64 } else { 2.0 * i as f64 / rd as f64 };
                let theta = base.powf(-exponent);
                let angle = if mistake.bf16_angles {
                    bf16(bf16(position) * bf16(theta))
                } else if mistake.fp16_angles {
                    fp16(fp16(position) * fp16(theta))
                } else {
                    position * theta
                };
                let (mut c, mut s) = (angle.cos(), mistake.sign.unwrap_or(1.0) * angle.sin());
                if mistake.swap {
                    std::mem::swap(&mut c, &mut s);
                }
                let (a, b) = if half { (i, i + rd / 2) } else { (2 * i, 2 * i + 1) };
                out[a] = x[a] * c - x[b] * s;
                out[b] = x[a] * s + x[b] * c;
            }
            out
        })
        .collect()
}

fn input(query: &str) -> (TestInput, bool) {
    let state = LabState::from_query(query).state;
    let input = test_input(&state).expect("a test input");
    let half = input.layout.as_str() == "half";
    (input, half)
}

/// The verdict on the mistake's output, the same whether it is pasted in f64 or in f32.
fn verdict(query: &str, mistake: Mistake) -> String {
    let (input, half) = input(query);
    let output = their_rope(&input, half, mistake);
    let in_f32: Vec<Vec<f64>> = output.iter().map(|r| r.iter().map(|v| *v as f32 as f64).collect()).collect();
    let (exact, rounded) = (diagnose(&input, &output).verdict, diagnose(&input, &in_f32).verdict);
    assert_eq!(exact, rounded, "{query}: f64 and f32 outputs");
    exact
}

#[test]
fn the_test_input_has_rows_of_d_numbers_at_positions_from_0_past_orig() {
    let (input, _) = input("dim=16&orig=4096");
    assert_eq!(input.x.len(), input.positions.len());
    assert!(input.x.iter().all(|r| r.len() == 16 && r.iter().all(|v| v.abs() <= 1.0)));
    for p in [0, 1, 300, 3000, 4096] {
        assert!(input.positions.contains(&p), "{p} in {:?}", input.positions);
    }
    let json = input.json();
    for key in ["\"positions\"", "\"x\"", "\"dim\": 16", "\"base\": 10000", "\"layout\": \"interleaved\""] {
        assert!(json.contains(key), "{key} in {json}");
    }
    // The same rows whatever the base: a paste stays comparable while settings change.
    assert_eq!(input.x, self::input("dim=16&orig=4096&base=500000").0.x);
    assert!(input.python().contains("positions = [0, 1, 7, 300, 3000, 4096]"));
}

#[test]
fn each_mistake_is_named_with_what_was_found() {
    for query in ["dim=16", "dim=64&layout=half", "dim=128&base=500000", "dim=32&base=1000000&layout=half"] {
        let cases: Vec<(Mistake, &str)> = vec![
            (Mistake::default(), "match"),
            (Mistake { other_layout: true, ..Mistake::default() }, "layout"),
            (Mistake { sign: Some(-1.0), ..Mistake::default() }, "direction"),
            (Mistake { swap: true, ..Mistake::default() }, "cos-sin"),
            (Mistake { shift: 1, ..Mistake::default() }, "offset:1"),
            (Mistake { shift: -2, ..Mistake::default() }, "offset:-2"),
            (Mistake { exponent_one: true, ..Mistake::default() }, "exponent"),
            (Mistake { linear: Some(4.0), ..Mistake::default() }, "linear:4"),
            (Mistake { bf16_angles: true, ..Mistake::default() }, "precision:bf16"),
            (Mistake { fp16_angles: true, ..Mistake::default() }, "precision:fp16"),
        ];
        for (mistake, want) in cases {
            assert_eq!(verdict(query, mistake), want, "{query}");
        }
        // Another base: found to the precision the paste allows.
        let own_base = LabState::from_query(query).state.base;
        let other = if own_base == 10000.0 { 500000.0 } else { 10000.0 };
        assert_eq!(verdict(query, Mistake { base: Some(other), ..Mistake::default() }), format!("base:{other}"), "{query}");
        // Partial rotary: half of the planes turn.
        let d = LabState::from_query(query).state.dim;
        assert_eq!(verdict(query, Mistake { planes: Some(d / 4), ..Mistake::default() }), "partial:0.5", "{query}");
        // Two at once: the other layout and another base.
        assert_eq!(
            verdict(query, Mistake { other_layout: true, base: Some(other), ..Mistake::default() }),
            format!("layout+base:{other}"),
            "{query}"
        );
    }
}

#[test]
fn an_ntk_aware_base_change_is_named_by_its_factor() {
    // NTK-aware scaling multiplies the base by s^(d/(d − 2)) (bloc97, 2023): a base no config
    // writes, found as the round factor behind it.
    for (query, d) in [("dim=64", 64.0), ("dim=128&layout=half", 128.0)] {
        let base = 10000.0 * 4f64.powf(d / (d - 2.0));
        assert_eq!(verdict(query, Mistake { base: Some(base), ..Mistake::default() }), "ntk:4", "{query}");
    }
}

#[test]
fn use_these_settings_names_the_parameters_found() {
    let (input, half) = input("dim=64");
    let d = diagnose(&input, &their_rope(&input, half, Mistake { base: Some(500000.0), ..Mistake::default() }));
    assert_eq!(d.settings, vec![("base", "500000".to_string())]);
    let d = diagnose(&input, &their_rope(&input, half, Mistake { other_layout: true, ..Mistake::default() }));
    assert_eq!(d.settings, vec![("layout", "half".to_string())]);
    assert!(d.max_error < 1e-9, "{}", d.max_error);
    // A mismatch guesses nothing.
    let mut noise = their_rope(&input, half, Mistake::default());
    noise[3][5] += 0.5;
    let d = diagnose(&input, &noise);
    assert_eq!(d.verdict, "mismatch");
    assert!(d.settings.is_empty());
    assert!(d.per_row[3] >= 0.5 && d.per_row[0] < 1e-9);
    assert!(d.per_plane[2] >= 0.5, "dimension 5 is in plane 2 (interleaved): {:?}", d.per_plane);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A right answer, as f64, as f32 or rounded to bf16, is never called wrong, over the
    /// states the URL allows (d, base, layout, orig).
    #[test]
    fn a_right_answer_is_never_called_wrong(
        half_dim in 1usize..=64,
        base in 2.0f64..1e7,
        half in any::<bool>(),
        orig in 16u64..200_000,
        rounding in 0usize..3,
    ) {
        let query = format!("dim={}&base={base}&layout={}&orig={orig}", 2 * half_dim, if half { "half" } else { "interleaved" });
        let (input, half) = input(&query);
        let right = their_rope(&input, half, Mistake::default());
        let pasted: Vec<Vec<f64>> = right
            .iter()
            .map(|r| r.iter().map(|v| match rounding { 0 => *v, 1 => *v as f32 as f64, _ => bf16(*v) }).collect())
            .collect();
        let d = diagnose(&input, &pasted);
        prop_assert_eq!(d.verdict.as_str(), "match", "{} ({})", query, d.text);
        prop_assert!(d.max_error.is_finite());
    }
}

#[test]
fn pastes_are_read_as_numpy_torch_and_json_print_them() {
    let want = vec![vec![0.5, -1.25e-3], vec![3.0, -4.0]];
    let pastes = [
        "[[0.5, -0.00125], [3, -4]]",
        "array([[ 5.000e-01, -1.250e-03],\n       [ 3.000e+00, -4.000e+00]], dtype=float32)",
        "tensor([[[ 0.5000, -0.00125],\n         [ 3.0000, -4.0000]]], device='cuda:0', dtype=torch.bfloat16,\n       grad_fn=<CatBackward0>)",
        "[[[[0.5, -0.00125], [3.0, -4.0]]]]",
        "0.5 -0.00125\n3 -4",
        "[[0.5 −0.00125]\n [3. −4.]]",
    ];
    for paste in pastes {
        assert_eq!(read_paste(paste, 2, 2), Ok(want.clone()), "{paste}");
    }
    let message = |text: &str| read_paste(text, 2, 2).unwrap_err().to_string();
    assert!(message("hello, world").contains("'hello' is not a number"), "{}", message("hello, world"));
    assert!(message("[[0.5, nan], [1, 2]]").contains("NaN"));
    // Counted from the paste's first character, tensor( included.
    assert!(message("tensor([[1, oops], [1, 2]])").contains("at character 13"), "{}", message("tensor([[1, oops], [1, 2]])"));
    assert!(message("[[0.5, 1], [1, 2], [3, 4]]").contains("read 3 rows of 2 numbers; expected 2 rows of 2"));
    assert!(message("[[0.5, 1], [1, 2").contains("cut short"));
    assert!(message("[[0.5, ...], [1, 2]]").contains("tolist"));
    assert!(message("").contains("nothing"));
}
