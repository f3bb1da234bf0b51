//! SmolLM2's questions (src/quiz/smollm2.rs): each right answer against an independent count or
//! argmax of random readings, and the choices a reader can tell apart.

use proptest::prelude::*;
use rope_lab::quiz::smollm2::{groups, sinks};

proptest! {
    #[test]
    fn sinks_counts_the_heads_above_one_half(first in prop::collection::vec(0.0f32..1.0, 1..300)) {
        let q = sinks(&first);
        let mut want = 0;
        for v in &first {
            if *v > 0.5 {
                want += 1;
            }
        }
        prop_assert_eq!(q.right.clone(), want.to_string());
        let values: Vec<usize> = q.choices.iter().map(|(v, _)| v.parse().unwrap()).collect();
        prop_assert!(values.len() == 4.min(first.len() + 1) && values.windows(2).all(|w| w[0] < w[1]), "choices {:?}", values);
        prop_assert!(values.contains(&want) && values.iter().all(|&v| v <= first.len()));
        prop_assert!(q.ask.contains(&first.len().to_string()));
    }

    #[test]
    fn groups_names_the_largest_loss(base in 0.5f64..5.0, rises in prop::collection::vec(-0.01f64..3.0, 4)) {
        let mut losses = vec![Some(base)];
        losses.extend(rises.iter().map(|r| Some(base + r)));
        let q = groups(&losses, 32).unwrap();
        let mut best = 0;
        for g in 1..4 {
            if rises[g] > rises[best] {
                best = g;
            }
        }
        prop_assert_eq!(q.right.clone(), format!("{}-{}", 8 * best, 8 * best + 7));
        prop_assert_eq!(q.choices.len(), 4);
        let named = format!("With planes {}–{} off", 8 * best, 8 * best + 7);
        prop_assert!(q.why.contains(&named));
    }
}

#[test]
fn groups_waits_for_every_loss() {
    assert!(groups(&[Some(1.0), Some(2.0), None, Some(1.5), Some(1.2)], 32).is_none());
    assert!(groups(&[Some(1.0), Some(2.0)], 32).is_none());
    assert!(groups(&[], 32).is_none());
    assert_eq!(sinks(&[]).right, "0");
}
