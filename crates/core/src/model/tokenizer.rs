//! llama2.c's tokenizer (`tok512.bin`): 512 pieces with scores, read and used exactly as
//! `run.c`'s `build_tokenizer`, `encode` and `decode` do.

use super::{Bytes, ModelError};

/// The id that starts every text (`\n<s>\n`).
pub const BOS: u32 = 1;
/// The id that ends one (`\n</s>\n`).
pub const EOS: u32 = 2;
/// Pieces 3..=258 are the bytes 0x00..=0xFF (`<0x00>`..`<0xFF>`), the fallback for a character
/// that has no piece of its own.
const BYTE_PIECES: u32 = 3;

/// The pieces and their merge scores.
#[derive(Debug, Clone)]
pub struct Tokenizer {
    pieces: Vec<Vec<u8>>,
    scores: Vec<f32>,
    /// The ids sorted by their pieces' bytes, searched as run.c's `str_lookup` does.
    sorted: Vec<u32>,
}

impl Tokenizer {
    /// Reads llama2.c's tokenizer file for a vocabulary of `vocab_size` pieces: an i32
    /// max_token_length, then per piece an f32 score, an i32 length and the bytes.
    pub fn from_llama2c(bytes: &[u8], vocab_size: usize) -> Result<Tokenizer, ModelError> {
        let mut b = Bytes::new(bytes);
        b.i32("max_token_length")?;
        let mut pieces = Vec::with_capacity(vocab_size);
        let mut scores = Vec::with_capacity(vocab_size);
        for index in 0..vocab_size {
            let score = b.f32("a piece's score")?;
            if !score.is_finite() {
                return Err(ModelError::NotFinite { what: "the tokenizer's scores" });
            }
            let len = b.i32("a piece's length")?;
            let len = usize::try_from(len).map_err(|_| ModelError::BadPiece { index })?;
            let piece = b.take(len, "a piece").map_err(|_| ModelError::BadPiece { index })?;
            pieces.push(piece.to_vec());
            scores.push(score);
        }
        // run.c sorts the pieces and searches them; with a duplicate piece, the first id.
        let mut sorted: Vec<u32> = (0..pieces.len() as u32).collect();
        sorted.sort_unstable_by(|&a, &b| pieces[a as usize].cmp(&pieces[b as usize]).then(a.cmp(&b)));
        Ok(Tokenizer { pieces, scores, sorted })
    }

    /// The id of the piece `bytes`, if there is one.
    fn lookup(&self, bytes: &[u8]) -> Option<u32> {
        let at = self.sorted.partition_point(|&id| self.pieces[id as usize].as_slice() < bytes);
        self.sorted.get(at).copied().filter(|&id| self.pieces[id as usize] == bytes)
    }

    pub fn vocab_size(&self) -> usize {
        self.pieces.len()
    }

    /// `text` as ids, BOS first, as `run.c`'s `encode(text, bos=1, eos=0)`: a dummy-prefix
    /// piece `" "` for a non-empty text; each character as its piece, or else its UTF-8 bytes as
    /// byte pieces; then, again and again, the adjacent pair whose concatenation is a piece of
    /// the highest score (the first such pair on a tie) is merged, until no pair is a piece.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = vec![BOS];
        if !text.is_empty() {
            if let Some(space) = self.lookup(b" ") {
                ids.push(space);
            }
        }
        let mut buffer = [0u8; 4];
        for ch in text.chars() {
            let bytes = ch.encode_utf8(&mut buffer).as_bytes();
            match self.lookup(bytes) {
                Some(id) => ids.push(id),
                None => ids.extend(bytes.iter().map(|&b| b as u32 + BYTE_PIECES)),
            }
        }
        // As run.c, BOS takes part in the search too (no piece starts with its text).
        let mut merged = Vec::new();
        loop {
            let mut best: Option<(f32, usize, u32)> = None;
            for i in 0..ids.len().saturating_sub(1) {
                merged.clear();
                merged.extend_from_slice(&self.pieces[ids[i] as usize]);
                merged.extend_from_slice(&self.pieces[ids[i + 1] as usize]);
                if let Some(id) = self.lookup(&merged) {
                    let score = self.scores[id as usize];
                    if best.is_none_or(|(s, _, _)| score > s) {
                        best = Some((score, i, id));
                    }
                }
            }
            let Some((_, at, id)) = best else { break };
            ids[at] = id;
            ids.remove(at + 1);
        }
        ids
    }

    /// The bytes that `id` adds after `previous`, as `run.c`'s `decode`: a piece right after
    /// BOS drops its leading space; `<0xNN>` is the byte NN. An id past the vocabulary adds
    /// nothing.
    pub fn decode(&self, previous: u32, id: u32) -> &[u8] {
        let Some(piece) = self.pieces.get(id as usize) else { return &[] };
        if (BYTE_PIECES..BYTE_PIECES + 256).contains(&id) {
            // `<0xNN>`: the byte itself, which the byte's own index gives without parsing.
            return &BYTE_TABLE[(id - BYTE_PIECES) as usize..=(id - BYTE_PIECES) as usize];
        }
        if previous == BOS {
            piece.strip_prefix(b" ").unwrap_or(piece)
        } else {
            piece
        }
    }

    /// The text of `ids` (BOS first or not), bytes joined and read as UTF-8 (a character cut
    /// between ids, or an invalid byte, shows as U+FFFD).
    pub fn decode_all(&self, ids: &[u32]) -> String {
        let mut bytes = Vec::new();
        let mut previous = BOS;
        for &id in ids {
            if id != BOS {
                bytes.extend_from_slice(self.decode(previous, id));
            }
            previous = id;
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The piece of `id` as a reader sees it on a chip: its text, or `<0xNN>` for a byte that
    /// is not a whole character.
    pub fn piece(&self, id: u32) -> String {
        self.pieces.get(id as usize).map(|p| String::from_utf8_lossy(p).into_owned()).unwrap_or_default()
    }
}

/// Every byte value, so that a byte piece can be returned as a slice.
static BYTE_TABLE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = i as u8;
        i += 1;
    }
    table
};
