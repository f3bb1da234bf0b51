//! How numbers are written into `data-value` attributes and the URL.

/// Rust's shortest round-trip form of an f64 (`{:?}`), the contract's `data-value` format.
pub fn fmt_f64(v: f64) -> String {
    format!("{v:?}")
}

/// A comma-separated list of [`fmt_f64`] values.
pub fn fmt_list(values: &[f64]) -> String {
    values.iter().map(|v| fmt_f64(*v)).collect::<Vec<_>>().join(",")
}
