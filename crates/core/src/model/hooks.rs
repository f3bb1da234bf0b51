//! What the page changes about how the model applies RoPE: the two hooks of the chapter.

/// How the rotation is applied: which planes are left unrotated and where the text starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rope {
    /// The position of the first token (BOS): 0 as in training, or anything up to millions.
    pub offset: u64,
    /// Bit i set: plane i of every head's q and k is left as it is, in every layer.
    pub off: u8,
}

impl Rope {
    /// Whether plane `i` turns.
    pub fn turns(&self, plane: usize) -> bool {
        plane >= 8 || self.off & (1 << plane) == 0
    }

    /// The same with plane `i` (also) switched off.
    pub fn with_off(self, plane: usize) -> Rope {
        Rope { off: self.off | (1u8 << plane.min(7)), ..self }
    }
}
