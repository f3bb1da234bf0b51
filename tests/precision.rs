//! Issue 13's numbers: bf16, fp16 and f32 emulated exactly (known values, ties to even,
//! overflow, subnormals), what they do to angles at long positions, and axial 2D RoPE.

use proptest::prelude::*;
use rope_lab::rope::{
    collision_partner, log_positions, max_angle_error, plane_angle_errors, score_with, seeded_vector, ErrorSource, Format, Pipeline,
    Rope2d, RopeParams, Stream,
};

#[test]
fn bf16_keeps_8_significant_bits_ties_to_even() {
    let bf16 = Format::Bf16;
    // Between 8192 and 16384 bf16 holds every 64th integer (the examples).
    assert_eq!(bf16.round(15962.0), 15936.0);
    assert_eq!(bf16.round(15968.0), 16000.0); // 249.5 × 64: the tie goes to the even 250
    assert_eq!(bf16.round(15904.0), 15872.0); // 248.5 × 64: the tie goes to the even 248
    assert_eq!(bf16.ulp(10_000.0), 64.0);
    assert_eq!(bf16.round(255.0), 255.0);
    assert_eq!(bf16.round(257.0), 256.0); // 128.5 × 2 → 128
    assert_eq!(bf16.round(259.0), 260.0); // 129.5 × 2 → 130

    // The same bits as truncating an f32's low half after rounding: compare with f32 bits.
    for x in [1.0f32, std::f32::consts::PI, 1e-3, 65504.0, 1e30, -2.5e-38, 123456.78] {
        let bits = x.to_bits();
        let rounded = (bits + 0x7fff + ((bits >> 16) & 1)) & 0xffff_0000;
        assert_eq!(bf16.round(f64::from(x)), f64::from(f32::from_bits(rounded)), "{x}");
    }
    assert_eq!(bf16.max_finite(), 3.3895313892515355e38);
    assert_eq!(bf16.round(3.4e38), f64::INFINITY);
}

#[test]
fn fp16_overflows_past_65504_and_has_subnormals() {
    let fp16 = Format::Fp16;
    assert_eq!(fp16.max_finite(), 65504.0);
    assert_eq!(fp16.round(65504.0), 65504.0);
    assert_eq!(fp16.round(65519.0), 65504.0);
    assert_eq!(fp16.round(65520.0), f64::INFINITY); // halfway to 65536: rounds up, out of range
    assert_eq!(fp16.round(-70000.0), f64::NEG_INFINITY);
    assert_eq!(fp16.round(2049.0), 2048.0); // spacing 2 above 2048, tie to even
    assert_eq!(fp16.round(2051.0), 2052.0);
    // Subnormals: spacing 2^-24 below 2^-14.
    let tiny = 2f64.powi(-24);
    assert_eq!(fp16.ulp(1e-6), tiny);
    assert_eq!(fp16.round(tiny * 0.5), 0.0); // a tie between 0 and the smallest: to even 0
    assert_eq!(fp16.round(tiny * 0.75), tiny);
    assert_eq!(fp16.round(tiny * 2.5), tiny * 2.0);
}

#[test]
fn f32_matches_rusts_own_conversion_and_f64_is_exact() {
    for x in [0.1, 1.0 / 3.0, 16_777_217.0, 1e39, 1e-40, -7.25, 123_456_789.0] {
        assert_eq!(Format::F32.round(x), f64::from(x as f32), "{x}");
    }
    assert_eq!(Format::F64.round(0.1), 0.1);
    assert!(Format::Bf16.round(f64::NAN).is_nan());
}

#[test]
fn runs_of_positions_that_collapse_onto_one() {
    // bf16 between 8192 and 16384: 64 neighbours share 15936 (15904 ties down to 15872... so
    // the run is 15905..=15967, with 15968 a tie that goes up).
    assert_eq!(Format::Bf16.collapsed_run(15962), Some((15905, 15967)));
    assert_eq!(Format::Bf16.collapsed_run(16000), Some((15968, 16032)));
    assert_eq!(Format::Bf16.collapsed_run(100), Some((100, 100)));
    assert_eq!(Format::Fp16.collapsed_run(70_000), None);
    for (format, m) in [(Format::Bf16, 1_000_003u64), (Format::Fp16, 40_001), (Format::F32, 50_000_001)] {
        let (first, last) = format.collapsed_run(m).unwrap();
        let stored = format.round(m as f64);
        assert!(first <= m && m <= last);
        assert_eq!(format.round(first as f64), stored);
        assert_eq!(format.round(last as f64), stored);
        assert_ne!(format.round(first as f64 - 1.0), stored);
        assert_ne!(format.round(last as f64 + 1.0), stored);
    }
}

#[test]
fn angles_at_long_positions_break_in_bf16_and_not_in_f64() {
    let params = RopeParams::new(10_000.0, 128).unwrap();
    let inv_freq = rope_lab::rope::default_inv_freq(params.base().ln(), 128, 64);
    // Position 15962 stored as 15936: plane 0 (θ = 1) is 26 radians off, a full turn and more.
    assert!(max_angle_error(Pipeline::All(Format::Bf16), 15962.0, &inv_freq) > 1.0);
    assert_eq!(max_angle_error(Pipeline::All(Format::F64), 15962.0, &inv_freq), 0.0);
    // f32 keeps angles to about 1e-3 rad here, integers plus bf16 angles do not.
    assert!(max_angle_error(Pipeline::All(Format::F32), 15962.0, &inv_freq) < 2e-3);
    assert!(max_angle_error(Pipeline::IntegerPositions(Format::Bf16), 15962.0, &inv_freq) > 0.1);
    // fp16 overflows past 65504: the angle is lost (π).
    assert_eq!(max_angle_error(Pipeline::All(Format::Fp16), 70_000.0, &inv_freq), std::f64::consts::PI);
    // The score follows: f64 angles give the exact score, bf16 ones do not.
    let (q, k) = (seeded_vector(1, Stream::Query, 128), seeded_vector(1, Stream::Key, 128));
    let exact = score_with(Pipeline::All(Format::F64), &q, &k, 15962.0, 15000.0, &inv_freq).unwrap();
    let rotated = rope_lab::rope::Rotary::new(rope_lab::rope::Layout::Interleaved, &rope_lab::rope::Frequencies::plain(params))
        .scores(&q, &k, rope_lab::rope::Position::new(15962).unwrap(), rope_lab::rope::Position::new(15000).unwrap())
        .unwrap()
        .score;
    assert!((exact - rotated).abs() < 1e-9 * rotated.abs().max(1.0));
    let bf16 = score_with(Pipeline::All(Format::Bf16), &q, &k, 15962.0, 15000.0, &inv_freq).unwrap();
    assert!((bf16 - exact).abs() > 1e-3);
    assert!(score_with(Pipeline::All(Format::Bf16), &q, &k[..4], 1.0, 2.0, &inv_freq).is_err());
}

proptest! {
    #[test]
    fn rounding_is_nearest_and_idempotent(x in -1e6f64..1e6) {
        for format in [Format::Bf16, Format::Fp16, Format::F32] {
            let stored = format.round(x);
            prop_assert_eq!(format.round(stored), stored);
            if stored.is_finite() {
                prop_assert!((stored - x).abs() <= format.ulp(x) / 2.0 + f64::EPSILON * x.abs());
            } else {
                // Only past the largest finite value (fp16: 65504) does a value overflow.
                prop_assert!(x.abs() > format.max_finite());
            }
        }
    }

    #[test]
    fn axial_2d_scores_depend_only_on_the_offset(
        half in 1usize..=64, seed in 0u64..1000,
        q in (0i64..64, 0i64..64), k in (0i64..64, 0i64..64), shift in (-200i64..200, -200i64..200),
    ) {
        let params = RopeParams::new(10_000.0, 2 * half).unwrap();
        let rope = Rope2d::new(params);
        let (qv, kv) = (seeded_vector(seed, Stream::Query, 2 * half), seeded_vector(seed, Stream::Key, 2 * half));
        let here = rope.score(&qv, &kv, q, k).unwrap();
        let moved = rope.score(&qv, &kv, (q.0 + shift.0, q.1 + shift.1), (k.0 + shift.0, k.1 + shift.1)).unwrap();
        prop_assert!((here - moved).abs() <= 1e-9 * here.abs().max(1.0), "{} against {}", here, moved);
    }
}

#[test]
fn axial_tells_rows_from_columns_and_the_mixed_way_does_not() {
    let params = RopeParams::new(10_000.0, 64).unwrap();
    let rope = Rope2d::new(params);
    assert_eq!(rope.split(), (16, 16));
    let (q, k) = (seeded_vector(1, Stream::Query, 64), seeded_vector(1, Stream::Key, 64));
    // One patch right and one patch down: different offsets, different axial scores...
    let right = rope.score(&q, &k, (3, 3), (4, 3)).unwrap();
    let down = rope.score(&q, &k, (3, 3), (3, 4)).unwrap();
    assert!((right - down).abs() > 1e-3);
    // ... but the mixed way turns both by (x + y)·θ: the two offsets collide.
    let right = rope.mixed_score(&q, &k, (3, 3), (4, 3)).unwrap();
    let down = rope.mixed_score(&q, &k, (3, 3), (3, 4)).unwrap();
    assert!((right - down).abs() < 1e-12);
    assert_eq!(rope.score_grid(&q, &k, (2, 5), 8).unwrap().len(), 64);
    assert!(rope.score(&q, &k[..6], (0, 0), (1, 1)).is_err());
}

#[test]
fn the_mixed_way_collides_along_anti_diagonals_and_axial_does_not() {
    let params = RopeParams::new(10_000.0, 64).unwrap();
    let rope = Rope2d::new(params);
    let (q, k) = (seeded_vector(1, Stream::Query, 64), seeded_vector(1, Stream::Key, 64));
    let (qp, grid) = ((2, 5), 8);
    let axial = rope.score_grid(&q, &k, qp, grid).unwrap();
    let mixed = rope.mixed_score_grid(&q, &k, qp, grid).unwrap();
    for kx in 0..grid as i64 {
        for ky in 0..grid as i64 {
            let cell = (ky * grid as i64 + kx) as usize;
            assert_eq!(axial[cell], rope.score(&q, &k, qp, (kx, ky)).unwrap());
            let Some(partner) = collision_partner((kx, ky), grid as i64) else {
                assert!(matches!((kx, ky), (0, 0) | (7, 7)), "only the corners have no partner");
                continue;
            };
            assert_eq!(partner.0 + partner.1, kx + ky);
            assert_ne!(partner, (kx, ky));
            let other = (partner.1 * grid as i64 + partner.0) as usize;
            // The same x + y: the mixed way gives one score to two different offsets...
            assert!((mixed[cell] - mixed[other]).abs() < 1e-9);
            // ... which the axial way tells apart.
            assert!((axial[cell] - axial[other]).abs() > 1e-6, "{:?} and {:?}", (kx, ky), partner);
        }
    }
}

#[test]
fn the_chart_curves_grow_with_position_and_the_fixes_help() {
    let inv_freq: Vec<f64> = (0..64).map(|i| 10_000f64.powf(-(2 * i) as f64 / 128.0)).collect();
    let positions = log_positions(1 << 20, 200);
    assert_eq!((positions[0], *positions.last().unwrap()), (1.0, (1 << 20) as f64));
    assert!(positions.windows(2).all(|w| w[0] < w[1] && w[0].fract() == 0.0));
    let curve = |source: ErrorSource| source.envelope(&positions, &inv_freq);
    let bf16 = curve(ErrorSource::Angle(Pipeline::All(Format::Bf16)));
    let f32_all = curve(ErrorSource::Angle(Pipeline::All(Format::F32)));
    let f32_integer = curve(ErrorSource::Angle(Pipeline::IntegerPositions(Format::F32)));
    let table = curve(ErrorSource::TableCast(Format::Bf16));
    assert!(curve(ErrorSource::Angle(Pipeline::All(Format::F64))).iter().all(|e| *e == 0.0));
    for c in [&bf16, &f32_all, &f32_integer, &table] {
        assert!(c.windows(2).all(|w| w[0] <= w[1]), "a running maximum never falls");
        assert!(c.iter().all(|e| (0.0..=std::f64::consts::PI).contains(e)));
    }
    // bf16 is off by the whole circle long before a million tokens; f32 is not; building the
    // tables in f32 and casting keeps bf16's error to the cast of cos and sin (≤ 2⁻⁸ + f32's).
    assert!(*bf16.last().unwrap() > 3.0);
    assert!(*f32_all.last().unwrap() < 0.2);
    assert!(*table.last().unwrap() < 0.2);
    let at = |c: &[f64], p: f64| c[positions.iter().position(|x| *x >= p).unwrap()];
    assert!(at(&bf16, 1000.0) > 100.0 * at(&f32_all, 1000.0));
    // fp16 overflows past 65504: every angle is lost there.
    let fp16 = curve(ErrorSource::Angle(Pipeline::All(Format::Fp16)));
    assert_eq!(*fp16.last().unwrap(), std::f64::consts::PI);
    // One position, every plane: the largest is max_angle_error.
    let planes = plane_angle_errors(Pipeline::All(Format::Bf16), 15_962.0, &inv_freq);
    assert_eq!(planes.len(), 64);
    assert_eq!(planes.iter().copied().fold(0.0, f64::max), max_angle_error(Pipeline::All(Format::Bf16), 15_962.0, &inv_freq));
}
