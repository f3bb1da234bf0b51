//! Numbers as people read them on the page and on chart axes. Never prints NaN or infinity.

/// A short, readable form: up to 4 decimals for everyday magnitudes, scientific notation with
/// 3 significant digits for very large or small ones. Non-finite values print as an em dash.
pub fn short_number(v: f64) -> String {
    if !v.is_finite() {
        return "—".to_string();
    }
    let magnitude = v.abs();
    if magnitude != 0.0 && !(1e-3..1e6).contains(&magnitude) {
        return format!("{v:.2e}").replace('-', "−");
    }
    // Round arithmetically and print the shortest form (`Display`), which is fast; fixed
    // precision (`{:.4}`) takes Rust's exact Dragon4 path, slow enough to show when a slider
    // reformats hundreds of numbers per step.
    let scale = if magnitude >= 1000.0 { 1e1 } else if magnitude >= 1.0 { 1e3 } else { 1e4 };
    let rounded = (v * scale).round() / scale;
    // A typographic minus sign; -0 from rounding a tiny negative is just 0.
    if rounded == 0.0 { "0".to_string() } else { rounded.to_string().replace('-', "−") }
}

/// Rounds to `digits` significant digits (for slider-chosen values such as the base).
pub fn round_significant(v: f64, digits: i32) -> f64 {
    if !v.is_finite() || v == 0.0 {
        return v;
    }
    let scale = 10f64.powi(digits - 1 - v.abs().log10().floor() as i32);
    let rounded = (v * scale).round() / scale;
    if rounded.is_finite() { rounded } else { v }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_forms() {
        assert_eq!(short_number(10000.0), "10000");
        assert_eq!(short_number(2.826562726246754), "2.827");
        assert_eq!(short_number(-0.74887), "−0.7489");
        assert_eq!(short_number(0.0), "0");
        assert_eq!(short_number(-0.00001), "−1.00e−5");
        assert_eq!(short_number(62831.853), "62831.9");
        assert_eq!(short_number(0.10000000000000002), "0.1");
        assert_eq!(short_number(-0.00004), "−4.00e−5");
        assert_eq!(short_number(-0.0001), "−1.00e−4");
        assert_eq!(short_number(999.99995), "1000");
        assert_eq!(short_number(-0.00049), "−4.90e−4");
        assert_eq!(short_number(1e9), "1.00e9");
        assert_eq!(short_number(f64::NAN), "—");
        assert_eq!(short_number(f64::INFINITY), "—");
    }

    #[test]
    fn significant_digits() {
        assert_eq!(round_significant(50118.72336, 4), 50120.0);
        assert_eq!(round_significant(10f64.powf(4.0), 4), 10000.0);
        assert_eq!(round_significant(1.2345, 3), 1.23);
    }
}
