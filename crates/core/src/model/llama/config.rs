//! A llama model's shape and RoPE, read from a GGUF file's metadata (`llama.*`) and checked.

use super::{MAX_DIM, MAX_HEADS, MAX_LAYERS, MAX_PLANES};
use crate::model::gguf::Gguf;
use crate::model::ModelError;

/// A model's shape and RoPE, from the file's metadata (`llama.*`).
#[derive(Debug, Clone, PartialEq)]
pub struct LlamaConfig {
    pub architecture: String,
    pub dim: usize,
    pub hidden_dim: usize,
    pub n_layers: usize,
    pub n_heads: usize,
    pub n_kv_heads: usize,
    pub head_dim: usize,
    /// Dimensions of each head that rotate (`rope.dimension_count`): 2 · planes.
    pub rope_dims: usize,
    pub vocab_size: usize,
    /// The context the model was trained on (`context_length`).
    pub context: usize,
    pub rope_base: f64,
    pub norm_eps: f32,
    /// `rope.scaling.type`, when the file names one other than `none`.
    pub rope_scaling: Option<String>,
}

impl LlamaConfig {
    /// Rotation planes per head.
    pub fn planes(&self) -> usize {
        self.rope_dims / 2
    }

    pub fn kv_dim(&self) -> usize {
        self.n_kv_heads * self.head_dim
    }

    pub fn q_dim(&self) -> usize {
        self.n_heads * self.head_dim
    }

    /// Query heads per key/value head.
    pub fn group(&self) -> usize {
        self.n_heads / self.n_kv_heads
    }

    /// The shape a GGUF file's metadata gives, checked; an architecture other than `llama` is
    /// [`ModelError::Unsupported`].
    pub fn from_gguf(file: &Gguf) -> Result<LlamaConfig, ModelError> {
        let architecture =
            file.get("general.architecture").and_then(|v| v.as_str()).ok_or(ModelError::Missing { what: "general.architecture" })?;
        if architecture != "llama" {
            return Err(ModelError::Unsupported { what: "architecture", name: architecture.to_string() });
        }
        let key = |k: &str| file.get(&format!("llama.{k}"));
        let size = |k: &'static str, max: usize| -> Result<usize, ModelError> {
            let v = key(k).ok_or(ModelError::Missing { what: k })?;
            v.as_usize().filter(|&n| n >= 1 && n <= max).ok_or(ModelError::BadHeader { field: k, value: v.as_f64().unwrap_or(-1.0) as i64 })
        };
        let dim = size("embedding_length", MAX_DIM)?;
        let hidden_dim = size("feed_forward_length", 4 * MAX_DIM)?;
        let n_layers = size("block_count", MAX_LAYERS)?;
        let n_heads = size("attention.head_count", MAX_HEADS)?;
        let n_kv_heads = if key("attention.head_count_kv").is_some() { size("attention.head_count_kv", MAX_HEADS)? } else { n_heads };
        let head_dim = if key("attention.key_length").is_some() { size("attention.key_length", 2 * MAX_PLANES)? } else { dim / n_heads };
        let rope_dims = if key("rope.dimension_count").is_some() { size("rope.dimension_count", 2 * MAX_PLANES)? } else { head_dim };
        let context = size("context_length", 1 << 24)?;
        let bad = |field: &'static str, value: usize| ModelError::BadHeader { field, value: value as i64 };
        if n_heads % n_kv_heads != 0 {
            return Err(bad("attention.head_count_kv", n_kv_heads));
        }
        if head_dim == 0 || head_dim % 2 != 0 || head_dim > 2 * MAX_PLANES {
            return Err(bad("attention.key_length", head_dim));
        }
        if rope_dims % 2 != 0 || rope_dims > head_dim {
            return Err(bad("rope.dimension_count", rope_dims));
        }
        let rope_base = key("rope.freq_base").and_then(|v| v.as_f64()).unwrap_or(10_000.0);
        if !(rope_base.is_finite() && rope_base > 1.0) {
            return Err(bad("rope.freq_base", rope_base as usize));
        }
        let norm_eps = key("attention.layer_norm_rms_epsilon").and_then(|v| v.as_f64()).unwrap_or(1e-5) as f32;
        if !(norm_eps.is_finite() && norm_eps > 0.0) {
            return Err(bad("attention.layer_norm_rms_epsilon", 0));
        }
        let rope_scaling = key("rope.scaling.type").and_then(|v| v.as_str()).filter(|t| *t != "none").map(str::to_string);
        // The vocabulary's size is the embedding's (checked against the tokenizer by the model).
        let vocab_size = file
            .tensor("token_embd.weight")
            .and_then(|t| t.dims.get(1).copied())
            .ok_or(ModelError::MissingTensor("token_embd.weight".into()))?;
        Ok(LlamaConfig {
            architecture: architecture.to_string(),
            dim,
            hidden_dim,
            n_layers,
            n_heads,
            n_kv_heads,
            head_dim,
            rope_dims,
            vocab_size,
            context,
            rope_base,
            norm_eps,
            rope_scaling,
        })
    }
}
