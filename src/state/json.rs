//! A small JSON reader for pasted model configs: objects, arrays, strings, numbers, booleans
//! and null, with errors that say where the text broke (line and column). Written here rather
//! than pulled in (serde_json) because the page needs nothing else from JSON and every
//! kilobyte is downloaded by each reader of an embed.

use super::parse::parse_f64;

/// A parsed JSON value. Objects keep their keys in order (a config has few).
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// Where and why the text is not JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    pub line: usize,
    pub column: usize,
    pub reason: &'static str,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.reason)
    }
}

/// Deeper nesting than this is refused (a config has three levels): no stack overflow on `[[[[…`.
const MAX_DEPTH: usize = 64;

impl Json {
    /// Parses `text`, which must hold exactly one value (whitespace around it is fine).
    pub fn parse(text: &str) -> Result<Json, JsonError> {
        let mut reader = Parser { text: text.as_bytes(), at: 0 };
        let value = reader.value(0)?;
        reader.skip_space();
        if reader.at < reader.text.len() {
            return Err(reader.error("unexpected text after the end of the value"));
        }
        Ok(value)
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(v) => Some(*v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// What kind of value this is, for messages ("a string", "null").
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "a list",
            Json::Object(_) => "an object",
        }
    }
}

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn error(&self, reason: &'static str) -> JsonError {
        let before = &self.text[..self.at.min(self.text.len())];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let line_start = before.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        // Columns count characters, not bytes.
        let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
        JsonError { line, column, reason }
    }

    fn skip_space(&mut self) {
        while self.text.get(self.at).is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn expect(&mut self, byte: u8, reason: &'static str) -> Result<(), JsonError> {
        self.skip_space();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(reason))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.skip_space();
        match self.peek() {
            None => Err(self.error("the text ends where a value should be")),
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Json::String),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b'T' | b'F') => Err(self.error("Python's True and False are not JSON: write true and false")),
            Some(b'N') if self.text[self.at..].starts_with(b"None") => Err(self.error("Python's None is not JSON: write null")),
            Some(b'N' | b'I') => Err(self.error("NaN and Infinity are not JSON numbers")),
            Some(b'\'') => Err(self.error("strings take double quotes in JSON")),
            Some(_) => Err(self.error("expected a value (an object, list, string, number, true, false or null)")),
        }
    }

    fn word(&mut self, word: &'static str, value: Json) -> Result<Json, JsonError> {
        if self.text[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("expected true, false or null (Python's True, False and None are not JSON)"))
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.at += 1;
        let mut members = Vec::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return Err(self.error(if self.peek() == Some(b'}') {
                    "a comma before } (trailing commas are not JSON)"
                } else {
                    "expected a key in double quotes"
                }));
            }
            let key = self.string()?;
            self.expect(b':', "expected : after the key")?;
            let value = self.value(depth + 1)?;
            members.push((key, value));
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Json::Object(members));
                }
                _ => return Err(self.error("expected , or } after a member")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Json::Array(items));
        }
        loop {
            self.skip_space();
            if self.peek() == Some(b']') {
                return Err(self.error("a comma before ] (trailing commas are not JSON)"));
            }
            items.push(self.value(depth + 1)?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.error("expected , or ] after a list item")),
            }
        }
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.at += 1; // the opening quote
        let mut out = Vec::new();
        loop {
            let Some(byte) = self.peek() else {
                return Err(self.error("a string is not closed"));
            };
            self.at += 1;
            match byte {
                b'"' => break,
                b'\\' => {
                    let escaped = self.peek().ok_or_else(|| self.error("a string is not closed"))?;
                    self.at += 1;
                    match escaped {
                        b'"' | b'\\' | b'/' => out.push(escaped),
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let hex = self.text.get(self.at..self.at + 4).and_then(|h| std::str::from_utf8(h).ok());
                            let code = hex.and_then(|h| u32::from_str_radix(h, 16).ok()).ok_or_else(|| self.error("bad \\u escape"))?;
                            self.at += 4;
                            // Surrogate halves cannot stand alone in a Rust string.
                            let c = char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
                            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                        }
                        _ => {
                            self.at -= 1;
                            return Err(self.error("unknown escape in a string"));
                        }
                    }
                }
                b'\n' => {
                    self.at -= 1;
                    return Err(self.error("a string is not closed before the end of the line"));
                }
                _ => out.push(byte),
            }
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E')) {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.text[start..self.at]).unwrap_or("");
        // JSON's grammar: no leading +, no leading zeros, digits on both sides of the point.
        let body = text.strip_prefix('-').unwrap_or(text);
        let (mantissa, _) = body.split_once(['e', 'E']).unwrap_or((body, ""));
        let (whole, fraction) = mantissa.split_once('.').map_or((mantissa, None), |(w, f)| (w, Some(f)));
        let well_formed = !whole.is_empty()
            && whole.bytes().all(|b| b.is_ascii_digit())
            && !(whole.len() > 1 && whole.starts_with('0'))
            && fraction.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
        match parse_f64(text) {
            Some(v) if well_formed && v.is_finite() => Ok(Json::Number(v)),
            Some(_) if well_formed => {
                self.at = start;
                Err(self.error("a number too large for a 64-bit float"))
            }
            _ => {
                self.at = start;
                Err(self.error("not a JSON number"))
            }
        }
    }
}
