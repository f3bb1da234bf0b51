//! What the check-yourself questions compute: their right answers follow the numbers, so these
//! are checked against independent computations (bit arithmetic, the sorted frequencies) and as
//! properties, never against the page's own text.

use proptest::prelude::*;
use rope_lab::rope::{bits_flipped, choices_around, default_inv_freq, first_to_turn, Trend, MAX_CODE_POSITION};

#[test]
fn bits_flipped_counts_the_carry() {
    // 7 = 0111 → 8 = 1000: four bits; 0 → 1: one; 1 → 2 (01 → 10): two.
    assert_eq!(bits_flipped(7), 4);
    assert_eq!(bits_flipped(0), 1);
    assert_eq!(bits_flipped(1), 2);
    assert_eq!(bits_flipped(255), 9);
    // The last position the 16-bit code writes has no next one: its step in is asked instead
    // (65,534 → 65,535 flips one bit).
    assert_eq!(bits_flipped(MAX_CODE_POSITION), 1);
}

proptest! {
    #[test]
    fn bits_flipped_is_the_xor_weight(p in 0u32..MAX_CODE_POSITION) {
        prop_assert_eq!(bits_flipped(p), (p ^ (p + 1)).count_ones());
    }

    #[test]
    fn choices_hold_the_answer_once(answer in 0u64..5000, spread in 0u64..5000) {
        let largest = answer + spread;
        let choices = choices_around(answer, largest);
        prop_assert!(choices.contains(&answer));
        prop_assert!((2..=4).contains(&choices.len()) || largest < 2, "{:?}", choices);
        prop_assert!(choices.windows(2).all(|w| w[0] < w[1]), "sorted, distinct: {:?}", choices);
        prop_assert!(choices.iter().all(|c| *c <= largest));
    }

    #[test]
    fn trend_reads_the_direction(a in -1e6f64..1e6, b in -1e6f64..1e6) {
        let trend = Trend::of(a, b);
        if (a - b).abs() > 1e-3 * a.abs().max(b.abs()) + 1e-6 {
            prop_assert_eq!(trend, if b > a { Trend::Rises } else { Trend::Falls });
        }
        prop_assert_eq!(Trend::of(a, a), Trend::Stays);
    }
}

#[test]
fn trend_forgives_rounding_only() {
    assert_eq!(Trend::of(0.3, 0.1 + 0.2), Trend::Stays);
    assert_eq!(Trend::of(1.0, 1.001), Trend::Rises);
    assert_eq!(Trend::of(-2.0, -2.5), Trend::Falls);
    assert_eq!(Trend::of(f64::NAN, 1.0), Trend::Stays);
    assert_eq!([Trend::Rises, Trend::Falls, Trend::Stays].map(Trend::as_str), ["rise", "fall", "stay"]);
}

#[test]
fn first_to_turn_is_the_largest_frequency() {
    // Plain RoPE: θᵢ = b^(−2i/d) falls with i, so plane 0.
    let theta = default_inv_freq(10_000f64.ln(), 64, 32);
    assert_eq!(first_to_turn(&theta), Some(0));
    assert_eq!(first_to_turn(&[0.5, 2.0, 1.0]), Some(1));
    // Ties go to the first; no positive frequency, no plane.
    assert_eq!(first_to_turn(&[1.0, 1.0]), Some(0));
    assert_eq!(first_to_turn(&[]), None);
    assert_eq!(first_to_turn(&[0.0, -1.0, f64::NAN]), None);
}
