//! The early chapters' check-yourself questions (src/quiz/early.rs), each answer checked against
//! an independent computation over random reachable states: any base, d, positions up to 10⁷,
//! both layouts, every context extension (LongRoPE with per-plane factors that are not monotone
//! or below 1), and typed q and k (zeros, one-hot, a pair set so that the score is near 0).

use proptest::prelude::*;
use rope_lab::charts::format::short_number;
use rope_lab::quiz::early::{bits_flip, first_turn, pe_dot, shift_added, shift_both, shift_rope, turn_length};
use rope_lab::quiz::Question;
use rope_lab::rope::{RopeParams, VectorName, MAX_BASE, MAX_CODE_POSITION, MAX_DIM, MAX_POSITION};
use rope_lab::state::{Change, Derived, LabState, Vectors};
use std::f64::consts::TAU;

/// The question's right answer is one of its choices, and the choices do not repeat.
fn well_formed(q: &Question) {
    assert!(q.choices.iter().any(|(v, _)| *v == q.right), "{} not among {:?}", q.right, q.choices);
    assert!(q.choices.len() >= 2, "one choice only: {:?}", q.choices);
    for (i, (v, l)) in q.choices.iter().enumerate() {
        assert!(q.choices[i + 1..].iter().all(|(w, m)| w != v && m != l), "repeated choice in {:?}", q.choices);
    }
}

/// What the q and k of a state are.
#[derive(Debug, Clone)]
enum Typed {
    Seeded,
    Zeros,
    /// q and k one-hot on dimension (fraction of d).
    OneHot(f64),
    /// q zero, k seeded.
    QZero,
    /// q = (1, 0) and k = (cos φ, sin φ) on plane 0, φ set so that the score at (m, n) is about 0.
    NearZero,
}

fn typed() -> impl Strategy<Value = Typed> {
    prop_oneof![
        3 => Just(Typed::Seeded),
        1 => Just(Typed::Zeros),
        2 => (0.0..1.0f64).prop_map(Typed::OneHot),
        1 => Just(Typed::QZero),
        2 => Just(Typed::NearZero),
    ]
}

/// A context extension as URL text, with its fields.
fn scaling(planes: usize) -> impl Strategy<Value = String> {
    let factors = proptest::collection::vec(prop_oneof![0.01..1.0f64, 1.0..64.0f64], planes);
    (0..8usize, 1.0..32.0f64, 0.0..1.0f64, factors.clone(), factors, 2u64..20_000, any::<bool>()).prop_map(
        move |(method, factor, partial, short, long, orig, long_seq)| {
            let list = |v: &[f64]| v.iter().map(|x| format!("{x:?}")).collect::<Vec<_>>().join(",");
            let partial = (partial * 100.0).round().max(1.0) / 100.0;
            match method {
                0 => String::new(),
                1 => format!("scaling=linear&factor={factor:?}"),
                2 => format!("scaling=ntk&factor={factor:?}"),
                3 => format!("scaling=dynamic&factor={factor:?}&orig={orig}&seq={}", if long_seq { orig * 3 } else { orig / 2 + 1 }),
                4 => format!("scaling=yarn&factor={factor:?}&orig={orig}"),
                5 => format!("scaling=llama3&factor={factor:?}&orig={orig}"),
                6 => format!(
                    "scaling=longrope&factor={factor:?}&orig={orig}&seq={}&short_factor={}&long_factor={}",
                    if long_seq { orig * 2 } else { orig },
                    list(&short),
                    list(&long)
                ),
                _ => format!("scaling=proportional&factor={factor:?}&partial={partial:?}"),
            }
        },
    )
}

/// A base the page accepts, (1, 10⁹]: from just above 1 (1.0001, where every θᵢ is nearly 1)
/// through 10, and log-uniform from 10 to 10⁹, the edges included.
fn base() -> impl Strategy<Value = f64> {
    prop_oneof![Just(1.0001), Just(MAX_BASE), 1.0001..10.0f64, (1.0..=9.0f64).prop_map(|e| 10f64.powf(e).min(MAX_BASE)),]
}

/// A reachable state and what the page derives from it: d from 2 to 2·512 (the page's
/// MAX_DIM is 1024).
fn state() -> impl Strategy<Value = (LabState, Derived)> {
    (1usize..=MAX_DIM / 2, base(), any::<bool>())
        .prop_flat_map(|(planes, base, half)| {
            let positions = prop_oneof![0..200i64, 0..=MAX_POSITION, (MAX_POSITION - 1000)..=MAX_POSITION];
            (Just(planes), Just(base), Just(half), positions.clone(), positions, scaling(planes), typed(), any::<u64>())
        })
        .prop_filter_map("parameters the page reports as an error", |(planes, base, half, m, n, scaling, typed, seed)| {
            let query = format!(
                "base={:?}&dim={}&m={m}&n={n}&seed={}&layout={}&{scaling}",
                base,
                2 * planes,
                seed % 1000,
                if half { "half" } else { "interleaved" }
            );
            let mut state = LabState::from_query(&query).state;
            let d = state.dim;
            let derived = Derived::compute(&state).ok()?;
            let (a, b) = derived.vectors.rotary.plane_dims(0);
            let unit = |i: usize| (0..d).map(|j| if j == i { 1.0 } else { 0.0 }).collect::<Vec<f64>>();
            let (q, k) = match typed {
                Typed::Seeded => (None, None),
                Typed::Zeros => (Some(vec![0.0; d]), Some(vec![0.0; d])),
                Typed::OneHot(at) => {
                    let i = ((at * d as f64) as usize).min(d - 1);
                    (Some(unit(i)), Some(unit(i)))
                }
                Typed::QZero => (Some(vec![0.0; d]), None),
                Typed::NearZero => {
                    // R(m)q · R(n)k = cos((n − m)θ₀ + φ) on plane 0: 0 for φ = π/2 − (n − m)θ₀.
                    let theta = derived.vectors.rotary.inv_freq()[0];
                    let phi = std::f64::consts::FRAC_PI_2 - ((state.n - state.m) as f64 * theta).rem_euclid(TAU);
                    let mut k = vec![0.0; d];
                    (k[a], k[b]) = (phi.cos(), phi.sin());
                    (Some(unit(a)), Some(k))
                }
            };
            if let Some(q) = q {
                state.apply(Change::Q(Some(q)));
            }
            if let Some(k) = k {
                state.apply(Change::K(Some(k)));
            }
            let derived = Derived::compute(&state).ok()?;
            Some((state, derived))
        })
}

fn length(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

#[test]
fn bits_flip_counts_the_carry() {
    for p in (0..=MAX_CODE_POSITION).step_by(7).chain([7, 8, 255, 32_767, MAX_CODE_POSITION - 1, MAX_CODE_POSITION]) {
        let q = bits_flip(p);
        well_formed(&q);
        // At the last position the code can write there is no next code: the step before it.
        let at = p.min(MAX_CODE_POSITION - 1);
        assert_eq!(q.right, (at ^ (at + 1)).count_ones().to_string(), "p = {p}");
        assert_eq!(q.right, (at.trailing_ones() + 1).to_string(), "p = {p}");
        if p == MAX_CODE_POSITION {
            assert!(q.why.contains("no next code"), "{}", q.why);
            assert!(q.ask.contains("65,534 to 65,535"), "{}", q.ask);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// PE(p)·PE(p + Δ) = Σᵢ cos Δθᵢ does not depend on p: always "stay", and the why's sum is that.
    #[test]
    fn pe_dot_stays(base in base(), planes in 1usize..=MAX_DIM / 2, p in 0..=MAX_CODE_POSITION, shift in 0..=MAX_CODE_POSITION) {
        let params = RopeParams::new(base, 2 * planes).unwrap();
        let q = pe_dot(params, p, shift);
        well_formed(&q);
        prop_assert_eq!(&q.right, "stay");
        prop_assert!(q.ask.contains('Δ') && !q.ask.contains(" k "), "{}", q.ask);
    }

    /// The added score changes by q·(PE(n+s) − PE(n)) + (PE(m+s) − PE(m))·k exactly (q·k and
    /// PE(m)·PE(n) depend on n − m): computed here from differences of sines (2 cos(a + h/2)
    /// sin(h/2)), which keep their precision at large positions. A change well above rounding
    /// is the answer's direction; with q = k = 0 the score stays.
    #[test]
    fn shift_added_follows_the_cross_terms((state, derived) in state(), shift in 1i64..200) {
        let params = derived.params;
        let Vectors { q, k, .. } = &derived.vectors;
        let (m, n) = (state.m, state.n);
        let question = shift_added(q, k, params, m, n, shift);
        well_formed(&question);
        let theta = |i: usize| params.base().powf(-2.0 * i as f64 / params.dim() as f64);
        // (sin, cos) of plane i: their change from p to p + shift.
        let delta = |p: i64, i: usize| {
            let (a, h) = (p as f64 * theta(i), shift as f64 * theta(i));
            let s = (h / 2.0).sin();
            (2.0 * (a + h / 2.0).cos() * s, -2.0 * (a + h / 2.0).sin() * s)
        };
        let change: f64 = (0..params.planes())
            .map(|i| {
                let (dn, dm) = (delta(n, i), delta(m, i));
                q[2 * i] * dn.0 + q[2 * i + 1] * dn.1 + dm.0 * k[2 * i] + dm.1 * k[2 * i + 1]
            })
            .sum();
        let scale = (length(q) + (params.planes() as f64).sqrt()) * (length(k) + (params.planes() as f64).sqrt());
        if q.iter().chain(k.iter()).all(|x| *x == 0.0) {
            prop_assert_eq!(&question.right, "stay");
            prop_assert!(question.why.contains("zero"), "{}", question.why);
        } else if change.abs() > 1e-6 * scale {
            prop_assert_eq!(&question.right, if change > 0.0 { "rise" } else { "fall" }, "change {}", change);
        }
    }

    /// R(m)q · R(n)k = q · R(n − m)k: "stay" in every state, at positions near 10⁷ with a score
    /// near 0 too.
    #[test]
    fn shift_rope_stays((state, derived) in state(), shift in 1i64..200) {
        let question = shift_rope(&derived.vectors, state.m, state.n, shift);
        well_formed(&question);
        prop_assert_eq!(&question.right, "stay", "{}", question.why);
    }

    /// Which numbers change when m and n both move: each rotated vector, measured here by
    /// rotating it at both positions (a change well above rounding means it changed; exactly
    /// none means it did not), and never the score.
    #[test]
    fn shift_both_looks_at_q_and_k((state, derived) in state(), shift in 1i64..200) {
        let v = &derived.vectors;
        let question = shift_both(v, state.m, state.n, shift);
        well_formed(&question);
        prop_assert_ne!(&question.right, "score");
        let moved = |x: &[f64], p: i64, name| {
            let (a, b) = (v.rotary.rotate(name, x, p).unwrap(), v.rotary.rotate(name, x, p + shift).unwrap());
            a.iter().zip(&b).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max)
        };
        let (q_moved, k_moved) = (moved(&v.q, state.m, VectorName::Query), moved(&v.k, state.n, VectorName::Key));
        let claims_q = matches!(question.right.as_str(), "vectors" | "q");
        let claims_k = matches!(question.right.as_str(), "vectors" | "k");
        let clear = |moved: f64, x: &[f64]| moved > 1e-6 * length(x);
        // Beyond an angle of 10⁸ radians the rounded vectors are not worth comparing.
        let fastest = v.rotary.inv_freq().iter().copied().fold(0.0, f64::max);
        if (state.m.max(state.n) + shift) as f64 * fastest < 1e8 {
            if clear(q_moved, &v.q) { prop_assert!(claims_q, "q moved {}: {}", q_moved, question.why); }
            if clear(k_moved, &v.k) { prop_assert!(claims_k, "k moved {}: {}", k_moved, question.why); }
        }
        if q_moved == 0.0 { prop_assert!(!claims_q, "{}", question.why); }
        if k_moved == 0.0 { prop_assert!(!claims_k, "{}", question.why); }
    }

    /// A turn keeps q̃ᵢ's length: "not at all", always. The lengths before and after, from a
    /// rotation matrix of this test's own (the angle reduced to [0, 2π) first), agree to 1e-12
    /// of the length, and the why states them.
    #[test]
    fn turn_length_is_none((state, derived) in state(), plane_at in 0.0..1.0f64) {
        let v = &derived.vectors;
        let plane = ((plane_at * v.rotary.planes() as f64) as usize).min(v.rotary.planes() - 1);
        let (a, b) = v.rotary.plane_dims(plane);
        let theta = v.rotary.inv_freq()[plane];
        let question = turn_length((v.q[a], v.q[b]), state.m, theta);
        well_formed(&question);
        prop_assert_eq!(&question.right, "none");
        let angle = (state.m as f64 * theta).rem_euclid(TAU);
        let (c, s) = (angle.cos(), angle.sin());
        let (x, y) = (v.q[a], v.q[b]);
        let before = (x * x + y * y).sqrt();
        let after = ((c * x - s * y).powi(2) + (s * x + c * y).powi(2)).sqrt();
        prop_assert!((before - after).abs() <= 1e-12 * before, "{} before, {} after", before, after);
        // The why names both lengths; they agree, so the second may round like either.
        let said = |second: f64| format!("here {} before and {} after", short_number(before), short_number(second));
        prop_assert!(question.why.contains(&said(after)) || question.why.contains(&said(before)), "{}", question.why);
    }

    /// The plane with the largest θᵢ turns first (the first of a tie); at d = 2 the question
    /// asks for 2π/θ₀ and still has several choices; the why never says θᵢ shrinks with i when it
    /// does not.
    #[test]
    fn first_turn_is_the_largest_frequency((_state, derived) in state()) {
        let f = derived.vectors.rotary.inv_freq();
        let question = first_turn(f);
        well_formed(&question);
        let largest = f.iter().copied().fold(0.0, f64::max);
        if largest <= 0.0 {
            prop_assert_eq!(&question.right, "none");
        } else if f.len() == 1 || f.iter().all(|x| *x == largest) {
            let lambda = TAU / f[0];
            let shown: f64 = question.right.trim_end_matches(" tokens").replace(',', "").replace('−', "-").parse().unwrap_or(f64::NAN);
            prop_assert!((shown - lambda).abs() <= 1e-2 * lambda, "{} against {}", question.right, lambda);
        } else {
            let first = f.iter().position(|x| *x == largest).unwrap();
            prop_assert_eq!(&question.right, &first.to_string());
            if f.windows(2).any(|w| w[1] > w[0]) {
                prop_assert!(!question.why.contains("shrinks as i grows"), "{}", question.why);
            }
        }
    }
}

/// Ties: a plane tied with the fastest is not offered as a wrong choice; every plane tied asks
/// for the wavelength instead (one choice of plane would be no question).
#[test]
fn first_turn_with_ties() {
    let question = first_turn(&[0.1, 1.0, 1.0, 0.01]);
    well_formed(&question);
    assert_eq!(question.right, "1");
    assert!(question.choices.iter().all(|(v, _)| v != "2"), "{:?}", question.choices);
    assert!(question.why.contains("Plane 2 has the same θᵢ"), "{}", question.why);
    let question = first_turn(&[0.5, 0.5, 0.5]);
    well_formed(&question);
    assert_eq!(question.right, format!("{} tokens", rope_lab::charts::format::short_number(TAU / 0.5)));
    let question = first_turn(&[2.0]);
    well_formed(&question);
    assert!(question.ask.contains("d = 2"), "{}", question.ask);
}
