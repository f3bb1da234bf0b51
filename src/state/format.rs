//! How numbers are written: into `data-value` attributes (full precision, Rust's `{:?}`), and
//! into the URL and notices as a person writes them (`500000`, not `500000.0`).

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
