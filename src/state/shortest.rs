//! The digits every f64 the page writes is laid out from (see [`super::format`]): JavaScript's
//! shortest round-trip digits in the browser, Rust's natively, and Rust's layouts of them.

/// The shortest decimal that reads back as a finite, nonzero magnitude: its significant digits
/// (ASCII, no leading or trailing zeros) and the power of ten of the first, so that
/// v = d₁.d₂d₃… × 10^exponent. Every way the page writes an f64 below is laid out from it.
///
/// In the browser the digits come from JavaScript's `String(v)`, natively from Rust's `{:e}`:
/// both give the shortest digits that round-trip, the closest to v among them (ECMAScript's
/// Number::toString; Rust's Grisu with Dragon4 behind it). The page then does not carry Rust's
/// float formatting (16 KB of code and tables, issue 9). A browser test compares every layout
/// below with Rust's own on random f64s.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shortest {
    digits: [u8; 17],
    len: usize,
    exponent: i32,
}

impl Shortest {
    /// Reads JavaScript's form of a positive number ("123.45", "0.000123", "1e+21",
    /// "1.5e-7") or Rust's `{:e}` ("1.2345e2").
    fn read(text: &str) -> Shortest {
        let (mantissa, power) = match text.split_once(['e', 'E']) {
            Some((m, e)) => (m, e.trim_start_matches('+').parse::<i32>().unwrap_or(0)),
            None => (text, 0),
        };
        let point = mantissa.find('.').unwrap_or(mantissa.len()) as i32;
        let mut out = Shortest { digits: [b'0'; 17], len: 0, exponent: 0 };
        let mut first = None;
        for (i, b) in mantissa.bytes().enumerate() {
            if b == b'.' || (first.is_none() && b == b'0') {
                continue;
            }
            let i = i as i32;
            first.get_or_insert(if i < point { point - 1 - i } else { point - i });
            if out.len < out.digits.len() {
                out.digits[out.len] = b;
                out.len += 1;
            }
        }
        while out.len > 1 && out.digits[out.len - 1] == b'0' {
            out.len -= 1;
        }
        out.exponent = first.unwrap_or(0) + power;
        out
    }

    fn of(magnitude: f64) -> Shortest {
        if let Some(short) = Shortest::of_short_decimal(magnitude) {
            return short;
        }
        let mut shortest = Shortest::read(&shortest_text(magnitude));
        shortest.break_ties_up(magnitude);
        shortest
    }

    /// The digits of a magnitude that is a decimal of at most 12 significant digits (a
    /// rounded readout, a position, 0.5), found without JavaScript: the fewest decimals k for
    /// which n = round(v·10^k) reads back as v. n / 10^k is then the f64 nearest to the decimal
    /// (both are exact and division rounds correctly), and no other decimal with k places does
    /// (at 12 digits their spacing is thousands of ulps), so these are Rust's shortest digits.
    fn of_short_decimal(magnitude: f64) -> Option<Shortest> {
        let mut scale = 1.0;
        for k in 0..=12 {
            let scaled = magnitude * scale;
            if scaled >= 1e12 {
                return None;
            }
            let n = scaled.round();
            if n >= 1.0 && n / scale == magnitude {
                let mut digits = [0u8; 12];
                let (mut at, mut rest) = (digits.len(), n as u64);
                while rest > 0 {
                    at -= 1;
                    digits[at] = b'0' + (rest % 10) as u8;
                    rest /= 10;
                }
                let digits = &digits[at..];
                let mut out = Shortest { digits: [b'0'; 17], len: digits.len(), exponent: digits.len() as i32 - 1 - k };
                out.digits[..digits.len()].copy_from_slice(digits);
                while out.len > 1 && out.digits[out.len - 1] == b'0' {
                    out.len -= 1;
                }
                return Some(out);
            }
            scale *= 10.0;
        }
        None
    }

    /// When two shortest candidates are equally close to the value (the value is exactly
    /// halfway), Rust takes the upper and ECMAScript the one with an even last digit. Where
    /// these digits are the lower of such a pair, they become the upper (an even last digit
    /// plus one: never a carry).
    fn break_ties_up(&mut self, magnitude: f64) {
        let (m, e) = odd_times_power_of_two(magnitude);
        if m == 0 || self.len == 0 || self.digits[self.len - 1] == b'9' {
            return;
        }
        // The digits C at scale 10^q; halfway above them is (2C + 1)·5^q·2^(q−1).
        let q = self.exponent - (self.len as i32 - 1);
        if e != q - 1 {
            return;
        }
        let c = self.digits().parse::<u128>().unwrap_or(0);
        let odd = 2 * c + 1;
        let five = 5u128.checked_pow(q.unsigned_abs());
        let halfway = if q >= 0 {
            five.and_then(|p| odd.checked_mul(p)) == Some(m as u128)
        } else {
            five.and_then(|p| (m as u128).checked_mul(p)) == Some(odd)
        };
        if halfway {
            self.digits[self.len - 1] += 1;
        }
    }

    fn digits(&self) -> &str {
        std::str::from_utf8(&self.digits[..self.len]).unwrap_or("0")
    }

    /// Plain decimal, never an exponent; `min_fraction` 1 gives whole numbers a ".0".
    fn push_plain(&self, out: &mut String, min_fraction: bool) {
        let digits = self.digits();
        let e = self.exponent;
        if e < 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-e - 1) as usize));
            out.push_str(digits);
        } else if (e as usize) + 1 >= digits.len() {
            out.push_str(digits);
            out.extend(std::iter::repeat_n('0', e as usize + 1 - digits.len()));
            if min_fraction {
                out.push_str(".0");
            }
        } else {
            let (whole, fraction) = digits.split_at(e as usize + 1);
            out.push_str(whole);
            out.push('.');
            out.push_str(fraction);
        }
    }

    /// d.ddd e exponent, as Rust's `{:e}`: "1e21", "1.5e-7".
    fn push_exp(&self, out: &mut String) {
        let digits = self.digits();
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        push_integer(out, self.exponent as i64);
    }
}

/// A positive f64 as m·2^e with m odd (m = 0 for zero).
fn odd_times_power_of_two(magnitude: f64) -> (u64, i32) {
    let bits = magnitude.to_bits();
    let (biased, fraction) = ((bits >> 52) as i32, bits & ((1u64 << 52) - 1));
    let (m, e) = if biased == 0 { (fraction, -1074) } else { (fraction | 1u64 << 52, biased - 1075) };
    if m == 0 {
        return (0, 0);
    }
    (m >> m.trailing_zeros(), e + m.trailing_zeros() as i32)
}

#[cfg(target_arch = "wasm32")]
mod js {
    use wasm_bindgen::prelude::*;
    #[wasm_bindgen]
    extern "C" {
        /// ECMAScript's Number::toString: the shortest round-trip digits.
        #[wasm_bindgen(js_name = String)]
        pub fn string(v: f64) -> String;
        /// A Float64Array, for its `join`: one call writes a whole list.
        pub type Floats;
        #[wasm_bindgen(method)]
        pub fn join(this: &Floats, separator: &str) -> String;
    }
}

#[cfg(target_arch = "wasm32")]
fn shortest_text(magnitude: f64) -> String {
    js::string(magnitude)
}

#[cfg(not(target_arch = "wasm32"))]
fn shortest_text(magnitude: f64) -> String {
    format!("{magnitude:e}")
}

/// An integer's digits (core's integer formatting, which is small and exact).
fn push_integer(out: &mut String, v: i64) {
    use std::fmt::Write;
    let _ = write!(out, "{v}");
}

/// How an f64 is written: the three forms of Rust's formatting the page uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    /// `{}`: plain decimal ("500000", "0.25", "1e-7" as "0.0000001").
    Plain,
    /// `{:?}`: plain with ".0" on whole numbers between 1e-4 and 1e16, exponent outside.
    Debug,
    /// `{:e}`.
    Exp,
}

/// Writes `v` as Rust's `{}`, `{:?}` or `{:e}` writes it, from [`Shortest`]'s digits (`known`,
/// when a list already read them).
pub(super) fn push_form(out: &mut String, v: f64, form: Form, known: Option<Shortest>) {
    if v.is_nan() {
        out.push_str("NaN");
        return;
    }
    if v.is_sign_negative() {
        out.push('-');
    }
    let magnitude = v.abs();
    if magnitude.is_infinite() {
        out.push_str("inf");
        return;
    }
    if magnitude == 0.0 {
        out.push_str(match form {
            Form::Plain => "0",
            Form::Debug => "0.0",
            Form::Exp => "0e0",
        });
        return;
    }
    let shortest = known.unwrap_or_else(|| Shortest::of(magnitude));
    match form {
        Form::Plain => shortest.push_plain(out, false),
        Form::Debug if (1e-4..1e16).contains(&magnitude) => shortest.push_plain(out, true),
        Form::Debug | Form::Exp => shortest.push_exp(out),
    }
}

/// A comma-separated list of values as Rust's `{:?}` writes them, the digits of the whole list
/// from JavaScript in one call (`Float64Array.prototype.join`).
#[cfg(target_arch = "wasm32")]
pub(super) fn push_debug_list(out: &mut String, values: &[f64]) {
    use wasm_bindgen::JsCast;
    let joined = js_sys::Float64Array::from(values).unchecked_into::<js::Floats>().join(",");
    for (i, (v, text)) in values.iter().zip(joined.split(',')).enumerate() {
        if i > 0 {
            out.push(',');
        }
        // A fraction between 1e-4 and 1e16 is written alike by both ("-0.125"), unless its
        // digits are the lower of a halfway tie (last digit 10^-places, value m·2^(-places-1)).
        let magnitude = v.abs();
        if (1e-4..1e16).contains(&magnitude) && !text.contains('e') {
            if let Some((_, places)) = text.split_once('.') {
                if odd_times_power_of_two(magnitude).1 != -(places.len() as i32) - 1 {
                    out.push_str(text);
                    continue;
                }
            }
        }
        let known = (v.is_finite() && *v != 0.0).then(|| {
            let mut shortest = Shortest::read(text.trim_start_matches('-'));
            shortest.break_ties_up(v.abs());
            shortest
        });
        push_form(out, *v, Form::Debug, known);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    // The literals spell each value exactly (a half between two shortest forms), on purpose.
    #[allow(clippy::excessive_precision)]
    fn halfway_digits_are_broken_upward_as_rust_does() {
        // ECMAScript's String() of these (ties to even) and Rust's {:?} (ties up).
        for (js, v, rust) in [
            ("1731590483420272.2", 1731590483420272.25, "1731590483420272.3"),
            ("1731590483420272.8", 1731590483420272.75, "1731590483420272.8"),
            ("123456789012345.12", 123456789012345.125, "123456789012345.13"),
            ("123456789012345.62", 123456789012345.625, "123456789012345.63"),
            ("0.1", 0.1, "0.1"),
        ] {
            let mut s = Shortest::read(js);
            s.break_ties_up(v);
            let mut out = String::new();
            s.push_plain(&mut out, true);
            assert_eq!(out, rust, "{js}");
            assert_eq!(rust, format!("{v:?}"));
        }
    }

    #[test]
    fn javascripts_forms_are_read_too() {
        for (text, digits, exponent) in [
            ("123.45", "12345", 2),
            ("0.000123", "123", -4),
            ("1e+21", "1", 21),
            ("1.5e-7", "15", -7),
            ("100", "1", 2),
            ("5e-324", "5", -324),
            ("1.7976931348623157e+308", "17976931348623157", 308),
            ("0.5", "5", -1),
        ] {
            let s = Shortest::read(text);
            assert_eq!((s.digits(), s.exponent), (digits, exponent), "{text}");
        }
    }
}
