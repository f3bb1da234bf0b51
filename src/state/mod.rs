//! The single source of truth: every URL parameter (the README's "URL parameters"), read from
//! and written to the query string. Text is parsed in one place ([`param`]), values are
//! validated in one place ([`change`]), and each correction produces a [`Notice`] saying what
//! was changed and why. Widgets change the state through typed [`Change`]s and the domain
//! methods of [`actions`], never through parameter names.
//!
//! Pure Rust (no Leptos, no web-sys) so that the URL contract is tested natively; the app
//! wraps a [`LabState`] in a signal.

mod actions;
mod change;
pub mod config;
mod config_apply;
mod derive;
mod format;
pub mod json;
pub mod lesson;
mod limits;
mod notes;
pub mod param;
mod parse;
pub mod presets;
mod python;
pub mod query;
mod shortest;

pub use actions::shifted_patches;
pub use change::{planes_mask, Change, PatchCoordinate};
pub use derive::{Derived, Vectors};
pub use format::{fmt_f64, fmt_list, fmt_number, fmt_numbers, fmt_plain, joined, Exp, Plain};
pub use limits::*;
pub use notes::{Notes, Notice, Reader};
pub use param::Param;
pub use parse::parse_f64;

use crate::i18n::Lang;
use crate::rope::{
    seeded_vector, Format, HeatmapMode, Layout, PositionMode, ScalingMethod, ScalingParams, Stream, DEFAULT_BASE, DEFAULT_SCALE_BASE,
};
use query::{encode, parse_pairs};

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

    pub fn parse(name: &str) -> Option<Self> {
        [Theme::Light, Theme::Dark].into_iter().find(|t| t.as_str() == name)
    }
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
    /// The context the model is stretched to (`target=`, `max_position_embeddings`); unset
    /// means `orig` times the factor.
    pub target: Option<u64>,
    /// The real model whose settings were loaded last (`preset=`); its values stay editable.
    pub preset: Option<&'static str>,
    /// A second method the context-extension chapter compares with (`scaling_b=`), reading the
    /// same factor, contexts and fields.
    pub scaling_b: Option<ScalingMethod>,
    /// xPos overlaid on the decay charts (`xpos=1`), with its `scale_base` (`scale_base=`).
    pub xpos: bool,
    pub scale_base: f64,
    pub r: i64,
    /// The selected rotation plane, shown enlarged (`plane=`, 0..d/2).
    pub plane: usize,
    /// The decay chart's span of relative distances (`range=`).
    pub range: u64,
    /// The decay chart's distance axis on a log scale (`log=1`).
    pub log: bool,
    /// Extra bases whose bounds the decay chart overlays (`compare=500000,1000000`).
    pub compare: Option<Vec<f64>>,
    /// What the heatmap shows (`heatmap=unrotated|sinusoidal|t5|alibi|rotated`).
    pub heatmap: HeatmapMode,
    /// The heatmap with the original θᵢ instead of the scaled ones (`unscaled=1`).
    pub unscaled: bool,
    /// What the "order" chapter's tiny attention adds (`positions=none|sinusoidal|rope`).
    pub positions: PositionMode,
    /// The position of the "counting" and "pe-rotation" chapters (`p=`, 0..=65535).
    pub p: u32,
    /// The offset k of the "pe-rotation" chapter (`shift=`, 0..=65535).
    pub shift: u32,
    /// The "rope2d" chapter's query patch (`qx=`, `qy=`) and key patch (`kx=`, `ky=`), as
    /// (column, row), each 0..PATCH_GRID.
    pub query_patch: (u8, u8),
    pub key_patch: (u8, u8),
    /// The number format of the "precision" chapter (`format=`).
    pub format: Format,
    /// The widget shown alone (`embed=`); checked against the app's registry by [`LabState::check_embed`].
    pub embed: Option<String>,
    pub theme: Option<Theme>,
    /// The language every word of the page is in (`lang=`); unset: the browser's preference.
    pub lang: Option<Lang>,
    /// Presenter mode for projecting (`present=1`, the key P): large type, thick lines.
    pub present: bool,
    /// An embedded widget without its secondary panels (`compact=1`), for narrow columns.
    pub compact: bool,
    /// The trained model's text (`text=`); `None` is [`DEFAULT_MODEL_TEXT`].
    pub text: Option<String>,
    /// The trained model's selected layer and head (`layer=`, `head=`).
    pub layer: u8,
    pub head: u8,
    /// The trained model the chapter reads (`model=`).
    pub model: TrainedModel,
    /// The model's planes left unrotated in every layer and head (`off=0,2`): bit i for plane i.
    pub planes_off: u64,
    /// Where the model's text starts (`offset=`): every position shifted by it.
    pub offset: u64,
}

impl Default for LabState {
    fn default() -> Self {
        // The scaling parameters' defaults are the core's.
        let scaling = ScalingParams::default();
        Self {
            base: DEFAULT_BASE,
            dim: DEFAULT_DIM,
            m: DEFAULT_M,
            n: DEFAULT_N,
            layout: Layout::default(),
            q: None,
            k: None,
            seed: DEFAULT_SEED,
            scaling: scaling.method,
            factor: None,
            orig: scaling.original_context,
            seq: None,
            beta_fast: scaling.beta_fast,
            beta_slow: scaling.beta_slow,
            mscale: scaling.mscale,
            mscale_all_dim: scaling.mscale_all_dim,
            low_freq: scaling.low_freq_factor,
            high_freq: scaling.high_freq_factor,
            short_factor: scaling.short_factor,
            long_factor: scaling.long_factor,
            partial: scaling.partial,
            target: None,
            preset: None,
            scaling_b: None,
            xpos: false,
            scale_base: DEFAULT_SCALE_BASE,
            r: 0,
            plane: 0,
            range: DEFAULT_RANGE,
            log: false,
            compare: None,
            heatmap: HeatmapMode::default(),
            unscaled: false,
            positions: PositionMode::default(),
            p: DEFAULT_P,
            shift: DEFAULT_SHIFT,
            query_patch: DEFAULT_QUERY_PATCH,
            key_patch: DEFAULT_KEY_PATCH,
            format: Format::default(),
            embed: None,
            theme: None,
            lang: None,
            present: false,
            compact: false,
            text: None,
            layer: DEFAULT_LAYER,
            head: DEFAULT_HEAD,
            model: TrainedModel::Stories260k,
            planes_off: 0,
            offset: 0,
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
        let pairs = parse_pairs(query);
        // Read in this order, whatever the order in the URL (the rest as written): a preset
        // first, since the plain parameters beside it are edits of it; the plane last, once d
        // is known, so that a plane d does not have makes one notice in d's terms.
        let turn = |name: &str| match name {
            n if n == param::PRESET.name || n == param::MODEL.name => 0,
            n if n == param::PLANE.name => 2,
            _ => 1,
        };
        for now in 0..3 {
            for (name, raw) in pairs.iter().filter(|(name, _)| turn(name) == now) {
                if let Some(param) = param::named(name) {
                    state.read_into(param, raw.trim(), &mut notes);
                }
            }
        }
        state.normalize_into(&mut notes);
        let notices = state.stamp(notes);
        Parsed { state, notices }
    }

    /// The query string for this state, without the leading `?`: only what differs from the
    /// defaults, in the table's order, so that shared links stay short.
    pub fn to_query(&self) -> String {
        let default = LabState::default();
        format::joined(
            &mut param::ALL.iter().filter_map(|p| {
                let text = (p.text)(self);
                (text != (p.text)(&default)).then(|| format!("{}={}", p.name, encode(&text)))
            }),
            "&",
        )
    }

    /// Applies one typed change with the same validation as the URL; returns the corrections.
    pub fn apply(&mut self, change: Change) -> Vec<Notice> {
        let mut notes = Notes::default();
        self.apply_into(change, &mut notes);
        self.normalize_into(&mut notes);
        self.stamp(notes)
    }

    /// Sets `param` from text a person typed, parsed and validated exactly as the URL is.
    pub fn set_text(&mut self, param: &Param, raw: &str) -> Vec<Notice> {
        let mut notes = Notes::default();
        self.read_into(param, raw.trim(), &mut notes);
        self.normalize_into(&mut notes);
        self.stamp(notes)
    }

    fn read_into(&mut self, param: &Param, raw: &str, notes: &mut Notes) {
        let mut reader = Reader { param: param.name, raw, keeping: (param.text)(self), notes };
        if let Some(change) = (param.parse)(&mut reader) {
            notes.quoting(Some(raw));
            self.apply_into(change, notes);
            notes.quoting(None);
        }
    }

    /// Checks `embed` against the ids of the widgets there are: an unknown id is dropped with a
    /// notice, and the whole page shows.
    pub fn check_embed(&mut self, known: &[&str]) -> Option<Notice> {
        let id = self.embed.take_if(|id| !known.contains(&id.as_str()))?;
        let message = format!(
            "embed '{id}' is not a widget id ({}); showing the whole page",
            format::joined(&mut known.iter().map(|k| k.to_string()), ", ")
        );
        Some(Notice { param: "embed", message, in_effect: String::new() })
    }

    /// The notices `notes` collected, each stamped with its parameter's text in this state (what
    /// [`LabState::still_applies`] compares with later).
    pub fn stamp(&self, notes: Notes) -> Vec<Notice> {
        let mut notices = notes.0;
        for notice in &mut notices {
            notice.in_effect = param::named(notice.param).map(|p| (p.text)(self)).unwrap_or_default();
        }
        notices
    }

    /// Whether `notice` still describes this state: its parameter still has the value it
    /// left in effect.
    pub fn still_applies(&self, notice: &Notice) -> bool {
        param::named(notice.param).is_none_or(|p| (p.text)(self) == notice.in_effect)
    }

    /// Every setting back to its default, keeping how the page is shown: the widget embedded
    /// alone (and compact), the theme, the language and presenter mode.
    pub fn reset(&mut self) {
        *self = LabState {
            embed: self.embed.take(),
            theme: self.theme,
            lang: self.lang,
            present: self.present,
            compact: self.compact,
            ..LabState::default()
        };
    }

    /// The factor in effect: the URL's, or the method's default (8 for llama3 and yarn).
    pub fn effective_factor(&self) -> f64 {
        self.factor.unwrap_or_else(|| self.scaling.default_factor())
    }

    /// The context the scaling aims at: `target`, else `orig` times the factor.
    pub fn target_context(&self) -> u64 {
        self.target.unwrap_or_else(|| {
            let stretched = self.orig as f64 * self.effective_factor();
            if stretched >= u64::MAX as f64 {
                u64::MAX
            } else {
                stretched.round() as u64
            }
        })
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

    /// Method B's parameters (`scaling_b`): A's, the factor the fields show included, with
    /// B's method.
    pub fn scaling_params_b(&self) -> Option<ScalingParams> {
        let method = self.scaling_b?;
        Some(ScalingParams { method, ..self.scaling_params() })
    }

    /// Plain RoPE for this head: no method, and every plane turning under p-RoPE (whose
    /// `partial` says how many planes it keeps; partial rotary's stays). What the frequencies
    /// chapter compares the slowest wavelength with.
    pub fn plain_params(&self) -> ScalingParams {
        let partial = if self.scaling == ScalingMethod::Proportional { 1.0 } else { self.partial };
        ScalingParams { method: ScalingMethod::None, partial, ..ScalingParams::default() }
    }

    /// The head as it was trained, before context extension: the same partial rotary, and for
    /// p-RoPE the same dropped planes, without the factor.
    pub fn unscaled_params(&self) -> ScalingParams {
        let method = if self.scaling == ScalingMethod::Proportional { ScalingMethod::Proportional } else { ScalingMethod::None };
        ScalingParams { method, partial: self.partial, ..ScalingParams::default() }
    }

    /// The trained model's text: the URL's or the field's, else the default story.
    pub fn model_text(&self) -> &str {
        self.text.as_deref().unwrap_or(DEFAULT_MODEL_TEXT)
    }

    /// q as typed in the URL, or drawn from `seed`.
    pub fn query_vector(&self) -> Vec<f64> {
        self.q.clone().unwrap_or_else(|| seeded_vector(self.seed, Stream::Query, self.dim))
    }

    /// k as typed in the URL, or drawn from `seed`.
    pub fn key_vector(&self) -> Vec<f64> {
        self.k.clone().unwrap_or_else(|| seeded_vector(self.seed, Stream::Key, self.dim))
    }
}
