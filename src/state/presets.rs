//! Real models' RoPE settings, each its published `config.json` (the fields about RoPE, as
//! Hugging Face hosts them; `presets/SOURCES.md` says where each was read), read by the same
//! reader as a pasted config ([`super::config::read_config`]), so a preset and a paste of the
//! same config agree.

/// One model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    /// Its id in the URL (`preset=`); the contract fixes the first eight.
    pub id: &'static str,
    /// Its name for people.
    pub name: &'static str,
    /// The Hugging Face repository whose config.json this is.
    pub source: &'static str,
    /// The config's RoPE fields, as JSON.
    pub config: &'static str,
}

macro_rules! preset {
    ($id:literal, $name:literal, $source:literal) => {
        Preset { id: $id, name: $name, source: $source, config: include_str!(concat!("presets/", $id, ".json")) }
    };
}

pub static PRESETS: [Preset; 8] = [
    preset!("llama-2-7b", "Llama 2 7B", "meta-llama/Llama-2-7b-hf"),
    preset!("llama-3.1-8b", "Llama 3.1 8B", "meta-llama/Llama-3.1-8B"),
    preset!("mistral-7b-v0.1", "Mistral 7B v0.1", "mistralai/Mistral-7B-v0.1"),
    preset!("qwen2.5-7b", "Qwen2.5 7B", "Qwen/Qwen2.5-7B"),
    preset!("gemma-2-9b", "Gemma 2 9B", "google/gemma-2-9b"),
    preset!("gpt-neox-20b", "GPT-NeoX 20B", "EleutherAI/gpt-neox-20b"),
    preset!("phi-3-mini-128k", "Phi-3 mini 128K", "microsoft/Phi-3-mini-128k-instruct"),
    preset!("deepseek-v3", "DeepSeek-V3", "deepseek-ai/DeepSeek-V3"),
];

/// The preset called `id`.
pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}
