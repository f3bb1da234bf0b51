//! The questions of context extension.
