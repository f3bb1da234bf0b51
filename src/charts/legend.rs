//! Chart legends as data: each chart says what its curves and marks are, and the page shows
//! the entries as text beside the canvas (legible at any width, read by screen readers, and
//! never drawn over a curve).

use plotters::style::RGBColor;

/// How an entry's sample looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Line,
    /// A dashed line: a reference, not data.
    Dashed,
    Dot,
    Ring,
}

/// One entry of a legend.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendEntry {
    pub label: String,
    pub colour: RGBColor,
    pub mark: Mark,
}

impl LegendEntry {
    pub fn new(label: impl Into<String>, colour: RGBColor, mark: Mark) -> Self {
        Self { label: label.into(), colour, mark }
    }

    /// The colour as CSS, `#rrggbb`.
    pub fn css_colour(&self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.colour.0, self.colour.1, self.colour.2)
    }
}
