//! The style sheet's colours are generated from the Rust palette the charts use, so the page
//! and its charts cannot drift apart. `UPDATE_SNAPSHOTS=1 cargo test --test palette` rewrites
//! `style/palette.css` after a change to `src/charts/palette.rs`.
#![cfg(not(target_arch = "wasm32"))]

use rope_lab::charts::palette::{palette_css, ALL, PRESENTER};
use rope_lab::charts::ChartStyle;

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/style/palette.css");

#[test]
fn the_style_sheet_holds_exactly_the_palette() {
    let css = palette_css();
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(PATH, &css).unwrap();
    }
    let on_disk = std::fs::read_to_string(PATH).expect("style/palette.css exists");
    assert!(on_disk == css, "style/palette.css differs from src/charts/palette.rs; UPDATE_SNAPSHOTS=1 regenerates it");
}

#[test]
fn every_colour_is_defined_once_per_theme_and_the_charts_use_them() {
    let css = palette_css();
    for swatch in ALL {
        // Once per theme and once for print (in the light theme's colours), and once more per
        // theme for the few presenter mode strengthens.
        let presenter = PRESENTER.iter().any(|p| p.name == swatch.name);
        assert_eq!(css.matches(&format!("  --{}: #", swatch.name)).count(), if presenter { 5 } else { 3 }, "{}", swatch.name);
    }
    // The chart of a dark page draws on the dark card, in the dark text colour.
    let surface = ALL.iter().find(|s| s.name == "surface").unwrap();
    assert_eq!(ChartStyle::DARK.background, surface.dark);
    assert_eq!(ChartStyle::LIGHT.background, surface.light);
}

#[test]
fn the_style_sheets_define_no_colour_of_their_own() {
    // The page's own sheet and the ones its parts link (assets/*.css).
    let root = concat!(env!("CARGO_MANIFEST_DIR"));
    let mut sheets = vec![format!("{root}/style/main.css")];
    for entry in std::fs::read_dir(format!("{root}/assets")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "css") {
            sheets.push(path.display().to_string());
        }
    }
    assert!(sheets.iter().any(|s| s.ends_with("beyond.css")), "{sheets:?}");
    for sheet in sheets {
        let css = std::fs::read_to_string(&sheet).unwrap();
        let hex = css.match_indices('#').filter(|(i, _)| css[i + 1..].chars().take(3).all(|c| c.is_ascii_hexdigit())).count();
        assert_eq!(hex, 0, "{sheet} has hex colours: put them in src/charts/palette.rs");
        for swatch in ALL {
            assert!(!css.contains(&format!("--{}:", swatch.name)), "{sheet} redefines --{}", swatch.name);
        }
    }
}

/// WCAG 2 relative luminance and contrast ratio.
fn contrast(a: plotters::style::RGBColor, b: plotters::style::RGBColor) -> f64 {
    let luminance = |c: plotters::style::RGBColor| {
        let channel = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.039_28 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(c.0) + 0.7152 * channel(c.1) + 0.0722 * channel(c.2)
    };
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn presenter_mode_raises_every_contrast_it_changes() {
    use rope_lab::charts::palette::SURFACE;
    for dark in [false, true] {
        for strong in PRESENTER {
            let usual = ALL.iter().find(|s| s.name == strong.name).expect("presenter overrides a palette colour");
            let (before, after) = (contrast(usual.pick(dark), SURFACE.pick(dark)), contrast(strong.pick(dark), SURFACE.pick(dark)));
            assert!(after > before, "{} ({}): {after:.2} against {before:.2}", strong.name, if dark { "dark" } else { "light" });
        }
        // Secondary text in presenter mode meets WCAG AAA (7:1) on the cards.
        assert!(contrast(PRESENTER[0].pick(dark), SURFACE.pick(dark)) >= 7.0);
    }
}
