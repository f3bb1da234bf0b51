//! The biases RoPE replaced, as the heatmap's `t5` and `alibi` modes draw them: T5's buckets
//! against transformers' `T5Attention._relative_position_bucket` (bidirectional=True,
//! num_buckets=32, max_distance=128), ALiBi's slopes against Press et al. 2022, and the windows
//! against q·k plus the bias computed cell by cell.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rope_lab::rope::{
    alibi_bias, alibi_slope, dot, score_diagonals, score_scale, score_window, seeded_vector, t5_bucket, Frequencies, HeatmapMode, Layout,
    ModeInputs, RopeParams, Rotary, ScoreBias, Stream, T5Biases, T5_BUCKETS,
};

/// transformers' `_relative_position_bucket` line by line, in float32 as torch computes it
/// (`relative_position.float()`, `torch.log`, `.to(torch.long)` truncating toward zero), with
/// `math.log(max_distance / max_exact)` a Python float.
fn transformers_bucket_f32(relative_position: i64) -> i64 {
    let (mut num_buckets, max_distance) = (32i64, 128i64);
    let mut relative_buckets = 0;
    // bidirectional
    num_buckets /= 2;
    relative_buckets += i64::from(relative_position > 0) * num_buckets;
    let relative_position = relative_position.abs();
    let max_exact = num_buckets / 2;
    let is_small = relative_position < max_exact;
    let log_ratio = ((max_distance / max_exact) as f64).ln();
    let if_large =
        max_exact + ((relative_position as f32 / max_exact as f32).ln() / log_ratio as f32 * (num_buckets - max_exact) as f32) as i64;
    let if_large = if_large.min(num_buckets - 1);
    relative_buckets + if is_small { relative_position } else { if_large }
}

/// The same formula in float64 (as Mesh TensorFlow's numpy tests would): it agrees too.
fn transformers_bucket_f64(relative_position: i64) -> i64 {
    let side = if relative_position > 0 { 16 } else { 0 };
    let r = relative_position.abs();
    if r < 8 {
        return side + r;
    }
    side + (8 + ((r as f64 / 8.0).ln() / 16f64.ln() * 8.0) as i64).min(15)
}

/// Worked by hand from the formula, with relative_position = n − m (memory − query):
/// - the sign: r > 0 adds num_buckets / 2 = 16, r ≤ 0 adds nothing; then r = |r|.
/// - max_exact = 16 / 2 = 8; |r| < 8 is its own bucket: 0 → 0, −1 → 1, 1 → 16 + 1 = 17,
///   −7 → 7, 7 → 23.
/// - else 8 + trunc(ln(|r|/8) / ln(128/8) · (16 − 8)), ln 16 = 2.772589, at most 15:
///   |r| = 8:    ln 1 = 0                          → 8 + 0 = 8   (−8 → 8,  8 → 24)
///   |r| = 12:   ln 1.5 = 0.405465 → ·8/ln16 = 1.1699  → 9       (−12 → 9, 12 → 25)
///   |r| = 16:   ln 2 = 0.693147   → 2 (exactly)       → 10      (−16 → 10, 16 → 26)
///   |r| = 20:   ln 2.5 = 0.916291 → 2.6439            → 10      (−20 → 10, 20 → 26)
///   |r| = 64:   ln 8 = 2.079442   → 6 (exactly)       → 14      (−64 → 14, 64 → 30)
///   |r| = 90:   ln 11.25 = 2.420368 → 6.9837          → 14      (−90 → 14, 90 → 30)
///   |r| = 91:   ln 11.375 = 2.431418 → 7.0156         → 15      (−91 → 15, 91 → 31)
///   |r| = 127:  ln 15.875 = 2.764746 → 7.9774         → 15      (−127 → 15, 127 → 31)
///   |r| = 128:  ln 16 → 8              → 16, min 15   → 15      (−128 → 15, 128 → 31)
///   |r| = 1000: ln 125 = 4.828314 → 13.931 → 21, min 15 → 15    (−1000 → 15, 1000 → 31)
#[test]
fn t5_buckets_match_transformers_formula_worked_by_hand() {
    let expected: [(i64, usize); 27] = [
        (0, 0),
        (1, 17),
        (-1, 1),
        (7, 23),
        (-7, 7),
        (8, 24),
        (-8, 8),
        (11, 24),
        (-11, 8),
        (12, 25),
        (-12, 9),
        (16, 26),
        (-16, 10),
        (20, 26),
        (-20, 10),
        (64, 30),
        (-64, 14),
        (90, 30),
        (-90, 14),
        (91, 31),
        (-91, 15),
        (127, 31),
        (-127, 15),
        (128, 31),
        (-128, 15),
        (1000, 31),
        (-1000, 15),
    ];
    for (r, bucket) in expected {
        assert_eq!(t5_bucket(r), bucket, "relative position {r}");
    }
}

#[test]
fn t5_buckets_equal_transformers_float_formula_everywhere() {
    for r in -20_000..=20_000 {
        let ours = t5_bucket(r) as i64;
        assert_eq!(ours, transformers_bucket_f32(r), "float32 formula at r = {r}");
        assert_eq!(ours, transformers_bucket_f64(r), "float64 formula at r = {r}");
    }
}

/// What the heatmap's note says: exact buckets up to distance 7, seven log-spaced ones (8–11,
/// 12–15, 16–22, 23–31, 32–45, 46–63, 64–90), one from 91 on; 16 on each side.
#[test]
fn t5_bucket_boundaries_are_those_the_note_gives() {
    let starts = |sign: i64| {
        let mut firsts = vec![0i64];
        for d in 1..=3000 {
            if t5_bucket(sign * d) != t5_bucket(sign * (d - 1)) {
                firsts.push(d);
            }
        }
        firsts
    };
    // r ≤ 0: distance 0 and 1..7 each a bucket, then the log-spaced ones and the last.
    assert_eq!(starts(-1), vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 23, 32, 46, 64, 91]);
    // r > 0 (from 1; 0 belongs to the other side): the same boundaries.
    assert_eq!(starts(1), vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 23, 32, 46, 64, 91]);
    // Bucket 16 would be distance 0 on the positive side: never used; the other 31 are.
    let used: std::collections::BTreeSet<usize> = (-200..=200).map(t5_bucket).collect();
    assert_eq!(used.len(), 31);
    assert!(!used.contains(&16));
}

proptest! {
    #[test]
    fn t5_buckets_stay_in_range_split_by_sign_and_grow_with_distance(r in any::<i64>()) {
        let bucket = t5_bucket(r);
        prop_assert!(bucket < T5_BUCKETS);
        // The sign split: keys after the query (n > m) in 16..32, the rest in 0..16.
        prop_assert_eq!(bucket >= 16, r > 0, "r = {}: bucket {}", r, bucket);
        // Monotone in |r| on each side: one step farther never lowers the bucket.
        let farther = if r > 0 { r.saturating_add(1) } else { r.saturating_sub(1) };
        prop_assert!(t5_bucket(farther) >= bucket);
    }

    #[test]
    fn t5_and_alibi_windows_depend_only_on_n_minus_m_and_add_the_bias_to_q_dot_k(
        m0 in 0i64..100_000, n0 in 0i64..100_000, size in 1usize..40, seed in any::<u64>(), half in 1usize..=32,
    ) {
        let p = RopeParams::new(10000.0, 2 * half).unwrap();
        let rotary = Rotary::new(Layout::Interleaved, &Frequencies::plain(p));
        let (q, k) = (seeded_vector(seed, Stream::Query, p.dim()), seeded_vector(seed, Stream::Key, p.dim()));
        let plain = dot(&q, &k);
        let biases = T5Biases::drawn(seed, score_scale(&q, &k));
        for mode in [HeatmapMode::T5, HeatmapMode::Alibi] {
            let cells = score_window(&rotary, &q, &k, (m0, n0), size, mode, ModeInputs { params: p, seed });
            let diagonals = score_diagonals(&rotary, &q, &k, (m0, n0), size, mode, seed).unwrap();
            prop_assert_eq!(diagonals.len(), 2 * size - 1);
            for row in 0..size {
                for col in 0..size {
                    let (m, n) = (m0 + row as i64, n0 + col as i64);
                    let cell = cells[row * size + col];
                    prop_assert!(cell.is_finite());
                    let bias = match mode {
                        HeatmapMode::T5 => biases.of_bucket(t5_bucket(n - m)),
                        _ => -((n - m).abs() as f64) / 16.0,
                    };
                    prop_assert!((cell - (plain + bias)).abs() <= 1e-12 * (1.0 + plain.abs() + bias.abs()), "{:?} ({}, {})", mode, m, n);
                    prop_assert_eq!(diagonals[col + size - 1 - row], cell);
                    // One diagonal, one value.
                    if row + 1 < size && col + 1 < size {
                        prop_assert_eq!(cell, cells[(row + 1) * size + col + 1]);
                    }
                }
            }
        }
    }
}

#[test]
fn alibi_slopes_are_the_papers_geometric_sequence() {
    // H = 8: 2^(−8h/8) = 1/2, 1/4, ..., 1/256.
    let slopes: Vec<f64> = (1..=8).map(|h| alibi_slope(h, 8).unwrap()).collect();
    assert_eq!(slopes, vec![0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625]);
    // H = 16: 2^(−h/2), starting at 1/√2.
    assert!((alibi_slope(1, 16).unwrap() - 0.5f64.sqrt()).abs() < 1e-15);
    assert_eq!(alibi_slope(16, 16), Some(1.0 / 256.0));
    for (head, heads) in [(0, 8), (9, 8), (1, 0), (1, 6), (3, 12)] {
        assert_eq!(alibi_slope(head, heads), None, "head {head} of {heads}");
    }
}

#[test]
fn alibi_subtracts_the_slope_times_the_distance_on_both_sides() {
    let slope = alibi_slope(4, 8).unwrap();
    assert_eq!(slope, 1.0 / 16.0);
    for (r, bias) in [(0, 0.0), (-1, -0.0625), (1, -0.0625), (-32, -2.0), (32, -2.0), (-255, -15.9375), (255, -15.9375)] {
        assert_eq!(alibi_bias(slope, r), bias, "r = {r}");
        assert_eq!(ScoreBias::alibi().at(r), bias, "r = {r}");
    }
    assert_eq!(alibi_bias(f64::INFINITY, 0), 0.0);
    assert_eq!(alibi_bias(f64::NAN, 3), 0.0);
    assert_eq!(alibi_bias(slope, i64::MIN), -(2f64.powi(63)) / 16.0);
}

#[test]
fn t5_biases_are_drawn_from_the_seed_at_the_scale_of_the_scores() {
    let (q, k) = (seeded_vector(1, Stream::Query, 64), seeded_vector(1, Stream::Key, 64));
    let scale = score_scale(&q, &k);
    let norm = |v: &[f64]| dot(v, v).sqrt();
    assert!((scale - norm(&q) * norm(&k) / 8.0).abs() < 1e-12);
    // Standard normal components: |q||k|/√d is near √d = 8.
    assert!((5.0..12.0).contains(&scale), "{scale}");
    // The same seed, the same biases; another seed, others; not the numbers q is drawn from.
    let biases = T5Biases::drawn(1, scale);
    assert_eq!(biases, T5Biases::drawn(1, scale));
    assert_ne!(biases, T5Biases::drawn(2, scale));
    let unit = T5Biases::drawn(1, 1.0);
    let drawn: Vec<f64> = (0..T5_BUCKETS).map(|b| unit.of_bucket(b)).collect();
    let q_draws = seeded_vector(1, Stream::Query, T5_BUCKETS);
    assert!(drawn.iter().zip(&q_draws).any(|(b, x)| (b - x).abs() > 0.01), "the biases repeat q's draws");
    for b in 0..T5_BUCKETS {
        assert_eq!(biases.of_bucket(b), unit.of_bucket(b) * scale);
    }
    assert_eq!(biases.of_bucket(T5_BUCKETS), 0.0);
    // Over many seeds the draws are standard normal: mean near 0, variance near 1.
    let all: Vec<f64> = (0..200).flat_map(|seed| (0..T5_BUCKETS).map(move |b| T5Biases::drawn(seed, 1.0).of_bucket(b))).collect();
    let mean = all.iter().sum::<f64>() / all.len() as f64;
    let variance = all.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / all.len() as f64;
    assert!(mean.abs() < 0.05 && (variance - 1.0).abs() < 0.08, "mean {mean}, variance {variance}");
    // Nothing odd comes out of odd vectors.
    assert_eq!(score_scale(&[], &[]), 0.0);
    assert_eq!(score_scale(&[0.0; 4], &[1.0; 4]), 0.0);
    assert_eq!(T5Biases::drawn(1, f64::NAN), T5Biases::drawn(1, 0.0));
    assert_eq!(score_scale(&[f64::MAX; 2], &[f64::MAX; 2]), 0.0);
}

#[test]
fn only_the_bias_modes_add_a_bias() {
    let (q, k) = (seeded_vector(5, Stream::Query, 8), seeded_vector(5, Stream::Key, 8));
    for mode in HeatmapMode::ALL {
        let bias = mode.bias(&q, &k, 5);
        assert_eq!(bias.is_some(), matches!(mode, HeatmapMode::T5 | HeatmapMode::Alibi), "{mode:?}");
    }
    assert_eq!(HeatmapMode::T5.bias(&q, &k, 5), Some(ScoreBias::T5(T5Biases::drawn(5, score_scale(&q, &k)))));
    assert_eq!(HeatmapMode::Alibi.bias(&q, &k, 5), Some(ScoreBias::Alibi(1.0 / 16.0)));
}
