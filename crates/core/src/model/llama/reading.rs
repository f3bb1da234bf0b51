//! What a reading keeps: each position's loss and candidates, each head's mean attention to
//! the previous and the first token, each plane's mean |q| and |k|, the rotated q and the
//! cache of keys and values; and what the views ask of it.

use super::{Hooks, LlamaConfig, TOP};

/// Keys and values of every position read so far, per layer.
#[derive(Debug, Clone, Default)]
pub struct Cache {
    /// `[layer]` → `[position][kv_dim]`, after rotation.
    pub(super) keys: Vec<Vec<f32>>,
    pub(super) values: Vec<Vec<f32>>,
    pub(super) len: usize,
}

/// A reading in progress, or done: what the views need of one text under one set of hooks.
#[derive(Debug, Clone)]
pub struct Reading {
    pub tokens: Vec<u32>,
    pub hooks: Hooks,
    pub(super) keep: bool,
    /// Whether the rotated q of every layer is kept too (the selected head's map and clocks).
    pub(super) keep_q: bool,
    /// The residual stream of the batch between layers; the final norm's output after them.
    pub(super) x: Vec<f32>,
    /// Layers done, of the model's.
    pub layer: usize,
    pub n_layers: usize,
    /// Positions whose logits are done.
    pub(super) logits_done: usize,
    /// `losses[t]`: the loss of token t given those before (0 for the first).
    pub(super) losses: Vec<f32>,
    /// Per position, the candidates for the token after it.
    pub(super) top: Vec<[(u32, f32); TOP]>,
    /// Sums over queries 1.. of each head's attention to the previous and the first token.
    pub(super) prev: Vec<f32>,
    pub(super) first: Vec<f32>,
    /// Sums over positions of |q_p| per head and |k_p| per key/value head.
    pub(super) q_norm: Vec<f32>,
    pub(super) k_norm: Vec<f32>,
    /// `[layer][position][q_dim]`: q after rotation.
    pub(super) q: Vec<f32>,
    pub(super) cache: Cache,
}

impl Reading {
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// What a continuation after this text needs (the tokens, the hooks and the cache), without
    /// what the views keep.
    pub fn for_continuing(&self) -> Reading {
        Reading {
            tokens: self.tokens.clone(),
            hooks: self.hooks,
            keep: false,
            keep_q: false,
            x: Vec::new(),
            layer: self.layer,
            n_layers: self.n_layers,
            logits_done: self.logits_done,
            losses: Vec::new(),
            top: Vec::new(),
            prev: Vec::new(),
            first: Vec::new(),
            q_norm: Vec::new(),
            k_norm: Vec::new(),
            q: Vec::new(),
            cache: self.cache.clone(),
        }
    }

    /// The same reading without the rotated q of every layer: its losses and each head's means
    /// only (a comparison at another offset), 69 KB a token less for SmolLM2.
    pub fn without_q(mut self) -> Reading {
        self.keep_q = false;
        self.q = Vec::new();
        self
    }

    /// Whether every layer and every logit is done.
    pub fn is_done(&self) -> bool {
        self.layer >= self.n_layers && self.logits_done >= self.tokens.len()
    }

    /// Per-token losses, for the tokens whose logits are done (index t: token t; 0 at t = 0).
    pub fn losses(&self) -> &[f32] {
        &self.losses[..(self.logits_done + 1).min(self.losses.len())]
    }

    /// The mean loss of every token after the first (0 for fewer than two tokens).
    pub fn loss(&self) -> f64 {
        let n = self.tokens.len();
        if n < 2 {
            return 0.0;
        }
        self.losses[1..].iter().map(|&l| l as f64).sum::<f64>() / (n - 1) as f64
    }

    /// The candidates for the token after position `t`.
    pub fn top(&self, t: usize) -> Option<&[(u32, f32); TOP]> {
        self.top.get(t)
    }

    fn mean_over_queries(&self, sums: &[f32], at: usize) -> f64 {
        match self.tokens.len() {
            0 | 1 => 0.0,
            n => sums.get(at).map_or(0.0, |&s| s as f64 / (n - 1) as f64),
        }
    }

    /// Head (layer, head)'s mean attention to the previous token over queries 1..T−1.
    pub fn head_prev(&self, c: &LlamaConfig, layer: usize, head: usize) -> f64 {
        self.mean_over_queries(&self.prev, layer * c.n_heads + head)
    }

    /// Head (layer, head)'s mean attention to the first token over queries 1..T−1.
    pub fn head_first(&self, c: &LlamaConfig, layer: usize, head: usize) -> f64 {
        self.mean_over_queries(&self.first, layer * c.n_heads + head)
    }

    /// Each plane's share of head (layer, head)'s mean |q_p| · mean |k_p| (summing to 1).
    pub fn plane_share(&self, c: &LlamaConfig, layer: usize, head: usize) -> Vec<f64> {
        let planes = c.planes();
        let kv = head / c.group();
        let q = self.q_norm.get((layer * c.n_heads + head) * planes..).unwrap_or(&[]);
        let k = self.k_norm.get((layer * c.n_kv_heads + kv) * planes..).unwrap_or(&[]);
        let products: Vec<f64> = q.iter().zip(k).take(planes).map(|(&q, &k)| q as f64 * k as f64).collect();
        let total: f64 = products.iter().sum();
        products.iter().map(|p| if total > 0.0 { p / total } else { 0.0 }).collect()
    }

    /// Head (layer, head)'s rotated q at position t.
    pub fn q(&self, c: &LlamaConfig, layer: usize, head: usize, t: usize) -> &[f32] {
        let at = (layer * self.tokens.len() + t) * c.q_dim() + head * c.head_dim;
        self.q.get(at..at + c.head_dim).unwrap_or(&[])
    }

    /// Key/value head `kv`'s rotated k at position t.
    pub fn k(&self, c: &LlamaConfig, layer: usize, kv: usize, t: usize) -> &[f32] {
        let at = t * c.kv_dim() + kv * c.head_dim;
        self.cache.keys.get(layer).and_then(|k| k.get(at..at + c.head_dim)).unwrap_or(&[])
    }

    /// Head (layer, head)'s causal attention: row t holds the weights of keys 0..=t,
    /// recomputed from the kept q and k as the forward pass computed it.
    pub fn attention(&self, c: &LlamaConfig, layer: usize, head: usize) -> Vec<Vec<f32>> {
        let n = self.tokens.len();
        let scale = 1.0 / (c.head_dim as f32).sqrt();
        (0..n)
            .map(|t| {
                let q = self.q(c, layer, head, t);
                let mut row: Vec<f32> = (0..=t).map(|s| rope_lab_kernels::dot(q, self.k(c, layer, head / c.group(), s)) * scale).collect();
                rope_lab_kernels::softmax(&mut row);
                row
            })
            .collect()
    }
}
