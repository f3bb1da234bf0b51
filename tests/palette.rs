//! The style sheet's colours are generated from the Rust palette the charts use, so the page
//! and its charts cannot drift apart. `UPDATE_SNAPSHOTS=1 cargo test --test palette` rewrites
//! `style/palette.css` after a change to `src/charts/palette.rs`.
#![cfg(not(target_arch = "wasm32"))]

use rope_lab::charts::palette::{palette_css, ALL};
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
        assert_eq!(css.matches(&format!("  --{}: #", swatch.name)).count(), 2, "{}", swatch.name);
    }
    // The chart of a dark page draws on the dark card, in the dark text colour.
    let surface = ALL.iter().find(|s| s.name == "surface").unwrap();
    assert_eq!(ChartStyle::DARK.background, surface.dark);
    assert_eq!(ChartStyle::LIGHT.background, surface.light);
}

#[test]
fn the_main_style_sheet_defines_no_colour_of_its_own() {
    let main = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/style/main.css")).unwrap();
    let hex = main.match_indices('#').filter(|(i, _)| main[i + 1..].chars().take(3).all(|c| c.is_ascii_hexdigit())).count();
    assert_eq!(hex, 0, "style/main.css has hex colours: put them in src/charts/palette.rs");
    for swatch in ALL {
        assert!(!main.contains(&format!("--{}:", swatch.name)), "main.css redefines --{}", swatch.name);
    }
}
