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

// The factors as the published config lists them, several to a line.
#[rustfmt::skip]
fn phi_3_mini_128k() -> Vec<Change> {
    vec![
        Change::Base(10000.0),
        Change::Dim(96),
        Change::Layout(Layout::Half),
        Change::Scaling(ScalingMethod::LongRope),
        Change::Orig(4096),
        Change::Target(Some(131072)),
        Change::Factor(Some(32.0)),
        Change::LongFactor(Some(vec![
            1.0700000524520874, 1.1200000047683716, 1.149999976158142, 1.4199999570846558,
            1.5699999332427979, 1.7999999523162842, 2.129999876022339, 2.129999876022339, 3.009999990463257,
            5.910000324249268, 6.950000286102295, 9.070000648498535, 9.930000305175781, 10.710000038146973,
            11.130000114440918, 14.609999656677246, 15.409998893737793, 19.809999465942383,
            37.279998779296875, 38.279998779296875, 38.599998474121094, 40.12000274658203,
            46.20000457763672, 50.940006256103516, 53.66000747680664, 54.9373893737793, 56.89738845825195,
            57.28738784790039, 59.98738479614258, 60.86738586425781, 60.887386322021484, 61.71739196777344,
            62.91739273071289, 62.957393646240234, 63.41739273071289, 63.8173942565918, 63.83739471435547,
            63.897396087646484, 63.93739700317383, 64.06739807128906, 64.11434936523438, 64.12435150146484,
            64.15435028076172, 64.19435119628906, 64.24435424804688, 64.57435607910156, 64.69000244140625,
            64.76000213623047
        ])),
        Change::ShortFactor(Some(vec![
            1.1, 1.1, 1.1, 1.3000000000000003, 1.3500000000000003, 1.3500000000000003, 1.4000000000000004,
            1.5500000000000005, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
            2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
            2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
            2.000000000000001, 2.000000000000001, 2.000000000000001, 2.0500000000000007, 2.0500000000000007,
            2.0500000000000007, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007,
            2.1000000000000005, 2.1000000000000005, 2.1500000000000004, 2.25, 2.25, 2.25, 2.25, 2.25,
            2.3999999999999995, 2.4499999999999993, 2.499999999999999, 2.6999999999999984,
            2.6999999999999984, 2.7499999999999982, 2.799999999999998, 2.8999999999999977, 3.049999999999997
        ])),
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
