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
struct Shortest {
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
enum Form {
    /// `{}`: plain decimal ("500000", "0.25", "1e-7" as "0.0000001").
    Plain,
    /// `{:?}`: plain with ".0" on whole numbers between 1e-4 and 1e16, exponent outside.
    Debug,
    /// `{:e}`.
    Exp,
}

/// Writes `v` as Rust's `{}`, `{:?}` or `{:e}` writes it, from [`Shortest`]'s digits (`known`,
/// when a list already read them).
fn push_form(out: &mut String, v: f64, form: Form, known: Option<Shortest>) {
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

/// An f64 that formats (`{}`) as Rust's `{}` does, without Rust's float formatting.
#[derive(Debug, Clone, Copy)]
pub struct Plain(pub f64);

/// An f64 that formats (`{}`) as Rust's `{:e}` does, without Rust's float formatting.
#[derive(Debug, Clone, Copy)]
pub struct Exp(pub f64);

impl std::fmt::Display for Plain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = String::with_capacity(24);
        push_form(&mut out, self.0, Form::Plain, None);
        f.write_str(&out)
    }
}

impl std::fmt::Display for Exp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = String::with_capacity(24);
        push_form(&mut out, self.0, Form::Exp, None);
        f.write_str(&out)
    }
}

/// Rust's shortest round-trip form of an f64 (`{:?}`), the contract's `data-value` format.
pub fn fmt_f64(v: f64) -> String {
    let mut out = String::with_capacity(24);
    push_form(&mut out, v, Form::Debug, None);
    out
}

/// Rust's `{}` of an f64 (plain decimal, shortest digits).
pub fn fmt_plain(v: f64) -> String {
    let mut out = String::with_capacity(24);
    push_form(&mut out, v, Form::Plain, None);
    out
}

/// A comma-separated list of [`fmt_f64`] values, written into one string (the rotated q and
/// k follow every slider step: at d = 1,024 that is 2,048 numbers a step). In the browser
/// JavaScript writes the whole list's digits in one call.
pub fn fmt_list(values: &[f64]) -> String {
    let mut out = String::with_capacity(values.len() * 20);
    #[cfg(target_arch = "wasm32")]
    {
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
            push_form(&mut out, *v, Form::Debug, known);
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_form(&mut out, *v, Form::Debug, None);
    }
    out
}

/// A number as a person writes it, still exact: the shortest decimal that reads back as the
/// same f64, with no `.0` on whole numbers (`500000`, `0.25`), and in exponent form only for
/// tiny or huge magnitudes, or where the plain form would be long (`1e-12`, `1e300`).
pub fn fmt_number(v: f64) -> String {
    let magnitude = v.abs();
    let plain = fmt_plain(v);
    if magnitude != 0.0 && !(1e-4..1e16).contains(&magnitude) || plain.len() > 18 {
        Exp(v).to_string()
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
    fn every_form_matches_rusts() {
        let mut state = 0x853c_49e6_748f_ea9bu64;
        let mut values = vec![0.0, -0.0, 1.0, -1.0, 0.1, 1e-4, 9.999e-5, 1e16, 9.999999999999998e15, 1e21, 1e22, 5e-324,
            f64::MAX, f64::MIN_POSITIVE, 123456.0, 100.0, 0.5, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e-7, 1.5e300];
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            values.push(f64::from_bits(state));
            values.push((state >> 20) as f64 / 1024.0);
            // Short decimals (rounded readouts), which are written without JavaScript.
            values.push((state >> (24 + state % 16)) as f64 / 10f64.powi((state % 9) as i32));
        }
        for v in values.iter().copied() {
            assert_eq!(fmt_f64(v), format!("{v:?}"));
            assert_eq!(fmt_plain(v), format!("{v}"));
            assert_eq!(Exp(v).to_string(), format!("{v:e}"));
        }
        let expected: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
        assert_eq!(fmt_list(&values), expected.join(","));
    }

    #[test]
    fn halfway_digits_are_broken_upward_as_rust_does() {
        // ECMAScript's String() of these (ties to even) and Rust's {:?} (ties up).
        for (js, v, rust) in [("1731590483420272.2", 1731590483420272.25, "1731590483420272.3"),
            ("1731590483420272.8", 1731590483420272.75, "1731590483420272.8"), ("123456789012345.12", 123456789012345.125, "123456789012345.13"),
            ("123456789012345.62", 123456789012345.625, "123456789012345.63"), ("0.1", 0.1, "0.1")] {
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
        for (text, digits, exponent) in [("123.45", "12345", 2), ("0.000123", "123", -4), ("1e+21", "1", 21), ("1.5e-7", "15", -7),
            ("100", "1", 2), ("5e-324", "5", -324), ("1.7976931348623157e+308", "17976931348623157", 308), ("0.5", "5", -1)] {
            let s = Shortest::read(text);
            assert_eq!((s.digits(), s.exponent), (digits, exponent), "{text}");
        }
    }

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
