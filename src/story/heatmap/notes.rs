//! What the heatmap chapter says: each mode's note and its name in the map's description (the
//! chapter's question is `quiz::planes::diagonal`).

use crate::rope::{HeatmapMode, ALIBI_HEAD, ALIBI_HEADS};

/// The mode in the map's description: worded unlike the radio buttons' labels, so that a label
/// names one control.
pub fn described(mode: HeatmapMode) -> &'static str {
    match mode {
        HeatmapMode::Rotated => "with RoPE",
        HeatmapMode::Unrotated => "without position",
        HeatmapMode::Sinusoidal => "with sinusoids added to q and k",
        HeatmapMode::T5 => "plus T5's bucket biases",
        HeatmapMode::Alibi => "plus ALiBi's linear bias",
    }
}

/// What each mode shows, in a sentence or three under the radio buttons.
pub fn mode_note(mode: HeatmapMode) -> String {
    match mode {
        HeatmapMode::Unrotated => "No position: q·k is the same number in every cell. Attention cannot tell near from far.".to_string(),
        HeatmapMode::Sinusoidal => "Sinusoids added: (q + PE(m))·(k + PE(n)). With PE added straight to q and k (projections taken as the \
            identity), its PE(m)·PE(n) term depends on n − m alone, but q·PE(n) and PE(m)·k depend on m and n separately: blurred, uneven \
            stripes."
            .to_string(),
        HeatmapMode::T5 => "T5's relative bias: q·k + b(bucket of n − m). The buckets are those of T5 (32 buckets, max_distance \
            128): keys after the query (n > m) have buckets of their own, and on each side there are exact buckets up to distance 7, \
            seven log-spaced ones (8–11, 12–15, 16–22, 23–31, 32–45, 46–63, 64–90), and one from 91 on that takes every distance to \
            128 and beyond. T5 learns one number per bucket; here they are drawn at random from the seed, scaled like the scores, so \
            what you see is the bucket pattern, not what a trained model prefers."
            .to_string(),
        HeatmapMode::Alibi => format!(
            "ALiBi: q·k − slope·|n − m|, with slope 1/16: head {ALIBI_HEAD} of {ALIBI_HEADS}, whose slopes are 2^(−8h/{ALIBI_HEADS}). \
             Nothing is learned, and the farther the key, the lower the score. ALiBi is causal: a model uses only the lower-left \
             half (n ≤ m); the upper right is drawn by the same formula."
        ),
        HeatmapMode::Rotated => "RoPE: every diagonal (fixed n − m) is one colour. The score depends only on the distance.".to_string(),
    }
}
