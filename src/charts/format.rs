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

/// A tick of a log axis: powers of ten as 10ⁿ (short and alike at every magnitude, where
/// "1.00e7" beside "100000" was neither), anything else as [`short_number`].
pub fn log_tick(v: f64) -> String {
    if !(v.is_finite() && v > 0.0) {
        return short_number(v);
    }
    let exponent = v.log10().round();
    if (v / 10f64.powf(exponent) - 1.0).abs() > 1e-9 {
        return short_number(v);
    }
    let superscript: String = (exponent as i64)
        .to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            _ => '⁹',
        })
        .collect();
    format!("10{superscript}")
}

/// An integer exactly, its digits grouped by three and a typographic minus: "−9,999,742".
pub fn whole_number(v: i64) -> String {
    let digits = v.unsigned_abs().to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    if v < 0 { format!("−{grouped}") } else { grouped }
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
        assert_eq!(short_number(9.996e6), "1.00e7");
        assert_eq!(short_number(f64::NAN), "—");
        assert_eq!(short_number(f64::INFINITY), "—");
    }

    #[test]
    fn log_ticks_are_powers_of_ten() {
        assert_eq!(log_tick(1e7), "10⁷");
        assert_eq!(log_tick(1e-5), "10⁻⁵");
        assert_eq!(log_tick(1.0), "10⁰");
        assert_eq!(log_tick(10.0), "10¹");
        assert_eq!(log_tick(100000.0), "10⁵");
        assert_eq!(log_tick(5.0), "5");
        assert_eq!(log_tick(2e-3), "0.002");
    }

    #[test]
    fn whole_numbers_are_exact_and_grouped() {
        assert_eq!(whole_number(-9_999_742), "−9,999,742");
        assert_eq!(whole_number(10_000_000), "10,000,000");
        assert_eq!(whole_number(999), "999");
        assert_eq!(whole_number(1000), "1,000");
        assert_eq!(whole_number(0), "0");
        assert_eq!(whole_number(i64::MIN), "−9,223,372,036,854,775,808");
    }

    #[test]
    fn significant_digits() {
        assert_eq!(round_significant(50118.72336, 4), 50120.0);
        assert_eq!(round_significant(10f64.powf(4.0), 4), 10000.0);
        assert_eq!(round_significant(1.2345, 3), 1.23);
    }
}
