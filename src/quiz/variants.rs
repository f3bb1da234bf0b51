//! The questions of layouts, 2D RoPE and precision.
