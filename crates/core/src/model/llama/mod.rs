//! A llama-architecture model from a GGUF file (Llama 1-3, SmolLM2, TinyLlama, ...) as
//! llama.cpp runs it: RMSNorm, grouped-query attention with RoPE in the GGUF layout (the
//! converter permuted q and k so that plane i of a head is dimensions (2i, 2i + 1), the layouts
//! chapter's interleaved layout), SwiGLU, a tied or separate classifier. The weights stay in
//! the file's bytes in the file's formats ([`super::quant`]); a text is read as a batch, a layer
//! at a time ([`LlamaModel::advance`]), so a worker can report progress and hear a cancel
//! between layers, with the page's two hooks: planes left unrotated and every position shifted.
//!
//! What a reading keeps is what the views need, not every attention map: each head's mean
//! attention to the previous and to the first token, each plane's mean |q| and |k|, every
//! position's loss and top candidates, the rotated q and k (from which one head's map is
//! computed when the reader picks it).

mod config;
mod profile;
mod reading;

pub use config::LlamaConfig;
pub use profile::Timing;
use profile::{rotate, top_k};
pub use reading::{Cache, Reading};

use super::bpe::BpeTokenizer;
use super::gguf::Gguf;
use super::quant::{dequantize_row, matmul, TensorKind};
use super::ModelError;

/// Limits a file's shape must keep (far above any model a tab can hold): a hostile header
/// cannot make the reader allocate without bound.
const MAX_DIM: usize = 1 << 15;
const MAX_LAYERS: usize = 256;
const MAX_HEADS: usize = 256;
/// Planes a head may have: the hooks' mask is 128 bits (head size 256).
pub const MAX_PLANES: usize = 128;
/// Positions whose logits are computed together (a block of the classifier's work).
const LOGIT_CHUNK: usize = 32;
/// Candidates kept per position.
pub const TOP: usize = 5;

/// A matrix of the file: `rows` rows of `cols` numbers stored in `kind` at `start`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Matrix {
    pub kind: TensorKind,
    pub rows: usize,
    pub cols: usize,
    start: usize,
    len: usize,
}

#[derive(Debug, Clone)]
struct Layer {
    attn_norm: Vec<f32>,
    q: Matrix,
    k: Matrix,
    v: Matrix,
    o: Matrix,
    ffn_norm: Vec<f32>,
    gate: Matrix,
    up: Matrix,
    down: Matrix,
}

/// A loaded model: the file's bytes, where its tensors are, its tokenizer.
#[derive(Debug, Clone)]
pub struct LlamaModel {
    pub config: LlamaConfig,
    pub tokenizer: BpeTokenizer,
    /// Whether a text starts with BOS (`tokenizer.ggml.add_bos_token`).
    pub add_bos: bool,
    file: Vec<u8>,
    embedding: Matrix,
    output: Matrix,
    output_norm: Vec<f32>,
    layers: Vec<Layer>,
    inv_freq: Vec<f64>,
}

/// The page's two hooks on the rotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Hooks {
    /// Added to every position (0 as in training).
    pub offset: u64,
    /// Bit i set: plane i of every head's q and k is left unrotated, in every layer.
    pub off: u128,
}

impl Hooks {
    pub fn turns(&self, plane: usize) -> bool {
        plane >= MAX_PLANES || self.off & (1u128 << plane) == 0
    }

    /// The same with planes `from..to` (also) off.
    pub fn with_off(self, planes: std::ops::Range<usize>) -> Hooks {
        let mut off = self.off;
        for p in planes.filter(|&p| p < MAX_PLANES) {
            off |= 1u128 << p;
        }
        Hooks { off, ..self }
    }
}

impl LlamaModel {
    /// The model in a GGUF file's bytes (kept: the weights are read from them).
    pub fn from_gguf(file: Vec<u8>) -> Result<LlamaModel, ModelError> {
        let gguf = Gguf::read(&file)?;
        let config = LlamaConfig::from_gguf(&gguf)?;
        let tokenizer = BpeTokenizer::from_gguf(&gguf)?;
        if tokenizer.vocab_size() != config.vocab_size {
            return Err(ModelError::VocabMismatch { tokenizer: tokenizer.vocab_size(), embedding: config.vocab_size });
        }
        let c = &config;
        let matrix = |name: &str, cols: usize, rows: usize| -> Result<Matrix, ModelError> {
            let t = gguf.tensor(name).filter(|t| t.dims == [cols, rows]).ok_or_else(|| ModelError::MissingTensor(name.to_string()))?;
            Ok(Matrix { kind: t.kind, rows, cols, start: t.start, len: t.len })
        };
        let vector = |name: &str, n: usize| -> Result<Vec<f32>, ModelError> {
            let t = gguf.tensor(name).filter(|t| t.dims == [n]).ok_or_else(|| ModelError::MissingTensor(name.to_string()))?;
            let mut out = vec![0f32; n];
            dequantize_row(t.kind, &file[t.start..][..t.len], &mut out);
            if out.iter().any(|v| !v.is_finite()) {
                return Err(ModelError::NotFinite { what: "a norm's weights" });
            }
            Ok(out)
        };
        let embedding = matrix("token_embd.weight", c.dim, c.vocab_size)?;
        let output = if gguf.tensor("output.weight").is_some() { matrix("output.weight", c.dim, c.vocab_size)? } else { embedding };
        let mut layers = Vec::with_capacity(c.n_layers);
        for l in 0..c.n_layers {
            let name = |n: &str| format!("blk.{l}.{n}.weight");
            layers.push(Layer {
                attn_norm: vector(&name("attn_norm"), c.dim)?,
                q: matrix(&name("attn_q"), c.dim, c.q_dim())?,
                k: matrix(&name("attn_k"), c.dim, c.kv_dim())?,
                v: matrix(&name("attn_v"), c.dim, c.kv_dim())?,
                o: matrix(&name("attn_output"), c.q_dim(), c.dim)?,
                ffn_norm: vector(&name("ffn_norm"), c.dim)?,
                gate: matrix(&name("ffn_gate"), c.dim, c.hidden_dim)?,
                up: matrix(&name("ffn_up"), c.dim, c.hidden_dim)?,
                down: matrix(&name("ffn_down"), c.hidden_dim, c.dim)?,
            });
        }
        let output_norm = vector("output_norm.weight", c.dim)?;
        let add_bos = gguf.get("tokenizer.ggml.add_bos_token").and_then(|v| v.as_bool()).unwrap_or(false);
        // θᵢ = base^(−2i/head_dim) over the rotating planes (llama.cpp's `theta_scale`).
        let inv_freq = crate::rope::default_inv_freq(c.rope_base.ln(), c.rope_dims, c.planes());
        Ok(LlamaModel { config, tokenizer, add_bos, file, embedding, output, output_norm, layers, inv_freq })
    }

    /// θᵢ of each plane, radians per token.
    pub fn inv_freq(&self) -> &[f64] {
        &self.inv_freq
    }

    /// `text` as the model reads it: BOS first when the file asks for it.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids: Vec<u32> = self.add_bos.then_some(self.tokenizer.bos).flatten().into_iter().collect();
        ids.extend(self.tokenizer.encode(text));
        ids
    }

    fn bytes(&self, m: &Matrix) -> &[u8] {
        &self.file[m.start..][..m.len]
    }

    /// `out = x · Mᵀ` for a batch `x` of vectors of `m.cols` numbers.
    fn apply(&self, m: &Matrix, x: &[f32]) -> Vec<f32> {
        let tokens = x.len() / m.cols;
        let mut out = vec![0f32; tokens * m.rows];
        matmul(m.kind, self.bytes(m), m.rows, m.cols, x, &mut out);
        out
    }

    /// The cosine and sine of each plane's angle at `position` (shifted by the offset); (1, 0)
    /// for a plane switched off. The angle is computed in f64: at a position of a million, f32
    /// would be off by a hundredth of a radian.
    fn rotation(&self, hooks: Hooks, position: usize) -> Vec<(f32, f32)> {
        let absolute = hooks.offset as f64 + position as f64;
        self.inv_freq
            .iter()
            .enumerate()
            .map(|(plane, theta)| {
                if hooks.turns(plane) {
                    let angle = absolute * theta;
                    (angle.cos() as f32, angle.sin() as f32)
                } else {
                    (1.0, 0.0)
                }
            })
            .collect()
    }

    /// Starts reading `tokens` under `hooks`; `keep` says whether to keep what the views need
    /// beyond the losses (each head's means, q and k). Nothing is computed until
    /// [`LlamaModel::advance`].
    pub fn begin(&self, tokens: &[u32], hooks: Hooks, keep: bool) -> Reading {
        let c = &self.config;
        let tokens: Vec<u32> = tokens.iter().map(|&t| t.min(c.vocab_size as u32 - 1)).collect();
        let n = tokens.len();
        let mut x = vec![0f32; n * c.dim];
        for (t, &id) in tokens.iter().enumerate() {
            let row = self.bytes(&self.embedding);
            let bytes = self.embedding.kind.row_bytes(c.dim);
            dequantize_row(self.embedding.kind, &row[id as usize * bytes..][..bytes], &mut x[t * c.dim..][..c.dim]);
        }
        Reading {
            hooks,
            keep,
            keep_q: keep,
            x,
            layer: 0,
            n_layers: c.n_layers,
            logits_done: 0,
            losses: vec![0.0; n],
            top: Vec::with_capacity(n),
            prev: if keep { vec![0.0; c.n_layers * c.n_heads] } else { Vec::new() },
            first: if keep { vec![0.0; c.n_layers * c.n_heads] } else { Vec::new() },
            q_norm: if keep { vec![0.0; c.n_layers * c.n_heads * c.planes()] } else { Vec::new() },
            k_norm: if keep { vec![0.0; c.n_layers * c.n_kv_heads * c.planes()] } else { Vec::new() },
            q: if keep { Vec::with_capacity(c.n_layers * n * c.q_dim()) } else { Vec::new() },
            cache: Cache { keys: vec![Vec::new(); c.n_layers], values: vec![Vec::new(); c.n_layers], len: 0 },
            tokens,
        }
    }

    /// One step of a reading: a layer, or a block of positions' logits once the layers are
    /// done. Returns false when the reading is complete.
    pub fn advance(&self, r: &mut Reading) -> bool {
        let c = &self.config;
        if r.layer < c.n_layers {
            let layer = r.layer;
            let mut x = std::mem::take(&mut r.x);
            let mut cache = std::mem::take(&mut r.cache);
            self.layer(layer, &mut x, &mut cache, r.hooks, Some(r));
            r.x = x;
            r.cache = cache;
            r.layer += 1;
            if r.layer == c.n_layers {
                let mut normed = vec![0f32; r.x.len()];
                for (o, x) in normed.chunks_exact_mut(c.dim).zip(r.x.chunks_exact(c.dim)) {
                    rope_lab_kernels::rmsnorm(o, x, &self.output_norm, c.norm_eps);
                }
                r.x = normed;
                r.cache.len = r.tokens.len();
            }
            return true;
        }
        let n = r.tokens.len();
        if r.logits_done >= n {
            return false;
        }
        let from = r.logits_done;
        let to = (from + LOGIT_CHUNK).min(n);
        let logits = self.apply(&self.output, &r.x[from * c.dim..to * c.dim]);
        for (i, row) in logits.chunks_exact(c.vocab_size).enumerate() {
            let t = from + i;
            // The softmax's normaliser, once for the loss and the candidates.
            let normaliser = rope_lab_kernels::log_sum_exp(row);
            if let Some(&next) = r.tokens.get(t + 1) {
                r.losses[t + 1] = (normaliser - row[next as usize] as f64) as f32;
            }
            r.top.push(top_k(row, normaliser));
        }
        r.logits_done = to;
        r.logits_done < n
    }

    /// A whole reading at once.
    pub fn read(&self, tokens: &[u32], hooks: Hooks, keep: bool) -> Reading {
        let mut r = self.begin(tokens, hooks, keep);
        while self.advance(&mut r) {}
        r
    }

    /// The mean loss of `tokens` under `hooks`, keeping nothing else.
    pub fn loss(&self, tokens: &[u32], hooks: Hooks) -> f64 {
        self.read(tokens, hooks, false).loss()
    }

    /// Feeds one more token after a finished reading (a continuation) and returns its logits.
    pub fn feed(&self, r: &mut Reading, token: u32) -> Vec<f32> {
        let c = &self.config;
        let token = token.min(c.vocab_size as u32 - 1);
        let mut x = vec![0f32; c.dim];
        let bytes = self.embedding.kind.row_bytes(c.dim);
        dequantize_row(self.embedding.kind, &self.bytes(&self.embedding)[token as usize * bytes..][..bytes], &mut x);
        for layer in 0..c.n_layers {
            self.layer(layer, &mut x, &mut r.cache, r.hooks, None);
        }
        r.cache.len += 1;
        let mut normed = vec![0f32; c.dim];
        rope_lab_kernels::rmsnorm(&mut normed, &x, &self.output_norm, c.norm_eps);
        self.apply(&self.output, &normed)
    }

    /// One transformer block over the batch `x` (positions `cache.len ..`), writing its keys
    /// and values to the cache; `keep` records what the views need.
    fn layer(&self, l: usize, x: &mut [f32], cache: &mut Cache, hooks: Hooks, mut keep: Option<&mut Reading>) {
        let c = &self.config;
        let w = &self.layers[l];
        let (dim, hd) = (c.dim, c.head_dim);
        let n = x.len() / dim;
        let start = cache.len;
        let mut normed = vec![0f32; x.len()];
        for (o, x) in normed.chunks_exact_mut(dim).zip(x.chunks_exact(dim)) {
            rope_lab_kernels::rmsnorm(o, x, &w.attn_norm, c.norm_eps);
        }
        let mut q = self.apply(&w.q, &normed);
        let mut k = self.apply(&w.k, &normed);
        let v = self.apply(&w.v, &normed);
        for t in 0..n {
            let rotation = self.rotation(hooks, start + t);
            rotate(&mut q[t * c.q_dim()..][..c.q_dim()], hd, &rotation);
            rotate(&mut k[t * c.kv_dim()..][..c.kv_dim()], hd, &rotation);
        }
        cache.keys[l].extend_from_slice(&k);
        cache.values[l].extend_from_slice(&v);
        let keys = &cache.keys[l];
        let values = &cache.values[l];
        let kv_dim = c.kv_dim();
        let scale = 1.0 / (hd as f32).sqrt();
        let mut out = vec![0f32; n * c.q_dim()];
        let mut att = vec![0f32; start + n];
        for t in 0..n {
            let pos = start + t;
            for h in 0..c.n_heads {
                let qh = &q[t * c.q_dim() + h * hd..][..hd];
                let row = &mut att[..=pos];
                let o = &mut out[t * c.q_dim() + h * hd..][..hd];
                rope_lab_kernels::attend(qh, keys, values, kv_dim, (h / c.group()) * hd, scale, row, o);
                if let Some(r) = keep.as_deref_mut().filter(|r| r.keep && pos >= 1) {
                    r.prev[l * c.n_heads + h] += row[pos - 1];
                    r.first[l * c.n_heads + h] += row[0];
                }
            }
        }
        if let Some(r) = keep.filter(|r| r.keep) {
            let planes = c.planes();
            for t in 0..n {
                for h in 0..c.n_heads {
                    let qh = &q[t * c.q_dim() + h * hd..][..hd];
                    for p in 0..planes {
                        r.q_norm[(l * c.n_heads + h) * planes + p] += (qh[2 * p] * qh[2 * p] + qh[2 * p + 1] * qh[2 * p + 1]).sqrt();
                    }
                }
                for h in 0..c.n_kv_heads {
                    let kh = &k[t * kv_dim + h * hd..][..hd];
                    for p in 0..planes {
                        r.k_norm[(l * c.n_kv_heads + h) * planes + p] += (kh[2 * p] * kh[2 * p] + kh[2 * p + 1] * kh[2 * p + 1]).sqrt();
                    }
                }
            }
            if r.keep_q {
                r.q.extend_from_slice(&q);
            }
        }
        let attended = self.apply(&w.o, &out);
        x.iter_mut().zip(&attended).for_each(|(x, d)| *x += d);
        for (o, x) in normed.chunks_exact_mut(dim).zip(x.chunks_exact(dim)) {
            rope_lab_kernels::rmsnorm(o, x, &w.ffn_norm, c.norm_eps);
        }
        let mut gate = self.apply(&w.gate, &normed);
        let up = self.apply(&w.up, &normed);
        rope_lab_kernels::silu_times(&mut gate, &up);
        let down = self.apply(&w.down, &gate);
        x.iter_mut().zip(&down).for_each(|(x, d)| *x += d);
    }
}
