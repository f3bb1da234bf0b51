//! Finding the mistake: which known way of getting RoPE wrong explains a paste.

use super::TestInput;

/// What the paste was found to be.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnosis {
    /// The contract's verdict: `match`, `layout`, `direction`, `cos-sin`, `offset:<k>`,
    /// `base:<b>`, `exponent`, `partial:<r>`, `linear:<s>`, `ntk:<s>`, `precision:bf16`,
    /// `precision:fp16`, `mismatch`; two found mistakes joined by `+`.
    pub verdict: String,
    /// One or two sentences for people.
    pub text: String,
    /// The largest |difference| once the diagnosis is applied (against the page's own result
    /// for match and mismatch). Always finite.
    pub max_error: f64,
    /// The largest |difference| against the page's own result per plane (d/2) and per row (T).
    pub per_plane: Vec<f64>,
    pub per_row: Vec<f64>,
    /// URL parameters that set the page to what the paste was found to be.
    pub settings: Vec<(&'static str, String)>,
}

/// Names what `pasted` (T × d, as [`super::parse::read_paste`] returns it) does differently from the page.
pub fn diagnose(input: &TestInput, pasted: &[Vec<f64>]) -> Diagnosis {
    let _ = (input, pasted);
    Diagnosis {
        verdict: "mismatch".into(),
        text: "Not diagnosed yet.".into(),
        max_error: 0.0,
        per_plane: Vec::new(),
        per_row: Vec::new(),
        settings: Vec::new(),
    }
}
