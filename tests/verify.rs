//! Check your own RoPE (src/verify): each known mistake made by a small RoPE written here
//! (RoFormer eq. 34 over the rotating dimensions, interleaved or rotate_half pairs), in f64 and in
//! f32, for both layouts, several d and bases, must get its verdict with the right k, b, r or s;
//! a right answer, exact or rounded to f32, fp16 or bf16, is never called wrong; pastes are read
//! as numpy, torch and JSON print them.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rope_lab::state::LabState;
use rope_lab::verify::diagnose::diagnose;
use rope_lab::verify::parse::read_paste;
use rope_lab::verify::{test_input, TestInput};

/// A number format's rounding, written out: to `bits` significant bits, ties to even, with the
/// format's smallest normal exponent (subnormals below it).
fn round_bits(x: f64, bits: i32, min_exponent: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let e = (x.abs().log2().floor() as i32).max(min_exponent);
    let step = 2f64.powi(e - bits + 1);
    (x / step).round_ties_even() * step
}
fn bf16(x: f64) -> f64 {
    round_bits(x, 8, -126)
}
fn fp16(x: f64) -> f64 {
    round_bits(x, 11, -14)
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Angles {
    Exact,
    Bf16,
    Fp16,
}

/// How this test's RoPE is (mis)written.
#[derive(Clone, Copy, Debug)]
struct Rope {
    half: bool,
    base: f64,
    /// Rotating dimensions r (the rest pass through).
    rotary: usize,
    /// θᵢ = b^(−2i/r); false: b^(−i/r), the exponent's 2 forgotten.
    two: bool,
    sign: f64,
    swap: bool,
    shift: i64,
    /// Positions divided by it (linear scaling).
    divide: f64,
    /// NTK-aware factor: base × s^(r/(r−2)).
    ntk: f64,
    angles: Angles,
    /// Everything in f32 (θᵢ, the angle, cos, sin, the products), as float32 code does.
    f32: bool,
    /// x, cos, sin, each product and the sum rounded to a format (a bf16 or fp16 model whose
    /// angles are computed in float32).
    ops: Option<fn(f64) -> f64>,
}

impl Rope {
    fn new(half: bool, base: f64, d: usize) -> Self {
        Rope {
            half,
            base,
            rotary: d,
            two: true,
            sign: 1.0,
            swap: false,
            shift: 0,
            divide: 1.0,
            ntk: 1.0,
            angles: Angles::Exact,
            f32: false,
            ops: None,
        }
    }

    fn theta(&self, i: usize) -> f64 {
        let r = self.rotary as f64;
        let base = if self.ntk != 1.0 { self.base * self.ntk.powf(r / (r - 2.0)) } else { self.base };
        let exponent = if self.two { 2.0 * i as f64 / r } else { i as f64 / r };
        base.powf(-exponent) / self.divide
    }

    fn row(&self, x: &[f64], position: i64) -> Vec<f64> {
        let mut out = x.to_vec();
        let r = self.rotary;
        for i in 0..r / 2 {
            let (a, b) = if self.half { (i, i + r / 2) } else { (2 * i, 2 * i + 1) };
            let p = (position + self.shift) as f64;
            let theta = self.theta(i);
            let angle = match self.angles {
                Angles::Exact => p * theta,
                Angles::Bf16 => bf16(bf16(p) * bf16(theta)),
                Angles::Fp16 => fp16(fp16(p) * fp16(theta)),
            };
            if self.f32 {
                let angle = match self.angles {
                    Angles::Exact => p as f32 * theta as f32,
                    _ => angle as f32,
                };
                let (mut c, mut s) = (angle.cos(), self.sign as f32 * angle.sin());
                if self.swap {
                    std::mem::swap(&mut c, &mut s);
                }
                let (xa, xb) = (x[a] as f32, x[b] as f32);
                out[a] = (xa * c - xb * s) as f64;
                out[b] = (xa * s + xb * c) as f64;
            } else {
                let (mut c, mut s) = (angle.cos(), self.sign * angle.sin());
                if self.swap {
                    std::mem::swap(&mut c, &mut s);
                }
                if let Some(r) = self.ops {
                    let (xa, xb, c, s) = (r(x[a]), r(x[b]), r(c), r(s));
                    out[a] = r(r(xa * c) - r(xb * s));
                    out[b] = r(r(xa * s) + r(xb * c));
                } else {
                    out[a] = x[a] * c - x[b] * s;
                    out[b] = x[a] * s + x[b] * c;
                }
            }
        }
        out
    }

    fn run(&self, input: &TestInput) -> Vec<Vec<f64>> {
        input.x.iter().zip(&input.positions).map(|(x, p)| self.row(x, *p)).collect()
    }
}

fn input(query: &str) -> TestInput {
    test_input(&LabState::from_query(query).state).expect("a test input")
}

fn round_all(out: &[Vec<f64>], f: fn(f64) -> f64) -> Vec<Vec<f64>> {
    out.iter().map(|r| r.iter().map(|v| f(*v)).collect()).collect()
}

fn f32_all(v: f64) -> f64 {
    v as f32 as f64
}

/// The verdict on `rope`'s output for the state `query`, checked the same in f64, rounded to f32
/// and computed in f32 from the start (angles included).
fn verdict(query: &str, rope: Rope) -> String {
    let input = input(query);
    let out = rope.run(&input);
    let exact = diagnose(&input, &out);
    let rounded = diagnose(&input, &round_all(&out, f32_all));
    assert_eq!(exact.verdict, rounded.verdict, "{query}: f64 and f32 pastes of {rope:?}");
    let computed = diagnose(&input, &Rope { f32: true, ..rope }.run(&input));
    assert_eq!(exact.verdict, computed.verdict, "{query}: f64 and f32 code of {rope:?}");
    assert!(exact.max_error.is_finite() && exact.max_error < 0.05, "{query} {rope:?}: {exact:?}");
    exact.verdict
}

/// Checks the verdict on `mistake`: `name` when its output differs from `right`'s by more than
/// any rounding (0.1), "match" when within rounding (0.01), either in between (angles in a
/// short format can round back to nearly the right ones).
fn check_visible(query: &str, mistake: Rope, right: Rope, name: &str) {
    let input = input(query);
    let (a, b) = (mistake.run(&input), right.run(&input));
    let worst = a.iter().flatten().zip(b.iter().flatten()).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
    let got = verdict(query, mistake);
    if worst > 0.1 {
        assert_eq!(got, name, "{query}: differs by {worst}");
    } else if worst < 0.01 {
        assert_eq!(got, "match", "{query}: differs by {worst}");
    } else {
        assert!(got == name || got == "match", "{query}: {got} for {name}, which differs by {worst}");
    }
}

const DIMS: [usize; 4] = [8, 32, 64, 128];
const BASES: [f64; 3] = [10_000.0, 500_000.0, 1e6];

fn each_state(mut check: impl FnMut(&str, bool, f64, usize)) {
    for half in [false, true] {
        for d in DIMS {
            for base in BASES {
                let query = format!("dim={d}&base={base}&layout={}", if half { "half" } else { "interleaved" });
                check(&query, half, base, d);
            }
        }
    }
}

#[test]
fn expected_is_the_rotation_written_here() {
    for (query, rope) in [
        ("dim=8&base=10000", Rope::new(false, 10_000.0, 8)),
        ("dim=64&base=500000&layout=half", Rope::new(true, 500_000.0, 64)),
        ("dim=64&layout=half&partial=0.5", Rope { rotary: 32, ..Rope::new(true, 10_000.0, 64) }),
        ("dim=32&partial=0.25", Rope { rotary: 8, ..Rope::new(false, 10_000.0, 32) }),
        ("dim=32&scaling=linear&factor=4", Rope { divide: 4.0, ..Rope::new(false, 10_000.0, 32) }),
        ("dim=32&scaling=ntk&factor=4&layout=half", Rope { ntk: 4.0, ..Rope::new(true, 10_000.0, 32) }),
    ] {
        let input = input(query);
        let page = input.expected().unwrap();
        let ours = rope.run(&input);
        for (a, b) in page.iter().flatten().zip(ours.iter().flatten()) {
            assert!((a - b).abs() < 1e-9, "{query}: {a} against {b}");
        }
        assert_eq!(diagnose(&input, &ours).verdict, "match", "{query}");
    }
}

#[test]
fn the_test_input_is_short_exact_and_says_its_settings() {
    let input = input("dim=16&scaling=linear&factor=2&orig=2048&partial=0.5");
    assert_eq!(input.positions, vec![0, 1, 7, 300, 2048, 3001]);
    assert_eq!(input.x.len(), 6);
    for v in input.x.iter().flatten() {
        assert!(v.abs() <= 1.0 && ((v * 1e4).round() - v * 1e4).abs() < 1e-9, "{v}");
    }
    let json = input.json();
    assert!(json.starts_with("{\"positions\": [0, 1, 7, 300, 2048, 3001], \"x\": [["), "{json}");
    for part in [
        "\"dim\": 16",
        "\"base\": 10000.0",
        "\"layout\": \"interleaved\"",
        "\"rope_scaling\": {\"rope_type\": \"linear\", \"factor\": 2.0}",
        "\"partial_rotary_factor\": 0.5",
    ] {
        assert!(json.contains(part), "{part} in {json}");
    }
    let plain = self::input("dim=8&layout=half");
    assert_eq!(plain.positions, vec![0, 1, 7, 300, 3001, 10_001]);
    assert!(!plain.json().contains("rope_scaling") && plain.json().contains("\"layout\": \"half\""));
    // The same d gives the same rows whatever else changes; the JSON's rows read back as x.
    assert_eq!(plain.x, self::input("dim=8&base=500000").x);
    let python = plain.python();
    assert!(
        python.contains("your_rope(")
            && python.contains("print(out.tolist())")
            && python.contains("positions = [0, 1, 7, 300, 3001, 10001]")
    );
    let rows = python.split("x = [").nth(1).unwrap().split("\n]").next().unwrap();
    assert_eq!(read_paste(&format!("[{rows}]"), 6, 8).unwrap(), plain.x);
}

#[test]
fn a_right_answer_is_a_match() {
    each_state(|query, half, base, d| {
        let input = input(query);
        let rope = Rope::new(half, base, d);
        assert_eq!(verdict(query, rope), "match");
        for (name, f) in [("bf16", bf16 as fn(f64) -> f64), ("fp16", fp16)] {
            assert_eq!(diagnose(&input, &round_all(&rope.run(&input), f)).verdict, "match", "{query} in {name}");
            let model = Rope { ops: Some(f), ..rope }.run(&input);
            assert_eq!(diagnose(&input, &model).verdict, "match", "{query}: a {name} model");
        }
        let in_f32 = diagnose(&input, &Rope { f32: true, ..rope }.run(&input));
        assert_eq!(in_f32.verdict, "match", "{query} computed in f32");
        assert!(in_f32.text.contains("float32"), "{}", in_f32.text);
    });
}

#[test]
fn the_other_layout_direction_and_cos_sin() {
    each_state(|query, half, base, d| {
        let rope = Rope::new(half, base, d);
        assert_eq!(verdict(query, Rope { half: !half, ..rope }), "layout", "{query}");
        assert_eq!(verdict(query, Rope { sign: -1.0, ..rope }), "direction", "{query}");
        assert_eq!(verdict(query, Rope { swap: true, ..rope }), "cos-sin", "{query}");
        assert_eq!(verdict(query, Rope { half: !half, sign: -1.0, ..rope }), "layout+direction", "{query}");
    });
}

#[test]
fn shifted_positions_name_k() {
    each_state(|query, half, base, d| {
        let rope = Rope::new(half, base, d);
        for k in [1, -1, 3, 17, 250] {
            assert_eq!(verdict(query, Rope { shift: k, ..rope }), format!("offset:{k}"), "{query}");
        }
        assert_eq!(verdict(query, Rope { shift: 1, half: !half, ..rope }), "layout+offset:1", "{query}");
    });
}

#[test]
fn another_base_is_found_and_rounded() {
    each_state(|query, half, base, d| {
        let rope = Rope::new(half, base, d);
        for theirs in [10_000.0, 500_000.0, 1e6, 123_456.0] {
            if theirs == base {
                continue;
            }
            assert_eq!(verdict(query, Rope { base: theirs, ..rope }), format!("base:{theirs}"), "{query}");
        }
        assert_eq!(verdict(query, Rope { base: 500_000.0 * 1.5, half: !half, ..rope }), "layout+base:750000", "{query}");
    });
}

#[test]
fn exponent_partial_linear_ntk_and_precision() {
    each_state(|query, half, base, d| {
        let rope = Rope::new(half, base, d);
        assert_eq!(verdict(query, Rope { two: false, ..rope }), "exponent", "{query}");
        assert_eq!(verdict(query, Rope { rotary: d / 2, ..rope }), "partial:0.5", "{query}");
        assert_eq!(verdict(query, Rope { rotary: d / 4, ..rope }), "partial:0.25", "{query}");
        assert_eq!(verdict(query, Rope { divide: 4.0, ..rope }), "linear:4", "{query}");
        assert_eq!(verdict(query, Rope { divide: 2.5, ..rope }), "linear:2.5", "{query}");
        assert_eq!(verdict(query, Rope { ntk: 4.0, ..rope }), "ntk:4", "{query}");
        for (angles, name) in [(Angles::Bf16, "precision:bf16"), (Angles::Fp16, "precision:fp16")] {
            check_visible(query, Rope { angles, ..rope }, rope, name);
        }
        assert_eq!(verdict(query, Rope { rotary: d / 2, half: !half, ..rope }), "layout+partial:0.5", "{query}");
    });
}

/// Pasted in bf16, a mistake keeps its name; a fitted base keeps its first digits.
#[test]
fn mistakes_pasted_in_bf16() {
    for half in [false, true] {
        for (d, base) in [(8, 10_000.0), (64, 500_000.0), (128, 1e6)] {
            let query = format!("dim={d}&base={base}&layout={}", if half { "half" } else { "interleaved" });
            let input = input(&query);
            let rope = Rope::new(half, base, d);
            let named = |mistake: Rope| diagnose(&input, &round_all(&mistake.run(&input), bf16)).verdict;
            assert_eq!(named(Rope { half: !half, ..rope }), "layout", "{query}");
            assert_eq!(named(Rope { sign: -1.0, ..rope }), "direction", "{query}");
            assert_eq!(named(Rope { swap: true, ..rope }), "cos-sin", "{query}");
            assert_eq!(named(Rope { shift: 1, ..rope }), "offset:1", "{query}");
            assert_eq!(named(Rope { two: false, ..rope }), "exponent", "{query}");
            assert_eq!(named(Rope { rotary: d / 2, ..rope }), "partial:0.5", "{query}");
            assert_eq!(named(Rope { divide: 4.0, ..rope }), "linear:4", "{query}");
            assert_eq!(named(Rope { base: 250_000.0, ..rope }), "base:250000", "{query}");
            let found = named(Rope { base: 123_456.0, half: !half, ..rope });
            let b: f64 = found.strip_prefix("layout+base:").unwrap_or_else(|| panic!("{query}: {found}")).parse().unwrap();
            assert!((b / 123_456.0 - 1.0).abs() < 1e-3, "{query}: {found}");
        }
    }
}

#[test]
fn what_precision_a_match_shows() {
    let input = input("dim=64&layout=half");
    let rope = Rope::new(true, 10_000.0, 64);
    let text = |out: Vec<Vec<f64>>| diagnose(&input, &out).text;
    assert!(text(rope.run(&input)).contains("f64"));
    assert!(text(round_all(&rope.run(&input), f32_all)).contains("float32"));
    assert!(text(round_all(&rope.run(&input), fp16)).contains("float16"));
    assert!(text(round_all(&rope.run(&input), bf16)).contains("bfloat16"));
    let printed = round_all(&rope.run(&input), |v| (v * 1e4).round() / 1e4);
    assert!(text(printed).contains("4 decimals"));
}

#[test]
fn partial_rotary_the_other_way_and_yarn() {
    // The page rotates half the head; the paste rotates all of it.
    let query = "dim=32&partial=0.5";
    let d = diagnose(&input(query), &Rope::new(false, 10_000.0, 32).run(&input(query)));
    assert_eq!((d.verdict.as_str(), d.settings), ("partial:1", vec![("partial", "1".to_string())]));
    // YaRN's attention factor scales the rotating dimensions only; left out, the scaling is "linear:1".
    let yarn = input("dim=64&scaling=yarn&factor=4&orig=2048");
    let json = yarn.json();
    assert!(json.contains("\"rope_type\": \"yarn\"") && json.contains("\"attention_factor\": "), "{json}");
    assert_eq!(yarn.positions.last(), Some(&3001));
    assert!(yarn.positions.contains(&2048));
    let d = diagnose(&yarn, &Rope::new(false, 10_000.0, 64).run(&yarn));
    assert_eq!(d.verdict, "linear:1");
    assert_eq!(diagnose(&yarn, &yarn.expected().unwrap()).verdict, "match");
}

#[test]
fn a_scaling_left_out_or_added() {
    for half in [false, true] {
        let layout = if half { "half" } else { "interleaved" };
        let plain = Rope::new(half, 10_000.0, 64);
        let linear = format!("dim=64&layout={layout}&scaling=linear&factor=4");
        assert_eq!(verdict(&linear, plain), "linear:1");
        let d = diagnose(&input(&linear), &plain.run(&input(&linear)));
        assert_eq!(d.settings, vec![("scaling", "none".to_string())]);
        assert_eq!(verdict(&linear, Rope { divide: 8.0, ..plain }), "linear:8");
        let ntk = format!("dim=64&layout={layout}&scaling=ntk&factor=4");
        assert_eq!(verdict(&ntk, plain), "ntk:1");
        let none = format!("dim=64&layout={layout}");
        let d = diagnose(&input(&none), &Rope { divide: 2.0, ..plain }.run(&input(&none)));
        assert_eq!((d.verdict.as_str(), d.settings), ("linear:2", vec![("scaling", "linear".into()), ("factor", "2".into())]));
    }
}

#[test]
fn settings_and_errors_are_usable() {
    let query = "dim=32";
    let input = input(query);
    let rope = Rope::new(false, 10_000.0, 32);
    let d = diagnose(&input, &Rope { base: 500_000.0, half: true, ..rope }.run(&input));
    assert_eq!(d.verdict, "layout+base:500000");
    assert_eq!(d.settings, vec![("layout", "half".to_string()), ("base", "500000".to_string())]);
    assert_eq!((d.per_plane.len(), d.per_row.len()), (16, 6));
    assert!(d.max_error < 1e-9, "{}", d.max_error);
    assert!(d.text.contains("500,000") && d.text.contains("2i with 2i+1"), "{}", d.text);
    let shifted = diagnose(&input, &Rope { shift: 1, ..rope }.run(&input));
    assert!(shifted.text.contains("start at 1"), "{}", shifted.text);
    let ntk = diagnose(&input, &Rope { ntk: 4.0, ..rope }.run(&input));
    // 10,000 × 4^(32/30), written out.
    let base = format!("{}", (10_000.0 * 4f64.powf(32.0 / 30.0)).round() as u64);
    let grouped = format!("{},{}", &base[..base.len() - 3], &base[base.len() - 3..]);
    assert!(ntk.text.contains(&grouped), "{} in {}", grouped, ntk.text);
    // Something no mistake makes: every value doubled past position 0.
    let odd: Vec<Vec<f64>> =
        rope.run(&input).iter().enumerate().map(|(t, r)| r.iter().map(|v| if t > 2 { v * -0.5 + 0.3 } else { *v }).collect()).collect();
    let d = diagnose(&input, &odd);
    assert_eq!(d.verdict, "mismatch");
    assert!(d.settings.is_empty() && d.max_error.is_finite() && d.max_error > 0.1);
    assert_eq!(d.per_row[0], 0.0);
    assert!(d.text.contains("agree"), "{}", d.text);
    // A wrong shape or non-finite numbers never panic.
    assert_eq!(diagnose(&input, &[vec![1.0; 3]]).verdict, "mismatch");
    assert_eq!(diagnose(&input, &vec![vec![f64::NAN; 32]; 6]).verdict, "mismatch");
}

// --- reading pastes ---

fn numbers(rows: usize, dim: usize) -> Vec<Vec<f64>> {
    (0..rows).map(|t| (0..dim).map(|j| ((t * dim + j) as f64 - 10.0) / 8.0).collect()).collect()
}

#[test]
fn reads_numpy_torch_json_and_nested() {
    let want = numbers(2, 3);
    let cases = [
        "[[-1.25, -1.125, -1.0], [-0.875, -0.75, -0.625]]".to_string(),
        "array([[-1.25 , -1.125, -1.   ],\n       [-0.875, -0.75 , -0.625]], dtype=float32)".to_string(),
        "[[-1.25  -1.125 -1.   ]\n [-0.875 -0.75  -0.625]]".to_string(),
        "tensor([[[[-1.2500, -1.1250, -1.0000],\n          [-0.8750, -0.7500, -0.6250]]]], device='cuda:0',\n       dtype=torch.bfloat16, grad_fn=<AddBackward0>)".to_string(),
        "tensor([[-1.25e+00, -1.125E0, -1e0], [-8.75e-01, -7.5e-1, -6.25e-01]], requires_grad=True)".to_string(),
        "{\"output\": [[[-1.25, -1.125, -1.0], [-0.875, -0.75, -0.625]]]}".to_string(),
        "Out[7]: array([[-1.25, -1.125, -1.0], [-0.875, -0.75, -0.625]])".to_string(),
        "-1.25 -1.125 -1.0\n-0.875 -0.75 -0.625\n".to_string(),
        "[[−1.25, −1.125, −1.0], [−0.875, −0.75, −0.625]]".to_string(),
        "[[np.float32(-1.25), np.float32(-1.125), np.float32(-1.0)], [np.float32(-0.875), np.float32(-0.75), np.float32(-0.625)]]".to_string(),
        "array([[-1.25, -1.125, -1.], [-0.875, -0.75, -0.625]], shape=(2, 3), dtype=float32)".to_string(),
        "[[-1.25, -1.125, -1.0,], [-0.875, -0.75, -0.625,],]".to_string(),
        "[[[-1.25, -1.125], [-1.0, -0.875]], [[-0.75, -0.625], [-0.5, -0.375]]]".to_string(),
    ];
    for (i, case) in cases.iter().enumerate() {
        let last = i == cases.len() - 1;
        let dim = if last { 4 } else { 3 };
        let want = if last { numbers(2, 4) } else { want.clone() };
        assert_eq!(read_paste(case, 2, dim).as_ref(), Ok(&want), "{case}");
    }
    // A head axis after the positions (Meta's [batch, seq, heads, d]).
    assert_eq!(read_paste("[[[-1.25, -1.125, -1.0]], [[-0.875, -0.75, -0.625]]]", 2, 3), Ok(want));
}

#[test]
fn messages_say_what_was_read_and_what_was_expected() {
    let e = read_paste("[[1, 2, 3], [4, 5, 6]]", 6, 64).unwrap_err().to_string();
    assert_eq!(e, "read 2 rows of 3 numbers; expected 6 rows of 64 numbers (the test input's T × d)");
    let e = read_paste("[[1, 2, abc]]", 1, 3).unwrap_err().to_string();
    assert!(e.starts_with("'abc' at character 9 is not a number"), "{e}");
    let e = read_paste("[[1, nan, 3]]", 1, 3).unwrap_err().to_string();
    assert!(e.contains("'nan' at character 6") && e.contains("not a finite"), "{e}");
    let e = read_paste("[[1, -inf, 3]]", 1, 3).unwrap_err().to_string();
    assert!(e.contains("'-inf'") && e.contains("not a finite"), "{e}");
    let e = read_paste("[[1, 2], [3]]", 2, 2).unwrap_err().to_string();
    assert!(e.contains("different lengths (2, 1)"), "{e}");
    let e = read_paste("[[1, 2], [3, 4]", 2, 2).unwrap_err().to_string();
    assert!(e.contains("bracket at character 1"), "{e}");
    let e = read_paste("tensor([[ 0.1, 0.2, ..., 0.9]])", 1, 64).unwrap_err().to_string();
    assert!(e.contains("leaves numbers out"), "{e}");
    let e = read_paste("   ", 6, 64).unwrap_err().to_string();
    assert!(e.starts_with("nothing to read"), "{e}");
    let e = read_paste("[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]", 2, 2).unwrap_err().to_string();
    assert!(e.contains("shape 2 × 2 × 2"), "{e}");
    let e = read_paste("1.2.3", 1, 1).unwrap_err().to_string();
    assert!(e.starts_with("'1.2.3' at character 1"), "{e}");
    for garbage in ["hello world", "[[1, 2; drop table]]", "🙂", "[[1e999]]", "((((", "]]]"] {
        assert!(read_paste(garbage, 1, 2).is_err(), "{garbage}");
    }
}

// --- properties ---

fn state() -> impl Strategy<Value = String> {
    (1usize..=64, 1.0001f64..1e9, any::<bool>(), 0usize..8, 1.0f64..16.0, prop_oneof![Just(1.0), Just(0.5), Just(0.25)], 2u64..200_000)
        .prop_map(|(half_dim, base, half, method, factor, partial, orig)| {
            let methods = ["none", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "proportional"];
            format!(
                "dim={}&base={base}&layout={}&scaling={}&factor={factor}&partial={partial}&orig={orig}",
                2 * half_dim,
                if half { "half" } else { "interleaved" },
                methods[method]
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The page's own result, exact or rounded to f32, fp16 or bf16, is always "match".
    #[test]
    fn a_right_answer_is_never_called_wrong(query in state(), format in 0usize..4) {
        let parsed = LabState::from_query(&query);
        let Ok(input) = test_input(&parsed.state) else { return Ok(()) };
        let expected = input.expected().unwrap();
        let paste = match format {
            0 => expected,
            1 => round_all(&expected, f32_all),
            2 => round_all(&expected, fp16),
            _ => round_all(&expected, bf16),
        };
        let d = diagnose(&input, &paste);
        prop_assert_eq!(&d.verdict, "match", "{} in format {}: {}", query, format, d.text);
        prop_assert!(d.max_error.is_finite() && d.per_plane.iter().chain(&d.per_row).all(|v| v.is_finite()));
        prop_assert!(d.settings.is_empty());
    }

    /// A right answer computed in f32 from scratch (angles too) by plain RoPE is "match" at any d and base.
    #[test]
    fn f32_code_is_right(half_dim in 1usize..=64, base in 1.0001f64..1e9, half in any::<bool>()) {
        let d = 2 * half_dim;
        let input = input(&format!("dim={d}&base={base}&layout={}", if half { "half" } else { "interleaved" }));
        let out = Rope { f32: true, ..Rope::new(half, input.base, d) }.run(&input);
        prop_assert_eq!(diagnose(&input, &out).verdict, "match");
    }

    /// A visible mistake is never called right, and what it is called reproduces the paste: the
    /// named ones by name, the fitted ones by a value that fits (a base of √b and the forgotten
    /// 2 are the same numbers, as are an NTK factor and the base it makes).
    #[test]
    fn a_visible_mistake_is_named(
        half_dim in 2usize..=48,
        base in 100.0f64..1e8,
        half in any::<bool>(),
        which in 0usize..8,
        k in -4i64..=4,
        theirs in 100.0f64..1e8,
    ) {
        let d = 2 * half_dim;
        let query = format!("dim={d}&base={base}&layout={}", if half { "half" } else { "interleaved" });
        let input = input(&query);
        let right = Rope::new(half, input.base, d);
        let (mistake, name) = match which {
            0 => (Rope { half: !half, ..right }, "layout"),
            1 => (Rope { sign: -1.0, ..right }, "direction"),
            2 => (Rope { swap: true, ..right }, "cos-sin"),
            3 => (Rope { shift: if k == 0 { 2 } else { k }, ..right }, "offset"),
            4 => (Rope { base: theirs, ..right }, "base"),
            5 => (Rope { two: false, ..right }, "exponent"),
            6 => (Rope { rotary: 2 * (half_dim / 2).max(1), ..right }, "partial"),
            _ => (Rope { divide: 1.0 + (k + 5) as f64 / 2.0, ..right }, "linear"),
        };
        let (out, page) = (mistake.run(&input), right.run(&input));
        let worst = out.iter().flatten().zip(page.iter().flatten()).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        prop_assume!(worst > 0.1);
        let d = diagnose(&input, &out);
        prop_assert!(d.verdict != "match" && d.verdict != "mismatch", "{} {}: {}", query, name, d.text);
        prop_assert!(d.max_error < 0.05, "{} {}: {:?}", query, name, d);
        if which < 4 {
            prop_assert!(d.verdict.starts_with(name), "{} {}: {}", query, name, d.verdict);
        }
    }

    /// Whatever is pasted, the diagnosis is finite and never panics.
    #[test]
    fn any_paste_gets_a_finite_diagnosis(values in proptest::collection::vec(-1e6f64..1e6, 6 * 16)) {
        let input = input("dim=16");
        let paste: Vec<Vec<f64>> = values.chunks(16).map(<[f64]>::to_vec).collect();
        let d = diagnose(&input, &paste);
        prop_assert!(d.max_error.is_finite());
        prop_assert!(!d.text.contains("NaN") && !d.text.contains("inf"));
    }

    /// What numpy prints of a table reads back as that table.
    #[test]
    fn printed_tables_read_back(values in proptest::collection::vec(-10.0f64..10.0, 12), sci in any::<bool>()) {
        let rows: Vec<Vec<f64>> = values.chunks(4).map(<[f64]>::to_vec).collect();
        let show = |v: &f64| if sci { format!("{v:e}") } else { format!("{v}") };
        let text = format!(
            "array([{}], dtype=float32)",
            rows.iter().map(|r| format!("[{}]", r.iter().map(show).collect::<Vec<_>>().join(", "))).collect::<Vec<_>>().join(",\n       ")
        );
        prop_assert_eq!(read_paste(&text, 3, 4), Ok(rows));
    }
}
