//! Numbers as people read them on the page and on chart axes. Never prints NaN or infinity.

use crate::state::Plain;

/// A short, readable form: up to 4 decimals for everyday magnitudes, scientific notation with
/// 3 significant digits for very large or small ones. Non-finite values print as an em dash.
pub fn short_number(v: f64) -> String {
    if !v.is_finite() {
        return "—".to_string();
    }
    let magnitude = v.abs();
    if magnitude != 0.0 && !(1e-3..1e6).contains(&magnitude) {
        return sci(v, 2).replace('-', "−");
    }
    // Round arithmetically and print the shortest form (`Display`), which is fast; fixed
    // precision (`{:.4}`) takes Rust's exact Dragon4 path, slow enough to show when a slider
    // reformats hundreds of numbers per step.
    let scale = if magnitude >= 1000.0 {
        1e1
    } else if magnitude >= 1.0 {
        1e3
    } else {
        1e4
    };
    let rounded = (v * scale).round() / scale;
    // A typographic minus sign; -0 from rounding a tiny negative is just 0.
    if rounded == 0.0 {
        "0".to_string()
    } else {
        Plain(rounded).to_string().replace('-', "−")
    }
}

/// `v` with `decimals` digits after the point, as `format!("{v:.decimals$}")` writes it, but
/// by arithmetic: v·10^decimals rounded half away from zero, then printed as an integer. Rust's
/// fixed precision is exact (Dragon4 and Grisu's exact mode), and the page carries none of
/// Rust's float formatting (issue 9, src/state/format.rs). The two differ only where
/// v·10^decimals is within a rounding error of a half (a test bounds it); beyond 9·10¹⁵ units
/// (never a coordinate or a readout) this falls back to the shortest plain form.
pub fn push_fixed(out: &mut String, v: f64, decimals: usize) {
    use std::fmt::Write;
    let scale = 10f64.powi(decimals as i32);
    let units = (v.abs() * scale).round();
    // NaN and infinity too: they are not below the bound.
    if units.is_nan() || units >= 9e15 {
        let _ = write!(out, "{}", Plain(v));
        return;
    }
    if v.is_sign_negative() {
        out.push('-');
    }
    let units = units as u64;
    let unit = 10u64.pow(decimals as u32);
    let _ = write!(out, "{}", units / unit);
    if decimals > 0 {
        let _ = write!(out, ".{:0decimals$}", units % unit);
    }
}

/// Appends the integer `v` in decimal, as `write!(out, "{v}")` does. The decay chart's layer
/// writes a few thousand coordinates a step, and going through core's formatting machinery for
/// each cost more than the digits.
pub fn push_int(out: &mut String, v: i32) {
    if v < 0 {
        out.push('-');
    }
    let (mut rest, mut digits, mut at) = (v.unsigned_abs(), [0u8; 10], 10);
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &digit in &digits[at..] {
        out.push(char::from(digit));
    }
}

/// [`push_fixed`] into a new string.
pub fn fixed(v: f64, decimals: usize) -> String {
    let mut out = String::with_capacity(12);
    push_fixed(&mut out, v, decimals);
    out
}

/// `v` in scientific notation with `decimals` digits after the point, as `format!("{v:.2e}")`
/// writes it ("1.23e-5", "1.00e7"), by the arithmetic of [`push_fixed`].
pub fn sci(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return Plain(v).to_string();
    }
    let sign = if v.is_sign_negative() { "-" } else { "" };
    let magnitude = v.abs();
    let top = 10u64.pow(decimals as u32);
    let (mut units, mut exponent) = (0u64, 0i32);
    if magnitude > 0.0 {
        exponent = magnitude.log10().floor() as i32;
        // The mantissa's digits as an integer, top ≤ units < 10·top; log10 may be one off.
        let digits = |exponent: i32| {
            let shift = decimals as i32 - exponent;
            // 10^shift overflows past 308: scale in two steps.
            let (first, second) = if shift > 300 { (shift - 300, 300) } else { (shift, 0) };
            (magnitude * 10f64.powi(first) * 10f64.powi(second)).round() as u64
        };
        units = digits(exponent);
        if units >= 10 * top {
            exponent += 1;
            units = digits(exponent);
        } else if units < top {
            exponent -= 1;
            units = digits(exponent);
        }
        // Rounding up to the next power of ten ("9.996e6" to "1.00e7").
        if units >= 10 * top {
            exponent += 1;
            units /= 10;
        }
    }
    let lead = units / top;
    if decimals == 0 {
        format!("{sign}{lead}e{exponent}")
    } else {
        format!("{sign}{lead}.{:0decimals$}e{exponent}", units % top)
    }
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
    if v < 0 {
        format!("−{grouped}")
    } else {
        grouped
    }
}

/// Rounds to `digits` significant digits (for slider-chosen values such as the base).
pub fn round_significant(v: f64, digits: i32) -> f64 {
    if !v.is_finite() || v == 0.0 {
        return v;
    }
    let scale = 10f64.powi(digits - 1 - v.abs().log10().floor() as i32);
    let rounded = (v * scale).round() / scale;
    if rounded.is_finite() {
        rounded
    } else {
        v
    }
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

    /// Whether `v`·10^decimals lies within a rounding error of a half: the only place
    /// [`push_fixed`] may round the other way from Rust's exact formatting.
    fn near_half(v: f64, decimals: usize) -> bool {
        let exact = format!("{:.30}", v.abs() * 10f64.powi(decimals as i32));
        let fraction: f64 = format!("0.{}", exact.split_once('.').map_or("0", |(_, f)| f)).parse().unwrap_or(0.0);
        (fraction - 0.5).abs() < 1e-6
    }

    #[test]
    fn fixed_and_scientific_forms_match_rusts_away_from_halves() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut compared = 0;
        for _ in 0..200_000 {
            // Magnitudes from 1e-12 to 1e12, both signs, and multiples of 1/8 and 1/4.
            let r = next();
            let v = match r % 4 {
                0 => (r >> 11) as f64 / (1u64 << 53) as f64 * 10f64.powi((r % 25) as i32 - 12),
                1 => -((r >> 11) as f64 / (1u64 << 53) as f64) * 10f64.powi((r % 25) as i32 - 12),
                2 => ((r >> 40) as f64) / 8.0,
                _ => -(((r >> 44) as f64) / 4.0),
            };
            let decimals = (next() % 6) as usize;
            if v.abs() * 10f64.powi(decimals as i32) < 9e15 && !near_half(v, decimals) {
                assert_eq!(fixed(v, decimals), format!("{v:.decimals$}"), "{v:?} to {decimals}");
                compared += 1;
            }
            let digits = (next() % 4) as usize;
            let rusts = format!("{v:.digits$e}");
            let ours = sci(v, digits);
            if ours != rusts {
                // Only at a half of the last digit.
                let mantissa = v.abs() / 10f64.powi(v.abs().log10().floor() as i32);
                assert!(
                    near_half(mantissa, digits) || near_half(mantissa * 10.0, digits) || near_half(mantissa / 10.0, digits),
                    "{v:?}: {ours} vs {rusts}"
                );
            }
        }
        assert!(compared > 150_000, "{compared}");
        assert_eq!(fixed(-0.001, 2), "-0.00");
        assert_eq!(fixed(2.5, 0), "3");
        assert_eq!(fixed(f64::NAN, 2), "NaN");
        assert_eq!(fixed(1e300, 1), format!("{}", 1e300));
        assert_eq!(sci(9.996e6, 2), "1.00e7");
        assert_eq!(sci(0.0, 2), "0.00e0");
        assert_eq!(sci(5e-324, 2), "4.94e-324");
        assert_eq!(sci(-1.7976931348623157e308, 3), "-1.798e308");
    }

    #[test]
    fn integers_are_written_as_rust_writes_them() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut values = vec![0, 1, -1, 9, 10, -10, 99, 100, i32::MAX, i32::MIN, i32::MIN + 1];
        for _ in 0..10_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            values.push(state as i32);
            values.push((state % 2000) as i32 - 1000);
        }
        for v in values {
            let mut out = String::from("M");
            push_int(&mut out, v);
            assert_eq!(out, format!("M{v}"));
        }
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
