//! The questions of frequencies, the heatmap and decay.
