//! Real models' RoPE settings. Each is its published `config.json` (the fields about RoPE, as
//! Hugging Face hosts them; `presets/SOURCES.md` says where each was read), kept in
//! `presets/<id>.json`, and the changes the config reader ([`super::config::read_config`])
//! makes of it, written out here: loading a preset then needs no JSON reader in the page's
//! frame (issue 9: the reader and the configs were 7 KB of a first visit, and only a pasted
//! config needs them). A test reads every config with the same reader a paste goes through
//! and checks that it gives exactly these changes, so a preset and a paste of the same config
//! agree.

use super::change::Change;
use crate::rope::{Layout, ScalingMethod};

/// One model.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    /// Its id in the URL (`preset=`); the contract fixes the first eight.
    pub id: &'static str,
    /// Its name for people.
    pub name: &'static str,
    /// The Hugging Face repository whose config.json this is.
    pub source: &'static str,
    /// What the config reader makes of the whole config, in order (the model's parameters
    /// start from the defaults).
    pub changes: fn() -> Vec<Change>,
}

impl Preset {
    /// The published config.json (`presets/<id>.json`), for the tests that read it.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn published_config(&self) -> &'static str {
        match self.id {
            "llama-2-7b" => include_str!("presets/llama-2-7b.json"),
            "llama-3.1-8b" => include_str!("presets/llama-3.1-8b.json"),
            "mistral-7b-v0.1" => include_str!("presets/mistral-7b-v0.1.json"),
            "qwen2.5-7b" => include_str!("presets/qwen2.5-7b.json"),
            "gemma-2-9b" => include_str!("presets/gemma-2-9b.json"),
            "gpt-neox-20b" => include_str!("presets/gpt-neox-20b.json"),
            "phi-3-mini-128k" => include_str!("presets/phi-3-mini-128k.json"),
            "deepseek-v3" => include_str!("presets/deepseek-v3.json"),
            _ => "",
        }
    }
}

pub static PRESETS: [Preset; 8] = [
    Preset { id: "llama-2-7b", name: "Llama 2 7B", source: "meta-llama/Llama-2-7b-hf", changes: llama_2_7b },
    Preset { id: "llama-3.1-8b", name: "Llama 3.1 8B", source: "meta-llama/Llama-3.1-8B", changes: llama_3_1_8b },
    Preset { id: "mistral-7b-v0.1", name: "Mistral 7B v0.1", source: "mistralai/Mistral-7B-v0.1", changes: mistral_7b_v0_1 },
    Preset { id: "qwen2.5-7b", name: "Qwen2.5 7B", source: "Qwen/Qwen2.5-7B", changes: qwen2_5_7b },
    Preset { id: "gemma-2-9b", name: "Gemma 2 9B", source: "google/gemma-2-9b", changes: gemma_2_9b },
    Preset { id: "gpt-neox-20b", name: "GPT-NeoX 20B", source: "EleutherAI/gpt-neox-20b", changes: gpt_neox_20b },
    Preset { id: "phi-3-mini-128k", name: "Phi-3 mini 128K", source: "microsoft/Phi-3-mini-128k-instruct", changes: phi_3_mini_128k },
    Preset { id: "deepseek-v3", name: "DeepSeek-V3", source: "deepseek-ai/DeepSeek-V3", changes: deepseek_v3 },
];

/// The preset called `id`.
pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

fn llama_2_7b() -> Vec<Change> {
    vec![
        Change::Dim(128),
        Change::Layout(Layout::Half),
        Change::Scaling(ScalingMethod::None),
        Change::Orig(4096),
        Change::Target(Some(4096)),
        Change::Factor(None),
    ]
}

fn llama_3_1_8b() -> Vec<Change> {
    vec![
        Change::Base(500000.0),
        Change::Dim(128),
        Change::Layout(Layout::Half),
        Change::LowFreq(1.0),
        Change::HighFreq(4.0),
        Change::Scaling(ScalingMethod::Llama3),
        Change::Orig(8192),
        Change::Target(Some(131072)),
        Change::Factor(Some(8.0)),
    ]
}

fn mistral_7b_v0_1() -> Vec<Change> {
    vec![
        Change::Base(10000.0),
        Change::Dim(128),
        Change::Layout(Layout::Half),
        Change::Scaling(ScalingMethod::None),
        Change::Orig(32768),
        Change::Target(Some(32768)),
        Change::Factor(None),
    ]
}

fn qwen2_5_7b() -> Vec<Change> {
    vec![
        Change::Base(1000000.0),
        Change::Dim(128),
        Change::Layout(Layout::Half),
        Change::Scaling(ScalingMethod::None),
        Change::Orig(131072),
        Change::Target(Some(131072)),
        Change::Factor(None),
    ]
}

fn gemma_2_9b() -> Vec<Change> {
    vec![
        Change::Base(10000.0),
        Change::Dim(256),
        Change::Layout(Layout::Half),
        Change::Scaling(ScalingMethod::None),
        Change::Orig(8192),
        Change::Target(Some(8192)),
        Change::Factor(None),
    ]
}

fn gpt_neox_20b() -> Vec<Change> {
    vec![
        Change::Base(10000.0),
        Change::Partial(0.25),
        Change::Dim(96),
        Change::Layout(Layout::Half),
        Change::Scaling(ScalingMethod::None),
        Change::Orig(2048),
        Change::Target(Some(2048)),
        Change::Factor(None),
    ]
}

/// Phi-3's long factors: float32 values (the config writes them widened to 17 digits, and
/// `f64::from` gives those back exactly), kept as f32: a first visit carries half the bytes that
/// the doubles as code took.
#[rustfmt::skip]
const PHI_3_LONG: [f32; 48] = [
    1.07, 1.12, 1.15, 1.42, 1.5699999, 1.8, 2.1299999, 2.1299999,
    3.01, 5.9100003, 6.9500003, 9.070001, 9.93, 10.71, 11.13, 14.61,
    15.409999, 19.81, 37.28, 38.28, 38.6, 40.120003, 46.200005, 50.940006,
    53.660007, 54.93739, 56.89739, 57.287388, 59.987385, 60.867386, 60.887386, 61.717392,
    62.917393, 62.957394, 63.417393, 63.817394, 63.837395, 63.897396, 63.937397, 64.0674,
    64.11435, 64.12435, 64.15435, 64.19435, 64.244354, 64.574356, 64.69, 64.76,
];

/// Phi-3's short factors, as the published config lists them.
#[rustfmt::skip]
const PHI_3_SHORT: [f64; 48] = [
    1.1, 1.1, 1.1, 1.3000000000000003, 1.3500000000000003, 1.3500000000000003,
    1.4000000000000004, 1.5500000000000005, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007,
    2.0500000000000007, 2.1000000000000005, 2.1000000000000005, 2.1500000000000004, 2.25, 2.25,
    2.25, 2.25, 2.25, 2.3999999999999995, 2.4499999999999993, 2.499999999999999,
    2.6999999999999984, 2.6999999999999984, 2.7499999999999982, 2.799999999999998, 2.8999999999999977, 3.049999999999997,
];

fn phi_3_mini_128k() -> Vec<Change> {
    vec![
        Change::Base(10000.0),
        Change::Dim(96),
        Change::Layout(Layout::Half),
        Change::Scaling(ScalingMethod::LongRope),
        Change::Orig(4096),
        Change::Target(Some(131072)),
        Change::Factor(Some(32.0)),
        Change::LongFactor(Some(PHI_3_LONG.iter().map(|&f| f64::from(f)).collect())),
        Change::ShortFactor(Some(PHI_3_SHORT.to_vec())),
    ]
}

fn deepseek_v3() -> Vec<Change> {
    vec![
        Change::Base(10000.0),
        Change::Dim(64),
        Change::Layout(Layout::Interleaved),
        Change::BetaFast(32.0),
        Change::BetaSlow(1.0),
        Change::Mscale(Some(1.0)),
        Change::MscaleAllDim(Some(1.0)),
        Change::Scaling(ScalingMethod::Yarn),
        Change::Orig(4096),
        Change::Target(Some(163840)),
        Change::Factor(Some(40.0)),
    ]
}
