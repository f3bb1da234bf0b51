//! The table of URL parameters: for each, its name, how its text becomes a typed [`Change`],
//! and how the state writes it back. Reading a query string and writing one are loops over
//! [`ALL`]; adding a parameter is one entry here, one [`Change`] variant and its rule in
//! `change.rs`. The README's "URL parameters" section documents each one.

use super::change::{Change, PatchCoordinate};
use super::format::{fmt_number, fmt_numbers};
use super::notes::Reader;
use super::{LabState, Theme};
use crate::i18n::Lang;
use crate::rope::{Format, HeatmapMode, Layout, PositionMode, ScalingMethod};

/// One URL parameter.
pub struct Param {
    /// Its name in the URL.
    pub name: &'static str,
    /// Its text (from the URL or a field) as a change; `None`, with a notice, when the text is
    /// no value of its kind.
    pub parse: fn(&mut Reader) -> Option<Change>,
    /// Its value as the URL writes it; "" when unset. The URL leaves out every parameter whose
    /// text equals the default state's, so shared links stay short.
    pub text: fn(&LabState) -> String,
}

fn optional(v: Option<f64>) -> String {
    v.map(fmt_number).unwrap_or_default()
}

fn optional_list(v: &Option<Vec<f64>>) -> String {
    v.as_deref().map(fmt_numbers).unwrap_or_default()
}

pub static BASE: Param = Param { name: "base", parse: |r| r.number().map(Change::Base), text: |s| fmt_number(s.base) };
pub static DIM: Param = Param { name: "dim", parse: |r| r.integer().map(Change::Dim), text: |s| s.dim.to_string() };
pub static M: Param = Param { name: "m", parse: |r| r.integer().map(Change::M), text: |s| s.m.to_string() };
pub static N: Param = Param { name: "n", parse: |r| r.integer().map(Change::N), text: |s| s.n.to_string() };
pub static LAYOUT: Param = Param {
    name: "layout",
    parse: |r| r.choice(Layout::parse, "'interleaved' or 'half'").map(Change::Layout),
    text: |s| s.layout.as_str().to_string(),
};
pub static Q: Param = Param { name: "q", parse: |r| r.list().map(|v| Change::Q(Some(v))), text: |s| optional_list(&s.q) };
pub static K: Param = Param { name: "k", parse: |r| r.list().map(|v| Change::K(Some(v))), text: |s| optional_list(&s.k) };
pub static SEED: Param = Param {
    name: "seed",
    parse: |r| match r.raw.parse::<u64>() {
        Ok(seed) => Some(Change::Seed(seed)),
        Err(_) => r.fail("is not an unsigned integer"),
    },
    text: |s| s.seed.to_string(),
};
pub static SCALING: Param = Param {
    name: "scaling",
    parse: |r| r.choice(ScalingMethod::parse, "a known method").map(Change::Scaling),
    text: |s| s.scaling.as_str().to_string(),
};
pub static FACTOR: Param = Param { name: "factor", parse: |r| r.number().map(|v| Change::Factor(Some(v))), text: |s| optional(s.factor) };
pub static ORIG: Param = Param { name: "orig", parse: |r| r.integer().map(Change::Orig), text: |s| s.orig.to_string() };
pub static SEQ: Param =
    Param { name: "seq", parse: |r| r.integer().map(|v| Change::Seq(Some(v))), text: |s| s.seq.map(|v| v.to_string()).unwrap_or_default() };
pub static BETA_FAST: Param = Param { name: "beta_fast", parse: |r| r.number().map(Change::BetaFast), text: |s| fmt_number(s.beta_fast) };
pub static BETA_SLOW: Param = Param { name: "beta_slow", parse: |r| r.number().map(Change::BetaSlow), text: |s| fmt_number(s.beta_slow) };
pub static MSCALE: Param = Param { name: "mscale", parse: |r| r.number().map(|v| Change::Mscale(Some(v))), text: |s| optional(s.mscale) };
pub static MSCALE_ALL_DIM: Param =
    Param { name: "mscale_all_dim", parse: |r| r.number().map(|v| Change::MscaleAllDim(Some(v))), text: |s| optional(s.mscale_all_dim) };
pub static LOW_FREQ: Param = Param { name: "low_freq", parse: |r| r.number().map(Change::LowFreq), text: |s| fmt_number(s.low_freq) };
pub static HIGH_FREQ: Param = Param { name: "high_freq", parse: |r| r.number().map(Change::HighFreq), text: |s| fmt_number(s.high_freq) };
pub static SHORT_FACTOR: Param =
    Param { name: "short_factor", parse: |r| r.list().map(|v| Change::ShortFactor(Some(v))), text: |s| optional_list(&s.short_factor) };
pub static LONG_FACTOR: Param =
    Param { name: "long_factor", parse: |r| r.list().map(|v| Change::LongFactor(Some(v))), text: |s| optional_list(&s.long_factor) };
pub static PARTIAL: Param = Param { name: "partial", parse: |r| r.number().map(Change::Partial), text: |s| fmt_number(s.partial) };
pub static TARGET: Param = Param {
    name: "target",
    parse: |r| r.integer().map(|v| Change::Target(Some(v))),
    text: |s| s.target.map(|v| v.to_string()).unwrap_or_default(),
};
pub static PRESET: Param = Param {
    name: "preset",
    parse: |r| r.choice(super::presets::find, "a preset id (see the README)").map(|p| Change::Preset(p.id)),
    text: |s| s.preset.unwrap_or_default().to_string(),
};
pub static R: Param = Param { name: "r", parse: |r| r.integer().map(Change::R), text: |s| s.r.to_string() };
pub static PLANE: Param = Param { name: "plane", parse: |r| r.integer().map(Change::Plane), text: |s| s.plane.to_string() };
pub static RANGE: Param = Param { name: "range", parse: |r| r.integer().map(Change::Range), text: |s| s.range.to_string() };
/// A switch: `1`/`0`, or `true`/`false`.
fn flag(r: &mut Reader) -> Option<bool> {
    match r.raw {
        "1" | "true" => Some(true),
        "0" | "false" => Some(false),
        _ => r.fail("is not 1 or 0"),
    }
}

fn flag_text(on: bool) -> String {
    if on { "1" } else { "0" }.to_string()
}

pub static LOG: Param = Param { name: "log", parse: |r| flag(r).map(Change::Log), text: |s| flag_text(s.log) };
pub static COMPARE: Param =
    Param { name: "compare", parse: |r| r.list().map(|v| Change::Compare(Some(v))), text: |s| optional_list(&s.compare) };
pub static SCALING_B: Param = Param {
    name: "scaling_b",
    parse: |r| r.choice(ScalingMethod::parse, "a known method").map(|m| Change::ScalingB(Some(m))),
    text: |s| s.scaling_b.map(|m| m.as_str().to_string()).unwrap_or_default(),
};
pub static XPOS: Param = Param { name: "xpos", parse: |r| flag(r).map(Change::Xpos), text: |s| flag_text(s.xpos) };
pub static SCALE_BASE: Param =
    Param { name: "scale_base", parse: |r| r.number().map(Change::ScaleBase), text: |s| fmt_number(s.scale_base) };
pub static UNSCALED: Param = Param { name: "unscaled", parse: |r| flag(r).map(Change::Unscaled), text: |s| flag_text(s.unscaled) };
pub static HEATMAP: Param = Param {
    name: "heatmap",
    parse: |r| r.choice(HeatmapMode::parse, "unrotated, sinusoidal, t5, alibi or rotated").map(Change::Heatmap),
    text: |s| s.heatmap.as_str().to_string(),
};
pub static POSITIONS: Param = Param {
    name: "positions",
    parse: |r| r.choice(PositionMode::parse, "none, sinusoidal or rope").map(Change::Positions),
    text: |s| s.positions.as_str().to_string(),
};
pub static P: Param = Param { name: "p", parse: |r| r.integer().map(Change::P), text: |s| s.p.to_string() };
pub static SHIFT: Param = Param { name: "shift", parse: |r| r.integer().map(Change::Shift), text: |s| s.shift.to_string() };
pub static QX: Param =
    Param { name: "qx", parse: |r| r.integer().map(|v| Change::Patch(PatchCoordinate::Qx, v)), text: |s| s.query_patch.0.to_string() };
pub static QY: Param =
    Param { name: "qy", parse: |r| r.integer().map(|v| Change::Patch(PatchCoordinate::Qy, v)), text: |s| s.query_patch.1.to_string() };
pub static KX: Param =
    Param { name: "kx", parse: |r| r.integer().map(|v| Change::Patch(PatchCoordinate::Kx, v)), text: |s| s.key_patch.0.to_string() };
pub static KY: Param =
    Param { name: "ky", parse: |r| r.integer().map(|v| Change::Patch(PatchCoordinate::Ky, v)), text: |s| s.key_patch.1.to_string() };
pub static FORMAT: Param = Param {
    name: "format",
    parse: |r| r.choice(Format::parse, "bf16, fp16, f32 or f64").map(Change::Format),
    text: |s| s.format.as_str().to_string(),
};
/// Any well-formed id; the app checks it against its widget registry ([`LabState::check_embed`]).
pub static EMBED: Param = Param {
    name: "embed",
    parse: |r| {
        let well_formed =
            !r.raw.is_empty() && r.raw.len() <= 40 && r.raw.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if well_formed {
            Some(Change::Embed(Some(r.raw.to_string())))
        } else {
            r.fail("is not a widget id")
        }
    },
    text: |s| s.embed.clone().unwrap_or_default(),
};
pub static THEME: Param = Param {
    name: "theme",
    parse: |r| r.choice(Theme::parse, "'light' or 'dark'").map(|t| Change::Theme(Some(t))),
    text: |s| s.theme.map(|t| t.as_str().to_string()).unwrap_or_default(),
};

pub static LANG: Param = Param {
    name: "lang",
    parse: |r| r.choice(Lang::parse, "en, zh-CN, es or ja").map(|l| Change::Lang(Some(l))),
    text: |s| s.lang.map(|l| l.as_str().to_string()).unwrap_or_default(),
};

pub static PRESENT: Param = Param { name: "present", parse: |r| flag(r).map(Change::Present), text: |s| flag_text(s.present) };
pub static COMPACT: Param = Param { name: "compact", parse: |r| flag(r).map(Change::Compact), text: |s| flag_text(s.compact) };

/// The model chapter's text; the default story is left out of the URL, an empty text is `text=`.
pub static TEXT: Param = Param { name: "text", parse: |r| Some(Change::Text(r.raw.to_string())), text: |s| s.model_text().to_string() };
pub static LAYER: Param = Param { name: "layer", parse: |r| r.integer().map(Change::Layer), text: |s| s.layer.to_string() };
pub static HEAD: Param = Param { name: "head", parse: |r| r.integer().map(Change::Head), text: |s| s.head.to_string() };
/// The trained model the chapter reads (`model=smollm2-135m`).
pub static MODEL: Param = Param {
    name: "model",
    parse: |r| r.choice(super::TrainedModel::from_id, "'stories260k' or 'smollm2-135m'").map(Change::Model),
    text: |s| s.model.id().to_string(),
};
/// The planes switched off, comma-separated planes and ranges (`off=0,2`, `off=16-31`); empty:
/// every plane rotates. Written back with runs of three or more as ranges.
pub static OFF: Param = Param {
    name: "off",
    parse: |r| if r.raw.is_empty() { Some(Change::PlanesOff(Vec::new())) } else { r.ranges().map(Change::PlanesOff) },
    text: |s| {
        let mut out = String::new();
        let mut i = 0;
        while i < 64 {
            // A run of planes off from i: three or more are written as a range.
            let run = (s.planes_off >> i).trailing_ones().max(1);
            if s.planes_off >> i & 1 == 1 {
                if !out.is_empty() {
                    out.push(',');
                }
                out += &i.to_string();
                if run > 1 {
                    out.push(if run > 2 { '-' } else { ',' });
                    out += &(i + run - 1).to_string();
                }
            }
            i += run;
        }
        out
    },
};
pub static OFFSET: Param = Param { name: "offset", parse: |r| r.integer().map(Change::Offset), text: |s| s.offset.to_string() };

/// Every parameter, in the order the URL writes them.
pub static ALL: [&Param; 52] = [
    &PRESET,
    &BASE,
    &DIM,
    &M,
    &N,
    &LAYOUT,
    &Q,
    &K,
    &SEED,
    &SCALING,
    &FACTOR,
    &ORIG,
    &SEQ,
    &TARGET,
    &BETA_FAST,
    &BETA_SLOW,
    &MSCALE,
    &MSCALE_ALL_DIM,
    &LOW_FREQ,
    &HIGH_FREQ,
    &SHORT_FACTOR,
    &LONG_FACTOR,
    &PARTIAL,
    &SCALING_B,
    &XPOS,
    &SCALE_BASE,
    &R,
    &PLANE,
    &RANGE,
    &LOG,
    &COMPARE,
    &HEATMAP,
    &UNSCALED,
    &POSITIONS,
    &P,
    &SHIFT,
    &QX,
    &QY,
    &KX,
    &KY,
    &FORMAT,
    &TEXT,
    &LAYER,
    &HEAD,
    &MODEL,
    &OFF,
    &OFFSET,
    &EMBED,
    &COMPACT,
    &THEME,
    &LANG,
    &PRESENT,
];

/// The parameter called `name` in the URL.
pub fn named(name: &str) -> Option<&'static Param> {
    ALL.iter().copied().find(|p| p.name == name)
}
