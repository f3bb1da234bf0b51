//! How numbers are written: into `data-value` attributes (full precision, Rust's `{:?}`), and
//! into the URL and notices as a person writes them (`500000`, not `500000.0`); and how typed
//! or linked numbers are read.

/// Reads a number exactly as Rust's `str::parse::<f64>` does: the same grammar (an optional
/// sign, then `inf`, `infinity`, `nan` or digits with an optional point and exponent; no
/// spaces) and the same value, the nearest f64.
///
/// In the browser the value comes from JavaScript's `parseFloat`, once the text has passed
/// Rust's grammar: both round correctly, so they agree, and the page does not carry Rust's
/// own reader (its table of powers of five alone is 10 KB of the first download, issue 9).
/// A browser test compares the two on many random texts.
pub fn parse_f64(text: &str) -> Option<f64> {
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    let negative = text.starts_with('-');
    let word = |w: &str| body.eq_ignore_ascii_case(w);
    if word("inf") || word("infinity") {
        return Some(if negative { f64::NEG_INFINITY } else { f64::INFINITY });
    }
    if word("nan") {
        return Some(if negative { -f64::NAN } else { f64::NAN });
    }
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    if whole.len() + fraction.len() == 0 || !digits(whole) || !digits(fraction) || !exponent_ok {
        return None;
    }
    Some(read_decimal(text))
}

/// The value of a text that is a decimal number by Rust's grammar (checked by the caller).
#[cfg(target_arch = "wasm32")]
fn read_decimal(text: &str) -> f64 {
    js_sys::parse_float(text)
}

#[cfg(not(target_arch = "wasm32"))]
fn read_decimal(text: &str) -> f64 {
    text.parse().unwrap_or(f64::NAN)
}

/// Rust's shortest round-trip form of an f64 (`{:?}`), the contract's `data-value` format.
pub fn fmt_f64(v: f64) -> String {
    format!("{v:?}")
}

/// A comma-separated list of [`fmt_f64`] values, written into one string (the rotated q and
/// k follow every slider step: at d = 1,024 that is 2,048 numbers a step).
pub fn fmt_list(values: &[f64]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(values.len() * 20);
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{v:?}");
    }
    out
}

/// A number as a person writes it, still exact: the shortest decimal that reads back as the
/// same f64, with no `.0` on whole numbers (`500000`, `0.25`), and in exponent form only for
/// tiny or huge magnitudes, or where the plain form would be long (`1e-12`, `1e300`).
pub fn fmt_number(v: f64) -> String {
    let magnitude = v.abs();
    let plain = format!("{v}");
    if magnitude != 0.0 && !(1e-4..1e16).contains(&magnitude) || plain.len() > 18 {
        format!("{v:e}")
    } else {
        plain
    }
}

/// A comma-separated list of [`fmt_number`] values.
pub fn fmt_numbers(values: &[f64]) -> String {
    values.iter().map(|v| fmt_number(*v)).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_with_rusts_grammar() {
        let cases = [
            "1", "-1", "+1", "1.", ".5", "-.5", "1e5", "1E+5", "1.e-5", "-0", "inf", "-Infinity", "NaN", "-nan", "",
            ".", "-", "e5", "1e", "1e+", "1.2.3", " 1", "1 ", "0x10", "1_000", "١", "1e5.5", "--1", "+-1",
            "infinit", "nan1", "1,5", "99999999999999999999999e-10",
        ];
        for case in cases {
            let ours = parse_f64(case);
            let rusts = case.parse::<f64>().ok();
            assert_eq!(ours.map(f64::to_bits), rusts.map(f64::to_bits), "{case:?}");
        }
    }

    #[test]
    fn numbers_read_as_a_person_writes_them_and_round_trip() {
        assert_eq!(fmt_number(500000.0), "500000");
        assert_eq!(fmt_number(10000.0), "10000");
        assert_eq!(fmt_number(1e9), "1000000000");
        assert_eq!(fmt_number(0.25), "0.25");
        assert_eq!(fmt_number(-1.5), "-1.5");
        assert_eq!(fmt_number(1e-12), "1e-12");
        assert_eq!(fmt_number(1e300), "1e300");
        assert_eq!(fmt_number(f64::MAX), "1.7976931348623157e308");
        for v in [0.1 + 0.2, 1.0 / 3.0, 2.5e-7, 123456789.123, 5e-324, -0.0] {
            assert_eq!(fmt_number(v).parse::<f64>().expect("reads back").to_bits(), v.to_bits(), "{v}");
        }
    }
}
