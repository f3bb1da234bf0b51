//! Check your own RoPE (issue 47): a small test input for the settings in effect, the page's
//! own result for it, the reading of what an engineer pastes back ([`parse`]) and the diagnosis
//! of what their implementation does differently ([`diagnose`]). Native, no browser: the
//! chapter (`src/story/verify.rs`) only shows it.

pub mod diagnose;
pub mod parse;

use crate::rope::{frequencies, Layout, RopeParams, Rotary, ScalingMethod, ScalingParams, SplitMix64};
use crate::state::LabState;

/// Why no test input can be made for a state (parameters the core refuses).
#[derive(Debug, Clone, PartialEq)]
pub struct VerifyError(pub String);

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for VerifyError {}

/// The test input: rows `x` of d numbers and the position of each row, with the settings the
/// page rotates them with.
#[derive(Debug, Clone, PartialEq)]
pub struct TestInput {
    pub positions: Vec<i64>,
    pub x: Vec<Vec<f64>>,
    pub dim: usize,
    pub base: f64,
    pub layout: Layout,
    pub scaling: ScalingParams,
}

/// The seed of the rows: fixed, so that a paste stays comparable while settings change.
const SEED: u64 = 0x5eed_2026_0047;

/// The positions of the rows for a model trained on `orig` tokens: 0, 1, a few, a few hundred,
/// a few thousand, and `orig` itself, the first position past the trained context (the one a
/// context extension is for); increasing, each once.
pub fn positions(orig: u64) -> Vec<i64> {
    let mut positions = vec![0, 1, 7, 300, 3000, orig.min(1 << 40) as i64];
    positions.sort_unstable();
    positions.dedup();
    positions
}

/// The test input for `state`'s d, base, layout, context extension and partial rotary.
pub fn test_input(state: &LabState) -> Result<TestInput, VerifyError> {
    let dim = state.dim;
    RopeParams::new(state.base, dim).map_err(|e| VerifyError(e.to_string()))?;
    let positions = positions(state.orig);
    let mut rng = SplitMix64::new(SEED);
    // Uniform in [−1, 1], four decimals: short to print, exact in any paste.
    let x = positions.iter().map(|_| (0..dim).map(|_| ((rng.next_unit() * 2.0 - 1.0) * 1e4).round() / 1e4).collect()).collect();
    Ok(TestInput { positions, x, dim, base: state.base, layout: state.layout, scaling: state.scaling_params() })
}

/// How to rotate: the page's own settings, or one of the mistakes [`diagnose`] tries.
#[derive(Debug, Clone, PartialEq)]
pub struct Rotation {
    pub layout: Layout,
    /// θᵢ per plane (0 for a plane that does not turn) and how many leading dimensions pair.
    pub inv_freq: Vec<f64>,
    pub rotary_dim: usize,
    /// −1: sin with the wrong sign (the rotation the wrong way round).
    pub sign: f64,
    /// cos and sin swapped.
    pub swap: bool,
    /// Added to every position.
    pub shift: i64,
    /// cos and sin multiplied by it (transformers' attention_factor).
    pub amplitude: f64,
    /// Angles computed in this format: position and θᵢ stored in it, their product rounded to it.
    pub angles_in: Option<crate::rope::Format>,
}

impl Rotation {
    /// Its pairing of dimensions and θᵢ, as the page's own rotation code takes them.
    pub fn rotary(&self, layout: Layout) -> Rotary {
        let frequencies = crate::rope::Frequencies { inv_freq: self.inv_freq.clone(), attention_factor: 1.0, rotary_dim: self.rotary_dim };
        Rotary::new(layout, &frequencies)
    }
}

impl TestInput {
    /// The frequencies of `scaling` at `base` for this head.
    pub fn frequencies_with(&self, base: f64, scaling: &ScalingParams) -> Option<crate::rope::Frequencies> {
        RopeParams::new(base, self.dim).ok().and_then(|p| frequencies(p, scaling).ok())
    }

    /// The page's own rotation of these rows.
    pub fn rotation(&self) -> Result<Rotation, VerifyError> {
        let f = self.frequencies_with(self.base, &self.scaling).ok_or_else(|| VerifyError("these settings have no frequencies".into()))?;
        Ok(Rotation {
            layout: self.layout,
            inv_freq: f.inv_freq,
            rotary_dim: f.rotary_dim,
            sign: 1.0,
            swap: false,
            shift: 0,
            amplitude: 1.0,
            angles_in: None,
        })
    }

    /// The page's own result: every row rotated to its position, in f64.
    pub fn expected(&self) -> Result<Vec<Vec<f64>>, VerifyError> {
        Ok(self.apply(&self.rotation()?))
    }

    /// The rows rotated as `rotation` says.
    pub fn apply(&self, rotation: &Rotation) -> Vec<Vec<f64>> {
        let rotary = rotation.rotary(rotation.layout);
        let round = |v: f64| rotation.angles_in.map_or(v, |f| f.round(v));
        self.x
            .iter()
            .zip(&self.positions)
            .map(|(row, position)| {
                let mut out = row.clone();
                let position = round((*position + rotation.shift) as f64);
                for (plane, theta) in rotation.inv_freq.iter().enumerate() {
                    let (a, b) = rotary.plane_dims(plane);
                    let (Some(&xa), Some(&xb)) = (row.get(a), row.get(b)) else { continue };
                    let angle = round(position * round(*theta));
                    let (mut c, mut s) = (angle.cos() * rotation.amplitude, rotation.sign * angle.sin() * rotation.amplitude);
                    if rotation.swap {
                        std::mem::swap(&mut c, &mut s);
                    }
                    out[a] = xa * c - xb * s;
                    out[b] = xa * s + xb * c;
                }
                out
            })
            .collect()
    }

    /// The scaling as transformers' config names it (`rope_scaling`), or nothing for plain RoPE.
    fn rope_scaling_json(&self) -> Option<String> {
        let s = &self.scaling;
        let number = |v: f64| crate::state::fmt_number(v);
        let fields: Vec<String> = match s.method {
            ScalingMethod::None | ScalingMethod::Proportional => return None,
            ScalingMethod::Linear | ScalingMethod::Ntk => vec![format!("\"factor\": {}", number(s.factor))],
            ScalingMethod::Dynamic => {
                vec![format!("\"factor\": {}", number(s.factor)), format!("\"original_max_position_embeddings\": {}", s.original_context)]
            }
            ScalingMethod::Yarn => vec![
                format!("\"factor\": {}", number(s.factor)),
                format!("\"original_max_position_embeddings\": {}", s.original_context),
                format!("\"beta_fast\": {}", number(s.beta_fast)),
                format!("\"beta_slow\": {}", number(s.beta_slow)),
            ],
            ScalingMethod::Llama3 => vec![
                format!("\"factor\": {}", number(s.factor)),
                format!("\"original_max_position_embeddings\": {}", s.original_context),
                format!("\"low_freq_factor\": {}", number(s.low_freq_factor)),
                format!("\"high_freq_factor\": {}", number(s.high_freq_factor)),
            ],
            ScalingMethod::LongRope => {
                vec![format!("\"factor\": {}", number(s.factor)), format!("\"original_max_position_embeddings\": {}", s.original_context)]
            }
        };
        // "ntk" is the page's name for NTK-aware scaling: base × factor^(d/(d−2)).
        Some(format!("{{\"rope_type\": \"{}\", {}}}", s.method.as_str(), fields.join(", ")))
    }

    /// The input as JSON (the contract's `verify-test-input`): positions, x, dim, base, layout,
    /// and the scaling and partial rotary in effect.
    pub fn json(&self) -> String {
        let rows: Vec<String> = self.x.iter().map(|row| format!("[{}]", numbers(row))).collect();
        let mut out = format!(
            "{{\"positions\": [{}], \"x\": [{}], \"dim\": {}, \"base\": {}, \"layout\": \"{}\"",
            self.positions.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", "),
            rows.join(", "),
            self.dim,
            crate::state::fmt_number(self.base),
            self.layout.as_str()
        );
        if let Some(scaling) = self.rope_scaling_json() {
            out.push_str(&format!(", \"rope_scaling\": {scaling}"));
        }
        if self.scaling.partial < 1.0 {
            out.push_str(&format!(", \"partial_rotary_factor\": {}", crate::state::fmt_number(self.scaling.partial)));
        }
        if self.scaling.method == ScalingMethod::Proportional {
            out.push_str(", \"rope_type\": \"proportional\"");
        }
        out.push('}');
        out
    }

    /// A Python snippet: the rows and positions as plain lists, then numpy and torch lines that
    /// build the tensors, call the reader's RoPE and print its result as the page reads it.
    pub fn python(&self) -> String {
        let rows: Vec<String> = self.x.iter().map(|row| format!("    [{}],", numbers(row))).collect();
        let layout = match self.layout {
            Layout::Interleaved => "interleaved: dimensions (2i, 2i+1) form plane i",
            Layout::Half => "rotate_half: dimensions (i, i + d/2) form plane i",
        };
        let mut settings = format!("# RoPE Lab test input: d = {}, base = {}, {layout}", self.dim, crate::state::fmt_number(self.base));
        if let Some(scaling) = self.rope_scaling_json() {
            settings.push_str(&format!("\n# rope_scaling = {scaling}"));
        }
        if self.scaling.partial < 1.0 {
            settings.push_str(&format!("\n# partial_rotary_factor = {}", crate::state::fmt_number(self.scaling.partial)));
        }
        format!(
            "{settings}\n\
             # Rotate each row of x as a query at its position, then paste the printed result.\n\
             positions = [{}]\n\
             x = [\n{}\n]\n\
             \n\
             # numpy:\n\
             # import numpy as np\n\
             # out = your_rope(np.array(x, dtype=np.float32), np.array(positions))\n\
             # print(np.asarray(out).tolist())\n\
             \n\
             # torch:\n\
             # import torch\n\
             # out = your_rope(torch.tensor(x, dtype=torch.float32), torch.tensor(positions))\n\
             # print(out.tolist())\n",
            self.positions.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", "),
            rows.join("\n")
        )
    }
}

/// Numbers as the page prints them in the test input (up to four decimals, exact).
fn numbers(row: &[f64]) -> String {
    row.iter().map(|v| crate::state::fmt_number(*v)).collect::<Vec<_>>().join(", ")
}
