//! `make bench` (cargo bench --bench core): the core's hot paths, each beside the obvious way of
//! computing the same thing, so that every speed-up is a ratio measured in one run on one
//! machine. Prints a table; asserts only that both ways agree.

use rope_lab::rope::{
    decay_bound, decay_curve, dot, frequencies, plane_share, score_by_distance, score_window, seeded_vector, sinusoidal_encoding,
    HeatmapMode, Layout, ModeInputs, Position, RopeParams, Rotary, ScalingMethod, ScalingParams, Stream, VectorName,
};
use std::hint::black_box;
use std::time::Instant;

/// Median seconds per call of `f` over enough repetitions to last about 0.3 s.
fn time<T>(mut f: impl FnMut() -> T) -> f64 {
    let start = Instant::now();
    black_box(f());
    let once = start.elapsed().as_secs_f64().max(1e-7);
    let per_sample = ((0.03 / once).ceil() as usize).clamp(1, 100_000);
    let mut samples: Vec<f64> = (0..11)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per_sample {
                black_box(f());
            }
            start.elapsed().as_secs_f64() / per_sample as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn row(what: &str, ours: f64, obvious: f64) {
    println!("{what:<58} {:>11.2} µs {:>12.2} µs {:>8.1}×", ours * 1e6, obvious * 1e6, obvious / ours);
}

/// q rotated to `position` the textbook way: build the d × d block-diagonal matrix R_m
/// (RoFormer eq. 15) and multiply.
fn rotate_by_matrix(inv_freq: &[f64], x: &[f64], position: f64) -> Vec<f64> {
    let d = x.len();
    let mut matrix = vec![0.0; d * d];
    for (i, theta) in inv_freq.iter().enumerate() {
        let (sin, cos) = (position * theta).sin_cos();
        let (a, b) = (2 * i, 2 * i + 1);
        matrix[a * d + a] = cos;
        matrix[a * d + b] = -sin;
        matrix[b * d + a] = sin;
        matrix[b * d + b] = cos;
    }
    (0..d).map(|row| (0..d).map(|col| matrix[row * d + col] * x[col]).sum()).collect()
}

fn main() {
    println!("{:<58} {:>14} {:>15} {:>9}", "hot path", "RoPE Lab", "obvious way", "speed-up");

    // Inverse frequencies at d = 128, through the dispatch, against one powf per plane.
    let params = RopeParams::new(500_000.0, 128).unwrap();
    let none = ScalingParams { method: ScalingMethod::None, ..ScalingParams::default() };
    let by_powf = || (0..64).map(|i| 500_000f64.powf(-(2.0 * i as f64) / 128.0)).collect::<Vec<_>>();
    let ours_values = frequencies(params, &none).unwrap().inv_freq;
    assert!(ours_values.iter().zip(by_powf()).all(|(a, b)| (a - b).abs() <= 1e-12 * b));
    let ours = time(|| frequencies(params, &none).unwrap());
    let obvious = time(by_powf);
    row("inverse frequencies, d = 128 (exp of ln base vs powf)", ours, obvious);

    // Rotating q and k, pair by pair, against the d × d matrix.
    for d in [128, 1024] {
        let params = RopeParams::new(10_000.0, d).unwrap();
        let f = rope_lab::rope::Frequencies::plain(params);
        let rotary = Rotary::new(Layout::Interleaved, &f);
        let (q, k) = (seeded_vector(1, Stream::Query, d), seeded_vector(1, Stream::Key, d));
        let by_pairs = rotary.rotate(VectorName::Query, &q, 300).unwrap();
        let by_matrix = rotate_by_matrix(&f.inv_freq, &q, 300.0);
        assert!(by_pairs.iter().zip(&by_matrix).all(|(a, b)| (a - b).abs() < 1e-9));
        let ours = time(|| {
            let q = rotary.rotate(VectorName::Query, &q, 300).unwrap();
            let k = rotary.rotate(VectorName::Key, &k, 20).unwrap();
            (q, k)
        });
        let obvious = time(|| (rotate_by_matrix(&f.inv_freq, &q, 300.0), rotate_by_matrix(&f.inv_freq, &k, 20.0)));
        row(&format!("rotate q and k, d = {d} (pairs vs d × d matrix)"), ours, obvious);
    }

    // The decay curve over 65,536 distances at d = 128: a phasor recurrence against a sin and
    // cos per plane per distance.
    let f = rope_lab::rope::Frequencies::plain(RopeParams::new(10_000.0, 128).unwrap());
    let curve = decay_curve(&f.inv_freq, 0.0, 1.0, 65_536);
    assert!(curve.iter().enumerate().step_by(997).all(|(r, v)| (v - decay_bound(&f.inv_freq, r as f64)).abs() < 1e-9));
    let ours = time(|| decay_curve(&f.inv_freq, 0.0, 1.0, 65_536));
    let obvious = time(|| (0..65_536).map(|r| decay_bound(&f.inv_freq, r as f64)).collect::<Vec<_>>());
    row("decay bound over 65,536 distances, d = 128", ours, obvious);

    // The 256 × 256 score window: one evaluation per distance against one score per cell.
    let params = RopeParams::new(10_000.0, 128).unwrap();
    let rotary = Rotary::new(Layout::Half, &rope_lab::rope::Frequencies::plain(params));
    let (q, k) = (seeded_vector(2, Stream::Query, 128), seeded_vector(2, Stream::Key, 128));
    let window = score_window(&rotary, &q, &k, (172, 72), 256, HeatmapMode::Rotated, ModeInputs { params, seed: 2 });
    let cell = |m: i64, n: i64| rotary.scores(&q, &k, Position::new(m).unwrap(), Position::new(n).unwrap()).unwrap().score;
    assert!((window[300] - cell(172 + 1, 72 + 44)).abs() < 1e-9);
    let ours = time(|| score_window(&rotary, &q, &k, (172, 72), 256, HeatmapMode::Rotated, ModeInputs { params, seed: 2 }));
    let obvious = time(|| (0..256 * 256).map(|i| cell(172 + (i / 256) as i64, 72 + (i % 256) as i64)).collect::<Vec<_>>());
    row("score window 256 × 256, d = 128 (per distance vs per cell)", ours, obvious);

    // The decay chart's score curve: q · R(r) k at its 513 evenly spaced distances over 65,536
    // tokens, by phasors against a sin and cos per plane per distance.
    let distances: Vec<f64> = (0..=512).map(|i| 65_536.0 * i as f64 / 512.0).collect();
    let products: Vec<(f64, f64)> = (0..64).map(|plane| rotary.plane_product(&q, &k, plane)).collect();
    let by_terms = || -> Vec<f64> {
        distances.iter().map(|r| products.iter().zip(rotary.inv_freq()).map(|(h, t)| plane_share(*h, *t, *r)).sum()).collect()
    };
    let curve = score_by_distance(&rotary, &q, &k, &distances);
    assert!(curve.iter().zip(by_terms()).all(|(a, b)| (a - b).abs() < 1e-9));
    let ours = time(|| score_by_distance(&rotary, &q, &k, &distances));
    let obvious = time(by_terms);
    row("score curve, 513 distances over 65,536, d = 128", ours, obvious);

    // The heatmap with sinusoids added, (q + PE(m)) · (k + PE(n)) over 256 × 256: per distance
    // and per row and column by phasors, against the encodings built and added for every cell.
    let window = score_window(&rotary, &q, &k, (172, 72), 256, HeatmapMode::Sinusoidal, ModeInputs { params, seed: 2 });
    let added = |m: i64, n: i64| {
        let (pm, pn) = (sinusoidal_encoding(params, m as f64), sinusoidal_encoding(params, n as f64));
        let qm: Vec<f64> = q.iter().zip(&pm).map(|(a, b)| a + b).collect();
        let kn: Vec<f64> = k.iter().zip(&pn).map(|(a, b)| a + b).collect();
        dot(&qm, &kn)
    };
    assert!((window[300] - added(172 + 1, 72 + 44)).abs() < 1e-9);
    let ours = time(|| score_window(&rotary, &q, &k, (172, 72), 256, HeatmapMode::Sinusoidal, ModeInputs { params, seed: 2 }));
    let obvious = time(|| (0..256 * 256).map(|i| added(172 + (i / 256) as i64, 72 + (i % 256) as i64)).collect::<Vec<_>>());
    row("sinusoids-added window 256 × 256, d = 128 (vs per cell)", ours, obvious);
}
