//! How typed and linked numbers are read.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_with_rusts_grammar() {
        let cases = [
            "1",
            "-1",
            "+1",
            "1.",
            ".5",
            "-.5",
            "1e5",
            "1E+5",
            "1.e-5",
            "-0",
            "inf",
            "-Infinity",
            "NaN",
            "-nan",
            "",
            ".",
            "-",
            "e5",
            "1e",
            "1e+",
            "1.2.3",
            " 1",
            "1 ",
            "0x10",
            "1_000",
            "١",
            "1e5.5",
            "--1",
            "+-1",
            "infinit",
            "nan1",
            "1,5",
            "99999999999999999999999e-10",
        ];
        for case in cases {
            let ours = parse_f64(case);
            let rusts = case.parse::<f64>().ok();
            assert_eq!(ours.map(f64::to_bits), rusts.map(f64::to_bits), "{case:?}");
        }
    }
}
