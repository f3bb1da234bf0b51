//! How numbers are written: into `data-value` attributes (full precision, Rust's `{:?}`), and
//! into the URL and notices as a person writes them (`500000`, not `500000.0`). The digits come
//! from [`super::shortest`], without Rust's float formatting (issue 9).

#[cfg(target_arch = "wasm32")]
use super::shortest::push_debug_list;
use super::shortest::{push_form, Form};

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
    push_debug_list(&mut out, values);
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
    joined(&mut values.iter().map(|v| fmt_number(*v)), ",")
}

/// `parts` with `separator` between them, as `[…].join(separator)`: the standard library's join,
/// compiled once per type of part and unrolled per separator length, cost the first visit a
/// kilobyte per copy; the page's frame joins through this one function instead.
pub fn joined(parts: &mut dyn Iterator<Item = String>, separator: &str) -> String {
    let mut out = String::new();
    for (i, part) in parts.enumerate() {
        if i > 0 {
            out.push_str(separator);
        }
        out.push_str(&part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_matches_rusts() {
        let mut state = 0x853c_49e6_748f_ea9bu64;
        let mut values = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            1e-4,
            9.999e-5,
            1e16,
            9.999999999999998e15,
            1e21,
            1e22,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            123456.0,
            100.0,
            0.5,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e-7,
            1.5e300,
        ];
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
