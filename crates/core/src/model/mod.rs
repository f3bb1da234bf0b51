//! A real trained model, small enough to run in a browser tab: Karpathy's stories260K
//! (llama2.c's tinyllamas, trained on TinyStories, MIT), a Llama 2 architecture with RoPE.
//! Pure Rust like [`crate::rope`], which gives it the rotation's frequencies: it builds natively
//! and in the browser unchanged, and never panics on any input (a bad file is a [`ModelError`]).
//!
//! - [`checkpoint`]: llama2.c's checkpoint format, and the packed form the page downloads
//!   (int8 with one scale per block of 64 numbers).
//! - [`tokenizer`]: llama2.c's 512-piece tokenizer (`encode`/`decode` of its `run.c`).
//! - [`forward`]: the forward pass (llama2.c's `forward`), with the two hooks the page needs:
//!   planes left unrotated, and every position shifted by an offset.
//! - [`reading`]: what one read of a text keeps (logits, every head's attention, the rotated q
//!   and k) and what the chapter asks of it (losses, the heads that look back, each plane's part
//!   of a score).
//!
//! The model's files are never part of the repository: the build packs them from
//! `$ROPELAB_MODEL_DIR` or `../shared/models/stories260K/`.

pub mod bpe;
pub mod checkpoint;
pub mod forward;
pub mod gguf;
pub mod hooks;
pub mod llama;
pub mod protocol;
pub mod reading;
pub mod tokenizer;

/// How a matrix is stored (ggml's formats), from the kernels that multiply by it.
pub mod quant {
    pub use rope_lab_kernels::quant::{dequantize_row, f16_to_f32, matmul, Format as TensorKind, BLOCK};
}

pub use checkpoint::{pack, Config, Weights, PACKED_MAGIC};
pub use forward::{Model, Session};
pub use hooks::Rope;
pub use reading::{PlaneWhy, Reading};
pub use tokenizer::{Tokenizer, BOS, EOS};

use std::fmt;

/// The file the build writes for the page, beside `index.html`.
pub const PACKED_FILE: &str = "stories260K.rlm";

/// Everything that can be wrong with a model or tokenizer file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelError {
    /// The file ended before `what` was read.
    Truncated { what: &'static str },
    /// A header field is outside what this reader supports.
    BadHeader { field: &'static str, value: i64 },
    /// The packed file does not start with [`PACKED_MAGIC`].
    NotPacked,
    /// A tokenizer piece's length is negative or past the file's end.
    BadPiece { index: usize },
    /// A number in the file is not finite.
    NotFinite { what: &'static str },
    /// Bytes left over after the last tensor: not the file this reader expects.
    TrailingBytes(usize),
    /// The file does not start with GGUF's magic number.
    NotGguf,
    /// A tensor of the table cannot be read: `why` says what is wrong with it.
    BadTensor { name: String, why: &'static str },
    /// Something the file uses that this reader does not (an architecture, a tensor type, a
    /// tokenizer), named so that a notice can say which.
    Unsupported { what: &'static str, name: String },
    /// A metadata key or tensor the model needs is not in the file.
    Missing { what: &'static str },
    /// A tensor the model needs is not in the file, or not of the shape the metadata implies.
    MissingTensor(String),
    /// The tokenizer's vocabulary and the embedding disagree in size.
    VocabMismatch { tokenizer: usize, embedding: usize },
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::Truncated { what } => write!(f, "the file ends before {what}"),
            ModelError::BadHeader { field, value } => write!(f, "header field {field} = {value} is not supported"),
            ModelError::NotPacked => f.write_str("not a packed RoPE Lab model file"),
            ModelError::BadPiece { index } => write!(f, "tokenizer piece {index} is malformed"),
            ModelError::NotFinite { what } => write!(f, "{what} holds a number that is not finite"),
            ModelError::TrailingBytes(n) => write!(f, "{n} bytes left after the last tensor"),
            ModelError::NotGguf => f.write_str("not a GGUF file"),
            ModelError::BadTensor { name, why } => write!(f, "tensor {name} {why}"),
            ModelError::Unsupported { what, name } => write!(f, "{what} {name} is not supported"),
            ModelError::Missing { what } => write!(f, "the file has no {what}"),
            ModelError::MissingTensor(name) => write!(f, "tensor {name} is missing or has the wrong shape"),
            ModelError::VocabMismatch { tokenizer, embedding } => {
                write!(f, "the tokenizer has {tokenizer} tokens but the embedding {embedding}")
            }
        }
    }
}

impl std::error::Error for ModelError {}

/// Reads little-endian values off a byte slice, failing with [`ModelError::Truncated`].
pub(crate) struct Bytes<'a> {
    rest: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Bytes { rest: bytes }
    }

    pub(crate) fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], ModelError> {
        if self.rest.len() < n {
            return Err(ModelError::Truncated { what });
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Ok(head)
    }

    pub(crate) fn i32(&mut self, what: &'static str) -> Result<i32, ModelError> {
        let b = self.take(4, what)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn u32(&mut self, what: &'static str) -> Result<u32, ModelError> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    pub(crate) fn u64(&mut self, what: &'static str) -> Result<u64, ModelError> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }

    pub(crate) fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], ModelError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    /// GGUF's string: a u64 length, then that many bytes of UTF-8.
    pub(crate) fn string(&mut self, what: &'static str) -> Result<String, ModelError> {
        let len = self.u64(what)?;
        let len = usize::try_from(len).map_err(|_| ModelError::Truncated { what })?;
        let bytes = self.take(len, what)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| ModelError::BadHeader { field: what, value: len as i64 })
    }

    pub(crate) fn f32(&mut self, what: &'static str) -> Result<f32, ModelError> {
        let b = self.take(4, what)?;
        Ok(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// `n` f32 values, each finite.
    pub(crate) fn f32s(&mut self, n: usize, what: &'static str) -> Result<Vec<f32>, ModelError> {
        let raw = self.take(n.checked_mul(4).ok_or(ModelError::Truncated { what })?, what)?;
        let values: Vec<f32> = raw.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        if values.iter().any(|v| !v.is_finite()) {
            return Err(ModelError::NotFinite { what });
        }
        Ok(values)
    }

    pub(crate) fn remaining(&self) -> usize {
        self.rest.len()
    }
}
