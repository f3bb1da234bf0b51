//! Check your own RoPE's question (src/quiz/verify.rs): its answer against the mistakes made
//! here, at position 0, by a rotation written out in the test.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rope_lab::quiz::verify::row_zero;
use rope_lab::rope::Layout;

/// Row `x` at `position` with each plane (a, b) turned: interleaved or half pairs, θᵢ from base,
/// cos and sin swapped or not.
fn turn(x: &[f64], position: f64, half: bool, base: f64, swap: bool) -> Vec<f64> {
    let d = x.len();
    let mut out = x.to_vec();
    for i in 0..d / 2 {
        let angle = position * base.powf(-2.0 * i as f64 / d as f64);
        let (mut c, mut s) = (angle.cos(), angle.sin());
        if swap {
            std::mem::swap(&mut c, &mut s);
        }
        let (a, b) = if half { (i, i + d / 2) } else { (2 * i, 2 * i + 1) };
        out[a] = x[a] * c - x[b] * s;
        out[b] = x[a] * s + x[b] * c;
    }
    out
}

proptest! {
    #[test]
    fn the_right_choice_is_the_one_mistake_row_zero_cannot_show(
        half_dim in 1usize..=64,
        half in any::<bool>(),
        base in 2.0f64..1e7,
        x in proptest::collection::vec(-1.0f64..1.0, 128),
    ) {
        let d = 2 * half_dim;
        let x = &x[..d];
        prop_assume!(x.iter().any(|v| v.abs() > 1e-3));
        let layout = if half { Layout::Half } else { Layout::Interleaved };
        let q = row_zero(d, layout);
        let page = turn(x, 0.0, half, base, false);
        let same = |out: Vec<f64>| out.iter().zip(&page).all(|(a, b)| (a - b).abs() < 1e-12);
        let agrees = [
            ("layout", same(turn(x, 0.0, !half, base, false))),
            ("cos-sin", same(turn(x, 0.0, half, base, true))),
            ("offset", same(turn(x, 1.0, half, base, false))),
        ];
        let right: Vec<&str> = agrees.iter().filter(|(_, a)| *a).map(|(n, _)| *n).collect();
        prop_assert_eq!(right, vec![q.right.as_str()]);
        prop_assert!(q.choices.iter().any(|(v, _)| *v == q.right));
        let said = format!("d = {}", d);
        prop_assert!(q.ask.contains(&said));
    }
}
