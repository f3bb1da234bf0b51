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

pub mod checkpoint;
pub mod forward;
pub mod hooks;
pub mod reading;
pub mod tokenizer;

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
