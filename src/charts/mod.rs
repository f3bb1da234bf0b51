//! Drawing functions, generic over plotters' [`DrawingBackend`](plotters::prelude::DrawingBackend):
//! the same function draws to a `<canvas>` in the browser and to an SVG string in a native
//! snapshot test. They take plain data and colours; no Leptos, no signals.

mod clocks;
mod decay;
pub mod envelope;
pub mod format;
mod frequencies;
pub mod gif;
mod heatmap;
mod legend;
pub mod painter;
pub mod palette;
mod plane;
pub mod svg;

pub use clocks::{
    clock_grid, clock_grid_magnified, draw_clock_faces, draw_clock_hands, draw_contributions, paint_clock_hands, ClockFace, ClockGrid,
};
pub use decay::{
    draw_absolute, draw_decay, draw_decay_frame, headroom, line_width, AbsoluteChart, DecayChart, DecayFrame, DecayLine, DecayPlot,
};
pub use frequencies::{draw_frequencies, FrequencyChart};
pub use heatmap::{
    diverging, draw_heatmap_frame, heatmap_layout, heatmap_layout_magnified, heatmap_limit, heatmap_rgba, HeatmapFrame, HeatmapLayout,
};
pub use legend::{LegendEntry, Mark};
pub use plane::{draw_plane_view, PlaneView};

use plotters::style::{IntoFont, RGBColor, TextStyle};

/// Colours and sizes for one chart, chosen by the page from its theme.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChartStyle {
    pub background: RGBColor,
    pub text: RGBColor,
    pub grid: RGBColor,
    /// The query q, wherever it appears in the app (Okabe-Ito blue).
    pub q: RGBColor,
    /// The key k, wherever it appears (Okabe-Ito vermillion).
    pub k: RGBColor,
    /// The relative phasor e^{−i(n−m)θ} (Okabe-Ito reddish purple).
    pub phasor: RGBColor,
    /// The decay bound's curve (Okabe-Ito bluish green: not q's blue).
    pub bound: RGBColor,
    /// The readout cursor and the selected plane.
    pub cursor: RGBColor,
    /// Multiplies font sizes and strokes: the device pixel ratio, so that HiDPI canvases stay sharp.
    pub scale: f64,
    /// Multiplies them again beyond the pixel ratio: presenter mode's larger type and lines.
    pub magnify: f64,
}

impl ChartStyle {
    /// The colours of the light or the dark theme, from the [`palette`], at scale 1.
    pub const fn for_theme(dark: bool) -> Self {
        ChartStyle {
            background: palette::SURFACE.pick(dark),
            text: palette::TEXT.pick(dark),
            grid: palette::GRID.pick(dark),
            q: palette::Q.pick(dark),
            k: palette::K.pick(dark),
            phasor: palette::PHASOR.pick(dark),
            bound: palette::BOUND.pick(dark),
            cursor: palette::TEXT.pick(dark),
            scale: 1.0,
            magnify: 1.0,
        }
    }

    /// The text colour at `share` of its strength over the background, as one solid colour (a
    /// legend shows exactly what the chart draws): for reference lines.
    pub fn faded(&self, share: f64) -> RGBColor {
        let mix = |t: u8, b: u8| (f64::from(t) * share + f64::from(b) * (1.0 - share)).round().clamp(0.0, 255.0) as u8;
        RGBColor(mix(self.text.0, self.background.0), mix(self.text.1, self.background.1), mix(self.text.2, self.background.2))
    }

    pub const LIGHT: ChartStyle = ChartStyle::for_theme(false);
    pub const DARK: ChartStyle = ChartStyle::for_theme(true);

    /// The charts' font at `size` CSS pixels, in the text colour, scaled for the device.
    pub fn font(&self, size: f64) -> TextStyle<'static> {
        ("sans-serif", ((size * self.scale) as u32).max(6)).into_font().color(&self.text)
    }

    pub fn with_scale(self, scale: f64) -> Self {
        let scale = if scale.is_finite() && scale > 0.0 { scale.clamp(0.5, 4.0) } else { 1.0 };
        Self { scale: scale * self.magnify, ..self }
    }

    /// The device pixel ratio alone, for positions (scale without the magnification).
    pub fn ratio(&self) -> f64 {
        self.scale / self.magnify
    }

    /// Type and strokes `factor` times as large at every pixel ratio (presenter mode).
    pub fn magnified(self, factor: f64) -> Self {
        let magnify = if factor.is_finite() && factor > 0.0 { factor.clamp(1.0, 3.0) } else { 1.0 };
        Self { magnify, scale: self.scale / self.magnify * magnify, ..self }
    }
}
