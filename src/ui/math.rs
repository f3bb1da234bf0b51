//! MathML written in Rust (no CDN, no script): numbers, 2 × 2 matrices and 2-vectors with the
//! live values of a chapter, for `inner_html` (the numbers are formatted here, never user text).

use crate::charts::format::short_number;

/// A number as `<mn>`, with a typographic minus as `<mo>`.
pub fn mn(x: f64) -> String {
    let text = short_number(x);
    match text.strip_prefix('−') {
        Some(rest) => format!("<mrow><mo>−</mo><mn>{rest}</mn></mrow>"),
        None => format!("<mn>{text}</mn>"),
    }
}

/// A 2 × 2 matrix of MathML cells.
pub fn matrix(cells: [[String; 2]; 2]) -> String {
    let rows: String = cells.iter().map(|row| format!("<mtr><mtd>{}</mtd><mtd>{}</mtd></mtr>", row[0], row[1])).collect();
    // Brackets drawn by CSS (`mtable.bracketed`): fonts without a MATH table do not stretch <mo>[.
    format!("<mtable class=\"bracketed\">{rows}</mtable>")
}

/// A column of two MathML cells.
pub fn column(top: String, bottom: String) -> String {
    format!("<mtable class=\"bracketed\"><mtr><mtd>{top}</mtd></mtr><mtr><mtd>{bottom}</mtd></mtr></mtable>")
}

/// A block `<math>` around `body`.
pub fn block(body: &str) -> String {
    format!("<math display=\"block\"><mrow>{body}</mrow></math>")
}

/// a + bi as MathML.
pub fn complex(re: f64, im: f64) -> String {
    let sign = if im < 0.0 { "−" } else { "+" };
    format!("<mrow>{}<mo>{sign}</mo>{}<mi>i</mi></mrow>", mn(re), mn(im.abs()))
}

/// A symbol with a subscript, e.g. `sub("θ", "i")`.
pub fn sub(base: &str, index: &str) -> String {
    format!("<msub><mi>{base}</mi><mi>{index}</mi></msub>")
}

/// e raised to `exponent` (MathML).
pub fn exp(exponent: &str) -> String {
    format!("<msup><mi>e</mi><mrow>{exponent}</mrow></msup>")
}
