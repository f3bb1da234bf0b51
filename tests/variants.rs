//! Variants of RoPE beside context extension: xPos (Sun et al. 2022, torchscale's XPOS), and the
//! second method (B) and original-frequency views the context-extension chapter compares with.

use proptest::prelude::*;
use rope_lab::rope::{frequencies, ScalingMethod, ScalingParams};
use rope_lab::rope::{mean_cos_by_distance, xpos_mean_cos, xpos_zeta, RopeParams, DEFAULT_SCALE_BASE};
use rope_lab::state::LabState;

/// torchscale: `scale = (torch.arange(0, head_dim, 2) + 0.4 * head_dim) / (1.4 * head_dim)`.
fn torchscale_scale(head_dim: usize) -> Vec<f64> {
    (0..head_dim).step_by(2).map(|j| (j as f64 + 0.4 * head_dim as f64) / (1.4 * head_dim as f64)).collect()
}

#[test]
fn zeta_is_torchscales_scale() {
    for d in [2usize, 8, 64, 128, 1024] {
        let zeta = xpos_zeta(d / 2);
        let expected = torchscale_scale(d);
        assert_eq!(zeta.len(), expected.len());
        for (z, e) in zeta.iter().zip(&expected) {
            assert!((z - e).abs() < 1e-15, "d = {d}: {z} against {e}");
        }
    }
    // By hand at d = 128: 0.4/1.4 for the fastest plane, (126/128 + 0.4)/1.4 for the slowest.
    let zeta = xpos_zeta(64);
    assert!((zeta[0] - 2.0 / 7.0).abs() < 1e-15);
    assert!((zeta[63] - 0.988_839_285_714_285_7).abs() < 1e-15);
}

/// xPos from its definition: q scaled by ζᵢ^(m/s) and rotated by mθᵢ, k by ζᵢ^(−n/s) and nθᵢ,
/// plane by plane (interleaved pairs), then their dot product.
fn xpos_score_by_definition(theta: &[f64], q: &[f64], k: &[f64], m: f64, n: f64, scale_base: f64) -> f64 {
    let zeta = torchscale_scale(2 * theta.len());
    let mut sum = 0.0;
    for (i, t) in theta.iter().enumerate() {
        let turn = |x: (f64, f64), angle: f64, scale: f64| {
            let (s, c) = angle.sin_cos();
            (scale * (x.0 * c - x.1 * s), scale * (x.0 * s + x.1 * c))
        };
        let a = turn((q[2 * i], q[2 * i + 1]), m * t, zeta[i].powf(m / scale_base));
        let b = turn((k[2 * i], k[2 * i + 1]), n * t, zeta[i].powf(-n / scale_base));
        sum += a.0 * b.0 + a.1 * b.1;
    }
    sum
}

proptest! {
    #[test]
    fn xpos_mean_cos_is_the_q_equals_k_score(base in 2.0f64..1e6, planes in 1usize..64, n in 0u32..3000, back in 0u32..3000, angle in 0.0f64..6.3) {
        // q = k with every pair of length 1 (each at its own angle): the score per unit |q|²
        // is the mean over planes.
        let theta = rope_lab::rope::default_inv_freq(base.ln(), 2 * planes, planes);
        let q: Vec<f64> = (0..planes).flat_map(|i| { let a = angle * (i + 1) as f64; [a.cos(), a.sin()] }).collect();
        let (m, n) = ((n + back) as f64, n as f64);
        let direct = xpos_score_by_definition(&theta, &q, &q, m, n, DEFAULT_SCALE_BASE) / planes as f64;
        let ours = xpos_mean_cos(&theta, &[m - n], DEFAULT_SCALE_BASE)[0];
        prop_assert!((direct - ours).abs() < 1e-9 * direct.abs().max(1.0), "{direct} against {ours}");
    }

    #[test]
    fn xpos_stays_within_its_shrinking_envelope(planes in 1usize..128, delta in 0.0f64..1e7, scale_base in 1.0f64..1e5) {
        let theta = rope_lab::rope::default_inv_freq(10_000f64.ln(), 2 * planes, planes);
        let value = xpos_mean_cos(&theta, &[delta], scale_base)[0];
        let envelope: f64 = xpos_zeta(planes).iter().map(|z| z.powf(delta / scale_base)).sum::<f64>() / planes as f64;
        prop_assert!(value.is_finite());
        prop_assert!(value.abs() <= envelope + 1e-12);
        let further: f64 = xpos_zeta(planes).iter().map(|z| z.powf((delta + 1.0) / scale_base)).sum::<f64>() / planes as f64;
        prop_assert!(further <= envelope);
    }
}

#[test]
fn xpos_without_decay_is_plain_rope_and_starts_at_one() {
    let params = RopeParams::new(10_000.0, 128).unwrap();
    let theta = frequencies(params, &ScalingParams::default()).unwrap().inv_freq;
    let distances: Vec<f64> = (0..200).map(|i| (i * 37) as f64).collect();
    let plain = mean_cos_by_distance(&theta, &distances);
    let endless = xpos_mean_cos(&theta, &distances, 1e300);
    for (a, b) in plain.iter().zip(&endless) {
        assert!((a - b).abs() < 1e-12);
    }
    assert_eq!(xpos_mean_cos(&theta, &[0.0], DEFAULT_SCALE_BASE)[0], 1.0);
    // Far away every plane has shrunk: at 100,000 tokens the slowest ζ is 0.9888^195 ≈ 0.11.
    let far = xpos_mean_cos(&theta, &[100_000.0], DEFAULT_SCALE_BASE)[0];
    assert!(far.abs() < 0.02, "{far}");
}

#[test]
fn method_b_uses_the_same_factor_and_contexts_as_a() {
    let state = LabState::from_query("scaling=linear&factor=4&orig=2048&scaling_b=yarn").state;
    let b = state.scaling_params_b().expect("B is set");
    assert_eq!(b.method, ScalingMethod::Yarn);
    assert_eq!(b.factor, 4.0);
    assert_eq!(b.original_context, 2048);
    // Without a factor, the one the field shows (A's default): 8 with YaRN as A.
    let state = LabState::from_query("scaling=yarn&scaling_b=linear").state;
    assert_eq!(state.scaling_params_b().unwrap().factor, 8.0);
    assert_eq!(LabState::default().scaling_params_b(), None);
}

#[test]
fn the_original_frequencies_keep_partial_and_p_ropes_dropped_planes() {
    let params = RopeParams::new(10_000.0, 64).unwrap();
    let state = LabState::from_query("scaling=proportional&partial=0.25&factor=2").state;
    let before = frequencies(params, &state.unscaled_params()).unwrap().inv_freq;
    let after = frequencies(params, &state.scaling_params()).unwrap().inv_freq;
    assert_eq!(before.iter().filter(|t| **t > 0.0).count(), after.iter().filter(|t| **t > 0.0).count());
    for (b, a) in before.iter().zip(&after) {
        assert!((b / 2.0 - a).abs() < 1e-15);
    }
    let state = LabState::from_query("scaling=yarn&partial=0.5").state;
    let before = frequencies(params, &state.unscaled_params()).unwrap().inv_freq;
    assert_eq!(before, frequencies(params, &ScalingParams { partial: 0.5, ..ScalingParams::default() }).unwrap().inv_freq);
}

#[test]
fn new_parameters_are_validated_with_a_notice() {
    let parsed = LabState::from_query("xpos=yes&scale_base=-3&unscaled=2&scaling_b=rope");
    let state = &parsed.state;
    assert!(!state.xpos && !state.unscaled && state.scaling_b.is_none());
    assert_eq!(state.scale_base, DEFAULT_SCALE_BASE);
    for name in ["xpos", "scale_base", "unscaled", "scaling_b"] {
        assert!(parsed.notices.iter().any(|n| n.param == name), "no notice for {name}");
    }
    let state = LabState::from_query("xpos=1&scale_base=1e12&unscaled=1&scaling_b=none").state;
    assert!(state.xpos && state.unscaled);
    assert_eq!(state.scaling_b, Some(ScalingMethod::None));
    assert_eq!(state.scale_base, rope_lab::state::MAX_SCALE_BASE);
    let round = LabState::from_query(&state.to_query()).state;
    assert_eq!(round, state);
}

#[test]
fn a_method_picked_in_the_chapter_shows_what_it_does() {
    use rope_lab::rope::RopeParams;
    let params = RopeParams::new(10_000.0, 64).unwrap();
    // Linear with no factor would be the identity: picking it sets 8.
    let mut state = LabState::default();
    state.pick_method(Some(ScalingMethod::Linear), false);
    assert_eq!(state.factor, Some(8.0));
    let plain = frequencies(params, &state.unscaled_params()).unwrap().inv_freq;
    assert_ne!(frequencies(params, &state.scaling_params()).unwrap().inv_freq, plain);
    // A factor the reader chose stays; p-RoPE keeping every plane keeps half.
    let mut state = LabState::from_query("factor=3").state;
    state.pick_method(Some(ScalingMethod::Proportional), false);
    assert_eq!((state.factor, state.partial), (Some(3.0), 0.5));
    // As B beside plain RoPE: the factor both read becomes 8 too; unsetting B changes nothing else.
    let mut state = LabState::default();
    state.pick_method(Some(ScalingMethod::Ntk), true);
    assert_eq!((state.scaling_b, state.factor), (Some(ScalingMethod::Ntk), Some(8.0)));
    state.pick_method(None, true);
    assert_eq!((state.scaling_b, state.factor), (None, Some(8.0)));
}
