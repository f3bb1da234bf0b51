//! Reading what people paste: a list of lists as Python, JSON, numpy (`array([...],
//! dtype=float32)`, or its `print` without commas) and torch (`tensor([...], device='cuda:0',
//! dtype=torch.bfloat16, grad_fn=<...>)`) write it, with leading axes of size 1, line breaks,
//! scientific notation and Unicode minus signs. Anything else gets a message that says what was
//! read and what was expected.

/// Why a paste could not be read as `rows` × `dim` numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct PasteError {
    pub kind: PasteErrorKind,
    /// The shape expected: (T, d).
    pub expected: (usize, usize),
}

#[derive(Debug, Clone, PartialEq)]
pub enum PasteErrorKind {
    /// Nothing but space.
    Empty,
    /// `text` at character `at` (counted from 1) is not a number.
    NotANumber { text: String, at: usize },
    /// nan or inf at character `at`.
    NotFinite { text: String, at: usize },
    /// numpy's or torch's `...`: the printout left numbers out.
    Abbreviated { at: usize },
    /// A bracket opened and not closed, or closed and not opened (at character `at`).
    Unbalanced { at: usize },
    /// Rows of different lengths: the lengths read, in order.
    Ragged { lengths: Vec<usize> },
    /// A readable array of another shape (size-1 axes kept as read).
    Shape { shape: Vec<usize> },
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

impl std::fmt::Display for PasteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (t, d) = self.expected;
        let expected = format!("expected {} of {} (the test input's T × d)", plural(t, "row", "rows"), plural(d, "number", "numbers"));
        match &self.kind {
            PasteErrorKind::Empty => write!(f, "nothing to read; {expected}"),
            PasteErrorKind::NotANumber { text, at } => write!(f, "'{text}' at character {at} is not a number; {expected}"),
            PasteErrorKind::NotFinite { text, at } => {
                write!(f, "'{text}' at character {at} is not a finite number: the implementation returned it for a finite input")
            }
            PasteErrorKind::Abbreviated { at } => write!(
                f,
                "the printout leaves numbers out ('...' at character {at}); print all of them, e.g. print(out.tolist()); {expected}"
            ),
            PasteErrorKind::Unbalanced { at } => write!(f, "the bracket at character {at} has no partner; {expected}"),
            PasteErrorKind::Ragged { lengths } => {
                let shown = lengths.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ");
                write!(f, "read rows of different lengths ({shown}); {expected}")
            }
            PasteErrorKind::Shape { shape } => match shape.as_slice() {
                [n] => write!(f, "read one list of {}; {expected}", plural(*n, "number", "numbers")),
                [r, c] => write!(f, "read {} of {}; {expected}", plural(*r, "row", "rows"), plural(*c, "number", "numbers")),
                _ => {
                    let dims = shape.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" × ");
                    write!(f, "read an array of shape {dims}; {expected}")
                }
            },
        }
    }
}

impl std::error::Error for PasteError {}

/// A token: a bracket or a number, with the character (from 1) where it starts.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Token {
    Open(usize),
    Close(usize),
    Number(f64),
    /// A line break (rows of a bracket-less paste).
    Line,
}

/// A nested list as read.
#[derive(Debug, Clone, PartialEq)]
enum Node {
    Number(f64),
    List(Vec<Node>),
}

/// Words that wrap a printed array and carry no numbers.
const WRAPPERS: [&str; 6] = ["array", "tensor", "np.array", "torch.tensor", "numpy.array", "Tensor"];

/// Reads `text` as `rows` × `dim` numbers (see the module's documentation for what is read).
pub fn read_paste(text: &str, rows: usize, dim: usize) -> Result<Vec<Vec<f64>>, PasteError> {
    let fail = |kind| PasteError { kind, expected: (rows, dim) };
    let tokens = tokenize(text).map_err(fail)?;
    let has_brackets = tokens.iter().any(|t| matches!(t, Token::Open(_)));
    let node = if has_brackets { nest(&tokens).map_err(fail)? } else { lines(&tokens) };
    let Node::List(items) = &node else { return Err(fail(PasteErrorKind::Empty)) };
    if items.is_empty() {
        return Err(fail(PasteErrorKind::Empty));
    }
    let mut shape = shape_of(&node).map_err(fail)?;
    let values = flatten(&node);
    // Leading axes of size 1 (batch, heads) go first, then any other of size 1 (a head axis
    // after the positions), while more than two axes are left.
    while shape.len() > 2 {
        match shape.iter().position(|&n| n == 1) {
            Some(i) => {
                shape.remove(i);
            }
            None => break,
        }
    }
    match shape.as_slice() {
        [r, c] if *r == rows && *c == dim => {}
        // Planes as pairs: T × d/2 × 2 (torch.view_as_real of the complex form).
        [r, p, 2] if *r == rows && p * 2 == dim => {}
        // One flat list of every number (out.flatten().tolist()).
        [n] if *n == rows * dim && rows > 0 => {}
        _ => return Err(fail(PasteErrorKind::Shape { shape })),
    }
    let table = if dim == 0 { vec![Vec::new(); rows] } else { values.chunks(dim).map(<[f64]>::to_vec).collect() };
    Ok(table)
}

/// Splits the text into brackets, numbers and line breaks, skipping what wraps a printed array.
fn tokenize(text: &str) -> Result<Vec<Token>, PasteErrorKind> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let at = i + 1;
        match c {
            '[' => tokens.push(Token::Open(at)),
            ']' => tokens.push(Token::Close(at)),
            '\n' => tokens.push(Token::Line),
            // Commas, parentheses, braces, colons and space separate; semicolons end MATLAB-ish rows.
            c if c.is_whitespace() || matches!(c, ',' | '(' | ')' | '{' | '}' | ':' | ';') => {}
            '.' if chars.get(i + 1) == Some(&'.') => return Err(PasteErrorKind::Abbreviated { at }),
            '…' => return Err(PasteErrorKind::Abbreviated { at }),
            '"' | '\'' => {
                // A quoted key or value (JSON's {"output": ...}, device='cuda:0'): skipped whole.
                let end = chars[i + 1..].iter().position(|&q| q == c).map_or(chars.len(), |n| i + 1 + n);
                i = end + 1;
                continue;
            }
            '<' => {
                // torch's grad_fn=<AddBackward0>.
                let end = chars[i..].iter().position(|&q| q == '>').map_or(chars.len(), |n| i + n);
                i = end + 1;
                continue;
            }
            c if c.is_ascii_digit() || matches!(c, '-' | '+' | '−' | '.') => {
                let start = i;
                let mut j = i;
                let mut number = String::new();
                if matches!(chars[j], '-' | '+' | '−') {
                    number.push(if chars[j] == '+' { '+' } else { '-' });
                    j += 1;
                }
                while let Some(&next) = chars.get(j) {
                    let exponent_sign = matches!(next, '-' | '+') && j > start && matches!(chars[j - 1], 'e' | 'E');
                    if !(next.is_ascii_alphanumeric() || matches!(next, '.' | '_') || exponent_sign) {
                        break;
                    }
                    number.push(next);
                    j += 1;
                }
                let word: String = chars[start..j].iter().collect();
                let lower = number.to_ascii_lowercase();
                let unsigned = lower.trim_start_matches(['-', '+']);
                if matches!(unsigned, "nan" | "inf" | "infinity") {
                    return Err(PasteErrorKind::NotFinite { text: word, at });
                }
                match number.parse::<f64>() {
                    Ok(v) if v.is_finite() && !unsigned.starts_with(|c: char| c.is_ascii_alphabetic()) => tokens.push(Token::Number(v)),
                    Ok(_) => return Err(PasteErrorKind::NotFinite { text: word, at }),
                    Err(_) => {
                        // numpy prints whole floats as "1." and Python accepts "1_000"; Rust needs help.
                        let fixed = number.replace('_', "");
                        let fixed = if fixed.ends_with('.') { format!("{fixed}0") } else { fixed };
                        match fixed.parse::<f64>() {
                            Ok(v) if v.is_finite() => tokens.push(Token::Number(v)),
                            Ok(_) => return Err(PasteErrorKind::NotFinite { text: word, at }),
                            Err(_) => return Err(PasteErrorKind::NotANumber { text: word, at }),
                        }
                    }
                }
                i = j;
                continue;
            }
            c if c.is_alphabetic() || c == '_' => {
                let start = i;
                let mut j = i;
                while j < chars.len() && (chars[j].is_alphanumeric() || matches!(chars[j], '_' | '.')) {
                    j += 1;
                }
                let word: String = chars[start..j].iter().collect();
                let next = chars[j..].iter().find(|c| !c.is_whitespace()).copied();
                let lower = word.to_ascii_lowercase();
                if matches!(lower.as_str(), "nan" | "inf" | "infinity") {
                    return Err(PasteErrorKind::NotFinite { text: word, at });
                }
                if next == Some('=') {
                    // A keyword argument (dtype=, device=, requires_grad=, grad_fn=): skip its value.
                    let mut k = j;
                    while k < chars.len() && chars[k] != '=' {
                        k += 1;
                    }
                    k += 1;
                    while k < chars.len() && chars[k].is_whitespace() {
                        k += 1;
                    }
                    match chars.get(k) {
                        Some('\'' | '"' | '<') => {}
                        Some('(' | '[') => {
                            // shape=(6, 64): a group, skipped whole.
                            let mut depth = 0usize;
                            while let Some(&c) = chars.get(k) {
                                k += 1;
                                match c {
                                    '(' | '[' => depth += 1,
                                    ')' | ']' => {
                                        depth = depth.saturating_sub(1);
                                        if depth == 0 {
                                            break;
                                        }
                                    }
                                    _ => {}
                                }
                            }
                        }
                        _ => {
                            while k < chars.len() && (chars[k].is_alphanumeric() || matches!(chars[k], '_' | '.' | ':' | '-')) {
                                k += 1;
                            }
                        }
                    }
                    i = k;
                    continue;
                }
                // array(...), tensor(...), and NumPy 2's scalars in a list: np.float32(0.5).
                let scalar = ["np.", "numpy.", "torch."].iter().any(|p| word.starts_with(p)) || word == "float";
                if (WRAPPERS.contains(&word.as_str()) || scalar) && next == Some('(') {
                    i = j;
                    continue;
                }
                if matches!(word.as_str(), "Out" | "In") {
                    // IPython's prompt, Out[3]: — the bracket holds the cell's number, not data.
                    let close = chars[j..].iter().position(|&c| c == ']');
                    i = if next == Some('[') { close.map_or(j, |n| j + n + 1) } else { j };
                    continue;
                }
                return Err(PasteErrorKind::NotANumber { text: word, at });
            }
            other => return Err(PasteErrorKind::NotANumber { text: other.to_string(), at }),
        }
        i += 1;
    }
    Ok(tokens)
}

/// Builds the nested lists from brackets; numbers outside every bracket are an error.
fn nest(tokens: &[Token]) -> Result<Node, PasteErrorKind> {
    let mut stack: Vec<(usize, Vec<Node>)> = Vec::new();
    let mut top: Vec<Node> = Vec::new();
    for token in tokens {
        match *token {
            Token::Open(at) => stack.push((at, Vec::new())),
            Token::Close(at) => {
                let (_, items) = stack.pop().ok_or(PasteErrorKind::Unbalanced { at })?;
                match stack.last_mut() {
                    Some((_, parent)) => parent.push(Node::List(items)),
                    None => top.push(Node::List(items)),
                }
            }
            Token::Number(v) => match stack.last_mut() {
                Some((_, items)) => items.push(Node::Number(v)),
                None => top.push(Node::Number(v)),
            },
            Token::Line => {}
        }
    }
    if let Some((at, _)) = stack.first() {
        return Err(PasteErrorKind::Unbalanced { at: *at });
    }
    // One list read is that list; several side by side (numpy's print of rows) are its rows.
    Ok(match top.len() {
        1 if matches!(top[0], Node::List(_)) => top.remove(0),
        _ => Node::List(top),
    })
}

/// A paste without brackets: each non-empty line is a row (np.savetxt, a spreadsheet); a
/// single line is one flat list.
fn lines(tokens: &[Token]) -> Node {
    let mut rows: Vec<Node> = Vec::new();
    let mut row: Vec<Node> = Vec::new();
    for token in tokens {
        match token {
            Token::Number(v) => row.push(Node::Number(*v)),
            Token::Line if !row.is_empty() => rows.push(Node::List(std::mem::take(&mut row))),
            _ => {}
        }
    }
    if !row.is_empty() {
        rows.push(Node::List(row));
    }
    if rows.len() == 1 {
        rows.remove(0)
    } else {
        Node::List(rows)
    }
}

/// The shape of a rectangular nest (every list at a level of the same length and kind).
fn shape_of(node: &Node) -> Result<Vec<usize>, PasteErrorKind> {
    match node {
        Node::Number(_) => Ok(Vec::new()),
        Node::List(items) => {
            let Some(first) = items.first() else { return Ok(vec![0]) };
            let inner = shape_of(first)?;
            for item in items {
                if shape_of(item)? != inner {
                    let lengths = items.iter().map(|n| if let Node::List(v) = n { v.len() } else { 1 }).collect();
                    return Err(PasteErrorKind::Ragged { lengths });
                }
            }
            let mut shape = vec![items.len()];
            shape.extend(inner);
            Ok(shape)
        }
    }
}

fn flatten(node: &Node) -> Vec<f64> {
    match node {
        Node::Number(v) => vec![*v],
        Node::List(items) => items.iter().flat_map(flatten).collect(),
    }
}
