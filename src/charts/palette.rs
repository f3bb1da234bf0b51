//! The page's colours, in one table for both themes. The charts take theirs from here
//! ([`super::ChartStyle`]), and the style sheet's custom properties (`style/palette.css`) are
//! generated from it: `UPDATE_SNAPSHOTS=1 cargo test --test palette` rewrites the file, and the
//! same test fails whenever the file and this table disagree.
//!
//! Okabe-Ito hues, distinguishable with colour-blindness: q is blue and k vermillion everywhere.

use plotters::style::RGBColor;

/// One named colour in the light and the dark theme.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Swatch {
    /// The CSS custom property, without its leading `--`.
    pub name: &'static str,
    pub light: RGBColor,
    pub dark: RGBColor,
}

impl Swatch {
    pub const fn pick(&self, dark: bool) -> RGBColor {
        if dark {
            self.dark
        } else {
            self.light
        }
    }
}

const fn swatch(name: &'static str, light: (u8, u8, u8), dark: (u8, u8, u8)) -> Swatch {
    Swatch { name, light: RGBColor(light.0, light.1, light.2), dark: RGBColor(dark.0, dark.1, dark.2) }
}

/// The page behind the cards.
pub const BG: Swatch = swatch("bg", (247, 248, 250), (17, 19, 24));
/// Cards, and every chart's background.
pub const SURFACE: Swatch = swatch("surface", (255, 255, 255), (26, 29, 36));
pub const TEXT: Swatch = swatch("text", (28, 32, 40), (228, 231, 236));
pub const MUTED: Swatch = swatch("muted", (77, 86, 102), (169, 177, 190));
pub const BORDER: Swatch = swatch("border", (213, 218, 226), (52, 58, 69));
/// Chart grid lines.
pub const GRID: Swatch = swatch("grid", (222, 226, 232), (52, 58, 68));
pub const ACCENT: Swatch = swatch("accent", (11, 92, 173), (124, 184, 242));
pub const FOCUS: Swatch = swatch("focus", (11, 92, 173), (124, 184, 242));
/// The query q (Okabe-Ito blue).
pub const Q: Swatch = swatch("q", (0, 114, 178), (86, 180, 233));
/// The key k (Okabe-Ito vermillion; orange on dark).
pub const K: Swatch = swatch("k", (213, 94, 0), (230, 159, 0));
/// k as text: 4.5:1 on white needs a darker shade of the same hue.
pub const K_TEXT: Swatch = swatch("k-text", (184, 75, 0), (230, 159, 0));
/// The relative phasor e^{−i(n−m)θ} (Okabe-Ito reddish purple).
pub const PHASOR: Swatch = swatch("phasor", (204, 121, 167), (204, 121, 167));
pub const PHASOR_TEXT: Swatch = swatch("phasor-text", (160, 69, 122), (204, 121, 167));
/// The decay bound (Okabe-Ito bluish green: not q's blue).
pub const BOUND: Swatch = swatch("bound", (0, 158, 115), (0, 158, 115));
/// The bound's green as text: 4.5:1 on white needs a darker shade.
pub const BOUND_TEXT: Swatch = swatch("bound-text", (0, 120, 87), (0, 158, 115));
/// Other bases' bounds overlaid on the decay chart.
pub const COMPARE: [Swatch; 3] = [
    swatch("compare-1", (0, 90, 66), (0, 90, 66)),
    swatch("compare-2", (86, 190, 150), (86, 190, 150)),
    swatch("compare-3", (120, 120, 120), (120, 120, 120)),
];
/// The badges marking q and k on tokens: white text on them reads at 4.5:1 in both themes.
pub const MARKER_Q: Swatch = swatch("marker-q", (0, 114, 178), (0, 114, 178));
pub const MARKER_K: Swatch = swatch("marker-k", (181, 77, 0), (181, 77, 0));
pub const ON_MARKER: Swatch = swatch("on-marker", (255, 255, 255), (255, 255, 255));
pub const NOTICE_BG: Swatch = swatch("notice-bg", (255, 246, 223), (46, 39, 18));
pub const NOTICE_BORDER: Swatch = swatch("notice-border", (201, 138, 0), (201, 138, 0));
pub const ERROR: Swatch = swatch("error", (179, 38, 30), (242, 184, 181));

/// Paper and ink: a printed handout, and the shade behind a dialog, in either theme.
pub const PAPER: Swatch = swatch("paper", (255, 255, 255), (255, 255, 255));
pub const INK: Swatch = swatch("ink", (0, 0, 0), (0, 0, 0));

/// Every swatch, in the order the style sheet lists them.
pub const ALL: [Swatch; 26] = [
    BG,
    SURFACE,
    TEXT,
    MUTED,
    BORDER,
    GRID,
    ACCENT,
    FOCUS,
    Q,
    K,
    K_TEXT,
    PHASOR,
    PHASOR_TEXT,
    BOUND,
    BOUND_TEXT,
    COMPARE[0],
    COMPARE[1],
    COMPARE[2],
    MARKER_Q,
    MARKER_K,
    ON_MARKER,
    NOTICE_BG,
    NOTICE_BORDER,
    ERROR,
    PAPER,
    INK,
];

/// Presenter mode's stronger colours for the same custom properties (`present=1`): secondary
/// text as dark as the text, and borders and grid lines that a projector does not wash out.
pub const PRESENTER: [Swatch; 3] = [
    swatch("muted", (28, 32, 40), (228, 231, 236)),
    swatch("border", (91, 100, 114), (154, 163, 178)),
    swatch("grid", (184, 191, 202), (89, 97, 110)),
];

fn hex(colour: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", colour.0, colour.1, colour.2)
}

/// The style sheet `style/palette.css`: every swatch as a custom property, light on `:root`,
/// dark on `:root[data-theme="dark"]` (the app sets `data-theme`).
pub fn palette_css() -> String {
    let lines = |swatches: &[Swatch], dark: bool| -> String {
        swatches.iter().map(|s| format!("  --{}: {};\n", s.name, hex(s.pick(dark)))).collect()
    };
    let block = |selector: &str, scheme: &str, dark: bool| format!("{selector} {{\n{}  color-scheme: {scheme};\n}}\n", lines(&ALL, dark));
    let presenter = |selector: &str, dark: bool| format!("{selector} {{\n{}}}\n", lines(&PRESENTER, dark));
    // Paper is white: a page in the dark theme prints in the light one.
    let print =
        format!("@media print {{\n{}}}\n", block(":root[data-theme=\"dark\"],\n:root[data-theme=\"dark\"][data-present]", "light", false));
    format!(
        "/* Generated from src/charts/palette.rs by `UPDATE_SNAPSHOTS=1 cargo test --test palette`: edit the table there. */\n\n{}\n{}\n{}\n{}\n{print}",
        block(":root", "light", false),
        block(":root[data-theme=\"dark\"]", "dark", true),
        presenter(":root[data-present]", false),
        presenter(":root[data-theme=\"dark\"][data-present]", true)
    )
}
