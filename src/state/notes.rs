//! Notices: what was corrected in the input and why, and the helpers that read text into
//! values and clamp values into range, each saying so when it changes something.

use super::format::fmt_number;
use super::parse::parse_f64;

/// One correction made to the input, shown to the user in `data-testid="notice"`.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// The URL parameter (or field) concerned.
    pub param: &'static str,
    /// What was changed and why, in plain words.
    pub message: String,
    /// The parameter's text in effect once the correction was made ("" = unset): the notice
    /// applies as long as the parameter still has it.
    pub in_effect: String,
}

/// Collects notices while the state changes.
#[derive(Debug, Default)]
pub struct Notes(pub Vec<Notice>, Option<String>);

impl Notes {
    /// Notices about the value being applied quote `raw` (what the person typed, "1e20") rather
    /// than the number it became.
    pub fn quoting(&mut self, raw: Option<&str>) {
        self.1 = raw.map(str::to_string);
    }

    fn quote(&self, value: String) -> String {
        self.1.clone().unwrap_or(value)
    }

    pub fn add(&mut self, param: &'static str, message: String) {
        self.0.push(Notice { param, message, in_effect: String::new() });
    }

    /// `v` clamped into `min..=max`, with a notice when that changed it.
    pub fn clamp_i64(&mut self, param: &'static str, v: i64, min: i64, max: i64) -> i64 {
        let clamped = v.clamp(min, max);
        if clamped != v {
            let bound = if v < min { format!("at least {min}") } else { format!("at most {max}") };
            let shown = self.quote(v.to_string());
            self.add(param, format!("{param} {shown} is out of range (it must be {bound}); using {clamped}"));
        }
        clamped
    }

    /// `v` clamped into `min..=max`, with a notice when that changed it.
    pub fn clamp_f64(&mut self, param: &'static str, v: f64, min: f64, max: f64) -> f64 {
        // Not f64::clamp: its check of min <= max would bring Rust's float formatting (for
        // the panic message) into the page (src/state/format.rs).
        let clamped = if v < min {
            min
        } else if v > max {
            max
        } else {
            v
        };
        if clamped != v {
            let bound = if v < min { format!("at least {}", fmt_number(min)) } else { format!("at most {}", fmt_number(max)) };
            let shown = self.quote(fmt_number(v));
            self.add(param, format!("{param} {shown} is out of range (it must be {bound}); using {}", fmt_number(clamped)));
        }
        clamped
    }

    /// `v` if it is finite and `valid`; else a notice that `rule` failed and `keep`.
    pub fn check(&mut self, param: &'static str, v: f64, valid: bool, rule: &str, keep: f64) -> f64 {
        if v.is_finite() && valid {
            v
        } else {
            let shown = self.quote(fmt_number(v));
            self.add(param, format!("{param} {shown} {rule}; keeping {}", fmt_number(keep)));
            keep
        }
    }
}

/// Reads one parameter's text (from the URL or a text field) into a value of its kind. A
/// failure is a notice saying what the text was, why it is no value, and what stays in effect.
pub struct Reader<'a> {
    pub param: &'static str,
    pub raw: &'a str,
    /// The parameter's current text, which stays in effect when `raw` is no value ("" = unset).
    pub keeping: String,
    pub notes: &'a mut Notes,
}

impl Reader<'_> {
    /// A notice that `raw` is no value of this parameter's kind; nothing changes.
    pub fn fail<T>(&mut self, reason: &str) -> Option<T> {
        let keeping = if self.keeping.is_empty() { "leaving it unset".to_string() } else { format!("keeping {}", self.keeping) };
        self.notes.add(self.param, format!("{} '{}' {reason}; {keeping}", self.param, self.raw));
        None
    }

    /// A finite number.
    pub fn number(&mut self) -> Option<f64> {
        match parse_f64(self.raw) {
            Some(v) if v.is_finite() => Some(v),
            _ => self.fail("is not a finite number"),
        }
    }

    /// An integer; a number with a fractional part is rounded to the nearest one, with a
    /// notice. Whole numbers beyond i64 saturate (their range notice quotes the text).
    pub fn integer(&mut self) -> Option<i64> {
        if let Ok(v) = self.raw.parse::<i64>() {
            return Some(v);
        }
        let v = self.number()?;
        let rounded = v.round().clamp(i64::MIN as f64, i64::MAX as f64) as i64;
        if v.fract() != 0.0 {
            self.notes.add(self.param, format!("{} {} is not an integer; using {rounded}", self.param, self.raw));
        }
        Some(rounded)
    }

    /// One of the names `parse` knows; `names` lists them for the notice.
    pub fn choice<T>(&mut self, parse: fn(&str) -> Option<T>, names: &str) -> Option<T> {
        match parse(self.raw) {
            Some(value) => Some(value),
            None => self.fail(&format!("is not {names}")),
        }
    }

    /// A comma-separated list of finite numbers.
    pub fn list(&mut self) -> Option<Vec<f64>> {
        self.list_of(false)
    }

    /// A comma-separated list of integers and ranges of them (`0-3,8`), each range as its
    /// numbers (its ends kept within 0..=255: a plane list, never a long one).
    pub fn ranges(&mut self) -> Option<Vec<f64>> {
        self.list_of(true)
    }

    /// A comma-separated list of finite numbers, and with `ranges` of ranges (one function for
    /// both: the page's first download carries it).
    fn list_of(&mut self, ranges: bool) -> Option<Vec<f64>> {
        let mut out = Vec::new();
        let number = |v: &str| parse_f64(v.trim()).filter(|v| v.is_finite());
        for (i, item) in self.raw.split(',').enumerate() {
            if let Some(v) = number(item) {
                out.push(v);
                continue;
            }
            // A range's ends that are not whole planes reach the list as such, and its reader's
            // notice (`Change::PlanesOff`).
            let range = item.split_once('-').filter(|_| ranges).and_then(|(a, b)| Some((number(a)?, number(b)?)));
            let Some((a, b)) = range else {
                let what = if ranges { "neither a number nor a range such as 16-31" } else { "not a finite number" };
                return self.fail(&format!("has an entry ({}) that is {what}", i + 1));
            };
            // Ends past any model's planes stay in the list, so that its notice names them.
            let (mut low, high) = (a.min(b), a.max(b));
            if low < 0.0 {
                out.push(low);
                low = 0.0;
            }
            if high > 255.0 {
                out.push(high);
            }
            while low <= high.min(255.0) {
                out.push(low);
                low += 1.0;
            }
        }
        Some(out)
    }
}
