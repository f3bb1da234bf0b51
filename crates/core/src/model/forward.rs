//! The forward pass of llama2.c's `run.c` (`forward`), one token at a time with a key/value
//! cache, in f32 as the model was run there, with two hooks for the page: planes left unrotated
//! in every layer and head ([`Rope::off`]), and every position shifted ([`Rope::offset`]).
//!
//! RoPE here is Meta's Llama 2 and RoFormer's interleaved layout: dimensions (2i, 2i + 1) of
//! each head form plane i, turned by position · θᵢ with θᵢ = 10000^(−2i/head_size)
//! ([`crate::rope::default_inv_freq`]). The angle is computed in f64 and only its cosine and
//! sine are rounded to f32, so that a position of a million keeps its angle to f32's precision
//! (`run.c` multiplies in f32, which at such positions would be off by a hundredth of a radian).

use super::checkpoint::{Config, Weights};
use super::hooks::Rope;
use super::reading::{cross_entropy, Reading};
use super::tokenizer::Tokenizer;
use super::ModelError;

/// RoPE's base in llama2.c's `run.c` (and Llama 2).
pub const ROPE_BASE: f64 = 10_000.0;
/// RMSNorm's epsilon in `run.c`.
const NORM_EPS: f32 = 1e-5;

/// A loaded model and its tokenizer.
#[derive(Debug, Clone)]
pub struct Model {
    pub weights: Weights,
    pub tokenizer: Tokenizer,
    /// θᵢ per plane, from the rotation's core.
    inv_freq: Vec<f64>,
}

/// The key/value cache of one text and the scratch space of a step.
#[derive(Debug, Clone)]
pub struct Session {
    rope: Rope,
    /// `[layer][position][kv_dim]`, for `capacity` positions.
    key_cache: Vec<f32>,
    value_cache: Vec<f32>,
    capacity: usize,
    /// Tokens fed so far.
    len: usize,
    last: u32,
    x: Vec<f32>,
    xb: Vec<f32>,
    xb2: Vec<f32>,
    hb: Vec<f32>,
    hb2: Vec<f32>,
    q: Vec<f32>,
    k: Vec<f32>,
    v: Vec<f32>,
    att: Vec<f32>,
    logits: Vec<f32>,
}

impl Session {
    /// Tokens fed so far.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether another token fits in the cache.
    pub fn is_full(&self) -> bool {
        self.len >= self.capacity
    }

    /// The last token fed (BOS before any).
    pub fn last(&self) -> u32 {
        self.last
    }

    /// The logits after the last token fed.
    pub fn logits(&self) -> &[f32] {
        &self.logits
    }
}

impl Model {
    /// The model from llama2.c's two files.
    pub fn from_llama2c(checkpoint: &[u8], tokenizer: &[u8]) -> Result<Model, ModelError> {
        let weights = Weights::from_llama2c(checkpoint)?;
        let tokenizer = Tokenizer::from_llama2c(tokenizer, weights.config.vocab_size)?;
        Ok(Model::new(weights, tokenizer))
    }

    /// The model from the page's packed file.
    pub fn from_packed(bytes: &[u8]) -> Result<Model, ModelError> {
        let (weights, tokenizer) = Weights::from_packed(bytes)?;
        let tokenizer = Tokenizer::from_llama2c(&tokenizer, weights.config.vocab_size)?;
        Ok(Model::new(weights, tokenizer))
    }

    fn new(weights: Weights, tokenizer: Tokenizer) -> Model {
        let c = weights.config;
        let inv_freq = crate::rope::default_inv_freq(ROPE_BASE.ln(), c.head_size(), c.planes());
        Model { weights, tokenizer, inv_freq }
    }

    pub fn config(&self) -> &Config {
        &self.weights.config
    }

    /// θᵢ of each plane, radians per token.
    pub fn inv_freq(&self) -> &[f64] {
        &self.inv_freq
    }

    /// An empty cache for up to `capacity` tokens (at most the model's `seq_len`).
    pub fn session(&self, rope: Rope, capacity: usize) -> Session {
        let c = &self.weights.config;
        let capacity = capacity.clamp(1, c.seq_len);
        let cache = c.n_layers * capacity * c.kv_dim();
        Session {
            rope,
            key_cache: vec![0.0; cache],
            value_cache: vec![0.0; cache],
            capacity,
            len: 0,
            last: super::BOS,
            x: vec![0.0; c.dim],
            xb: vec![0.0; c.dim],
            xb2: vec![0.0; c.dim],
            hb: vec![0.0; c.hidden_dim],
            hb2: vec![0.0; c.hidden_dim],
            q: vec![0.0; c.dim],
            k: vec![0.0; c.kv_dim()],
            v: vec![0.0; c.kv_dim()],
            att: vec![0.0; capacity],
            logits: vec![0.0; c.vocab_size],
        }
    }

    /// The cosine and sine of each plane's angle at `position`, shifted by the offset; (1, 0)
    /// for a plane switched off.
    fn rotation(&self, rope: Rope, position: usize) -> Vec<(f32, f32)> {
        let absolute = rope.offset as f64 + position as f64;
        self.inv_freq
            .iter()
            .enumerate()
            .map(|(plane, theta)| {
                if rope.turns(plane) {
                    let angle = absolute * theta;
                    (angle.cos() as f32, angle.sin() as f32)
                } else {
                    (1.0, 0.0)
                }
            })
            .collect()
    }

    /// Feeds one token at the session's next position and returns the logits for the token
    /// after it; `record` keeps what the chapter shows of this position. A full cache, or an id
    /// past the vocabulary, changes nothing and returns the last logits.
    pub fn feed<'s>(&self, s: &'s mut Session, token: u32, mut record: Option<&mut Reading>) -> &'s [f32] {
        let w = &self.weights;
        let c = &w.config;
        if s.is_full() || token as usize >= c.vocab_size {
            return &s.logits;
        }
        let (dim, hs, kv_dim, hidden) = (c.dim, c.head_size(), c.kv_dim(), c.hidden_dim);
        let group = c.n_heads / c.n_kv_heads;
        let pos = s.len;
        let rotation = self.rotation(s.rope, pos);
        let scale = 1.0 / (hs as f32).sqrt();
        s.x.copy_from_slice(&w.token_embedding[token as usize * dim..][..dim]);
        for l in 0..c.n_layers {
            rmsnorm(&mut s.xb, &s.x, &w.rms_att[l * dim..][..dim]);
            matvec(&mut s.q, &w.wq[l * dim * dim..][..dim * dim], &s.xb);
            matvec(&mut s.k, &w.wk[l * kv_dim * dim..][..kv_dim * dim], &s.xb);
            matvec(&mut s.v, &w.wv[l * kv_dim * dim..][..kv_dim * dim], &s.xb);
            // RoPE: plane i of every head is the pair (2i, 2i + 1) of that head's dimensions.
            rotate(&mut s.q, hs, &rotation);
            rotate(&mut s.k, hs, &rotation);
            let cache_at = (l * s.capacity + pos) * kv_dim;
            s.key_cache[cache_at..][..kv_dim].copy_from_slice(&s.k);
            s.value_cache[cache_at..][..kv_dim].copy_from_slice(&s.v);
            if let Some(r) = record.as_deref_mut() {
                r.keep_qk(l, pos, &s.q, &s.k);
            }
            let keys = &s.key_cache[l * s.capacity * kv_dim..][..(pos + 1) * kv_dim];
            let values = &s.value_cache[l * s.capacity * kv_dim..][..(pos + 1) * kv_dim];
            for h in 0..c.n_heads {
                let q = &s.q[h * hs..][..hs];
                let kv = (h / group) * hs;
                let att = &mut s.att[..=pos];
                let out = &mut s.xb[h * hs..][..hs];
                rope_lab_kernels::attend_scalar(q, keys, values, kv_dim, kv, scale, att, out);
                if let Some(r) = record.as_deref_mut() {
                    r.keep_attention(l, h, pos, att);
                }
            }
            matvec(&mut s.xb2, &w.wo[l * dim * dim..][..dim * dim], &s.xb);
            s.x.iter_mut().zip(&s.xb2).for_each(|(x, d)| *x += d);
            // SwiGLU: w2 · (silu(w1 x) * w3 x).
            rmsnorm(&mut s.xb, &s.x, &w.rms_ffn[l * dim..][..dim]);
            matvec(&mut s.hb, &w.w1[l * hidden * dim..][..hidden * dim], &s.xb);
            matvec(&mut s.hb2, &w.w3[l * hidden * dim..][..hidden * dim], &s.xb);
            rope_lab_kernels::silu_times(&mut s.hb, &s.hb2);
            matvec(&mut s.xb, &w.w2[l * dim * hidden..][..dim * hidden], &s.hb);
            s.x.iter_mut().zip(&s.xb).for_each(|(x, d)| *x += d);
        }
        let x = std::mem::take(&mut s.x);
        rmsnorm(&mut s.xb, &x, &w.rms_final);
        s.x = x;
        matvec(&mut s.logits, &w.token_embedding, &s.xb);
        s.len += 1;
        s.last = token;
        &s.logits
    }

    /// Reads `tokens` (BOS first) and keeps everything the chapter shows: logits at every
    /// position, every head's attention, the rotated q and k. The session it returns holds the
    /// text's cache, to continue from.
    pub fn read(&self, tokens: &[u32], rope: Rope) -> (Reading, Session) {
        let c = self.weights.config;
        let tokens = &tokens[..tokens.len().min(c.seq_len)];
        let mut session = self.session(rope, c.seq_len);
        let mut reading = Reading::new(c, tokens.to_vec(), rope);
        for (t, &token) in tokens.iter().enumerate() {
            let logits = self.feed(&mut session, token, Some(&mut reading)).to_vec();
            reading.keep_logits(t, &logits);
        }
        (reading, session)
    }

    /// The mean cross-entropy in nats of every token after the first, given those before it:
    /// the same as [`Reading::loss`] without keeping anything else.
    pub fn loss(&self, tokens: &[u32], rope: Rope) -> f64 {
        let c = self.weights.config;
        let tokens = &tokens[..tokens.len().min(c.seq_len)];
        if tokens.len() < 2 {
            return 0.0;
        }
        let mut session = self.session(rope, tokens.len());
        let mut total = 0.0;
        for pair in tokens.windows(2) {
            let logits = self.feed(&mut session, pair[0], None);
            total += cross_entropy(logits, pair[1]);
        }
        total / (tokens.len() - 1) as f64
    }

    /// The most likely next token after the session's last (the first on a tie, as `run.c`'s
    /// argmax).
    pub fn greedy(logits: &[f32]) -> u32 {
        let mut best = 0;
        for (i, &v) in logits.iter().enumerate() {
            if v > logits[best] {
                best = i;
            }
        }
        best as u32
    }
}

/// `out = W · x` for W `[out.len(), x.len()]` row-major (the kernels crate: compiled for speed).
fn matvec(out: &mut [f32], w: &[f32], x: &[f32]) {
    rope_lab_kernels::matvec(out, w, x);
}

/// `run.c`'s rmsnorm: weight · x / sqrt(mean(x²) + ε).
fn rmsnorm(out: &mut [f32], x: &[f32], weight: &[f32]) {
    rope_lab_kernels::rmsnorm(out, x, weight, NORM_EPS);
}

/// Turns plane i of every head of `v` (`head_size` dimensions each) by its angle:
/// (v₀, v₁) ↦ (v₀ cos − v₁ sin, v₀ sin + v₁ cos).
fn rotate(v: &mut [f32], head_size: usize, rotation: &[(f32, f32)]) {
    for head in v.chunks_exact_mut(head_size) {
        for (pair, &(cos, sin)) in head.chunks_exact_mut(2).zip(rotation) {
            let (a, b) = (pair[0], pair[1]);
            pair[0] = a * cos - b * sin;
            pair[1] = a * sin + b * cos;
        }
    }
}
