//! The model's weights: read from llama2.c's checkpoint (legacy format, version 0), and packed
//! for the page into int8 with one f32 scale per block of 64 numbers (a quarter of the size;
//! the tests check that it changes neither the greedy continuation nor, beyond 0.5%, the loss).

use super::{Bytes, ModelError};

/// The packed file's first bytes ("RoPE Lab model", format 1).
pub const PACKED_MAGIC: &[u8; 4] = b"RLM1";
/// Numbers per quantisation block, each block with its own scale.
const BLOCK: usize = 64;
/// The largest sizes this reader accepts (stories260K is far below every one): a hostile
/// header cannot make it allocate without bound.
const MAX_DIM: usize = 4096;
const MAX_VOCAB: usize = 65_536;
const MAX_LAYERS: usize = 64;
const MAX_SEQ: usize = 8192;

/// The shape of a Llama 2 model, as llama2.c's header gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Width of the residual stream (64).
    pub dim: usize,
    /// Width of the feed-forward layer's hidden part (172).
    pub hidden_dim: usize,
    pub n_layers: usize,
    /// Query heads (8).
    pub n_heads: usize,
    /// Key/value heads (4): query head h reads key/value head h / (n_heads / n_kv_heads).
    pub n_kv_heads: usize,
    pub vocab_size: usize,
    /// The longest context it was trained on (512).
    pub seq_len: usize,
}

impl Config {
    /// Dimensions per head (8): four rotation planes.
    pub fn head_size(&self) -> usize {
        self.dim / self.n_heads
    }

    /// Rotation planes per head.
    pub fn planes(&self) -> usize {
        self.head_size() / 2
    }

    /// Width of the keys and values of one position (32).
    pub fn kv_dim(&self) -> usize {
        self.n_kv_heads * self.head_size()
    }

    fn read(bytes: &mut Bytes) -> Result<(Config, bool), ModelError> {
        let mut field = |name: &'static str, max: usize| -> Result<(usize, bool), ModelError> {
            let value = bytes.i32(name)?;
            let size = value.unsigned_abs() as usize;
            if size == 0 || size > max {
                return Err(ModelError::BadHeader { field: name, value: value.into() });
            }
            Ok((size, value > 0))
        };
        let (dim, _) = field("dim", MAX_DIM)?;
        let (hidden_dim, _) = field("hidden_dim", 4 * MAX_DIM)?;
        let (n_layers, _) = field("n_layers", MAX_LAYERS)?;
        let (n_heads, _) = field("n_heads", MAX_DIM)?;
        let (n_kv_heads, _) = field("n_kv_heads", MAX_DIM)?;
        // llama2.c: a positive vocab_size means the classifier is the token embedding.
        let (vocab_size, shared) = field("vocab_size", MAX_VOCAB)?;
        let (seq_len, _) = field("seq_len", MAX_SEQ)?;
        let config = Config { dim, hidden_dim, n_layers, n_heads, n_kv_heads, vocab_size, seq_len };
        let bad = |field: &'static str, value: usize| ModelError::BadHeader { field, value: value as i64 };
        if dim % n_heads != 0 || (dim / n_heads) % 2 != 0 {
            return Err(bad("n_heads", n_heads));
        }
        if n_kv_heads > n_heads || n_heads % n_kv_heads != 0 {
            return Err(bad("n_kv_heads", n_kv_heads));
        }
        Ok((config, shared))
    }

    fn write(&self, out: &mut Vec<u8>) {
        for v in [self.dim, self.hidden_dim, self.n_layers, self.n_heads, self.n_kv_heads, self.vocab_size, self.seq_len] {
            out.extend_from_slice(&(v as i32).to_le_bytes());
        }
    }
}

/// Every weight of the model in f32, matrices row-major `[out, in]` (W·x), stacked over layers.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    pub config: Config,
    /// `[vocab, dim]`: a token's vector, and (tied) the classifier.
    pub token_embedding: Vec<f32>,
    pub rms_att: Vec<f32>,
    pub wq: Vec<f32>,
    pub wk: Vec<f32>,
    pub wv: Vec<f32>,
    pub wo: Vec<f32>,
    pub rms_ffn: Vec<f32>,
    pub w1: Vec<f32>,
    pub w2: Vec<f32>,
    pub w3: Vec<f32>,
    pub rms_final: Vec<f32>,
}

/// The matrices, in file order, with their sizes: what is quantised.
fn matrices(c: &Config) -> [(&'static str, usize); 8] {
    let (d, h, l, kv) = (c.dim, c.hidden_dim, c.n_layers, c.kv_dim());
    [
        ("token_embedding", c.vocab_size * d),
        ("wq", l * d * d),
        ("wk", l * kv * d),
        ("wv", l * kv * d),
        ("wo", l * d * d),
        ("w1", l * h * d),
        ("w2", l * d * h),
        ("w3", l * h * d),
    ]
}

impl Weights {
    /// Reads llama2.c's checkpoint (`stories260K.bin`): the header, then the f32 tensors in
    /// `run.c`'s `memory_map_weights` order. The trailing RoPE tables (`freq_cis_real`,
    /// `freq_cis_imag`) are skipped: the forward pass computes the angles itself.
    pub fn from_llama2c(bytes: &[u8]) -> Result<Weights, ModelError> {
        let mut b = Bytes::new(bytes);
        let (c, shared) = Config::read(&mut b)?;
        if !shared {
            // A separate classifier is not something stories260K has; not supported here.
            return Err(ModelError::BadHeader { field: "vocab_size", value: -(c.vocab_size as i64) });
        }
        let (d, h, l, kv) = (c.dim, c.hidden_dim, c.n_layers, c.kv_dim());
        let token_embedding = b.f32s(c.vocab_size * d, "token_embedding")?;
        let rms_att = b.f32s(l * d, "rms_att")?;
        let wq = b.f32s(l * d * d, "wq")?;
        let wk = b.f32s(l * kv * d, "wk")?;
        let wv = b.f32s(l * kv * d, "wv")?;
        let wo = b.f32s(l * d * d, "wo")?;
        let rms_ffn = b.f32s(l * d, "rms_ffn")?;
        let w1 = b.f32s(l * h * d, "w1")?;
        let w2 = b.f32s(l * d * h, "w2")?;
        let w3 = b.f32s(l * h * d, "w3")?;
        let rms_final = b.f32s(d, "rms_final")?;
        // freq_cis_real and freq_cis_imag: [seq_len, head_size / 2] each.
        b.take(2 * c.seq_len * c.planes() * 4, "the RoPE tables")?;
        if b.remaining() != 0 {
            return Err(ModelError::TrailingBytes(b.remaining()));
        }
        Ok(Weights { config: c, token_embedding, rms_att, wq, wk, wv, wo, rms_ffn, w1, w2, w3, rms_final })
    }

    fn matrix_values(&self) -> [&[f32]; 8] {
        [&self.token_embedding, &self.wq, &self.wk, &self.wv, &self.wo, &self.w1, &self.w2, &self.w3]
    }

    /// Reads what [`pack`] wrote: the weights (dequantised to f32) and the tokenizer's bytes.
    pub fn from_packed(bytes: &[u8]) -> Result<(Weights, Vec<u8>), ModelError> {
        let mut b = Bytes::new(bytes);
        if b.take(4, "the magic number").ok() != Some(&PACKED_MAGIC[..]) {
            return Err(ModelError::NotPacked);
        }
        let (c, _) = Config::read(&mut b)?;
        let tokenizer_len = b.i32("the tokenizer's length")?;
        let tokenizer = b.take(tokenizer_len.max(0) as usize, "the tokenizer")?.to_vec();
        let rms_att = b.f32s(c.n_layers * c.dim, "rms_att")?;
        let rms_ffn = b.f32s(c.n_layers * c.dim, "rms_ffn")?;
        let rms_final = b.f32s(c.dim, "rms_final")?;
        let mut read = matrices(&c).map(|_| Vec::new());
        for (slot, (name, len)) in read.iter_mut().zip(matrices(&c)) {
            let blocks = len.div_ceil(BLOCK);
            let scales: Vec<f32> =
                b.take(blocks * 2, name)?.chunks_exact(2).map(|h| f16_to_f32(u16::from_le_bytes([h[0], h[1]]))).collect();
            if scales.iter().any(|s| !s.is_finite()) {
                return Err(ModelError::NotFinite { what: name });
            }
            let quantised = b.take(len, name)?;
            *slot = quantised.iter().enumerate().map(|(i, &q)| q as i8 as f32 * scales[i / BLOCK]).collect();
        }
        if b.remaining() != 0 {
            return Err(ModelError::TrailingBytes(b.remaining()));
        }
        let [token_embedding, wq, wk, wv, wo, w1, w2, w3] = read;
        let weights = Weights { config: c, token_embedding, rms_att, wq, wk, wv, wo, rms_ffn, w1, w2, w3, rms_final };
        Ok((weights, tokenizer))
    }
}

/// The page's copy of the model: the header, the tokenizer's file as it is, the norms' weights
/// in f32, then each matrix as int8 with one f16 scale (max |x| / 127, rounded up so that no
/// byte overflows) per block of 64 numbers,
/// all the scales of a matrix before its bytes (they compress better apart).
pub fn pack(weights: &Weights, tokenizer: &[u8]) -> Vec<u8> {
    let c = &weights.config;
    let mut out = Vec::with_capacity(weights.token_embedding.len() * 12);
    out.extend_from_slice(PACKED_MAGIC);
    c.write(&mut out);
    out.extend_from_slice(&(tokenizer.len() as i32).to_le_bytes());
    out.extend_from_slice(tokenizer);
    for norm in [&weights.rms_att, &weights.rms_ffn, &weights.rms_final] {
        norm.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
    }
    for values in weights.matrix_values() {
        // The scale is stored as f16 and the bytes are rounded with that stored scale.
        let scales: Vec<u16> =
            values.chunks(BLOCK).map(|block| f32_to_f16(block.iter().fold(0f32, |m, v| m.max(v.abs())) / 127.0)).collect();
        scales.iter().for_each(|s| out.extend_from_slice(&s.to_le_bytes()));
        let scales: Vec<f32> = scales.into_iter().map(f16_to_f32).collect();
        for (i, v) in values.iter().enumerate() {
            let scale = scales[i / BLOCK];
            let q = if scale > 0.0 { (v / scale).round().clamp(-127.0, 127.0) } else { 0.0 };
            out.push(q as i8 as u8);
        }
    }
    out
}

/// IEEE half precision, rounded up in magnitude (a scale never shrinks, so |x| / scale ≤ 127);
/// the scales here are normal halves (6e-5 to 65504), anything else saturates or flushes.
fn f32_to_f16(v: f32) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    if !v.is_finite() || exponent >= 31 {
        return sign | 0x7bff;
    }
    if exponent <= 0 {
        return sign | 0x0400;
    }
    let mantissa = bits & 0x7f_ffff;
    let mut half = ((exponent as u32) << 10) | (mantissa >> 13);
    if mantissa & 0x1fff != 0 {
        half += 1;
    }
    sign | half.min(0x7bff) as u16
}

fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h & 0x8000) as u32) << 16;
    let exponent = ((h >> 10) & 0x1f) as u32;
    let mantissa = (h & 0x3ff) as u32;
    match exponent {
        0 => {
            let subnormal = mantissa as f32 * 2f32.powi(-24);
            if sign != 0 {
                -subnormal
            } else {
                subnormal
            }
        }
        31 => f32::from_bits(sign | 0x7f80_0000 | (mantissa << 13)),
        _ => f32::from_bits(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_round_up_and_read_back() {
        for v in [1.0f32, 0.5, 2.718_281_7, 1e-3, 0.0123, 65504.0] {
            let back = f16_to_f32(f32_to_f16(v));
            assert!(back >= v && back <= v * (1.0 + 1.0 / 1024.0), "{v} -> {back}");
        }
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
    }
}
