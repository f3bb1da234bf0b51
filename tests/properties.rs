//! Properties of RoPE that hold for every valid input, checked over the whole parameter space.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rope_lab::rope::{
    check_vector, decay_bound, decay_curve, dot, frequencies, interleaved_to_half, plane_share, sinusoidal_encoding, Frequencies, Layout,
    Position, RopeError, RopeParams, Rotary, ScalingMethod, ScalingParams, VectorName, MAX_BASE, MAX_DIM, MAX_POSITION,
};

fn norm(x: &[f64]) -> f64 {
    dot(x, x).sqrt()
}

/// A valid (base, dim) pair: base log-uniform over (1, 1e9], dim even in 2..=1024.
fn params() -> impl Strategy<Value = RopeParams> {
    (0.0001f64..=9.0, 1usize..=MAX_DIM / 2)
        .prop_map(|(log10_base, half)| RopeParams::new(10f64.powf(log10_base).min(MAX_BASE), half * 2).unwrap())
}

fn vector(dim: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-10.0f64..10.0, dim)
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![Just(Layout::Interleaved), Just(Layout::Half)]
}

/// Params, a layout and q, k of the right length.
fn setup() -> impl Strategy<Value = (RopeParams, Layout, Vec<f64>, Vec<f64>)> {
    (params(), layout()).prop_flat_map(|(p, l)| (Just(p), Just(l), vector(p.dim()), vector(p.dim())))
}

/// Scores are compared relative to |q||k|, the largest any score of q and k can be.
fn assert_score_close(a: f64, b: f64, q: &[f64], k: &[f64], rel: f64) -> Result<(), TestCaseError> {
    let scale = (norm(q) * norm(k)).max(1e-12);
    prop_assert!((a - b).abs() <= rel * scale, "{a} vs {b}: {:e} relative to |q||k|", (a - b).abs() / scale);
    Ok(())
}

// Up to 1e5 positions the angles m*theta carry ~1e-11 rad of rounding, so 1e-9 holds.
const EXACT_RANGE: i64 = 100_000;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn shifting_m_and_n_together_leaves_the_score_unchanged(
        (p, l, q, k) in setup(), m in 0..EXACT_RANGE, n in 0..EXACT_RANGE, shift in 0..EXACT_RANGE,
    ) {
        let rotary = Rotary::new(l, &Frequencies::plain(p));
        let before = rotary.scores(&q, &k, Position::new(m).unwrap(), Position::new(n).unwrap()).unwrap();
        let after = rotary.scores(&q, &k, Position::new(m + shift).unwrap(), Position::new(n + shift).unwrap()).unwrap();
        assert_score_close(before.score, after.score, &q, &k, 1e-9)?;
    }

    #[test]
    fn score_equals_the_score_computed_from_the_relative_position(
        (p, l, q, k) in setup(), m in 0..EXACT_RANGE, n in 0..EXACT_RANGE,
    ) {
        let rotary = Rotary::new(l, &Frequencies::plain(p));
        let s = rotary.scores(&q, &k, Position::new(m).unwrap(), Position::new(n).unwrap()).unwrap();
        assert_score_close(s.score, s.score_relative, &q, &k, 1e-9)?;
        // The planes' shares, from their rest products and n - m alone, add up to the score.
        let total: f64 = (0..p.planes())
            .map(|i| plane_share(rotary.plane_product(&q, &k, i), rotary.inv_freq()[i], (n - m) as f64))
            .sum();
        assert_score_close(total, s.score, &q, &k, 1e-9)?;
    }

    #[test]
    fn at_any_position_up_to_ten_million_the_two_ways_agree_to_float_precision(
        (p, l, q, k) in setup(), m in 0..=MAX_POSITION, n in 0..=MAX_POSITION,
    ) {
        // m*theta carries rounding of order m * 1e-16 rad; 1e-7 of |q||k| bounds it at 1e7.
        let s = Rotary::new(l, &Frequencies::plain(p))
            .scores(&q, &k, Position::new(m).unwrap(), Position::new(n).unwrap()).unwrap();
        assert_score_close(s.score, s.score_relative, &q, &k, 1e-7)?;
    }

    #[test]
    fn rotation_preserves_the_norm((p, l, q, _k) in setup(), position in -MAX_POSITION..=MAX_POSITION) {
        let rotated = Rotary::new(l, &Frequencies::plain(p)).rotate(VectorName::Query, &q, position).unwrap();
        prop_assert!((norm(&rotated) - norm(&q)).abs() <= 1e-12 * norm(&q).max(1e-12));
    }

    #[test]
    fn the_two_layouts_give_the_same_score_once_dimensions_are_permuted(
        (p, _l, q, k) in setup(), m in 0..EXACT_RANGE, n in 0..EXACT_RANGE,
    ) {
        let f = Frequencies::plain(p);
        let (m, n) = (Position::new(m).unwrap(), Position::new(n).unwrap());
        let interleaved = Rotary::new(Layout::Interleaved, &f).scores(&q, &k, m, n).unwrap();
        let half = Rotary::new(Layout::Half, &f)
            .scores(&interleaved_to_half(&q), &interleaved_to_half(&k), m, n).unwrap();
        assert_score_close(interleaved.score, half.score, &q, &k, 1e-12)?;
        prop_assert_eq!(interleaved_to_half(&interleaved.q_rot), half.q_rot);
    }

    #[test]
    fn every_scaling_method_gives_finite_frequencies_and_scores(
        (p, l, q, k) in setup(),
        method in prop::sample::select(ScalingMethod::ALL.to_vec()),
        factor in 1.0f64..1e4,
        orig in 2u64..1_000_000,
        seq in 1u64..10_000_000,
        beta_fast in prop_oneof![0.01f64..1e3, Just(1e-320), Just(f64::MIN_POSITIVE), Just(1e308)],
        beta_slow in prop_oneof![0.01f64..1e3, Just(1e-320), Just(1e308)],
        mscale in prop::option::of(prop_oneof![0.0f64..10.0, Just(1e-320), Just(1e308)]),
        mscale_all_dim in prop::option::of(prop_oneof![0.0f64..10.0, Just(1e-320), Just(1e308)]),
        low in prop_oneof![0.01f64..100.0, Just(1e-320)],
        gap in 0.01f64..100.0,
        m in 0..=MAX_POSITION, n in 0..=MAX_POSITION,
    ) {
        let scaling = ScalingParams {
            method, factor, original_context: orig, seq_len: seq, beta_fast, beta_slow, mscale, mscale_all_dim,
            low_freq_factor: low, high_freq_factor: low + gap, ..ScalingParams::default()
        };
        let f = frequencies(p, &scaling).unwrap();
        prop_assert_eq!(f.inv_freq.len(), p.planes());
        prop_assert!(f.inv_freq.iter().all(|x| x.is_finite() && *x >= 0.0), "{:?}", f.inv_freq);
        prop_assert!(f.attention_factor.is_finite() && f.attention_factor > 0.0);
        let s = Rotary::new(l, &f).scores(&q, &k, Position::new(m).unwrap(), Position::new(n).unwrap()).unwrap();
        prop_assert!(s.score.is_finite() && s.score_relative.is_finite() && s.score_unrotated.is_finite());
        prop_assert!(s.q_rot.iter().chain(&s.k_rot).all(|x| x.is_finite()));
        prop_assert!(decay_bound(&f.inv_freq, m as f64).is_finite());
    }

    #[test]
    fn the_fast_decay_curve_matches_the_bound_point_by_point(
        p in params(), start in 0.0f64..1e6, step in 1.0f64..64.0, count in 1usize..600,
    ) {
        let inv_freq = Frequencies::plain(p).inv_freq;
        let curve = decay_curve(&inv_freq, start, step, count);
        prop_assert_eq!(curve.len(), count);
        for (i, value) in curve.iter().enumerate() {
            let exact = decay_bound(&inv_freq, start + step * i as f64);
            // Absolute: the bound is at most (d/2 + 1)/2.
            prop_assert!((value - exact).abs() <= 1e-9 * p.planes() as f64, "point {}: {} vs {}", i, value, exact);
        }
    }

    #[test]
    fn the_decay_bound_never_exceeds_its_value_at_distance_zero(p in params(), r in 0.0f64..1e7) {
        let inv_freq = Frequencies::plain(p).inv_freq;
        let peak = (p.planes() as f64 + 1.0) / 2.0;
        prop_assert!((decay_bound(&inv_freq, 0.0) - peak).abs() <= 1e-12 * peak);
        prop_assert!(decay_bound(&inv_freq, r) <= peak + 1e-9);
    }

    #[test]
    fn sinusoidal_encodings_hide_a_rotation(p in params(), position in 0.0f64..1e4, offset in 0.0f64..1e3) {
        // PE(p + k) = M_k PE(p): every (sin, cos) pair of PE(p) turned by k*theta_i gives PE(p + k).
        let theta: Vec<f64> = Frequencies::plain(p).inv_freq;
        let here = sinusoidal_encoding(p, position);
        let there = sinusoidal_encoding(p, position + offset);
        for (i, t) in theta.iter().enumerate() {
            let (s, c) = (here[2 * i], here[2 * i + 1]);
            let (ds, dc) = (offset * t).sin_cos();
            prop_assert!((there[2 * i] - (s * dc + c * ds)).abs() < 1e-9);
            prop_assert!((there[2 * i + 1] - (c * dc - s * ds)).abs() < 1e-9);
        }
    }

    #[test]
    fn invalid_parameters_are_typed_errors_never_panics(base in any::<f64>(), dim in any::<usize>()) {
        match RopeParams::new(base, dim) {
            Ok(p) => {
                prop_assert!(p.dim() % 2 == 0 && (2..=MAX_DIM).contains(&p.dim()));
                prop_assert!(p.base().is_finite() && p.base() > 1.0 && p.base() <= MAX_BASE);
            }
            Err(RopeError::DimensionOdd(d)) => prop_assert!(d % 2 == 1 && d <= MAX_DIM),
            Err(RopeError::DimensionOutOfRange(d)) => prop_assert!(d == 0 || d > MAX_DIM),
            Err(RopeError::BaseNotFinite) => prop_assert!(!base.is_finite()),
            Err(RopeError::BaseOutOfRange(b)) => prop_assert!(b <= 1.0 || b > MAX_BASE),
            Err(other) => prop_assert!(false, "unexpected error {other:?}"),
        }
    }

    #[test]
    fn positions_outside_the_range_are_typed_errors(position in any::<i64>()) {
        let valid = (0..=MAX_POSITION).contains(&position);
        prop_assert_eq!(Position::new(position).is_ok(), valid);
        if !valid {
            prop_assert_eq!(Position::new(position), Err(RopeError::PositionOutOfRange(position)));
        }
    }
}

#[test]
fn invalid_inputs_are_typed_errors() {
    assert_eq!(RopeParams::new(10000.0, 63), Err(RopeError::DimensionOdd(63)));
    assert_eq!(RopeParams::new(10000.0, 0), Err(RopeError::DimensionOutOfRange(0)));
    assert_eq!(RopeParams::new(10000.0, 2048), Err(RopeError::DimensionOutOfRange(2048)));
    assert_eq!(RopeParams::new(f64::NAN, 64), Err(RopeError::BaseNotFinite));
    assert_eq!(RopeParams::new(f64::INFINITY, 64), Err(RopeError::BaseNotFinite));
    assert_eq!(RopeParams::new(1.0, 64), Err(RopeError::BaseOutOfRange(1.0)));
    assert_eq!(RopeParams::new(0.5, 64), Err(RopeError::BaseOutOfRange(0.5)));
    assert_eq!(Position::new(-1), Err(RopeError::PositionOutOfRange(-1)));

    let rotary = Rotary::new(Layout::Half, &Frequencies::plain(RopeParams::new(10000.0, 4).unwrap()));
    let zero = Position::new(0).unwrap();
    assert_eq!(
        rotary.scores(&[1.0, 2.0, 3.0], &[1.0; 4], zero, zero),
        Err(RopeError::VectorLength { vector: VectorName::Query, expected: 4, found: 3 })
    );
    assert_eq!(
        rotary.scores(&[1.0; 4], &[1.0, f64::NAN, 0.0, 0.0], zero, zero),
        Err(RopeError::NonFiniteComponent { vector: VectorName::Key, index: 1 })
    );
    assert_eq!(
        check_vector(VectorName::Input, &[f64::INFINITY, 0.0], 2),
        Err(RopeError::NonFiniteComponent { vector: VectorName::Input, index: 0 })
    );

    let p = RopeParams::new(10000.0, 64).unwrap();
    let bad = |s: ScalingParams| frequencies(p, &s).is_err();
    assert!(bad(ScalingParams { method: ScalingMethod::Linear, factor: 0.5, ..Default::default() }));
    assert!(bad(ScalingParams { method: ScalingMethod::Linear, factor: f64::NAN, ..Default::default() }));
    assert!(bad(ScalingParams { method: ScalingMethod::Yarn, beta_fast: 0.0, ..Default::default() }));
    assert!(bad(ScalingParams { method: ScalingMethod::Llama3, low_freq_factor: 4.0, high_freq_factor: 1.0, ..Default::default() }));
    assert!(bad(ScalingParams { method: ScalingMethod::LongRope, short_factor: Some(vec![1.0; 3]), ..Default::default() }));
    assert!(bad(ScalingParams { method: ScalingMethod::None, partial: 0.3, ..Default::default() })); // 19.2 dims: odd
    assert!(bad(ScalingParams { method: ScalingMethod::None, partial: 0.0, ..Default::default() }));
    assert!(bad(ScalingParams { method: ScalingMethod::None, original_context: 1, ..Default::default() }));
}

#[test]
fn at_position_zero_nothing_turns_and_plane_zero_turns_one_radian_per_token() {
    // theta_0 = base^0 = 1 for every base: after one token, plane 0 has turned by 1 radian.
    let p = RopeParams::new(500_000.0, 8).unwrap();
    let rotary = Rotary::new(Layout::Interleaved, &Frequencies::plain(p));
    let x = [1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    assert_eq!(rotary.rotate(VectorName::Input, &x, 0).unwrap(), x.to_vec());
    let one = rotary.rotate(VectorName::Input, &x, 1).unwrap();
    assert!((one[0] - 1f64.cos()).abs() < 1e-15 && (one[1] - 1f64.sin()).abs() < 1e-15);
}

#[test]
fn partial_rotary_leaves_the_tail_of_the_head_untouched() {
    // partial_rotary_factor 0.5 on d = 8: only dims 0..4 rotate, with exponents over 4, as in
    // transformers (dim = int(head_dim * partial)).
    let p = RopeParams::new(10000.0, 8).unwrap();
    let f = frequencies(p, &ScalingParams { partial: 0.5, ..Default::default() }).unwrap();
    assert_eq!(f.inv_freq.len(), 4);
    assert_eq!(f.inv_freq[0], 1.0);
    assert!((f.inv_freq[1] - 10000f64.powf(-2.0 / 4.0)).abs() < 1e-15);
    assert_eq!(&f.inv_freq[2..], &[0.0, 0.0]);
    let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    for layout in Layout::ALL {
        let rotated = Rotary::new(layout, &f).rotate(VectorName::Input, &x, 17).unwrap();
        assert_eq!(&rotated[4..], &x[4..], "{layout:?}");
        assert_ne!(&rotated[..4], &x[..4], "{layout:?}");
    }
}

mod clock_geometry {
    use super::*;
    use rope_lab::rope::wrap_angle;
    use std::f64::consts::PI;

    proptest! {
        #[test]
        fn each_plane_contributes_what_its_hands_say_and_the_shares_sum_to_the_score(
            (p, l, q, k) in setup(), m in 0..EXACT_RANGE, n in 0..EXACT_RANGE,
        ) {
            let rotary = Rotary::new(l, &Frequencies::plain(p));
            let s = rotary.scores(&q, &k, Position::new(m).unwrap(), Position::new(n).unwrap()).unwrap();
            let mut total = 0.0;
            for plane in 0..p.planes() {
                let hands = rotary.plane_hands(&q, &k, plane, m as f64, n as f64);
                // The hands are the rotated pairs: q's hand tip is (q_rot[a], q_rot[b]).
                let (a, b) = rotary.plane_dims(plane);
                let (tip_x, tip_y) = (hands.q_length * hands.q_angle.cos(), hands.q_length * hands.q_angle.sin());
                prop_assert!((tip_x - s.q_rot[a]).abs() < 1e-9 && (tip_y - s.q_rot[b]).abs() < 1e-9);
                let (tip_x, tip_y) = (hands.k_length * hands.k_angle.cos(), hands.k_length * hands.k_angle.sin());
                prop_assert!((tip_x - s.k_rot[a]).abs() < 1e-9 && (tip_y - s.k_rot[b]).abs() < 1e-9);
                let rotated_pair = s.q_rot[a] * s.k_rot[a] + s.q_rot[b] * s.k_rot[b];
                prop_assert!((hands.contribution - rotated_pair).abs() < 1e-9 * (1.0 + hands.q_length * hands.k_length));
                prop_assert!(hands.between > -PI - 1e-12 && hands.between <= PI + 1e-12);
                total += hands.contribution;
            }
            assert_score_close(total, s.score, &q, &k, 1e-9)?;
        }

        #[test]
        fn the_angle_between_the_hands_depends_only_on_n_minus_m(
            (p, l, q, k) in setup(), m in 0.0f64..1e4, n in 0.0f64..1e4, shift in 0.0f64..1e4,
        ) {
            let rotary = Rotary::new(l, &Frequencies::plain(p));
            for plane in 0..p.planes() {
                let before = rotary.plane_hands(&q, &k, plane, m, n);
                let after = rotary.plane_hands(&q, &k, plane, m + shift, n + shift);
                // Both hands turned by shift·θ_i, the angle between them did not change.
                let turned = wrap_angle(after.q_angle - before.q_angle - shift * rotary.inv_freq()[plane]);
                prop_assert!(turned.abs() < 1e-6, "q turned by {turned} extra");
                prop_assert!(wrap_angle(after.between - before.between).abs() < 1e-6);
            }
        }

        #[test]
        fn wrapped_angles_stay_in_the_half_open_interval(angle in -1e9f64..1e9) {
            let w = wrap_angle(angle);
            prop_assert!(w > -PI && w <= PI);
            prop_assert!((w.sin() - angle.sin()).abs() < 1e-6 && (w.cos() - angle.cos()).abs() < 1e-6);
        }
    }

    #[test]
    fn plane_zero_turns_one_radian_per_token_and_the_last_plane_barely_moves() {
        // theta_0 = 1 rad/token for every base; theta_{d/2-1} = base^(-(d-2)/d), nearly 1/base.
        let p = RopeParams::new(10000.0, 64).unwrap();
        let rotary = Rotary::new(Layout::Interleaved, &Frequencies::plain(p));
        let mut q = vec![0.0; 64];
        q[0] = 1.0; // plane 0 of q points along +x
        q[62] = 1.0; // the slowest plane too
        let k = q.clone();
        let fast = rotary.plane_hands(&q, &k, 0, 3.0, 0.0);
        assert!((fast.q_angle - 3.0).abs() < 1e-12 && fast.k_angle == 0.0);
        assert!((fast.between + 3.0).abs() < 1e-12);
        let slow = rotary.plane_hands(&q, &k, 31, 3.0, 0.0);
        assert!((slow.q_angle - 3.0 * 10000f64.powf(-62.0 / 64.0)).abs() < 1e-15);
        assert!(slow.q_angle < 1e-3, "the slowest hand moved {} rad in 3 tokens", slow.q_angle);
        assert_eq!(wrap_angle(PI), PI);
        assert_eq!(wrap_angle(-PI), PI);
        assert_eq!(wrap_angle(f64::NAN), 0.0);
    }
}

mod curves {
    use super::*;
    use rope_lab::rope::{
        abel_factor, cosine_by_distance, decay_bound, mean_cos_by_distance, score_by_distance, score_diagonals, score_window,
        seeded_vector, HeatmapMode, ModeInputs, Stream,
    };

    proptest! {
        #[test]
        fn the_score_by_distance_is_the_score_at_any_m_n_that_far_apart(
            (p, l, q, k) in setup(), m in 0..EXACT_RANGE, n in 0..EXACT_RANGE,
        ) {
            let rotary = Rotary::new(l, &Frequencies::plain(p));
            let direct = rotary.scores(&q, &k, Position::new(m).unwrap(), Position::new(n).unwrap()).unwrap().score;
            let curve = score_by_distance(&rotary, &q, &k, &[(n - m) as f64]);
            assert_score_close(curve[0], direct, &q, &k, 1e-9)?;
        }

        /// Evenly spaced distances take the phasor recurrence, a single one a sin and cos per
        /// plane: the two agree, across many resyncs and far from zero.
        #[test]
        fn evenly_spaced_curves_match_point_by_point_evaluation(
            (p, l, q, k) in setup(), start in -EXACT_RANGE..EXACT_RANGE, step in 0.25f64..300.0, count in 3usize..300,
        ) {
            let rotary = Rotary::new(l, &Frequencies::plain(p));
            let distances: Vec<f64> = (0..count).map(|i| start as f64 + step * i as f64).collect();
            let scores = score_by_distance(&rotary, &q, &k, &distances);
            let means = mean_cos_by_distance(rotary.inv_freq(), &distances);
            for (i, r) in distances.iter().enumerate() {
                assert_score_close(scores[i], score_by_distance(&rotary, &q, &k, &[*r])[0], &q, &k, 1e-9)?;
                prop_assert!((means[i] - mean_cos_by_distance(rotary.inv_freq(), &[*r])[0]).abs() <= 1e-9);
            }
        }

        #[test]
        fn the_cosine_score_is_the_score_over_the_norms_and_stays_in_range(
            (p, l, q, k) in setup(), r in 0.0f64..1e5,
        ) {
            // Cauchy-Schwarz: rotation keeps |k|, so |q · R(r)k| <= |q||k|.
            let rotary = Rotary::new(l, &Frequencies::plain(p));
            let cosine = cosine_by_distance(&rotary, &q, &k, &[r])[0];
            let score = score_by_distance(&rotary, &q, &k, &[r])[0];
            prop_assert!(cosine.abs() <= 1.0 + 1e-12);
            prop_assert!((cosine * norm(&q) * norm(&k) - score).abs() <= 1e-9 * (1.0 + score.abs()));
        }

        #[test]
        fn the_roformer_bound_bounds_the_score_once_scaled_by_the_abel_factor(
            (p, l, q, k) in setup(), r in 0.0f64..1e5,
        ) {
            // |q · R(r) k| <= max|h_i − h_{i+1}| · Σ_j |S_j|  (RoFormer 3.4.3).
            let rotary = Rotary::new(l, &Frequencies::plain(p));
            let score = score_by_distance(&rotary, &q, &k, &[r])[0];
            let bound = abel_factor(&rotary, &q, &k) * decay_bound(rotary.inv_freq(), r) * p.planes() as f64;
            prop_assert!(score.abs() <= bound * (1.0 + 1e-9) + 1e-9, "{score} > {bound}");
        }

        #[test]
        fn a_rotated_window_is_constant_along_its_diagonals_and_matches_the_scores(
            (p, l, q, k) in setup(), m0 in 0i64..10_000, n0 in 0i64..10_000, size in 1usize..24,
        ) {
            let rotary = Rotary::new(l, &Frequencies::plain(p));
            let cells = score_window(&rotary, &q, &k, (m0, n0), size, HeatmapMode::Rotated, ModeInputs { params: p, seed: 1 });
            // The map draws these: one value per distance, cell (row, col) at col − row + size − 1.
            let diagonals = score_diagonals(&rotary, &q, &k, (m0, n0), size, HeatmapMode::Rotated, 1).unwrap();
            prop_assert_eq!(diagonals.len(), 2 * size - 1);
            for row in 0..size {
                for col in 0..size {
                    let (m, n) = (m0 + row as i64, n0 + col as i64);
                    let direct = rotary.scores(&q, &k, Position::new(m).unwrap(), Position::new(n).unwrap()).unwrap().score;
                    assert_score_close(cells[row * size + col], direct, &q, &k, 1e-9)?;
                    assert_score_close(diagonals[col + size - 1 - row], direct, &q, &k, 1e-9)?;
                    if row + 1 < size && col + 1 < size {
                        prop_assert_eq!(cells[row * size + col], cells[(row + 1) * size + col + 1]);
                    }
                }
            }
        }
    }

    #[test]
    fn the_sinusoidal_window_adds_encodings_to_q_and_k() {
        let p = RopeParams::new(10000.0, 16).unwrap();
        let rotary = Rotary::new(Layout::Interleaved, &Frequencies::plain(p));
        let (q, k) = (seeded_vector(3, Stream::Query, 16), seeded_vector(3, Stream::Key, 16));
        // 70 rows and columns: the encodings' phasors are recomputed exactly every 64 positions.
        let size = 70;
        let cells = score_window(&rotary, &q, &k, (40, 7), size, HeatmapMode::Sinusoidal, ModeInputs { params: p, seed: 3 });
        for row in 0..size {
            for col in 0..size {
                let pe_m = sinusoidal_encoding(p, (40 + row) as f64);
                let pe_n = sinusoidal_encoding(p, (7 + col) as f64);
                let qm: Vec<f64> = q.iter().zip(&pe_m).map(|(a, b)| a + b).collect();
                let kn: Vec<f64> = k.iter().zip(&pe_n).map(|(a, b)| a + b).collect();
                assert!((cells[row * size + col] - dot(&qm, &kn)).abs() < 1e-9);
            }
        }
        // Not Toeplitz: the cross terms depend on m and n alone.
        assert!((cells[0] - cells[size + 1]).abs() > 1e-6);
        let unrotated = score_window(&rotary, &q, &k, (40, 7), 5, HeatmapMode::Unrotated, ModeInputs { params: p, seed: 3 });
        assert!(unrotated.iter().all(|c| *c == dot(&q, &k)));
        // Only the modes where n − m alone sets the score have one value per distance.
        assert_eq!(score_diagonals(&rotary, &q, &k, (40, 7), 5, HeatmapMode::Unrotated, 3), Some(vec![dot(&q, &k); 9]));
        assert_eq!(score_diagonals(&rotary, &q, &k, (40, 7), 5, HeatmapMode::Sinusoidal, 3), None);
    }

    #[test]
    fn the_q_equals_k_curve_starts_at_one_and_is_the_mean_cosine() {
        let zero = Rotary::new(Layout::Half, &Frequencies::plain(RopeParams::new(10000.0, 4).unwrap()));
        assert_eq!(cosine_by_distance(&zero, &[0.0; 4], &[1.0; 4], &[3.0]), vec![0.0]);
        let f = Frequencies::plain(RopeParams::new(10000.0, 128).unwrap());
        let curve = mean_cos_by_distance(&f.inv_freq, &[0.0, 1.0, 100.0]);
        assert_eq!(curve[0], 1.0);
        let by_hand: f64 = (0..64).map(|i| (10000f64.powf(-2.0 * i as f64 / 128.0)).cos()).sum::<f64>() / 64.0;
        assert!((curve[1] - by_hand).abs() < 1e-12);
        assert!(curve[2].abs() < 1.0);
    }
}
