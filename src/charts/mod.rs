//! Drawing functions, generic over plotters' [`DrawingBackend`](plotters::prelude::DrawingBackend):
//! the same function draws to a `<canvas>` in the browser and to an SVG string in a native
//! snapshot test. They take plain data and colours; no Leptos, no signals.

mod decay;
pub mod format;

pub use decay::{draw_decay, DecayChart};

use plotters::style::RGBColor;

/// Colours and sizes for one chart, chosen by the page from its theme.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChartStyle {
    pub background: RGBColor,
    pub text: RGBColor,
    pub grid: RGBColor,
    /// The bound's curve.
    pub bound: RGBColor,
    /// The readout cursor.
    pub cursor: RGBColor,
    /// Multiplies font sizes and strokes: the device pixel ratio, so that HiDPI canvases stay sharp.
    pub scale: f64,
}

impl ChartStyle {
    pub const LIGHT: ChartStyle = ChartStyle {
        background: RGBColor(255, 255, 255),
        text: RGBColor(28, 32, 40),
        grid: RGBColor(222, 226, 232),
        bound: RGBColor(0, 114, 178),
        cursor: RGBColor(213, 94, 0),
        scale: 1.0,
    };

    pub const DARK: ChartStyle = ChartStyle {
        background: RGBColor(22, 25, 31),
        text: RGBColor(226, 230, 236),
        grid: RGBColor(52, 58, 68),
        bound: RGBColor(86, 180, 233),
        cursor: RGBColor(230, 159, 0),
        scale: 1.0,
    };

    pub fn with_scale(self, scale: f64) -> Self {
        let scale = if scale.is_finite() && scale > 0.0 { scale.clamp(0.5, 4.0) } else { 1.0 };
        Self { scale, ..self }
    }

    fn px(&self, size: f64) -> u32 {
        (size * self.scale).round().max(1.0) as u32
    }
}
