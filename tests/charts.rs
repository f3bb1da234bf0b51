//! The drawing functions rendered natively to SVG with plotters' SVGBackend: the same code
//! that draws on the page's canvas. Checked for content, and byte for byte against a
//! snapshot (regenerate with `UPDATE_SNAPSHOTS=1 cargo test --test charts` and look at it).
//! Natively plotters has no font, so text is checked through a backend that records it.
#![cfg(not(target_arch = "wasm32"))]

use plotters_backend::{BackendColor, BackendCoord, BackendTextStyle, DrawingBackend, DrawingErrorKind};
use std::cell::RefCell;
use std::rc::Rc;
use plotters::prelude::*;
use rope_lab::charts::{draw_decay, ChartStyle, DecayChart};
use rope_lab::rope::{decay_bound, decay_curve, Frequencies, RopeParams};

fn render(chart: &DecayChart, style: &ChartStyle) -> String {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (640, 320)).into_drawing_area();
        draw_decay(&area, chart, style).expect("the chart draws");
    }
    svg
}

/// RoFormer's figure 2: d = 128, base 10000, distances 0..=256.
fn roformer_figure() -> DecayChart {
    let inv_freq = Frequencies::plain(RopeParams::new(10000.0, 128).unwrap()).inv_freq;
    let distances: Vec<f64> = (0..=256).map(f64::from).collect();
    DecayChart {
        bound: decay_curve(&inv_freq, 0.0, 1.0, distances.len()),
        distances,
        cursor: Some((100.0, decay_bound(&inv_freq, 100.0))),
    }
}

#[test]
fn the_decay_chart_draws_the_whole_curve_unclipped_with_its_cursor() {
    let svg = render(&roformer_figure(), &ChartStyle::LIGHT);
    // The bound's line: one polyline in the bound's colour (0, 158, 115) with all 257 points.
    let curve = svg
        .lines()
        .find(|l| l.contains("<polyline") && l.contains("#009E73"))
        .expect("a polyline in the bound's colour");
    let points = curve.split("points=\"").nth(1).unwrap().split('"').next().unwrap();
    assert_eq!(points.split_whitespace().count(), 257);
    // Nothing is clipped: the peak f(0) = 32.5 lies below the top of the y axis.
    for (x, y) in points.split_whitespace().map(|p| p.split_once(',').unwrap()) {
        let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
        assert!((0.0..=640.0).contains(&x) && (0.0..=320.0).contains(&y));
    }
    // The cursor at r = 100: a circle in the cursor colour (28, 32, 40).
    assert!(svg.lines().any(|l| l.contains("<circle") && l.contains("#1C2028")));
}

/// A backend that records the text drawn on it (and draws nothing else).
struct TextRecorder(Rc<RefCell<Vec<String>>>);

impl DrawingBackend for TextRecorder {
    type ErrorType = std::convert::Infallible;

    fn get_size(&self) -> (u32, u32) {
        (640, 320)
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }
    fn draw_pixel(&mut self, _: BackendCoord, _: BackendColor) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        Ok(())
    }
    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, _: &S, _: BackendCoord) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.borrow_mut().push(text.to_string());
        Ok(())
    }
    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, _: &S) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        Ok((text.chars().count() as u32 * 7, 12))
    }
}

#[test]
fn the_decay_chart_says_what_it_plots() {
    let texts = Rc::new(RefCell::new(Vec::new()));
    let area = TextRecorder(texts.clone()).into_drawing_area();
    draw_decay(&area, &roformer_figure(), &ChartStyle::LIGHT).unwrap();
    let texts = texts.borrow().clone();
    assert!(texts.iter().any(|t| t == "RoFormer decay bound against relative distance"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "relative distance n − m (tokens)"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "bound"), "{texts:?}");
    // Axis ticks are plain numbers; the y axis reaches past the peak f(0) = 32.5.
    let y_ticks: Vec<f64> = texts.iter().filter_map(|t| t.parse().ok()).collect();
    assert!(y_ticks.iter().any(|v| *v >= 30.0), "{texts:?}");
    assert!(texts.iter().any(|t| t == "250"), "{texts:?}");
    assert!(!texts.iter().any(|t| t.contains("NaN") || t.ends_with(".0")), "{texts:?}");
}

#[test]
fn non_finite_or_empty_data_draws_without_panicking() {
    let empty = DecayChart { distances: vec![], bound: vec![], cursor: None };
    assert!(render(&empty, &ChartStyle::DARK).contains("<svg"));
    let hostile = DecayChart {
        distances: vec![0.0, f64::NAN, 2.0, f64::INFINITY],
        bound: vec![1.0, 2.0, f64::NAN, 4.0],
        cursor: Some((f64::NAN, 1.0)),
    };
    let svg = render(&hostile, &ChartStyle::LIGHT);
    assert!(!svg.contains("NaN") && !svg.contains("inf"));
}

#[test]
fn the_decay_chart_matches_its_snapshot() {
    let svg = render(&roformer_figure(), &ChartStyle::LIGHT);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots/decay-roformer-figure-2.svg");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(path, &svg).unwrap();
    }
    let expected = std::fs::read_to_string(path).expect("snapshot exists; run with UPDATE_SNAPSHOTS=1 to create it");
    assert!(svg == expected, "the decay chart changed; look at it, then UPDATE_SNAPSHOTS=1 to accept");
}
