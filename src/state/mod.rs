//! The single source of truth: every parameter of `../shared/CONTRACT.md`, read from and
//! written to the URL query. Parsing, validation and clamping happen here and only here; each
//! correction produces a [`Notice`] saying what was changed and why.
//!
//! Pure Rust (no Leptos, no web-sys) so that the URL contract is tested natively; the app
//! wraps a [`LabState`] in a signal.

mod derive;
pub mod query;

pub use derive::{Derived, PlaneRow};

use crate::rope::{
    rotary_dim, seeded_vector, HeatmapMode, Layout, ScalingMethod, ScalingParams, Stream, MAX_BASE, MAX_DIM,
    MAX_POSITION, MIN_PLANE_FACTOR,
};
use query::{encode, parse_pairs};

/// The widget ids a page can embed alone with `embed=<id>`; the README lists them.
pub const WIDGET_IDS: &[&str] = &["clocks", "scores", "decay", "frequencies", "heatmap"];

pub const DEFAULT_BASE: f64 = 10_000.0;
pub const DEFAULT_DIM: usize = 64;
pub const DEFAULT_M: i64 = 5;
pub const DEFAULT_N: i64 = 2;
pub const DEFAULT_SEED: u64 = 1;
pub const DEFAULT_ORIG: u64 = 4096;
/// The decay chart's default span in tokens (RoFormer's figure 2) and its largest.
pub const DEFAULT_RANGE: u64 = 256;
pub const MAX_RANGE: u64 = 1 << 20;
/// At most this many extra bases overlaid on the decay chart.
pub const MAX_COMPARE: usize = 3;

/// Largest magnitude of a typed q or k component: keeps every score finite at d = 1024.
pub const MAX_COMPONENT: f64 = 1e6;

/// A colour scheme forced by the URL; without one the page follows the system.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

impl Theme {
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// One correction made to the input, shown to the user in `data-testid="notice"`.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// The URL parameter (or field) concerned.
    pub param: &'static str,
    /// What was changed and why, in plain words.
    pub message: String,
}

/// Every parameter of the contract, validated. `None` means "unset" where the contract gives
/// unset a meaning of its own (q and k drawn from the seed, factor by method, seq = orig).
#[derive(Debug, Clone, PartialEq)]
pub struct LabState {
    pub base: f64,
    pub dim: usize,
    pub m: i64,
    pub n: i64,
    pub layout: Layout,
    pub q: Option<Vec<f64>>,
    pub k: Option<Vec<f64>>,
    pub seed: u64,
    pub scaling: ScalingMethod,
    pub factor: Option<f64>,
    pub orig: u64,
    pub seq: Option<u64>,
    pub beta_fast: f64,
    pub beta_slow: f64,
    pub mscale: Option<f64>,
    pub mscale_all_dim: Option<f64>,
    pub low_freq: f64,
    pub high_freq: f64,
    pub short_factor: Option<Vec<f64>>,
    pub long_factor: Option<Vec<f64>>,
    pub partial: f64,
    pub r: i64,
    /// The selected rotation plane, shown enlarged (`plane=`, 0..d/2).
    pub plane: usize,
    /// The decay chart's span of relative distances (`range=`).
    pub range: u64,
    /// The decay chart's distance axis on a log scale (`log=1`).
    pub log: bool,
    /// Extra bases whose bounds the decay chart overlays (`compare=500000,1000000`).
    pub compare: Option<Vec<f64>>,
    /// What the heatmap shows (`heatmap=rotated|unrotated|sinusoidal`).
    pub heatmap: HeatmapMode,
    pub embed: Option<&'static str>,
    pub theme: Option<Theme>,
}

impl Default for LabState {
    fn default() -> Self {
        Self {
            base: DEFAULT_BASE,
            dim: DEFAULT_DIM,
            m: DEFAULT_M,
            n: DEFAULT_N,
            layout: Layout::Interleaved,
            q: None,
            k: None,
            seed: DEFAULT_SEED,
            scaling: ScalingMethod::None,
            factor: None,
            orig: DEFAULT_ORIG,
            seq: None,
            beta_fast: 32.0,
            beta_slow: 1.0,
            mscale: None,
            mscale_all_dim: None,
            low_freq: 1.0,
            high_freq: 4.0,
            short_factor: None,
            long_factor: None,
            partial: 1.0,
            r: 0,
            plane: 0,
            range: DEFAULT_RANGE,
            log: false,
            compare: None,
            heatmap: HeatmapMode::Rotated,
            embed: None,
            theme: None,
        }
    }
}

/// The outcome of reading a query string: a valid state and what had to be corrected.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub state: LabState,
    pub notices: Vec<Notice>,
}

impl LabState {
    /// Reads a query string (`?base=...&dim=...`). Never fails: invalid values are replaced by
    /// the nearest valid value or the default, each with a notice. Unknown parameters are ignored.
    pub fn from_query(query: &str) -> Parsed {
        let mut state = LabState::default();
        let mut notes = Notes::default();
        for (name, raw) in parse_pairs(query) {
            state.read_param(&name, raw.trim(), &mut notes);
        }
        if state.plane >= state.dim / 2 {
            let last = state.dim / 2 - 1;
            notes.add(
                "plane",
                format!("plane {} does not exist with dim {} (planes 0 to {last}); using {last}", state.plane, state.dim),
            );
        }
        state.normalize_into(&mut notes);
        Parsed {
            state,
            notices: notes.0,
        }
    }

    /// The query string for this state, without the leading `?`: only what differs from the
    /// defaults, in the contract's order, so that shared links stay short.
    pub fn to_query(&self) -> String {
        let default = LabState::default();
        let mut parts: Vec<(&str, String)> = Vec::new();
        let mut put = |name: &'static str, value: String| parts.push((name, value));
        if self.base != default.base {
            put("base", fmt_f64(self.base));
        }
        if self.dim != default.dim {
            put("dim", self.dim.to_string());
        }
        if self.m != default.m {
            put("m", self.m.to_string());
        }
        if self.n != default.n {
            put("n", self.n.to_string());
        }
        if self.layout != default.layout {
            put("layout", self.layout.as_str().to_string());
        }
        if let Some(q) = &self.q {
            put("q", fmt_list(q));
        }
        if let Some(k) = &self.k {
            put("k", fmt_list(k));
        }
        if self.seed != default.seed {
            put("seed", self.seed.to_string());
        }
        if self.scaling != default.scaling {
            put("scaling", self.scaling.as_str().to_string());
        }
        if let Some(factor) = self.factor {
            put("factor", fmt_f64(factor));
        }
        if self.orig != default.orig {
            put("orig", self.orig.to_string());
        }
        if let Some(seq) = self.seq {
            put("seq", seq.to_string());
        }
        if self.beta_fast != default.beta_fast {
            put("beta_fast", fmt_f64(self.beta_fast));
        }
        if self.beta_slow != default.beta_slow {
            put("beta_slow", fmt_f64(self.beta_slow));
        }
        if let Some(v) = self.mscale {
            put("mscale", fmt_f64(v));
        }
        if let Some(v) = self.mscale_all_dim {
            put("mscale_all_dim", fmt_f64(v));
        }
        if self.low_freq != default.low_freq {
            put("low_freq", fmt_f64(self.low_freq));
        }
        if self.high_freq != default.high_freq {
            put("high_freq", fmt_f64(self.high_freq));
        }
        if let Some(list) = &self.short_factor {
            put("short_factor", fmt_list(list));
        }
        if let Some(list) = &self.long_factor {
            put("long_factor", fmt_list(list));
        }
        if self.partial != default.partial {
            put("partial", fmt_f64(self.partial));
        }
        if self.r != default.r {
            put("r", self.r.to_string());
        }
        if self.plane != default.plane {
            put("plane", self.plane.to_string());
        }
        if self.range != default.range {
            put("range", self.range.to_string());
        }
        if self.log {
            put("log", "1".to_string());
        }
        if let Some(list) = &self.compare {
            put("compare", fmt_list(list));
        }
        if self.heatmap != default.heatmap {
            put("heatmap", heatmap_name(self.heatmap).to_string());
        }
        if let Some(id) = self.embed {
            put("embed", id.to_string());
        }
        if let Some(theme) = self.theme {
            put("theme", theme.as_str().to_string());
        }
        parts
            .into_iter()
            .map(|(name, value)| format!("{name}={}", encode(&value)))
            .collect::<Vec<_>>()
            .join("&")
    }

    /// The factor in effect: the URL's, or the method's default (8 for llama3 and yarn).
    pub fn effective_factor(&self) -> f64 {
        self.factor.unwrap_or_else(|| self.scaling.default_factor())
    }

    /// The scaling parameters as the core takes them.
    pub fn scaling_params(&self) -> ScalingParams {
        ScalingParams {
            method: self.scaling,
            factor: self.effective_factor(),
            original_context: self.orig,
            seq_len: self.seq.unwrap_or(self.orig),
            beta_fast: self.beta_fast,
            beta_slow: self.beta_slow,
            mscale: self.mscale,
            mscale_all_dim: self.mscale_all_dim,
            low_freq_factor: self.low_freq,
            high_freq_factor: self.high_freq,
            short_factor: self.short_factor.clone(),
            long_factor: self.long_factor.clone(),
            partial: self.partial,
        }
    }

    /// q as typed in the URL, or drawn from `seed`.
    pub fn query_vector(&self) -> Vec<f64> {
        self.q.clone().unwrap_or_else(|| seeded_vector(self.seed, Stream::Query, self.dim))
    }

    /// k as typed in the URL, or drawn from `seed`.
    pub fn key_vector(&self) -> Vec<f64> {
        self.k.clone().unwrap_or_else(|| seeded_vector(self.seed, Stream::Key, self.dim))
    }

    /// Sets one parameter from text, as a form field or the URL gives it, with the same
    /// validation as [`LabState::from_query`]; returns what had to be corrected.
    pub fn set_param(&mut self, name: &str, raw: &str) -> Vec<Notice> {
        let mut notes = Notes::default();
        self.read_param(name, raw.trim(), &mut notes);
        self.normalize_into(&mut notes);
        notes.0
    }

    /// Restores the invariants between parameters after a control changed one of them (a new
    /// dim invalidates typed vectors and per-plane lists, for instance) and returns the notices.
    pub fn normalize(&mut self) -> Vec<Notice> {
        let mut notes = Notes::default();
        self.normalize_into(&mut notes);
        notes.0
    }

    fn read_param(&mut self, name: &str, raw: &str, notes: &mut Notes) {
        match name {
            "base" => {
                if let Some(v) = notes.number("base", raw, DEFAULT_BASE) {
                    self.base = if v <= 1.0 {
                        notes.add("base", format!("base {raw} must be greater than 1; using {DEFAULT_BASE}"));
                        DEFAULT_BASE
                    } else {
                        notes.clamp_f64("base", v, 1.0, MAX_BASE)
                    };
                }
            }
            "dim" => {
                if let Some(v) = notes.integer("dim", raw, DEFAULT_DIM as i64) {
                    let mut dim = notes.clamp_i64("dim", v, 2, MAX_DIM as i64);
                    if dim % 2 != 0 {
                        let even = if dim < MAX_DIM as i64 { dim + 1 } else { dim - 1 };
                        notes.add("dim", format!("dim {dim} is odd (RoPE rotates pairs); using {even}"));
                        dim = even;
                    }
                    self.dim = dim as usize;
                }
            }
            "m" => self.m = notes.position("m", raw, DEFAULT_M).unwrap_or(self.m),
            "n" => self.n = notes.position("n", raw, DEFAULT_N).unwrap_or(self.n),
            "r" => self.r = notes.position("r", raw, 0).unwrap_or(self.r),
            // Clamped to the planes of d in `normalize_into`, which knows d.
            "plane" => {
                if let Some(v) = notes.integer("plane", raw, 0) {
                    self.plane = notes.clamp_i64("plane", v, 0, MAX_DIM as i64 / 2 - 1) as usize;
                }
            }
            "layout" => match Layout::parse(raw) {
                Some(layout) => self.layout = layout,
                None => notes.add(
                    "layout",
                    format!("layout '{raw}' is not 'interleaved' or 'half'; using interleaved"),
                ),
            },
            "q" => self.q = notes.vector("q", raw),
            "k" => self.k = notes.vector("k", raw),
            "seed" => match raw.parse::<u64>() {
                Ok(seed) => self.seed = seed,
                Err(_) => notes.add(
                    "seed",
                    format!("seed '{raw}' is not an unsigned integer; using {DEFAULT_SEED}"),
                ),
            },
            "scaling" => match ScalingMethod::parse(raw) {
                Some(method) => self.scaling = method,
                None => notes.add("scaling", format!("scaling '{raw}' is not a known method; using none")),
            },
            "factor" => {
                if let Some(v) = notes.number("factor", raw, 1.0) {
                    self.factor = Some(notes.clamp_f64("factor", v, 1.0, f64::MAX));
                }
            }
            "orig" => {
                if let Some(v) = notes.integer("orig", raw, DEFAULT_ORIG as i64) {
                    self.orig = notes.clamp_i64("orig", v, 2, i64::MAX) as u64;
                }
            }
            "seq" => {
                if let Some(v) = notes.integer("seq", raw, DEFAULT_ORIG as i64) {
                    self.seq = Some(notes.clamp_i64("seq", v, 1, i64::MAX) as u64);
                }
            }
            "beta_fast" => self.beta_fast = notes.positive("beta_fast", raw, 32.0),
            "beta_slow" => self.beta_slow = notes.positive("beta_slow", raw, 1.0),
            "mscale" => self.mscale = notes.non_negative("mscale", raw),
            "mscale_all_dim" => self.mscale_all_dim = notes.non_negative("mscale_all_dim", raw),
            "low_freq" => self.low_freq = notes.positive("low_freq", raw, 1.0),
            "high_freq" => self.high_freq = notes.positive("high_freq", raw, 4.0),
            "short_factor" => self.short_factor = notes.list("short_factor", raw),
            "long_factor" => self.long_factor = notes.list("long_factor", raw),
            "partial" => {
                // Values <= 0 are repaired in `normalize_into`, which knows dim.
                if let Some(v) = notes.number("partial", raw, 1.0) {
                    self.partial = notes.clamp_f64("partial", v, f64::NEG_INFINITY, 1.0);
                }
            }
            "range" => {
                if let Some(v) = notes.integer("range", raw, DEFAULT_RANGE as i64) {
                    self.range = notes.clamp_i64("range", v, 16, MAX_RANGE as i64) as u64;
                }
            }
            "log" => match raw {
                "1" | "true" | "yes" | "on" => self.log = true,
                "0" | "false" | "no" | "off" | "" => self.log = false,
                _ => notes.add("log", format!("log '{raw}' is not 1 or 0; using a linear axis")),
            },
            "compare" => {
                if let Some(mut bases) = notes.list("compare", raw) {
                    let valid = |b: &f64| *b > 1.0 && *b <= MAX_BASE;
                    if bases.iter().any(|b| !valid(b)) || bases.len() > MAX_COMPARE {
                        notes.add(
                            "compare",
                            format!("compare takes up to {MAX_COMPARE} bases in (1, 1e9]; keeping the valid ones"),
                        );
                        bases.retain(valid);
                        bases.truncate(MAX_COMPARE);
                    }
                    self.compare = (!bases.is_empty()).then_some(bases);
                }
            }
            "heatmap" => match raw {
                "rotated" => self.heatmap = HeatmapMode::Rotated,
                "unrotated" => self.heatmap = HeatmapMode::Unrotated,
                "sinusoidal" => self.heatmap = HeatmapMode::Sinusoidal,
                _ => notes.add(
                    "heatmap",
                    format!("heatmap '{raw}' is not rotated, unrotated or sinusoidal; using rotated"),
                ),
            },
            "embed" => match WIDGET_IDS.iter().find(|id| **id == raw) {
                Some(id) => self.embed = Some(id),
                None => notes.add(
                    "embed",
                    format!(
                        "embed '{raw}' is not a widget id ({}); showing the whole page",
                        WIDGET_IDS.join(", ")
                    ),
                ),
            },
            "theme" => match raw {
                "light" => self.theme = Some(Theme::Light),
                "dark" => self.theme = Some(Theme::Dark),
                _ => notes.add("theme", format!("theme '{raw}' is not 'light' or 'dark'; following the system")),
            },
            _ => {}
        }
    }

    fn normalize_into(&mut self, notes: &mut Notes) {
        // The selected plane follows d silently: it is a view, not an input value.
        self.plane = self.plane.min(self.dim / 2 - 1);
        for (name, vector) in [("q", &mut self.q), ("k", &mut self.k)] {
            if let Some(values) = vector {
                if values.len() != self.dim {
                    notes.add(
                        name,
                        format!(
                            "{name} has {} numbers but dim is {}; drawing {name} from seed {} instead",
                            values.len(),
                            self.dim,
                            self.seed
                        ),
                    );
                    *vector = None;
                }
            }
        }

        // partial: int(dim * partial) must be a positive even number of dimensions, except for
        // `proportional`, which counts planes (any partial in (0, 1] works there).
        let partial_valid = if self.scaling == ScalingMethod::Proportional {
            self.partial > 0.0 && self.partial <= 1.0
        } else {
            rotary_dim(self.dim, self.partial).is_ok()
        };
        if !partial_valid {
            let rotary = ((self.dim as f64 * self.partial).floor() as usize).max(2) & !1;
            let fixed = rotary as f64 / self.dim as f64;
            notes.add(
                "partial",
                format!(
                    "partial {} of dim {} does not rotate a positive even number of dimensions; using {}",
                    fmt_f64(self.partial),
                    self.dim,
                    fmt_f64(fixed)
                ),
            );
            self.partial = fixed;
        }

        if self.low_freq >= self.high_freq {
            notes.add(
                "low_freq",
                format!(
                    "low_freq {} must be less than high_freq {}; using 1 and 4",
                    fmt_f64(self.low_freq),
                    fmt_f64(self.high_freq)
                ),
            );
            self.low_freq = 1.0;
            self.high_freq = 4.0;
        }

        let rotating_planes = match rotary_dim(self.dim, self.partial) {
            Ok(rotary) => rotary / 2,
            Err(_) => self.dim / 2,
        };
        for (name, list) in [("short_factor", &mut self.short_factor), ("long_factor", &mut self.long_factor)] {
            if let Some(values) = list {
                if values.len() != rotating_planes || values.iter().any(|v| *v < MIN_PLANE_FACTOR) {
                    notes.add(
                        name,
                        format!(
                            "{name} needs {rotating_planes} numbers of at least 1e-12 (one per rotating plane); using all 1"
                        ),
                    );
                    *list = None;
                }
            }
        }
    }
}

/// Collects notices while parsing, with one helper per kind of value.
#[derive(Default)]
struct Notes(Vec<Notice>);

impl Notes {
    fn add(&mut self, param: &'static str, message: String) {
        self.0.push(Notice { param, message });
    }

    /// A finite number, or a notice and `None` (the caller keeps its default).
    fn number(&mut self, param: &'static str, raw: &str, default: f64) -> Option<f64> {
        match raw.parse::<f64>() {
            Ok(v) if v.is_finite() => Some(v),
            _ => {
                self.add(param, format!("{param} '{raw}' is not a finite number; using {}", fmt_f64(default)));
                None
            }
        }
    }

    /// An integer, accepting a number with a fractional part rounded to the nearest integer.
    fn integer(&mut self, param: &'static str, raw: &str, default: i64) -> Option<i64> {
        if let Ok(v) = raw.parse::<i64>() {
            return Some(v);
        }
        let v = self.number(param, raw, default as f64)?;
        let rounded = v.round().clamp(i64::MIN as f64, i64::MAX as f64) as i64;
        self.add(param, format!("{param} {raw} is not an integer; using {rounded}"));
        Some(rounded)
    }

    fn position(&mut self, param: &'static str, raw: &str, default: i64) -> Option<i64> {
        self.integer(param, raw, default)
            .map(|v| self.clamp_i64(param, v, 0, MAX_POSITION))
    }

    fn clamp_i64(&mut self, param: &'static str, v: i64, min: i64, max: i64) -> i64 {
        let clamped = v.clamp(min, max);
        if clamped != v {
            let bound = if v < min { format!("at least {min}") } else { format!("at most {max}") };
            self.add(param, format!("{param} {v} is out of range (it must be {bound}); using {clamped}"));
        }
        clamped
    }

    fn clamp_f64(&mut self, param: &'static str, v: f64, min: f64, max: f64) -> f64 {
        let clamped = v.clamp(min, max);
        if clamped != v {
            let bound = if v < min { format!("at least {}", fmt_f64(min)) } else { format!("at most {}", fmt_f64(max)) };
            self.add(
                param,
                format!("{param} {} is out of range (it must be {bound}); using {}", fmt_f64(v), fmt_f64(clamped)),
            );
        }
        clamped
    }

    /// A finite number > 0, else the default with a notice.
    fn positive(&mut self, param: &'static str, raw: &str, default: f64) -> f64 {
        match self.number(param, raw, default) {
            Some(v) if v > 0.0 => v,
            Some(v) => {
                self.add(param, format!("{param} {} must be greater than 0; using {}", fmt_f64(v), fmt_f64(default)));
                default
            }
            None => default,
        }
    }

    /// A finite number >= 0, else unset with a notice.
    fn non_negative(&mut self, param: &'static str, raw: &str) -> Option<f64> {
        match self.number(param, raw, 0.0) {
            Some(v) if v >= 0.0 => Some(v),
            Some(v) => {
                self.add(param, format!("{param} {} must be at least 0; leaving it unset", fmt_f64(v)));
                None
            }
            None => None,
        }
    }

    /// A query or key vector: a list whose entries are clamped to +-MAX_COMPONENT.
    fn vector(&mut self, param: &'static str, raw: &str) -> Option<Vec<f64>> {
        let mut values = self.list(param, raw)?;
        if values.iter().any(|v| v.abs() > MAX_COMPONENT) {
            self.add(
                param,
                format!("{param}: entries larger than {MAX_COMPONENT:e} in magnitude were clamped to it"),
            );
            for v in &mut values {
                *v = v.clamp(-MAX_COMPONENT, MAX_COMPONENT);
            }
        }
        Some(values)
    }

    /// A comma-separated list of finite numbers, else unset with a notice.
    fn list(&mut self, param: &'static str, raw: &str) -> Option<Vec<f64>> {
        let values: Result<Vec<f64>, usize> = raw
            .split(',')
            .enumerate()
            .map(|(i, item)| match item.trim().parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => Err(i),
            })
            .collect();
        match values {
            Ok(values) => Some(values),
            Err(index) => {
                self.add(
                    param,
                    format!("{param}: entry {} is not a finite number; ignoring {param}", index + 1),
                );
                None
            }
        }
    }
}

/// The URL name of a heatmap mode.
pub fn heatmap_name(mode: HeatmapMode) -> &'static str {
    match mode {
        HeatmapMode::Rotated => "rotated",
        HeatmapMode::Unrotated => "unrotated",
        HeatmapMode::Sinusoidal => "sinusoidal",
    }
}

/// Rust's shortest round-trip form of an f64 (`{:?}`), the contract's `data-value` format.
pub fn fmt_f64(v: f64) -> String {
    format!("{v:?}")
}

/// A comma-separated list of [`fmt_f64`] values.
pub fn fmt_list(values: &[f64]) -> String {
    values.iter().map(|v| fmt_f64(*v)).collect::<Vec<_>>().join(",")
}
