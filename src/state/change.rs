//! Typed changes to the state, one variant per parameter, and the one place their values are
//! validated: whether a value comes from the URL, a text field or a slider, it passes here.

use super::format::fmt_number;
use super::notes::Notes;
use super::{
    LabState, Theme, TrainedModel, DEFAULT_MODEL_TEXT, MAX_COMPARE, MAX_COMPONENT, MAX_MODEL_OFFSET, MAX_MODEL_TEXT, MAX_RANGE,
    MAX_SCALE_BASE, MIN_RANGE, PATCH_GRID,
};
use crate::i18n::Lang;
use crate::rope::{
    Format, HeatmapMode, Layout, PositionMode, ScalingMethod, MAX_BASE, MAX_CODE_POSITION, MAX_DIM, MAX_POSITION, MIN_PLANE_FACTOR,
};

/// One change to one parameter. Integers are `i64` so that a negative value can be clamped
/// with a notice rather than wrap; `None` unsets an optional parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    Base(f64),
    Dim(i64),
    M(i64),
    N(i64),
    Layout(Layout),
    Q(Option<Vec<f64>>),
    K(Option<Vec<f64>>),
    Seed(u64),
    Scaling(ScalingMethod),
    Factor(Option<f64>),
    Orig(i64),
    Seq(Option<i64>),
    Target(Option<i64>),
    /// Loads a real model's settings (a preset id from [`super::presets::PRESETS`]).
    Preset(&'static str),
    ScalingB(Option<ScalingMethod>),
    Xpos(bool),
    ScaleBase(f64),
    Unscaled(bool),
    BetaFast(f64),
    BetaSlow(f64),
    Mscale(Option<f64>),
    MscaleAllDim(Option<f64>),
    LowFreq(f64),
    HighFreq(f64),
    ShortFactor(Option<Vec<f64>>),
    LongFactor(Option<Vec<f64>>),
    Partial(f64),
    R(i64),
    Plane(i64),
    Range(i64),
    Log(bool),
    Compare(Option<Vec<f64>>),
    Heatmap(HeatmapMode),
    Positions(PositionMode),
    P(i64),
    Shift(i64),
    /// A coordinate of the "rope2d" chapter's query or key patch.
    Patch(PatchCoordinate, i64),
    Format(Format),
    Embed(Option<String>),
    Theme(Option<Theme>),
    Lang(Option<Lang>),
    Present(bool),
    Compact(bool),
    /// The trained model's text; the default story's text unsets it.
    Text(String),
    Layer(i64),
    Head(i64),
    /// Which trained model the chapter reads.
    Model(TrainedModel),
    /// The planes switched off, as listed (each an integer below the model's planes).
    PlanesOff(Vec<f64>),
    /// One plane switched on (`false`) or off (`true`), the others as they are.
    PlaneOff(u8, bool),
    Offset(i64),
}

/// Which coordinate of which patch a [`Change::Patch`] sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchCoordinate {
    Qx,
    Qy,
    Kx,
    Ky,
}

impl PatchCoordinate {
    pub const ALL: [PatchCoordinate; 4] = [PatchCoordinate::Qx, PatchCoordinate::Qy, PatchCoordinate::Kx, PatchCoordinate::Ky];

    /// Its URL parameter's name.
    pub fn name(self) -> &'static str {
        match self {
            PatchCoordinate::Qx => "qx",
            PatchCoordinate::Qy => "qy",
            PatchCoordinate::Kx => "kx",
            PatchCoordinate::Ky => "ky",
        }
    }

    /// The coordinate in `state`.
    pub fn get(self, state: &LabState) -> u8 {
        match self {
            PatchCoordinate::Qx => state.query_patch.0,
            PatchCoordinate::Qy => state.query_patch.1,
            PatchCoordinate::Kx => state.key_patch.0,
            PatchCoordinate::Ky => state.key_patch.1,
        }
    }

    fn slot(self, state: &mut LabState) -> &mut u8 {
        match self {
            PatchCoordinate::Qx => &mut state.query_patch.0,
            PatchCoordinate::Qy => &mut state.query_patch.1,
            PatchCoordinate::Kx => &mut state.key_patch.0,
            PatchCoordinate::Ky => &mut state.key_patch.1,
        }
    }
}

/// A query or key vector: entries clamped to ±MAX_COMPONENT; a non-finite one drops the vector.
fn vector(name: &'static str, values: Option<Vec<f64>>, notes: &mut Notes) -> Option<Vec<f64>> {
    let mut values = values?;
    if values.iter().any(|v| !v.is_finite()) {
        notes.add(name, format!("{name} has an entry that is not a finite number; drawing {name} from the seed"));
        return None;
    }
    if values.iter().any(|v| v.abs() > MAX_COMPONENT) {
        notes.add(name, format!("{name}: entries larger than {} in magnitude were clamped to it", super::Exp(MAX_COMPONENT)));
        values.iter_mut().for_each(|v| *v = v.clamp(-MAX_COMPONENT, MAX_COMPONENT));
    }
    Some(values)
}

impl LabState {
    /// Applies `change`, validating its value; corrections go to `notes`. Call
    /// [`LabState::normalize_into`] after a batch, since parameters constrain each other.
    pub(super) fn apply_into(&mut self, change: Change, notes: &mut Notes) {
        let position = |name, v, notes: &mut Notes| notes.clamp_i64(name, v, 0, MAX_POSITION);
        match change {
            Change::Base(v) => {
                let valid = notes.check("base", v, v > 1.0, "must be greater than 1", self.base);
                self.base = notes.clamp_f64("base", valid, 1.0, MAX_BASE);
            }
            Change::Dim(v) => {
                let mut dim = notes.clamp_i64("dim", v, 2, MAX_DIM as i64);
                if dim % 2 != 0 {
                    let even = if dim < MAX_DIM as i64 { dim + 1 } else { dim - 1 };
                    notes.add("dim", format!("dim {dim} is odd (RoPE rotates pairs of dimensions); using {even}"));
                    dim = even;
                }
                self.dim = dim as usize;
            }
            Change::M(v) => self.m = position("m", v, notes),
            Change::N(v) => self.n = position("n", v, notes),
            // The decay chart's range follows r past its end, and r follows the range down, so
            // its cursor stays on the chart (up to the largest range).
            Change::R(v) => {
                self.r = position("r", v, notes);
                if self.r as u64 > self.range {
                    self.range = (self.r as u64).next_power_of_two().clamp(MIN_RANGE, MAX_RANGE);
                }
            }
            // Clamped to this d's planes (the URL reads the plane after d); `normalize_into`
            // keeps it there, silently, when d changes after it (a view, not an input value).
            Change::Plane(v) => self.plane = notes.clamp_i64("plane", v, 0, self.dim as i64 / 2 - 1) as usize,
            Change::Layout(layout) => self.layout = layout,
            Change::Q(values) => self.q = vector("q", values, notes),
            Change::K(values) => self.k = vector("k", values, notes),
            Change::Seed(seed) => self.seed = seed,
            Change::Scaling(method) => self.scaling = method,
            Change::Factor(v) => {
                self.factor = v.map(|v| {
                    let keep = self.effective_factor();
                    let valid = notes.check("factor", v, true, "is not a finite number", keep);
                    notes.clamp_f64("factor", valid, 1.0, f64::MAX)
                })
            }
            Change::Orig(v) => self.orig = notes.clamp_i64("orig", v, 2, i64::MAX) as u64,
            Change::Seq(v) => self.seq = v.map(|v| notes.clamp_i64("seq", v, 1, i64::MAX) as u64),
            Change::Target(v) => self.target = v.map(|v| notes.clamp_i64("target", v, 2, i64::MAX) as u64),
            Change::Preset(id) => self.load_preset(id, notes),
            Change::ScalingB(method) => self.scaling_b = method,
            Change::Xpos(on) => self.xpos = on,
            Change::ScaleBase(v) => {
                let valid = notes.check("scale_base", v, v > 0.0, "must be greater than 0", self.scale_base);
                self.scale_base = notes.clamp_f64("scale_base", valid, 1.0, MAX_SCALE_BASE);
            }
            Change::Unscaled(on) => self.unscaled = on,
            Change::BetaFast(v) => self.beta_fast = notes.check("beta_fast", v, v > 0.0, "must be greater than 0", self.beta_fast),
            Change::BetaSlow(v) => self.beta_slow = notes.check("beta_slow", v, v > 0.0, "must be greater than 0", self.beta_slow),
            Change::LowFreq(v) => self.low_freq = notes.check("low_freq", v, v > 0.0, "must be greater than 0", self.low_freq),
            Change::HighFreq(v) => self.high_freq = notes.check("high_freq", v, v > 0.0, "must be greater than 0", self.high_freq),
            Change::Mscale(v) => self.mscale = non_negative("mscale", v, notes),
            Change::MscaleAllDim(v) => self.mscale_all_dim = non_negative("mscale_all_dim", v, notes),
            Change::ShortFactor(list) => self.short_factor = list,
            Change::LongFactor(list) => self.long_factor = list,
            Change::Partial(v) => {
                // Values <= 0 are repaired in `normalize_into`, which knows dim.
                let valid = notes.check("partial", v, true, "is not a finite number", self.partial);
                self.partial = notes.clamp_f64("partial", valid, f64::NEG_INFINITY, 1.0);
            }
            Change::Range(v) => {
                self.range = notes.clamp_i64("range", v, MIN_RANGE as i64, MAX_RANGE as i64) as u64;
                // (Past the largest range r stays where it is; the chart holds its cursor at the end.)
                if self.range < MAX_RANGE {
                    self.r = self.r.min(self.range as i64);
                }
            }
            Change::Log(on) => self.log = on,
            Change::Compare(bases) => {
                self.compare = bases.and_then(|mut bases| {
                    let valid = |b: &f64| *b > 1.0 && *b <= MAX_BASE;
                    if bases.iter().any(|b| !valid(b)) || bases.len() > MAX_COMPARE {
                        notes.add("compare", format!("compare takes up to {MAX_COMPARE} bases in (1, 1e9]; keeping the valid ones"));
                        bases.retain(valid);
                        bases.truncate(MAX_COMPARE);
                    }
                    (!bases.is_empty()).then_some(bases)
                })
            }
            Change::Heatmap(mode) => self.heatmap = mode,
            Change::Positions(mode) => self.positions = mode,
            Change::P(v) => self.p = notes.clamp_i64("p", v, 0, MAX_CODE_POSITION as i64) as u32,
            Change::Shift(v) => self.shift = notes.clamp_i64("shift", v, 0, MAX_CODE_POSITION as i64) as u32,
            Change::Patch(coordinate, v) => {
                *coordinate.slot(self) = notes.clamp_i64(coordinate.name(), v, 0, PATCH_GRID as i64 - 1) as u8;
            }
            Change::Format(format) => self.format = format,
            Change::Embed(id) => self.embed = id,
            Change::Theme(theme) => self.theme = theme,
            Change::Lang(lang) => self.lang = lang,
            Change::Present(on) => self.present = on,
            Change::Compact(on) => self.compact = on,
            Change::Text(text) => {
                let text = match text.char_indices().nth(MAX_MODEL_TEXT) {
                    Some((cut, _)) => {
                        notes.add("text", format!("text has more than {MAX_MODEL_TEXT} characters; keeping the first {MAX_MODEL_TEXT}"));
                        text[..cut].to_string()
                    }
                    None => text,
                };
                self.text = (text != DEFAULT_MODEL_TEXT).then_some(text);
            }
            Change::Model(model) => {
                self.model = model;
                // What the other model allowed and this one does not: back within its shape.
                let (layers, heads, planes) = model.shape();
                self.layer = self.layer.min(layers - 1);
                self.head = self.head.min(heads - 1);
                self.planes_off &= planes_mask(planes);
            }
            Change::Layer(v) => self.layer = notes.clamp_i64("layer", v, 0, self.model.shape().0 as i64 - 1) as u8,
            Change::Head(v) => self.head = notes.clamp_i64("head", v, 0, self.model.shape().1 as i64 - 1) as u8,
            Change::PlanesOff(list) => {
                let planes = self.model.shape().2;
                let valid = |v: &f64| v.fract() == 0.0 && (0.0..planes as f64).contains(v);
                if list.iter().any(|v| !valid(v)) {
                    notes.add("off", format!("off lists planes 0 to {}; leaving out the others", planes - 1));
                }
                self.planes_off = list.iter().filter(|v| valid(v)).fold(0, |bits, &v| bits | 1 << v as u8);
            }
            Change::PlaneOff(plane, off) if plane < self.model.shape().2 => {
                self.planes_off = if off { self.planes_off | 1 << plane } else { self.planes_off & !(1 << plane) };
            }
            Change::PlaneOff(..) => {}
            Change::Offset(v) => self.offset = notes.clamp_i64("offset", v, 0, MAX_MODEL_OFFSET as i64) as u64,
        }
    }

    /// Restores the invariants between parameters (a new dim invalidates typed vectors and
    /// per-plane lists, for instance), with a notice for each correction.
    pub(super) fn normalize_into(&mut self, notes: &mut Notes) {
        // The selected plane follows d silently: it is a view, not an input value.
        self.plane = self.plane.min(self.dim / 2 - 1);
        for (name, vector) in [("q", &mut self.q), ("k", &mut self.k)] {
            if vector.as_ref().is_some_and(|values| values.len() != self.dim) {
                let found = vector.as_ref().map_or(0, Vec::len);
                notes.add(
                    name,
                    format!("{name} has {found} numbers but dim is {}; drawing {name} from seed {} instead", self.dim, self.seed),
                );
                *vector = None;
            }
        }

        if self.scaling.rotary_dim(self.dim, self.partial).is_err() {
            let rotary = ((self.dim as f64 * self.partial).floor() as usize).max(2) & !1;
            let mut fixed = rotary as f64 / self.dim as f64;
            // rotary / dim may round below itself (2 / 778 * 778 = 1.99…): nudge it up until
            // floor(dim * partial) is rotary again.
            while ((self.dim as f64 * fixed).floor() as usize) < rotary {
                fixed *= 1.0 + f64::EPSILON;
            }
            notes.add(
                "partial",
                format!(
                    "partial {} of dim {} does not rotate a positive even number of dimensions; using {}",
                    fmt_number(self.partial),
                    self.dim,
                    fmt_number(fixed)
                ),
            );
            self.partial = fixed;
        }

        if self.low_freq >= self.high_freq {
            let defaults = LabState::default();
            notes.add(
                "low_freq",
                format!(
                    "low_freq {} must be less than high_freq {}; using {} and {}",
                    fmt_number(self.low_freq),
                    fmt_number(self.high_freq),
                    fmt_number(defaults.low_freq),
                    fmt_number(defaults.high_freq)
                ),
            );
            self.low_freq = defaults.low_freq;
            self.high_freq = defaults.high_freq;
        }

        let rotating_planes = self.scaling.rotary_dim(self.dim, self.partial).unwrap_or(self.dim) / 2;
        for (name, list) in [("short_factor", &mut self.short_factor), ("long_factor", &mut self.long_factor)] {
            let fits = |values: &Vec<f64>| values.len() == rotating_planes && values.iter().all(|v| *v >= MIN_PLANE_FACTOR);
            if list.as_ref().is_some_and(|values| !fits(values)) {
                notes.add(name, format!("{name} needs {rotating_planes} numbers of at least 1e-12 (one per rotating plane); using all 1"));
                *list = None;
            }
        }
    }
}

/// A finite number >= 0, else unset with a notice.
fn non_negative(name: &'static str, v: Option<f64>, notes: &mut Notes) -> Option<f64> {
    let v = v?;
    if v.is_finite() && v >= 0.0 {
        Some(v)
    } else {
        notes.add(name, format!("{name} {} must be a number of at least 0; leaving it unset", fmt_number(v)));
        None
    }
}

/// The bits of planes 0..planes (at most 64: a head of 128 dimensions).
pub fn planes_mask(planes: u8) -> u64 {
    if planes >= 64 {
        u64::MAX
    } else {
        (1u64 << planes) - 1
    }
}
