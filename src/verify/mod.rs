//! Check your own RoPE (issue 47), the core: a small test input for the settings in effect
//! ([`test_input`]), the page's own rotated result for it ([`TestInput::expected`]), the reading
//! of what an engineer pastes back ([`parse::read_paste`]) and the naming of the mistake that
//! explains it ([`diagnose::diagnose`]). Plain Rust, no browser: a chapter only shows it.

pub mod diagnose;
mod fit;
mod hypotheses;
mod measure;
pub mod parse;
mod rotation;
mod words;

pub use rotation::{AngleFormat, Rotation};

use crate::rope::{frequencies, Layout, RopeError, RopeParams, Rotary, ScalingMethod, ScalingParams, SplitMix64, VectorName, MAX_POSITION};
use crate::state::{fmt_number, LabState};

/// Why no test input (or no expected result) can be made.
#[derive(Debug, Clone, PartialEq)]
pub enum VerifyError {
    /// The core refuses the state's d, base or scaling parameters.
    Rope(RopeError),
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VerifyError::Rope(e) => write!(f, "no test input for these settings: {e}"),
        }
    }
}

impl std::error::Error for VerifyError {}

impl From<RopeError> for VerifyError {
    fn from(e: RopeError) -> Self {
        VerifyError::Rope(e)
    }
}

/// The test input for a state: T rows `x` of d numbers, the position of each row, and the
/// settings the page rotates them with.
#[derive(Debug, Clone, PartialEq)]
pub struct TestInput {
    pub positions: Vec<i64>,
    pub x: Vec<Vec<f64>>,
    pub dim: usize,
    pub base: f64,
    pub layout: Layout,
    /// The state's [`LabState::scaling_params`] (method, factor, partial rotary...).
    pub scaling: ScalingParams,
}

/// The seed of the rows: fixed, so that the same d gives the same rows whatever else changes.
const SEED: u64 = 0x0047_c0de_5eed_0047;

/// The rows' positions: 0, 1, a few, a few hundred, a few thousand, and a last one: `orig`
/// (the first position past the trained context) when a context-extension method is chosen,
/// else 10,001. The two largest are odd, so neither bf16 (8 significant bits) nor fp16 (11)
/// stores them exactly, and angles computed in either show. Increasing, each once.
pub fn positions(method: ScalingMethod, orig: u64) -> Vec<i64> {
    let last = if method == ScalingMethod::None { 10_001 } else { orig.min(MAX_POSITION as u64) as i64 };
    let mut positions = vec![0, 1, 7, 300, 3001, last];
    positions.sort_unstable();
    positions.dedup();
    if positions.len() < 6 {
        // `orig` fell on one of the others: one more small position instead.
        positions.push(42);
        positions.sort_unstable();
    }
    positions
}

/// The test input for `state`: its d, base, layout and scaling (partial rotary included).
pub fn test_input(state: &LabState) -> Result<TestInput, VerifyError> {
    let params = RopeParams::new(state.base, state.dim)?;
    let scaling = state.scaling_params();
    // The settings must be ones the core can rotate with.
    frequencies(params, &scaling)?;
    let positions = positions(state.scaling, state.orig);
    let mut rng = SplitMix64::new(SEED ^ state.dim as u64);
    let x = positions
        .iter()
        .map(|_| {
            (0..state.dim)
                .map(|_| {
                    // Uniform in [−1, 1] to four decimals (+ 0.0 turns −0 into 0): short and exact in print.
                    ((rng.next_unit() * 2.0 - 1.0) * 1e4).round() / 1e4 + 0.0
                })
                .collect()
        })
        .collect();
    Ok(TestInput { positions, x, dim: state.dim, base: state.base, layout: state.layout, scaling })
}

/// A number as JSON and Python both read it: integers with a ".0" where a float is meant.
fn float(v: f64) -> String {
    let text = fmt_number(v);
    if text.contains(['.', 'e', 'E']) || !v.is_finite() {
        text
    } else {
        format!("{text}.0")
    }
}

fn row_text(row: &[f64]) -> String {
    format!("[{}]", row.iter().map(|v| fmt_number(*v)).collect::<Vec<_>>().join(", "))
}

impl TestInput {
    /// The rows T.
    pub fn rows(&self) -> usize {
        self.x.len()
    }

    /// The rotation the page applies: the state's layout and frequencies.
    pub fn rotation(&self) -> Result<Rotation, VerifyError> {
        let params = RopeParams::new(self.base, self.dim)?;
        let f = frequencies(params, &self.scaling)?;
        Ok(Rotation::new(self.layout, f.inv_freq, f.rotary_dim, f.attention_factor))
    }

    /// The attention factor the page multiplies cos and sin by (YaRN, LongRoPE), 1 otherwise.
    pub fn attention_factor(&self) -> f64 {
        self.rotation().map_or(1.0, |r| r.amplitude)
    }

    /// The `rope_scaling` fields in effect as transformers names them, `None` for plain RoPE.
    fn scaling_fields(&self) -> Option<Vec<(&'static str, String)>> {
        let s = &self.scaling;
        let list = |v: &Option<Vec<f64>>| v.as_ref().map(|v| format!("[{}]", v.iter().map(|x| float(*x)).collect::<Vec<_>>().join(", ")));
        let mut fields = vec![("rope_type", format!("\"{}\"", s.method.as_str())), ("factor", float(s.factor))];
        match s.method {
            ScalingMethod::None => return None,
            ScalingMethod::Linear | ScalingMethod::Ntk | ScalingMethod::Proportional => {}
            ScalingMethod::Dynamic => fields.push(("original_max_position_embeddings", s.original_context.to_string())),
            ScalingMethod::Yarn => {
                fields.push(("original_max_position_embeddings", s.original_context.to_string()));
                fields.push(("beta_fast", float(s.beta_fast)));
                fields.push(("beta_slow", float(s.beta_slow)));
                if let Some(m) = s.mscale {
                    fields.push(("mscale", float(m)));
                }
                if let Some(m) = s.mscale_all_dim {
                    fields.push(("mscale_all_dim", float(m)));
                }
            }
            ScalingMethod::Llama3 => {
                fields.push(("original_max_position_embeddings", s.original_context.to_string()));
                fields.push(("low_freq_factor", float(s.low_freq_factor)));
                fields.push(("high_freq_factor", float(s.high_freq_factor)));
            }
            ScalingMethod::LongRope => {
                fields.push(("original_max_position_embeddings", s.original_context.to_string()));
                if let Some(v) = list(&s.short_factor) {
                    fields.push(("short_factor", v));
                }
                if let Some(v) = list(&s.long_factor) {
                    fields.push(("long_factor", v));
                }
            }
        }
        Some(fields)
    }

    /// The contract's `verify-test-input` value: `{"positions": [...], "x": [[...], ...], "dim":
    /// d, "base": b, "layout": "interleaved"|"half"}`, then `"rope_scaling": {...}` (transformers'
    /// names; "ntk" is the fixed NTK-aware base change) when a method is chosen, `"seq_len"` for the
    /// methods that read it (dynamic, longrope), `"partial_rotary_factor"` when below 1, and
    /// `"attention_factor"` when cos and sin are scaled (YaRN, LongRoPE).
    pub fn json(&self) -> String {
        let positions = self.positions.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ");
        let rows = self.x.iter().map(|r| row_text(r)).collect::<Vec<_>>().join(", ");
        let mut out = format!(
            "{{\"positions\": [{positions}], \"x\": [{rows}], \"dim\": {}, \"base\": {}, \"layout\": \"{}\"",
            self.dim,
            float(self.base),
            self.layout.as_str()
        );
        if let Some(fields) = self.scaling_fields() {
            let inner = fields.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect::<Vec<_>>().join(", ");
            out += &format!(", \"rope_scaling\": {{{inner}}}");
            if matches!(self.scaling.method, ScalingMethod::Dynamic | ScalingMethod::LongRope) {
                out += &format!(", \"seq_len\": {}", self.scaling.seq_len);
            }
        }
        if self.scaling.partial < 1.0 {
            out += &format!(", \"partial_rotary_factor\": {}", float(self.scaling.partial));
        }
        let attention = self.attention_factor();
        if attention != 1.0 && attention.is_finite() {
            out += &format!(", \"attention_factor\": {}", float(attention));
        }
        out + "}"
    }

    /// A Python snippet: the rows and positions as plain lists, the settings as comments, and
    /// commented numpy and torch lines that call `your_rope(x, positions)` (the engineer's own
    /// function) and print the result as it can be pasted back.
    pub fn python(&self) -> String {
        let rows = self.x.iter().map(|r| format!("    {},", row_text(r))).collect::<Vec<_>>().join("\n");
        let positions = self.positions.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ");
        let mut settings = format!("# d = {}, base (rope_theta) = {}, layout = {}", self.dim, float(self.base), self.layout.as_str());
        if let Some(fields) = self.scaling_fields() {
            let inner = fields.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect::<Vec<_>>().join(", ");
            settings += &format!("\n# rope_scaling = {{{inner}}}");
            if matches!(self.scaling.method, ScalingMethod::Dynamic | ScalingMethod::LongRope) {
                settings += &format!(", seq_len = {}", self.scaling.seq_len);
            }
        }
        if self.scaling.partial < 1.0 {
            settings += &format!("\n# partial_rotary_factor = {}", float(self.scaling.partial));
        }
        let attention = self.attention_factor();
        if attention != 1.0 && attention.is_finite() {
            settings += &format!("\n# attention_factor = {} (cos and sin are multiplied by it)", float(attention));
        }
        format!(
            "# RoPE Lab: check your own RoPE on this input\n{settings}\n\
             # x: {t} rows of d = {d} numbers, one per position; rotate each row at its position.\n\
             x = [\n{rows}\n]\n\
             positions = [{positions}]\n\n\
             # numpy:\n\
             # import numpy as np\n\
             # out = your_rope(np.array(x, dtype=np.float32), np.array(positions))\n\
             # print(out.tolist())\n\n\
             # torch (shape [T, d]; add batch and head axes of size 1 if your function wants them):\n\
             # import torch\n\
             # out = your_rope(torch.tensor(x, dtype=torch.float32), torch.tensor(positions))\n\
             # print(out.tolist())\n\n\
             # Paste what it prints ({t} rows of {d} numbers) into the box.\n",
            t = self.rows(),
            d = self.dim,
        )
    }

    /// The page's own rotated result (T × d), in f64: the state's frequencies from
    /// [`crate::rope::frequencies`], each plane turned by position × θᵢ as
    /// [`crate::rope::Rotary`] pairs them, the rotating dimensions times the attention factor
    /// (transformers' cos and sin carry it; dimensions partial rotary passes through do not).
    pub fn expected(&self) -> Result<Vec<Vec<f64>>, VerifyError> {
        let params = RopeParams::new(self.base, self.dim)?;
        let f = frequencies(params, &self.scaling)?;
        let rotary = Rotary::new(self.layout, &f);
        // transformers multiplies cos and sin by the attention factor: the rotating dimensions
        // scale, the ones partial rotary passes through do not.
        let rotating: Vec<usize> = (0..f.rotary_dim / 2).flat_map(|plane| <[usize; 2]>::from(rotary.plane_dims(plane))).collect();
        self.x
            .iter()
            .zip(&self.positions)
            .map(|(row, p)| {
                let mut out = rotary.rotate(VectorName::Query, row, *p)?;
                for &dim in &rotating {
                    if let Some(v) = out.get_mut(dim) {
                        *v *= f.attention_factor;
                    }
                }
                Ok(out)
            })
            .collect()
    }
}
