//! Reading what people paste: nested lists, JSON, numpy's `array([...], dtype=float32)` and
//! torch's `tensor([...], device='cuda:0', dtype=torch.bfloat16, grad_fn=<…>)` as they print,
//! over any number of lines, in scientific notation, with leading axes of size 1 (a batch, a
//! head). Nothing else: a word that is not a number, NaN or infinity, or rows of the wrong
//! length say so.

/// Why a paste could not be read, in one sentence that says what was read and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasteError(pub String);

impl std::fmt::Display for PasteError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PasteError {}

/// A nested list as read.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Number(f64),
    List(Vec<Value>),
}

/// The `rows` × `dim` numbers of `text`.
pub fn read_paste(text: &str, rows: usize, dim: usize) -> Result<Vec<Vec<f64>>, PasteError> {
    let body = strip_wrapper(text.trim());
    // Where the body starts in the paste, in characters: messages count from the paste's start.
    let skipped = text.get(..(body.as_ptr() as usize).saturating_sub(text.as_ptr() as usize)).map_or(0, |s| s.chars().count());
    let chars: Vec<char> = body.chars().collect();
    if chars.is_empty() {
        return Err(PasteError("nothing to read: paste the printed result".into()));
    }
    let mut reader = Reader { chars: &chars, at: 0, skipped };
    reader.space();
    let value = if reader.peek() == Some('[') {
        let value = reader.list(0)?;
        reader.space();
        if let Some(c) = reader.peek() {
            return Err(PasteError(format!("'{}' at character {} follows the list", reader.word(c), reader.skipped + reader.at + 1)));
        }
        value
    } else {
        // Bare numbers: one row per line, numbers separated by spaces or commas.
        let mut lines = Vec::new();
        for line in body.lines().filter(|l| !l.trim().is_empty()) {
            let mut row = Vec::new();
            for word in line.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty()) {
                row.push(Value::Number(number(word).ok_or_else(|| PasteError(not_a_number(word)))?));
            }
            lines.push(Value::List(row));
        }
        Value::List(lines)
    };
    // Leading axes of size 1 (a batch, a head) are looked through.
    let mut value = value;
    while let Value::List(items) = &value {
        match items.as_slice() {
            [Value::List(inner)] if inner.iter().all(|v| matches!(v, Value::List(_))) && !inner.is_empty() => value = items[0].clone(),
            _ => break,
        }
    }
    let Value::List(items) = value else { return Err(PasteError(format!("read one number; expected {rows} rows of {dim}"))) };
    let mut out = Vec::with_capacity(items.len());
    for item in &items {
        match item {
            Value::List(row) => {
                let mut numbers = Vec::with_capacity(row.len());
                for v in row {
                    match v {
                        Value::Number(x) => numbers.push(*x),
                        Value::List(_) => {
                            return Err(PasteError(format!(
                                "read more than two levels of lists; expected {rows} rows of {dim} numbers (the test input's rows × d)"
                            )))
                        }
                    }
                }
                out.push(numbers);
            }
            Value::Number(_) => {
                let count = items.len();
                return Err(PasteError(format!(
                    "read one list of {count} numbers; expected {rows} rows of {dim} (the test input's rows × d)"
                )));
            }
        }
    }
    let lengths: Vec<usize> = out.iter().map(Vec::len).collect();
    if out.len() != rows || lengths.iter().any(|l| *l != dim) {
        let read = match lengths.iter().min().zip(lengths.iter().max()) {
            Some((lo, hi)) if lo == hi => format!("{} rows of {lo} numbers", out.len()),
            Some((lo, hi)) => format!("{} rows of {lo} to {hi} numbers", out.len()),
            None => "no rows".to_string(),
        };
        return Err(PasteError(format!("read {read}; expected {rows} rows of {dim} (the test input's rows × d)")));
    }
    Ok(out)
}

/// `array(…)` / `tensor(…)` and their tails (`dtype=`, `device=`, `grad_fn=`, `requires_grad=`)
/// taken off: what is inside the outermost brackets.
fn strip_wrapper(text: &str) -> &str {
    let inner = ["array(", "tensor(", "np.array(", "torch.tensor("].iter().find_map(|p| text.strip_prefix(p)).unwrap_or(text);
    if inner.len() == text.len() {
        return text;
    }
    // From the first '[' to its matching ']'.
    let Some(start) = inner.find('[') else { return inner };
    let mut depth = 0usize;
    for (i, c) in inner[start..].char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return &inner[start..start + i + 1];
                }
            }
            _ => {}
        }
    }
    inner
}

fn not_a_number(word: &str) -> String {
    let shown: String = word.chars().take(24).collect();
    match word.to_ascii_lowercase().trim_start_matches(['+', '-']) {
        "nan" => "the paste holds NaN: the implementation produced a value that is not a number".into(),
        "inf" | "infinity" => "the paste holds an infinity: the implementation overflowed".into(),
        "..." => "numpy or torch shortened the printout ('...'): print out.tolist() instead".into(),
        _ => format!("'{shown}' is not a number"),
    }
}

/// A number as Python, numpy, torch and JSON print one (ASCII or Unicode minus).
fn number(word: &str) -> Option<f64> {
    let word = word.trim().replace('−', "-");
    let word = word.strip_suffix('.').map(|w| w.to_string()).unwrap_or(word);
    let value: f64 = word.parse().ok()?;
    value.is_finite().then_some(value)
}

struct Reader<'a> {
    chars: &'a [char],
    at: usize,
    /// Characters of the paste before `chars` (an `array(` or `tensor(` taken off).
    skipped: usize,
}

/// Lists nest at most this deep (a batch, heads, rows, numbers and some).
const DEEPEST: usize = 8;

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    /// The word starting at the current character, for a message.
    fn word(&self, first: char) -> String {
        let word: String =
            self.chars[self.at..].iter().take_while(|c| !c.is_whitespace() && !matches!(c, ',' | '[' | ']')).take(24).collect();
        if word.is_empty() {
            first.to_string()
        } else {
            word
        }
    }

    fn list(&mut self, depth: usize) -> Result<Value, PasteError> {
        if depth >= DEEPEST {
            return Err(PasteError("the lists nest too deep: paste the rows × d result".into()));
        }
        self.at += 1; // '['
        let mut items = Vec::new();
        loop {
            self.space();
            match self.peek() {
                None => return Err(PasteError("a '[' is never closed: the paste looks cut short".into())),
                Some(']') => {
                    self.at += 1;
                    return Ok(Value::List(items));
                }
                Some('[') => items.push(self.list(depth + 1)?),
                Some(c) => {
                    let start = self.at;
                    let word = self.word(c);
                    self.at += word.chars().count().max(1);
                    match number(&word) {
                        Some(v) => items.push(Value::Number(v)),
                        None => return Err(PasteError(format!("{} (at character {})", not_a_number(&word), self.skipped + start + 1))),
                    }
                }
            }
            self.space();
            match self.peek() {
                Some(',') => self.at += 1,
                Some(']') | Some('[') => {}
                None => return Err(PasteError("a '[' is never closed: the paste looks cut short".into())),
                // numpy prints rows without commas between numbers.
                Some(_) => {}
            }
        }
    }
}
