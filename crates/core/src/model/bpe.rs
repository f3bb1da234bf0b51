//! Byte-level BPE, GPT-2's tokenizer as GGUF stores it (`tokenizer.ggml.model` = `gpt2`) and as
//! Hugging Face's `tokenizers` runs it: control tokens matched whole in the text; then the text
//! cut into words (the `smollm` pre-tokenizer: every digit alone, then GPT-2's pattern); each
//! word's UTF-8 bytes written as GPT-2's printable characters (`bytes_to_unicode`); then, again
//! and again, the adjacent pair earliest in the merge list joined, until none is.

use super::gguf::Gguf;
use super::ModelError;
use std::collections::HashMap;

/// GGUF's token types (`llama_token_type`) of tokens matched whole in the text.
const CONTROL: i64 = 3;
const USER_DEFINED: i64 = 4;
/// The most tokens a vocabulary may have here (SmolLM2 49,152, Llama 3 128,256).
const MAX_VOCAB: usize = 1 << 18;

/// How a text is cut into words before the merges (`tokenizer.ggml.pre`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreTokenizer {
    /// GPT-2's pattern alone (`gpt2`, and files that name none).
    Gpt2,
    /// Every digit a word of its own, then GPT-2's pattern (`smollm`: SmolLM and SmolLM2).
    DigitsThenGpt2,
}

impl PreTokenizer {
    /// The pre-tokenizer of `tokenizer.ggml.pre`, or its name back when unsupported.
    pub fn from_name(name: Option<&str>) -> Result<PreTokenizer, String> {
        match name {
            None | Some("gpt2" | "default") => Ok(PreTokenizer::Gpt2),
            Some("smollm") => Ok(PreTokenizer::DigitsThenGpt2),
            Some(other) => Err(other.to_string()),
        }
    }
}

/// A byte-level BPE vocabulary and its merges.
#[derive(Debug, Clone)]
pub struct BpeTokenizer {
    /// Each token's bytes.
    pieces: Vec<Vec<u8>>,
    /// A single byte-level character's token: `byte_token[b]` for byte b (None for bytes the
    /// vocabulary leaves out).
    byte_token: [Option<u32>; 256],
    /// (left, right) → (rank in the merge list, the joined token).
    merges: HashMap<(u32, u32), (u32, u32)>,
    /// Tokens matched whole in the text, longest first.
    specials: Vec<(String, u32)>,
    pre: PreTokenizer,
    pub bos: Option<u32>,
    pub eos: Option<u32>,
}

/// GPT-2's `bytes_to_unicode`: printable bytes stand for themselves; the others, in order,
/// for the characters from U+0100 up.
fn byte_chars() -> [char; 256] {
    let mut table = ['\0'; 256];
    let mut next = 256u32;
    for (b, slot) in table.iter_mut().enumerate() {
        let printable = (0x21..=0x7e).contains(&b) || (0xa1..=0xac).contains(&b) || (0xae..=0xff).contains(&b);
        *slot = if printable {
            char::from(b as u8)
        } else {
            next += 1;
            char::from_u32(next - 1).unwrap_or('\0')
        };
    }
    table
}

impl BpeTokenizer {
    /// The tokenizer a GGUF file's metadata describes (`tokenizer.ggml.*`).
    pub fn from_gguf(file: &Gguf) -> Result<BpeTokenizer, ModelError> {
        let missing = |what: &'static str| ModelError::Missing { what };
        let model = file.get("tokenizer.ggml.model").and_then(|v| v.as_str()).ok_or(missing("tokenizer.ggml.model"))?;
        if model != "gpt2" {
            return Err(ModelError::Unsupported { what: "tokenizer", name: model.to_string() });
        }
        let pre = PreTokenizer::from_name(file.get("tokenizer.ggml.pre").and_then(|v| v.as_str()))
            .map_err(|name| ModelError::Unsupported { what: "pre-tokenizer", name })?;
        let tokens = file.get("tokenizer.ggml.tokens").and_then(|v| v.as_array()).ok_or(missing("tokenizer.ggml.tokens"))?;
        if tokens.is_empty() || tokens.len() > MAX_VOCAB {
            return Err(ModelError::BadHeader { field: "tokenizer.ggml.tokens", value: tokens.len() as i64 });
        }
        let types = file.get("tokenizer.ggml.token_type").and_then(|v| v.as_array()).unwrap_or(&[]);
        let chars = byte_chars();
        let mut from_char: HashMap<char, u8> = HashMap::with_capacity(256);
        for (b, &c) in chars.iter().enumerate() {
            from_char.insert(c, b as u8);
        }
        let mut pieces = Vec::with_capacity(tokens.len());
        let mut specials = Vec::new();
        let mut by_text: HashMap<&str, u32> = HashMap::with_capacity(tokens.len());
        for (id, token) in tokens.iter().enumerate() {
            let text = token.as_str().ok_or(ModelError::BadPiece { index: id })?;
            let kind = types.get(id).and_then(|t| t.as_f64()).unwrap_or(1.0) as i64;
            if kind == CONTROL || kind == USER_DEFINED {
                if !text.is_empty() {
                    specials.push((text.to_string(), id as u32));
                }
                pieces.push(text.as_bytes().to_vec());
            } else {
                let mut bytes = Vec::with_capacity(text.len());
                for c in text.chars() {
                    match from_char.get(&c) {
                        Some(&b) => bytes.push(b),
                        None => bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                    }
                }
                pieces.push(bytes);
            }
            by_text.entry(text).or_insert(id as u32);
        }
        specials.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.1.cmp(&b.1)));
        let mut byte_token = [None; 256];
        for (b, c) in chars.iter().enumerate() {
            byte_token[b] = by_text.get(c.encode_utf8(&mut [0; 4]) as &str).copied();
        }
        // A byte without a token is left out of the text, as Hugging Face's BPE does without an
        // unknown token (SmolLM2 has none for six control characters); printable ASCII must be there.
        if (0x21u8..0x7f).any(|b| byte_token[b as usize].is_none()) {
            return Err(ModelError::Missing { what: "a token for each printable ASCII character" });
        }
        let merge_list = file.get("tokenizer.ggml.merges").and_then(|v| v.as_array()).ok_or(missing("tokenizer.ggml.merges"))?;
        let mut merges = HashMap::with_capacity(merge_list.len());
        for (rank, merge) in merge_list.iter().enumerate() {
            let bad = || ModelError::BadHeader { field: "tokenizer.ggml.merges", value: rank as i64 };
            let (left, right) = merge.as_str().and_then(|m| m.split_once(' ')).ok_or_else(bad)?;
            let id = |s: &str| by_text.get(s).copied();
            let joined = format!("{left}{right}");
            let (Some(l), Some(r), Some(j)) = (id(left), id(right), id(&joined)) else { return Err(bad()) };
            merges.entry((l, r)).or_insert((rank as u32, j));
        }
        let id_of = |key: &str| file.get(key).and_then(|v| v.as_usize()).filter(|&i| i < tokens.len()).map(|i| i as u32);
        Ok(BpeTokenizer {
            pieces,
            byte_token,
            merges,
            specials,
            pre,
            bos: id_of("tokenizer.ggml.bos_token_id"),
            eos: id_of("tokenizer.ggml.eos_token_id"),
        })
    }

    pub fn vocab_size(&self) -> usize {
        self.pieces.len()
    }

    /// The bytes of token `id` (empty past the vocabulary). A token may be part of a character.
    pub fn piece(&self, id: u32) -> &[u8] {
        self.pieces.get(id as usize).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Whether `id` is a control token (written whole in the text, such as `<|im_end|>`).
    pub fn is_special(&self, id: u32) -> bool {
        self.specials.iter().any(|&(_, s)| s == id)
    }

    /// The text of `ids`, bytes that are not UTF-8 shown as U+FFFD.
    pub fn decode(&self, ids: &[u32]) -> String {
        let bytes: Vec<u8> = ids.iter().flat_map(|&id| self.piece(id).iter().copied()).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// `text` as token ids (no BOS: a GGUF file says whether to add one, and the caller does).
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        let mut plain_from = 0;
        let mut at = 0;
        while at < text.len() {
            let special = self.specials.iter().find(|(s, _)| text[at..].starts_with(s.as_str()));
            if let Some((s, id)) = special {
                self.encode_plain(&text[plain_from..at], &mut ids);
                ids.push(*id);
                at += s.len();
                plain_from = at;
            } else {
                at += text[at..].chars().next().map_or(1, char::len_utf8);
            }
        }
        self.encode_plain(&text[plain_from..], &mut ids);
        ids
    }

    fn encode_plain(&self, text: &str, ids: &mut Vec<u32>) {
        match self.pre {
            PreTokenizer::Gpt2 => gpt2_words(text, &mut |w| self.encode_word(w, ids)),
            PreTokenizer::DigitsThenGpt2 => {
                let mut from = 0;
                for (i, c) in text.char_indices() {
                    if c.is_numeric() {
                        gpt2_words(&text[from..i], &mut |w| self.encode_word(w, ids));
                        self.encode_word(&text[i..i + c.len_utf8()], ids);
                        from = i + c.len_utf8();
                    }
                }
                gpt2_words(&text[from..], &mut |w| self.encode_word(w, ids));
            }
        }
    }

    /// One word: its bytes as tokens, then the merges, the earliest in the list first.
    fn encode_word(&self, word: &str, ids: &mut Vec<u32>) {
        let mut symbols: Vec<u32> = word.bytes().filter_map(|b| self.byte_token[b as usize]).collect();
        loop {
            let best = symbols
                .windows(2)
                .enumerate()
                .filter_map(|(i, pair)| self.merges.get(&(pair[0], pair[1])).map(|&(rank, joined)| (rank, i, joined)))
                .min();
            let Some((_, i, joined)) = best else { break };
            symbols[i] = joined;
            symbols.remove(i + 1);
        }
        ids.extend(symbols);
    }
}

/// Letters as `\p{L}`: alphabetic characters, less the numbers and marks Unicode also calls
/// alphabetic (close enough for text: the tests compare with Hugging Face's tokenizer).
fn is_letter(c: char) -> bool {
    c.is_alphabetic() && !c.is_numeric()
}

/// GPT-2's pattern, `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`,
/// as a regular expression engine runs it: at each place, the first alternative that matches.
fn gpt2_words(text: &str, word: &mut impl FnMut(&str)) {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let end_of = |i: usize| chars.get(i).map_or(text.len(), |&(at, _)| at);
    let run = |from: usize, class: &dyn Fn(char) -> bool| {
        let mut j = from;
        while j < chars.len() && class(chars[j].1) {
            j += 1;
        }
        j
    };
    let other = |c: char| !c.is_whitespace() && !is_letter(c) && !c.is_numeric();
    let classes: [&dyn Fn(char) -> bool; 3] = [&is_letter, &|c: char| c.is_numeric(), &other];
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        let mut end = None;
        if c == '\'' {
            let rest = &text[chars[i].0 + 1..];
            for suffix in ["s", "t", "re", "ve", "m", "ll", "d"] {
                if rest.starts_with(suffix) {
                    end = Some(i + 1 + suffix.len());
                    break;
                }
            }
        }
        if end.is_none() {
            for class in classes {
                let from = if c == ' ' && chars.get(i + 1).is_some_and(|&(_, n)| class(n)) { i + 1 } else { i };
                let j = run(from, class);
                if j > from {
                    end = Some(j);
                    break;
                }
            }
        }
        let end = end.unwrap_or_else(|| {
            // Whitespace: the run, less its last character when a non-space follows it (and the
            // run is longer than one).
            let j = run(i, &|c: char| c.is_whitespace());
            if j < chars.len() && j - i >= 2 {
                j - 1
            } else {
                j.max(i + 1)
            }
        });
        word(&text[chars[i].0..end_of(end)]);
        i = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        gpt2_words(text, &mut |w| out.push(w.to_string()));
        out
    }

    #[test]
    fn gpt2_pattern_cuts_as_the_regular_expression() {
        assert_eq!(words("Hello world's  end!!\n\n x"), ["Hello", " world", "'s", " ", " end", "!!", "\n\n", " x"]);
        assert_eq!(words("a  "), ["a", "  "]);
        assert_eq!(words("I'M 42x"), ["I", "'", "M", " 42", "x"]);
    }

    #[test]
    fn bytes_map_to_distinct_characters() {
        let table = byte_chars();
        let mut seen: Vec<char> = table.to_vec();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 256);
        assert_eq!(table[b' ' as usize], 'Ġ');
        assert_eq!(table[b'\n' as usize], 'Ċ');
    }
}
