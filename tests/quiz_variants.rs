//! The questions of layouts, 2D RoPE and precision (src/quiz/variants.rs), checked against
//! independent computations over random reachable states: rotate_half written out as
//! transformers applies it (partial rotary included), axial 2D RoPE's score written out plane
//! by plane, and rounding to p significant bits, ties to even, in integer arithmetic.

use proptest::prelude::*;
use rope_lab::quiz::variants::{half_partner, move_of_both, shift_2d, stored_position};
use rope_lab::quiz::Question;
use rope_lab::rope::{Format, Rope2d, RopeParams};
use rope_lab::state::{Derived, LabState};

fn state(query: &str) -> LabState {
    LabState::from_query(query).state
}

/// The choices' values are distinct, at least two, and the right one among them.
fn well_formed(q: &Question) -> Result<(), TestCaseError> {
    let values: Vec<&String> = q.choices.iter().map(|(v, _)| v).collect();
    prop_assert!(values.len() >= 2, "{:?}", q);
    let mut sorted = values.clone();
    sorted.sort();
    sorted.dedup();
    prop_assert_eq!(sorted.len(), values.len(), "distinct choices: {:?}", q);
    prop_assert!(values.contains(&&q.right), "the answer is offered: {:?}", q);
    Ok(())
}

// ---------------------------------------------------------------- half-partner

/// transformers: `rotary_ndims = int(head_dim * partial_rotary_factor)`; q_rot = q[..., :r],
/// rotate_half(q_rot) = cat(−q_rot[r/2:], q_rot[:r/2]). The dimension a one-hot e₀ is sent to
/// by rotate_half is its partner. (`proportional` pairs the whole head: r = d.)
fn rotate_half_partner_of_0(d: usize, r: usize) -> usize {
    let mut x = vec![0.0; d];
    x[0] = 1.0;
    let (x1, x2) = x[..r].split_at(r / 2);
    let rotated: Vec<f64> = x2.iter().map(|v| -v).chain(x1.iter().copied()).collect();
    rotated.iter().position(|v| *v != 0.0).unwrap()
}

fn asked_half_partner(s: &LabState) -> (Question, usize) {
    let derived = Derived::compute(s).unwrap();
    (half_partner(s.dim, derived.frequencies.rotary_dim, s.partial), derived.frequencies.rotary_dim)
}

#[test]
fn half_partner_with_gpt_neox_partial_rotary() {
    let s = state("preset=gpt-neox-20b");
    assert_eq!((s.dim, s.partial), (96, 0.25));
    let (q, r) = asked_half_partner(&s);
    assert_eq!(r, 24);
    assert_eq!(q.right, "12");
    // What everything before points to, d/2 = 48, is offered as a wrong choice; the question
    // says the partner is counted among the 24 rotating dimensions.
    assert!(q.choices.iter().any(|(v, _)| v == "48"));
    assert!(q.ask.contains("the first 24") && q.ask.contains("partial_rotary_factor = 0.25"), "{}", q.ask);
    assert!(q.why.contains("i + 12") && q.why.contains("72"), "{}", q.why);
}

/// One rotating plane (rotary_dim = 2): both layouts pair 0 with 1, so the why draws no contrast
/// with the interleaved layout.
#[test]
fn half_partner_with_one_rotating_plane() {
    let s = state("dim=64&partial=0.03125&layout=half");
    let (q, r) = asked_half_partner(&s);
    assert_eq!(r, 2);
    assert_eq!(q.right, "1");
    assert!(!q.why.contains("would pair 0 with 1"), "{}", q.why);
    assert!(q.why.contains("either layout") && q.why.contains("62 dimensions do not turn"), "{}", q.why);
}

#[test]
fn half_partner_at_d_2_still_has_two_choices() {
    let (q, _) = asked_half_partner(&state("dim=2"));
    assert_eq!(q.right, "1");
    assert_eq!(q.choices.len(), 2);
    let (q, _) = asked_half_partner(&state("dim=64"));
    assert_eq!(q.right, "32");
}

const METHODS: [&str; 8] = ["none", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "proportional"];

proptest! {
    #[test]
    fn half_partner_is_rotate_halfs(planes in 1usize..=512, partial in 0.001f64..=1.0, method in 0usize..8, half in any::<bool>()) {
        let layout = if half { "half" } else { "interleaved" };
        let s = state(&format!("dim={}&partial={partial}&scaling={}&layout={layout}", 2 * planes, METHODS[method]));
        let (q, r) = asked_half_partner(&s);
        // r as transformers computes it from the state's d and partial (after any correction).
        let expected_r = if METHODS[method] == "proportional" { s.dim } else { (s.dim as f64 * s.partial) as usize };
        prop_assert_eq!(r, expected_r);
        let partner = rotate_half_partner_of_0(s.dim, expected_r);
        prop_assert_eq!(q.right.clone(), partner.to_string());
        well_formed(&q)?;
        // The why contrasts rotate_half with the interleaved layout only where they differ.
        prop_assert_eq!(q.why.contains("interleaved"), partner != 1, "{}", q.why);
        if expected_r < s.dim {
            prop_assert!(q.ask.contains(&format!("the first {expected_r})")), "{}", q.ask);
            prop_assert!(q.choices.iter().any(|(v, _)| *v == (s.dim / 2).to_string()), "d/2 offered: {:?}", q.choices);
        } else {
            prop_assert!(!q.ask.contains("partial_rotary_factor"), "{}", q.ask);
        }
        // Every numeric choice is a dimension of the head other than 0.
        for (v, _) in &q.choices {
            if let Ok(dim) = v.parse::<usize>() {
                prop_assert!(dim >= 1 && dim < s.dim, "{} of d = {}", dim, s.dim);
            }
        }
    }
}

// ---------------------------------------------------------------- shift-2d

/// The key patch moved one column towards the query: the step (±1), the axial score before and
/// after, and the larger of the two sizes.
fn key_step(base: f64, q: &[f64], k: &[f64], query: (i64, i64), key: (i64, i64)) -> (i64, f64, f64, f64) {
    let dx = (query.0 - key.0).signum();
    let before = axial_score(base, q, k, (key.0 - query.0, key.1 - query.1));
    let after = axial_score(base, q, k, (key.0 + dx - query.0, key.1 - query.1));
    (dx, before, after, before.abs().max(after.abs()))
}

/// Axial 2D RoPE's score written out: planes 0..⌈P/2⌉ turn with x, the rest with y, each axis
/// with θₐ = b^(−a/A) over its A planes; plane i of q and k is (2i, 2i+1), and its share is the
/// dot product of q's part in the plane with k's part turned by the offset's angle.
fn axial_score(base: f64, q: &[f64], k: &[f64], offset: (i64, i64)) -> f64 {
    let planes = q.len() / 2;
    let x_planes = planes.div_ceil(2);
    let y_planes = planes - x_planes;
    (0..planes)
        .map(|i| {
            let angle = if i < x_planes {
                offset.0 as f64 * base.powf(-(i as f64) / x_planes as f64)
            } else {
                offset.1 as f64 * base.powf(-((i - x_planes) as f64) / y_planes as f64)
            };
            let (a, b, c, d) = (q[2 * i], q[2 * i + 1], k[2 * i], k[2 * i + 1]);
            // k's part in the plane turned by angle, dotted with q's.
            let (kc, kd) = (c * angle.cos() - d * angle.sin(), c * angle.sin() + d * angle.cos());
            a * kc + b * kd
        })
        .sum()
}

fn inside(p: (i64, i64)) -> bool {
    (0..8).contains(&p.0) && (0..8).contains(&p.1)
}

/// The move of both a question names, from its words.
fn named_move(ask: &str) -> (i64, i64) {
    let dx = if ask.contains("column right") {
        1
    } else if ask.contains("column left") {
        -1
    } else {
        0
    };
    let dy = if ask.contains("row down") {
        1
    } else if ask.contains("row up") {
        -1
    } else {
        0
    };
    (dx, dy)
}

#[test]
fn shift_2d_moves_only_within_the_grid() {
    // The default patches: one column right and one row down fits.
    assert_eq!(move_of_both((2, 5), (5, 3)).map(|m| (m.0, m.1)), Some((1, 1)));
    // A patch in the last column and one in the last row: left and up.
    assert_eq!(move_of_both((7, 2), (3, 7)).map(|m| (m.0, m.1)), Some((-1, -1)));
    // Columns 0 and 7: only a move along the rows fits.
    assert_eq!(move_of_both((0, 3), (7, 4)).map(|m| (m.0, m.1)), Some((0, 1)));
    // Opposite corners: nothing fits.
    assert_eq!(move_of_both((0, 0), (7, 7)), None);
    assert_eq!(move_of_both((7, 0), (0, 7)), None);
}

#[test]
fn shift_2d_at_d_2_says_y_has_no_plane() {
    let rope = Rope2d::new(RopeParams::new(10_000.0, 2).unwrap());
    let q = shift_2d(&rope, &[1.0, 0.5], &[0.3, -0.7], (2, 5), (5, 3));
    assert_eq!(q.right, "stay");
    assert!(q.why.contains("no plane is left for y") && q.why.contains("ignores Δy"), "{}", q.why);
    // And indeed: at d = 2 the score does not see Δy.
    let s = |dy| axial_score(10_000.0, &[1.0, 0.5], &[0.3, -0.7], (3, dy));
    assert_eq!(s(-2), s(5));
}

proptest! {
    #[test]
    fn shift_2d_in_opposite_corners_moves_the_key((dim, qv, kv) in vectors(), log_base in 0.01f64..9.0, corner in 0usize..4) {
        let base = 10f64.powf(log_base);
        let rope = Rope2d::new(RopeParams::new(base, dim).unwrap());
        let (query, key) = [((0, 0), (7, 7)), ((7, 7), (0, 0)), ((7, 0), (0, 7)), ((0, 7), (7, 0))][corner];
        let question = shift_2d(&rope, &qv, &kv, query, key);
        well_formed(&question)?;
        let (qp, kp) = ((query.0 as i64, query.1 as i64), (key.0 as i64, key.1 as i64));
        let (dx, before, after, scale) = key_step(base, &qv, &kv, qp, kp);
        prop_assert!(question.ask.contains(&format!("to column {}, row {}", kp.0 + dx, kp.1)), "{}", question.ask);
        if (after - before).abs() > 1e-5 * scale + 1e-8 {
            prop_assert_eq!(question.right.as_str(), if after > before { "rise" } else { "fall" });
        }
    }
}

#[test]
fn shift_2d_in_a_corner_with_q_zero_stays() {
    let rope = Rope2d::new(RopeParams::new(10_000.0, 8).unwrap());
    let question = shift_2d(&rope, &[0.0; 8], &[1.0; 8], (0, 0), (7, 7));
    assert_eq!(question.right, "stay");
    assert!(question.why.contains("add up to the same value"), "{}", question.why);
}

fn vectors() -> impl Strategy<Value = (usize, Vec<f64>, Vec<f64>)> {
    (1usize..=64).prop_flat_map(|planes| {
        (Just(2 * planes), prop::collection::vec(-3.0f64..3.0, 2 * planes), prop::collection::vec(-3.0f64..3.0, 2 * planes))
    })
}

proptest! {
    #[test]
    fn shift_2d_asks_a_move_the_grid_allows((dim, qv, kv) in vectors(), log_base in 0.01f64..9.0,
        qx in 0u8..8, qy in 0u8..8, kx in 0u8..8, ky in 0u8..8) {
        let base = 10f64.powf(log_base);
        let rope = Rope2d::new(RopeParams::new(base, dim).unwrap());
        let question = shift_2d(&rope, &qv, &kv, (qx, qy), (kx, ky));
        well_formed(&question)?;
        let (qp, kp) = ((qx as i64, qy as i64), (kx as i64, ky as i64));
        let any_move = [(1, 1), (-1, -1), (1, -1), (-1, 1), (1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .any(|(dx, dy)| inside((qp.0 + dx, qp.1 + dy)) && inside((kp.0 + dx, kp.1 + dy)));
        if any_move {
            let (dx, dy) = named_move(&question.ask);
            prop_assert!((dx, dy) != (0, 0), "{}", question.ask);
            prop_assert!(inside((qp.0 + dx, qp.1 + dy)) && inside((kp.0 + dx, kp.1 + dy)), "{}", question.ask);
            prop_assert!(question.ask.starts_with("Move both patches"));
            prop_assert_eq!(question.right.as_str(), "stay");
        } else {
            // Opposite corners: the key alone moves one column towards the query.
            prop_assert!((qx == 0 || qx == 7) && kx == 7 - qx && (qy == 0 || qy == 7) && ky == 7 - qy);
            let (dx, before, after, scale) = key_step(base, &qv, &kv, qp, kp);
            prop_assert!(question.ask.contains(&format!("to column {}, row {}", kp.0 + dx, kp.1)), "{}", question.ask);
            // Clearly apart: the direction; within rounding: "stay". Between: either is fair.
            if (after - before).abs() > 1e-5 * scale + 1e-8 {
                prop_assert_eq!(question.right.as_str(), if after > before { "rise" } else { "fall" });
            } else if (after - before).abs() < 1e-8 * scale + 1e-12 {
                prop_assert_eq!(question.right.as_str(), "stay");
            }
        }
        // The split the why names is the one the score uses.
        let planes = dim / 2;
        let (x, y) = (planes.div_ceil(2), planes / 2);
        if y == 0 {
            prop_assert!(question.why.contains("no plane is left for y"), "{}", question.why);
        } else {
            prop_assert!(question.why.contains(&format!("turns {x} of the planes by x·θₐ and {y} by y·θₐ")), "{}", question.why);
        }
    }
}

// ---------------------------------------------------------------- stored-position

/// m rounded to p significant bits, ties to an even significand, in integer arithmetic; None
/// (infinity) beyond `largest`.
fn round_to_bits(m: u64, p: u32, largest: f64) -> Option<u64> {
    if m == 0 {
        return Some(0);
    }
    let e = 63 - m.leading_zeros();
    let stored = if e < p {
        m
    } else {
        let shift = e - (p - 1);
        let (mut significand, rest, half) = (m >> shift, m & ((1 << shift) - 1), 1u64 << (shift - 1));
        if rest > half || (rest == half && significand & 1 == 1) {
            significand += 1;
        }
        significand << shift
    };
    (stored as f64 <= largest).then_some(stored)
}

fn independent(format: Format, m: u64) -> Option<u64> {
    match format {
        Format::Bf16 => round_to_bits(m, 8, 3.389_531_389_251_535e38),
        Format::Fp16 => round_to_bits(m, 11, 65_504.0),
        Format::F32 => round_to_bits(m, 24, f32::MAX as f64),
        Format::F64 => round_to_bits(m, 53, f64::MAX),
    }
}

fn value_of(stored: Option<u64>) -> String {
    stored.map_or_else(|| "infinity".to_string(), |v| v.to_string())
}

#[test]
fn stored_position_at_ties_and_edges() {
    // 257 lies halfway between bf16's 256 and 258: the tie goes to 256 (significand 1000 0000,
    // even); 259, halfway between 258 and 260, to 260 (1000 0010).
    let q = stored_position(Format::Bf16, 257);
    assert_eq!(q.right, "256");
    assert!(q.choices.iter().any(|(v, _)| v == "258"));
    assert!(q.ask.contains("significand is even"), "{}", q.ask);
    assert!(q.why.contains("halfway between 256 and 258"), "{}", q.why);
    assert_eq!(stored_position(Format::Bf16, 259).right, "260");
    assert_eq!(stored_position(Format::Bf16, 15_962).right, "15936");
    // fp16 (numpy.float16 agrees): 2049 → 2048, 2051 → 2052, 65519 → 65504, 65520 → inf.
    assert_eq!(stored_position(Format::Fp16, 2049).right, "2048");
    assert_eq!(stored_position(Format::Fp16, 2051).right, "2052");
    assert_eq!(stored_position(Format::Fp16, 65_519).right, "65504");
    let over = stored_position(Format::Fp16, 65_520);
    assert_eq!(over.right, "infinity");
    assert!(over.choices.iter().any(|(v, _)| v == "65504"));
    assert!(over.why.contains("65,520") && over.why.contains("65,504") && over.why.contains("65,536"), "{}", over.why);
    // Exact: m itself.
    assert_eq!(stored_position(Format::F32, 10_000_000).right, "10000000");
    assert_eq!(stored_position(Format::F64, 0).right, "0");
}

proptest! {
    #[test]
    fn stored_position_is_round_to_nearest_even(m in 0i64..=10_000_000, format in 0usize..4, small in any::<bool>()) {
        // Half of the cases below 70,000, where every format's steps are small and ties common.
        let m = if small { m % 70_000 } else { m };
        let format = Format::ALL[format];
        let question = stored_position(format, m);
        well_formed(&question)?;
        let expected = independent(format, m as u64);
        prop_assert_eq!(question.right.clone(), value_of(expected));
        // Every finite choice is a position (a whole number ≥ 0); m itself is offered.
        prop_assert!(question.choices.iter().any(|(v, _)| *v == m.to_string()));
        for (v, _) in &question.choices {
            prop_assert!(v == "infinity" || v.parse::<u64>().is_ok(), "{}", v);
        }
        // No other choice is nearer to m than the answer; one as near only at a tie, which the
        // why then names.
        if let Some(right) = expected {
            let gap = right.abs_diff(m as u64);
            for (v, _) in &question.choices {
                if let Ok(c) = v.parse::<u64>() {
                    let representable = independent(format, c) == Some(c);
                    if c != right && representable {
                        prop_assert!(c.abs_diff(m as u64) >= gap, "{} nearer to {} than {}", c, m, right);
                        if c.abs_diff(m as u64) == gap {
                            prop_assert!(question.why.contains("halfway"), "{}", question.why);
                        }
                    }
                }
            }
        }
    }
}
