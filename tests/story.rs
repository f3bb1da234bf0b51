//! The numbers of the story's chapters (issue 10), natively: the tiny attention that cannot see
//! order, position codes, the rotation hidden in sinusoids, adding against rotating, RoFormer's
//! absolute bound and the two layouts. Each is checked against its definition or a property
//! that must hold for every input, never against output copied from the code.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rope_lab::rope::{
    absolute_bound, add_encoding, apply_blocks, binary_code, dot, frequencies, norm, order_report, pe_rotation_error, pe_shift_blocks,
    shuffle, sinusoidal_encoding, softmax, Code, Frequencies, Layout, Mask, Position, PositionMode, RopeParams, Rotary, ScalingMethod,
    ScalingParams, TinyAttention, VectorName, DOGS, MAX_DIM, SENTENCE,
};

fn params() -> impl Strategy<Value = RopeParams> {
    (0.0001f64..=9.0, 1usize..=MAX_DIM / 2).prop_map(|(log10_base, half)| RopeParams::new(10f64.powf(log10_base), half * 2).unwrap())
}

fn rotary(params: RopeParams, layout: Layout) -> Rotary {
    Rotary::new(layout, &Frequencies::plain(params))
}

// ---- Chapter 1: attention cannot see order ----

#[test]
fn without_positions_the_two_dogs_are_identical_to_the_last_bit() {
    let model = TinyAttention::default();
    let report = order_report(&model, PositionMode::None, Mask::None, 10_000.0, &shuffle(0));
    let (a, b) = (&report.pass.outputs[DOGS.0], &report.pass.outputs[DOGS.1]);
    assert_eq!(SENTENCE[DOGS.0], "dog");
    assert_eq!(SENTENCE[DOGS.1], "dog");
    assert!(a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits()), "{a:?} vs {b:?}");
    assert_eq!(report.dog_gap, 0.0);
    // Not because the outputs are trivial: they differ between other tokens.
    assert!(report.pass.outputs[0] != report.pass.outputs[2]);
}

/// The page does not recompute chapter 1 on a step of base while positions are off: the base
/// must then change nothing, to the last bit; with positions it does change the outputs.
#[test]
fn without_positions_the_base_changes_nothing() {
    let model = TinyAttention::default();
    let at = |mode, base| order_report(&model, mode, Mask::None, base, &shuffle(3));
    let bits = |r: &rope_lab::rope::OrderReport| {
        r.pass.outputs.iter().chain(&r.shuffled.outputs).flatten().map(|x| x.to_bits()).collect::<Vec<_>>()
    };
    for base in [2.0, 500.0, 1e6, 1e9] {
        assert_eq!(bits(&at(PositionMode::None, base)), bits(&at(PositionMode::None, 10_000.0)), "base {base}");
    }
    for mode in [PositionMode::Sinusoidal, PositionMode::Rope] {
        assert_ne!(bits(&at(mode, 500.0)), bits(&at(mode, 10_000.0)), "{mode:?}");
    }
}

#[test]
fn with_positions_the_two_dogs_differ() {
    let model = TinyAttention::default();
    for mode in [PositionMode::Sinusoidal, PositionMode::Rope] {
        let report = order_report(&model, mode, Mask::None, 10_000.0, &shuffle(0));
        assert!(report.dog_gap > 1e-3, "{mode:?}: gap {}", report.dog_gap);
        let direct = report.pass.outputs[DOGS.0].iter().zip(&report.pass.outputs[DOGS.1]).map(|(x, y)| (x - y).powi(2)).sum::<f64>().sqrt();
        assert!((direct - report.dog_gap).abs() < 1e-15);
    }
}

#[test]
fn attention_weights_are_softmax_rows_of_scaled_scores() {
    let model = TinyAttention::default();
    for mode in PositionMode::ALL {
        let pass = model.run(&SENTENCE, mode, Mask::None, 10_000.0);
        for (i, row) in pass.weights.iter().enumerate() {
            assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{mode:?} row {i}");
            assert!(row.iter().all(|w| *w > 0.0 && *w < 1.0));
            // softmax(q·k/√d) from the pass' own q and k, computed the plain way.
            let scores: Vec<f64> = pass.k.iter().map(|k| dot(&pass.q[i], k) / 8f64.sqrt()).collect();
            let total: f64 = scores.iter().map(|s| s.exp()).sum();
            for (w, s) in row.iter().zip(&scores) {
                assert!((w - s.exp() / total).abs() < 1e-12);
            }
        }
    }
}

#[test]
fn softmax_survives_huge_scores() {
    let row = softmax(&[1000.0, 1000.0, -1000.0]);
    assert!((row[0] - 0.5).abs() < 1e-12 && (row[1] - 0.5).abs() < 1e-12 && row[2] >= 0.0);
}

#[test]
fn rope_touches_q_and_k_only() {
    let model = TinyAttention::default();
    let (plain, rope) =
        (model.run(&SENTENCE, PositionMode::None, Mask::None, 10_000.0), model.run(&SENTENCE, PositionMode::Rope, Mask::None, 10_000.0));
    assert_eq!(plain.v, rope.v);
    // Token 0 sits at position 0, where the rotation is the identity.
    assert_eq!(plain.q[0], rope.q[0]);
    assert!(plain.q[1] != rope.q[1]);
}

proptest! {
    #[test]
    fn shuffling_words_only_shuffles_outputs_without_positions(draw in 0u64..10_000) {
        let model = TinyAttention::default();
        let permutation = shuffle(draw);
        prop_assert!(permutation.iter().enumerate().any(|(i, j)| i != *j));
        // Some word moves: the shuffle never reads as the sentence itself (the two dogs swapped,
        // draw 315 before), whose outputs would be the sentence's own.
        prop_assert!(permutation.iter().enumerate().any(|(i, j)| SENTENCE[i] != SENTENCE[*j]));
        let report = order_report(&model, PositionMode::None, Mask::None, 10_000.0, &permutation);
        prop_assert!(report.permutation_gap < 1e-12, "gap {}", report.permutation_gap);
    }
}

/// "Shuffle again" never shows the sentence itself: the first 2000 draws each move a word
/// (draws 315, 397 and 571 used to swap the two dogs only).
#[test]
fn every_shuffle_moves_a_word() {
    for draw in 0..2000 {
        let words: Vec<&str> = shuffle(draw).iter().map(|&i| SENTENCE[i]).collect();
        assert_ne!(words, SENTENCE, "draw {draw}");
    }
}

#[test]
fn shuffling_changes_outputs_with_positions() {
    let model = TinyAttention::default();
    for mode in [PositionMode::Sinusoidal, PositionMode::Rope] {
        let report = order_report(&model, mode, Mask::None, 10_000.0, &shuffle(0));
        assert!(report.permutation_gap > 1e-3, "{mode:?}: {}", report.permutation_gap);
    }
}

/// Under a causal mask token i sees tokens 0..=i: the later keys weigh exactly 0 and the
/// others are the softmax of their scores alone, in every position mode.
#[test]
fn a_causal_mask_gives_later_keys_exactly_zero_weight() {
    let model = TinyAttention::default();
    for mode in PositionMode::ALL {
        let pass = model.run(&SENTENCE, mode, Mask::Causal, 10_000.0);
        for (i, row) in pass.weights.iter().enumerate() {
            assert_eq!(row.len(), SENTENCE.len());
            assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{mode:?} row {i}");
            for w in &row[i + 1..] {
                assert_eq!(w.to_bits(), 0.0f64.to_bits(), "{mode:?} row {i}: {row:?}");
            }
            // softmax over the prefix, computed the plain way from the pass' own q and k.
            let scores: Vec<f64> = pass.k[..=i].iter().map(|k| dot(&pass.q[i], k) / 8f64.sqrt()).collect();
            let total: f64 = scores.iter().map(|s| s.exp()).sum();
            for (w, s) in row.iter().zip(&scores) {
                assert!(*w > 0.0 && (w - s.exp() / total).abs() < 1e-12, "{mode:?} row {i}");
            }
        }
        assert!(pass.outputs.iter().flatten().all(|x| x.is_finite()));
    }
}

#[test]
fn under_a_causal_mask_the_first_token_sees_only_itself() {
    let model = TinyAttention::default();
    for mode in PositionMode::ALL {
        let (masked, open) = (model.run(&SENTENCE, mode, Mask::Causal, 10_000.0), model.run(&SENTENCE, mode, Mask::None, 10_000.0));
        assert_eq!(masked.weights[0], vec![1.0, 0.0, 0.0, 0.0, 0.0], "{mode:?}");
        // Its output is its own value vector x·W_v, to the last bit; the mask leaves v alone.
        assert_eq!(masked.v, open.v);
        assert!(masked.outputs[0].iter().zip(&open.v[0]).all(|(o, v)| o.to_bits() == v.to_bits()), "{mode:?}");
        assert!(masked.outputs[0] != open.outputs[0]);
    }
}

/// Each token's masked output is the open attention's over the sentence cut after it: what the
/// mask gives a token is its prefix, and nothing else.
#[test]
fn a_causal_row_is_the_open_attention_over_the_prefix() {
    let model = TinyAttention::default();
    for mode in PositionMode::ALL {
        let masked = model.run(&SENTENCE, mode, Mask::Causal, 10_000.0);
        for i in 0..SENTENCE.len() {
            let prefix = model.run(&SENTENCE[..=i], mode, Mask::None, 10_000.0);
            for (a, b) in masked.outputs[i].iter().zip(&prefix.outputs[i]) {
                assert!((a - b).abs() < 1e-12, "{mode:?} token {i}");
            }
        }
    }
}

#[test]
fn a_causal_mask_alone_makes_the_two_dogs_differ() {
    let model = TinyAttention::default();
    let report = order_report(&model, PositionMode::None, Mask::Causal, 10_000.0, &shuffle(0));
    assert!(report.dog_gap > 1e-3, "gap {}", report.dog_gap);
    assert!(report.permutation_gap > 1e-3, "{}", report.permutation_gap);
    // Dog 1 sees "the dog", dog 4 the whole sentence: their rows differ in length, not only value.
    assert_eq!(report.pass.weights[DOGS.0][DOGS.0 + 1..].iter().filter(|w| **w == 0.0).count(), SENTENCE.len() - DOGS.0 - 1);
    assert!(report.pass.weights[DOGS.1].iter().all(|w| *w > 0.0));
    // And without a mask, as before, nothing tells them apart.
    assert_eq!(order_report(&model, PositionMode::None, Mask::None, 10_000.0, &shuffle(0)).dog_gap, 0.0);
}

/// What the mask cannot give: within its prefix a token still reads a bag of words. Shuffling
/// the words before the last "dog" leaves its output as it was (up to rounding).
#[test]
fn under_a_causal_mask_the_prefix_is_still_a_bag() {
    let model = TinyAttention::default();
    let masked = model.run(&SENTENCE, PositionMode::None, Mask::Causal, 10_000.0);
    let reordered = model.run(&["chased", "another", "the", "dog", "dog"], PositionMode::None, Mask::Causal, 10_000.0);
    for (a, b) in masked.outputs[DOGS.1].iter().zip(&reordered.outputs[4]) {
        assert!((a - b).abs() < 1e-12);
    }
    // With RoPE the same shuffle does change it.
    let (rope, rope_reordered) = (
        model.run(&SENTENCE, PositionMode::Rope, Mask::Causal, 10_000.0),
        model.run(&["chased", "another", "the", "dog", "dog"], PositionMode::Rope, Mask::Causal, 10_000.0),
    );
    assert!(rope.outputs[DOGS.1].iter().zip(&rope_reordered.outputs[4]).any(|(a, b)| (a - b).abs() > 1e-3));
}

proptest! {
    /// Every shuffle changes the outputs under the mask, not only their order: a token's
    /// prefix changes whenever the permutation is not the identity.
    #[test]
    fn under_a_causal_mask_shuffling_changes_the_outputs(draw in 0u64..10_000) {
        let model = TinyAttention::default();
        let report = order_report(&model, PositionMode::None, Mask::Causal, 10_000.0, &shuffle(draw));
        prop_assert!(report.permutation_gap > 1e-6, "gap {}", report.permutation_gap);
        prop_assert!(report.pass.outputs.iter().chain(&report.shuffled.outputs).flatten().all(|x| x.is_finite()));
    }
}

#[test]
fn position_modes_round_trip_their_url_names() {
    for mode in PositionMode::ALL {
        assert_eq!(PositionMode::parse(mode.as_str()), Some(mode));
    }
    assert_eq!(PositionMode::parse("absolute"), None);
}

// ---- Chapter 2: counting positions ----

#[test]
fn binary_code_holds_the_bits_of_p_least_significant_first() {
    for p in [0u32, 1, 2, 255, 256, 12_345, 65_535] {
        let bits = binary_code(p);
        assert_eq!(bits.iter().enumerate().map(|(i, b)| (*b as u32) << i).sum::<u32>(), p);
        assert!(bits.iter().all(|b| *b <= 1));
    }
    assert_eq!(binary_code(6)[..4], [0, 1, 1, 0]);
    assert_eq!(binary_code(65_535), [1; 16]);
}

#[test]
fn lowest_bit_flips_every_token_highest_once() {
    let flips = |bit: usize| (0..65_535u32).filter(|p| binary_code(*p)[bit] != binary_code(p + 1)[bit]).count();
    assert_eq!(flips(0), 65_535);
    assert_eq!(flips(15), 1);
}

#[test]
fn only_the_sinusoidal_and_integer_codes_step_evenly() {
    let params = RopeParams::new(10_000.0, 64).unwrap();
    let steps = |code: Code| -> Vec<f64> { [0u32, 7, 100, 1023, 40_000].iter().map(|p| code.step(*p, 1024, params)).collect() };
    let spread = |s: &[f64]| s.iter().copied().fold(f64::MIN, f64::max) - s.iter().copied().fold(f64::MAX, f64::min);
    assert!(spread(&steps(Code::Sinusoidal)) < 1e-9);
    assert_eq!(spread(&steps(Code::Integer)), 0.0);
    // 7 → 8 flips four bits, 0 → 1 one.
    assert!((Code::Binary.step(7, 1024, params) - 2.0).abs() < 1e-12);
    assert!((Code::Binary.step(0, 1024, params) - 1.0).abs() < 1e-12);
    // √(2 Σᵢ (1 − cos θᵢ)): the closed form of the sinusoidal step.
    let theta: Vec<f64> = (0..32).map(|i| 10_000f64.powf(-2.0 * i as f64 / 64.0)).collect();
    let closed = (2.0 * theta.iter().map(|t| 1.0 - t.cos()).sum::<f64>()).sqrt();
    assert!((Code::Sinusoidal.step(12_345, 1024, params) - closed).abs() < 1e-9);
    // The normalised code's step depends on the input's length.
    assert!(Code::Normalised.step(3, 16, params) != Code::Normalised.step(3, 1024, params));
}

#[test]
fn sinusoidal_encoding_is_vaswanis() {
    let params = RopeParams::new(10_000.0, 8).unwrap();
    let pe = sinusoidal_encoding(params, 3.0);
    for i in 0..4 {
        let angle = 3.0 / 10_000f64.powf(2.0 * i as f64 / 8.0);
        assert!((pe[2 * i] - angle.sin()).abs() < 1e-15);
        assert!((pe[2 * i + 1] - angle.cos()).abs() < 1e-15);
    }
}

// ---- Chapter 3: sinusoids hide a rotation ----

proptest! {
    #[test]
    fn shifting_by_k_is_a_rotation_of_each_pair(params in params(), p in 0u32..=65_535, k in 0u32..=65_535) {
        let (p, k) = (p as f64, k as f64);
        let blocks = pe_shift_blocks(params, k);
        let moved = apply_blocks(&blocks, &sinusoidal_encoding(params, p));
        let target = sinusoidal_encoding(params, p + k);
        let error = moved.iter().zip(&target).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        // Rounding of the angles p·θ, k·θ and (p + k)·θ, each within half an ulp of numbers up
        // to 131,070: at most a few 1e-11; far below that for small positions.
        let tolerance = 1e-12 * (p + k).max(16.0) / 16.0;
        prop_assert!(error <= tolerance, "error {error:e} > {tolerance:e}");
        prop_assert!((pe_rotation_error(params, p, k) - error).abs() < 1e-18);
        // Each block is a rotation: orthogonal with determinant 1, whatever p is.
        for m in &blocks {
            prop_assert!((m[0][0] * m[1][1] - m[0][1] * m[1][0] - 1.0).abs() < 1e-12);
        }
    }
}

#[test]
fn pe_rotation_is_exact_to_1e12_for_small_positions() {
    let params = RopeParams::new(10_000.0, 64).unwrap();
    for p in [0.0, 1.0, 5.0, 100.0, 999.0] {
        for k in [0.0, 1.0, 3.0, 42.0, 1000.0] {
            assert!(pe_rotation_error(params, p, k) < 1e-12, "p {p} k {k}");
        }
    }
}

// ---- Chapter 4: add or rotate ----

proptest! {
    #[test]
    fn rotating_keeps_lengths_adding_does_not(params in params(), m in 0i64..100_000, seed in 0u64..1000) {
        let q = rope_lab::rope::seeded_vector(seed, rope_lab::rope::Stream::Query, params.dim());
        for layout in [Layout::Interleaved, Layout::Half] {
            let rotated = rotary(params, layout).rotate(VectorName::Query, &q, m).unwrap();
            prop_assert!((norm(&rotated) - norm(&q)).abs() <= 1e-12 * norm(&q).max(1.0));
        }
        // |q + PE(m)|² = |q|² + 2 q·PE(m) + d/2.
        let pe = sinusoidal_encoding(params, m as f64);
        let added = add_encoding(&q, params, m as f64);
        let expected = dot(&q, &q) + 2.0 * dot(&q, &pe) + params.planes() as f64;
        prop_assert!((dot(&added, &added) - expected).abs() <= 1e-9 * expected.max(1.0));
    }
}

// ---- Chapter 6: the absolute bound ----

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn absolute_bound_caps_every_score(
        params in params(),
        layout in prop_oneof![Just(Layout::Interleaved), Just(Layout::Half)],
        scaled in any::<bool>(),
        seed in 0u64..10_000,
        m in 0i64..200_000,
        r in -200_000i64..200_000,
    ) {
        let n = (m + r).max(0);
        let r = n - m;
        let frequencies = if scaled {
            let scaling = ScalingParams { method: ScalingMethod::Yarn, factor: 8.0, ..ScalingParams::default() };
            frequencies(params, &scaling).unwrap()
        } else {
            Frequencies::plain(params)
        };
        let rotary = Rotary::new(layout, &frequencies);
        let q = rope_lab::rope::seeded_vector(seed, rope_lab::rope::Stream::Query, params.dim());
        let k = rope_lab::rope::seeded_vector(seed, rope_lab::rope::Stream::Key, params.dim());
        let score = rotary.scores(&q, &k, Position::new(m).unwrap(), Position::new(n).unwrap()).unwrap().score;
        let bound = absolute_bound(&rotary, &q, &k, r as f64);
        prop_assert!(score.abs() <= bound * (1.0 + 1e-9) + 1e-9, "|{score}| > {bound}");
    }
}

#[test]
fn absolute_bound_is_abel_summation_with_the_definition_spelled_out() {
    let params = RopeParams::new(10_000.0, 16).unwrap();
    let rotary = rotary(params, Layout::Interleaved);
    let q = rope_lab::rope::seeded_vector(3, rope_lab::rope::Stream::Query, 16);
    let k = rope_lab::rope::seeded_vector(3, rope_lab::rope::Stream::Key, 16);
    let r = 37.0;
    // hᵢ = q̃ᵢ conj(k̃ᵢ), pairs (2i, 2i+1); h_{d/2} = 0; S_j = Σ_{i<j} e^{i r θᵢ}.
    let h: Vec<(f64, f64)> =
        (0..8).map(|i| (q[2 * i] * k[2 * i] + q[2 * i + 1] * k[2 * i + 1], q[2 * i + 1] * k[2 * i] - q[2 * i] * k[2 * i + 1])).collect();
    let mut largest = 0.0_f64;
    for i in 0..8 {
        let next = if i + 1 < 8 { h[i + 1] } else { (0.0, 0.0) };
        largest = largest.max((next.0 - h[i].0).hypot(next.1 - h[i].1));
    }
    let theta: Vec<f64> = (0..8).map(|i| 10_000f64.powf(-2.0 * i as f64 / 16.0)).collect();
    let sum_s: f64 = (1..=8)
        .map(|j| {
            let (re, im) = theta[..j].iter().fold((0.0, 0.0), |(re, im), t| (re + (r * t).cos(), im + (r * t).sin()));
            f64::hypot(re, im)
        })
        .sum();
    assert!((absolute_bound(&rotary, &q, &k, r) - largest * sum_s).abs() < 1e-9);
}

// ---- Chapter 7: two layouts, one idea ----

proptest! {
    #[test]
    fn layouts_agree_after_the_permutation(params in params(), seed in 0u64..1000, m in 0i64..50_000, n in 0i64..50_000) {
        let q = rope_lab::rope::seeded_vector(seed, rope_lab::rope::Stream::Query, params.dim());
        let k = rope_lab::rope::seeded_vector(seed, rope_lab::rope::Stream::Key, params.dim());
        let (m, n) = (Position::new(m).unwrap(), Position::new(n).unwrap());
        for layout in [Layout::Interleaved, Layout::Half] {
            let this = rotary(params, layout);
            let other = this.with_layout(layout.other());
            let score = this.scores(&q, &k, m, n).unwrap().score;
            let permuted = other.scores(&this.permute_into(&q, &other), &this.permute_into(&k, &other), m, n).unwrap().score;
            prop_assert!((score - permuted).abs() <= 1e-9 * (norm(&q) * norm(&k)).max(1.0));
            // Back and forth is the identity.
            prop_assert_eq!(other.permute_into(&this.permute_into(&q, &other), &this), q.clone());
        }
    }
}

#[test]
fn the_wrong_layout_gives_a_different_score() {
    let params = RopeParams::new(10_000.0, 64).unwrap();
    let q = rope_lab::rope::seeded_vector(1, rope_lab::rope::Stream::Query, 64);
    let k = rope_lab::rope::seeded_vector(1, rope_lab::rope::Stream::Key, 64);
    let (m, n) = (Position::new(5).unwrap(), Position::new(2).unwrap());
    let this = rotary(params, Layout::Interleaved);
    let right = this.scores(&q, &k, m, n).unwrap().score;
    let wrong = this.with_layout(Layout::Half).scores(&q, &k, m, n).unwrap().score;
    assert!((right - wrong).abs() > 1e-3, "{right} vs {wrong}");
    // The permutation for interleaved → half is the one `interleaved_to_half` spells out.
    let other = this.with_layout(Layout::Half);
    assert_eq!(this.permute_into(&q, &other), rope_lab::rope::interleaved_to_half(&q));
    assert_eq!(other.permute_into(&q, &this), rope_lab::rope::half_to_interleaved(&q));
}

#[test]
fn rope_outputs_ignore_where_the_sentence_starts_unless_v_turns_too() {
    let model = TinyAttention::default();
    let gap = |a: &rope_lab::rope::AttentionPass, b: &rope_lab::rope::AttentionPass| {
        a.outputs.iter().flatten().zip(b.outputs.iter().flatten()).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
    };
    let at_zero = model.run(&SENTENCE, PositionMode::Rope, Mask::None, 10_000.0);
    for start in [1.0, 100.0, 5000.0] {
        let moved = model.run_with(&SENTENCE, PositionMode::Rope, 10_000.0, start, false);
        assert!(gap(&at_zero, &moved) < 1e-9, "start {start}: {}", gap(&at_zero, &moved));
        let values_too = (
            model.run_with(&SENTENCE, PositionMode::Rope, 10_000.0, 0.0, true),
            model.run_with(&SENTENCE, PositionMode::Rope, 10_000.0, start, true),
        );
        assert!(gap(&values_too.0, &values_too.1) > 1e-3);
        // Sinusoidal encodings added to x: the outputs change with the start too.
        let added = (
            model.run(&SENTENCE, PositionMode::Sinusoidal, Mask::None, 10_000.0),
            model.run_with(&SENTENCE, PositionMode::Sinusoidal, 10_000.0, start, false),
        );
        assert!(gap(&added.0, &added.1) > 1e-3);
    }
}
