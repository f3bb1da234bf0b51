//! The drawing functions rendered natively to SVG with plotters' SVGBackend: the same code
//! that draws on the page's canvas. Checked for content, and byte for byte against a
//! snapshot through [`assert_snapshot`] (regenerate them all with
//! `UPDATE_SNAPSHOTS=1 cargo test --test charts`, then open the changed SVGs and look at them).
//! Natively plotters has no font, so text is checked through a backend that records it.
#![cfg(not(target_arch = "wasm32"))]

use plotters::prelude::*;
use plotters_backend::{BackendColor, BackendCoord, BackendTextStyle, DrawingBackend, DrawingErrorKind};
use rope_lab::charts::{draw_absolute, draw_decay, draw_decay_frame, headroom, AbsoluteChart, ChartStyle, DecayChart, DecayFrame};
use rope_lab::rope::{decay_bound, decay_curve, Frequencies, RopeParams};
use std::cell::RefCell;
use std::rc::Rc;

/// Whatever `draw` draws on an SVG canvas of `size` pixels, as SVG text.
fn svg_of(size: (u32, u32), draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>)) -> String {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&area);
    }
    svg
}

/// Compares `svg` byte for byte with `tests/snapshots/<name>`; with `UPDATE_SNAPSHOTS` set in
/// the environment, writes it there instead (then look at the file before committing it).
fn assert_snapshot(name: &str, svg: &str) {
    assert!(!svg.contains("NaN"), "{name} holds a non-finite number");
    let path = format!("{}/tests/snapshots/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, svg).unwrap();
    }
    let expected = std::fs::read_to_string(&path).expect("snapshot exists; UPDATE_SNAPSHOTS=1 creates it");
    assert!(svg == expected, "{name} changed; look at it, then UPDATE_SNAPSHOTS=1 to accept");
}

fn render(chart: &DecayChart, style: &ChartStyle) -> String {
    svg_of((640, 320), |area| draw_decay(area, chart, style).expect("the chart draws"))
}

/// RoFormer's figure 2: d = 128, base 10000, distances 0..=256.
fn roformer_figure() -> DecayChart {
    let inv_freq = Frequencies::plain(RopeParams::new(10000.0, 128).unwrap()).inv_freq;
    let distances: Vec<f64> = (0..=256).map(f64::from).collect();
    DecayChart {
        bound: decay_curve(&inv_freq, 0.0, 1.0, distances.len()),
        distances,
        cursor: Some((100.0, decay_bound(&inv_freq, 100.0))),
        ..Default::default()
    }
}

#[test]
fn the_decay_chart_draws_the_whole_curve_unclipped_with_its_cursor() {
    let svg = render(&roformer_figure(), &ChartStyle::LIGHT);
    // The bound's line: one polyline in the bound's colour (0, 158, 115) with all 257 points.
    let curve = svg.lines().find(|l| l.contains("<polyline") && l.contains("#009E73")).expect("a polyline in the bound's colour");
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

/// The page draws the decay chart in two layers: plotters draws the frame on the canvas, and
/// the lines go in an SVG over it at the pixels `DecayPlot` gives. Each of those pixels must be
/// where plotters itself puts the point when it draws the whole chart (left axis and right
/// axis alike), and the frame alone must hold none of the lines.
#[test]
fn the_lines_layer_puts_every_point_where_the_whole_chart_does() {
    let mut chart = roformer_figure();
    let inv_freq = Frequencies::plain(RopeParams::new(10000.0, 128).unwrap()).inv_freq;
    chart.q_equals_k = rope_lab::rope::mean_cos_by_distance(&inv_freq, &chart.distances);
    chart.unscaled = chart.bound.iter().map(|b| b * 0.9).collect();
    for style in [ChartStyle::LIGHT, ChartStyle::DARK.with_scale(2.0)] {
        let size = (640.0 * style.scale) as u32;
        let whole = svg_of((size, size / 2), |area| draw_decay(area, &chart, &style).expect("the chart draws"));
        let frame = DecayFrame::of(&chart);
        let mut plot = None;
        let frame_only = svg_of((size, size / 2), |area| plot = Some(draw_decay_frame(area, &frame, &style).expect("the frame draws")));
        let plot = plot.unwrap();
        assert_eq!(plot.size, (size, size / 2));
        let polylines = |svg: &str| -> Vec<String> {
            svg.lines()
                .filter(|l| l.contains("<polyline"))
                .map(|l| l.split("points=\"").nth(1).unwrap().split('"').next().unwrap().trim().to_string())
                .collect()
        };
        let drawn = polylines(&whole);
        let lines = chart.lines(&frame, &style);
        assert!(lines.len() >= 4, "compare, unscaled, bound, zero, cosine, cursor: {}", lines.len());
        for line in lines.iter().filter(|l| !l.dashed) {
            let expected: Vec<String> = line
                .points
                .iter()
                .map(|p| {
                    let (x, y) = plot.pixel(*p, line.right_axis);
                    format!("{x},{y}")
                })
                .collect();
            assert!(drawn.contains(&expected.join(" ")), "a line of {} points is not where plotters drew it", expected.len());
            assert!(!polylines(&frame_only).contains(&expected.join(" ")), "the frame alone holds a line");
        }
    }
}

/// The decay chart's top leaves 5 to 16% of headroom over the peak, whatever the peak, and is
/// shared by most neighbouring values of d: a step of d redraws the frame (axes, grid, titles)
/// only when the peak has grown past the top.
#[test]
fn the_decay_charts_top_leaves_headroom_and_most_steps_of_d_keep_the_frame() {
    for peak in [1.0, 1.5, 9.99, 16.5, 32.5, 33.0, 100.0, 256.5, 1e4] {
        let top = headroom(peak);
        assert!(top >= peak * 1.05 && top <= peak * 1.05 * 1.1 + 1e-9, "peak {peak}: top {top}");
    }
    let frame = |dim: usize| {
        let inv_freq = Frequencies::plain(RopeParams::new(10000.0, dim).unwrap()).inv_freq;
        let distances: Vec<f64> = (0..=256).map(f64::from).collect();
        let chart = DecayChart { bound: decay_curve(&inv_freq, 0.0, 1.0, distances.len()), distances, ..Default::default() };
        // The bound's peak, f(0) = (d/2 + 1)/2, is under the top.
        let peak = (dim as f64 / 2.0 + 1.0) / 2.0;
        assert!(chart.bound.iter().all(|y| *y <= peak + 1e-9));
        DecayFrame::of(&chart)
    };
    let dims: Vec<usize> = (64..=1024).step_by(2).collect();
    let kept = dims.windows(2).filter(|pair| frame(pair[0]) == frame(pair[1])).count();
    assert!(kept * 10 >= (dims.len() - 1) * 9, "{kept} of {} steps of d keep the frame", dims.len() - 1);
}

#[test]
fn the_xpos_overlay_is_drawn_in_ks_colour_and_named_in_the_legend() {
    let mut chart = roformer_figure();
    let style = ChartStyle::LIGHT;
    let k = format!("#{:02X}{:02X}{:02X}", style.k.0, style.k.1, style.k.2);
    assert!(!render(&chart, &style).lines().any(|l| l.contains("<polyline") && l.contains(&k)));
    assert!(!chart.legend(&style).iter().any(|e| e.label.contains("xPos")));
    chart.xpos =
        rope_lab::rope::xpos_mean_cos(&Frequencies::plain(RopeParams::new(10000.0, 128).unwrap()).inv_freq, &chart.distances, 512.0);
    let svg = render(&chart, &style);
    let curve = svg.lines().find(|l| l.contains("<polyline") && l.contains(&k)).expect("a polyline in k's colour");
    assert_eq!(curve.split("points=\"").nth(1).unwrap().split('"').next().unwrap().split_whitespace().count(), 257);
    assert!(chart.legend(&style).iter().any(|e| e.label.contains("xPos")));
}

#[test]
fn with_context_extension_the_original_bound_is_drawn_beside_and_named() {
    let mut chart = roformer_figure();
    let style = ChartStyle::LIGHT;
    let polylines = |svg: &str| svg.lines().filter(|l| l.contains("<polyline")).count();
    let without = polylines(&render(&chart, &style));
    // PI with factor 8: the scaled bound is the original one stretched 8×; the original is
    // drawn as a second curve and listed in the legend.
    chart.unscaled = chart.bound.clone();
    let inv_freq: Vec<f64> = Frequencies::plain(RopeParams::new(10000.0, 128).unwrap()).inv_freq.iter().map(|t| t / 8.0).collect();
    chart.bound = decay_curve(&inv_freq, 0.0, 1.0, chart.distances.len());
    assert_eq!(polylines(&render(&chart, &style)), without + 1);
    assert!(chart.legend(&style).iter().any(|e| e.label.contains("original θᵢ")));
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
    // RoFormer's figure 2 is the relative bound: it caps nothing by itself (issue 10).
    assert!(texts.iter().any(|t| t == "RoFormer's relative bound, and scores"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "relative distance n − m (tokens)"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "relative bound"), "{texts:?}");
    // Axis ticks are plain numbers; the y axis reaches past the peak f(0) = 32.5.
    let y_ticks: Vec<f64> = texts.iter().filter_map(|t| t.parse().ok()).collect();
    assert!(y_ticks.iter().any(|v| *v >= 30.0), "{texts:?}");
    assert!(texts.iter().any(|t| t == "250"), "{texts:?}");
    assert!(!texts.iter().any(|t| t.contains("NaN") || t.ends_with(".0")), "{texts:?}");
}

#[test]
fn non_finite_or_empty_data_draws_without_panicking() {
    let empty = DecayChart::default();
    assert!(render(&empty, &ChartStyle::DARK).contains("<svg"));
    let hostile = DecayChart {
        distances: vec![0.0, f64::NAN, 2.0, f64::INFINITY],
        bound: vec![1.0, 2.0, f64::NAN, 4.0],
        score: vec![0.5, f64::NAN, f64::INFINITY, -0.5],
        q_equals_k: vec![1.0; 4],
        xpos: vec![f64::NAN, 0.5, f64::INFINITY, 0.2],
        unscaled: vec![f64::INFINITY, 1.0, 2.0, f64::NAN],
        compare: vec![(500000.0, vec![f64::NAN; 4])],
        cursor: Some((f64::NAN, 1.0)),
        log_x: true,
    };
    let svg = render(&hostile, &ChartStyle::LIGHT);
    assert!(!svg.contains("NaN") && !svg.contains("inf"));
}

#[test]
fn the_decay_chart_matches_its_snapshot() {
    assert_snapshot("decay-roformer-figure-2.svg", &render(&roformer_figure(), &ChartStyle::LIGHT));
}

mod clocks {
    use super::*;
    use rope_lab::charts::{clock_grid, draw_clock_faces, draw_clock_hands, draw_contributions, draw_plane_view, ClockFace, PlaneView};
    use rope_lab::rope::{seeded_vector, wavelength, Layout, PlaneHands, Rotary, Stream};

    /// The endpoints of every line (polyline) drawn in `colour`.
    fn lines_in(svg: &str, colour: &str) -> Vec<Vec<(f64, f64)>> {
        svg.lines()
            .filter(|l| l.contains("<polyline") && l.contains(colour))
            .map(|l| {
                let points = l.split("points=\"").nth(1).unwrap().split('"').next().unwrap();
                points
                    .split_whitespace()
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_grid_fits_its_width_and_hit_tests_each_face() {
        for (width, faces) in [(900.0, 32), (360.0, 64), (900.0, 512), (100.0, 1), (0.0, 4), (f64::NAN, 8)] {
            let grid = clock_grid(width, faces);
            assert_eq!(grid.labels, faces <= 64);
            assert!(grid.columns >= 1 && grid.rows * grid.columns >= faces);
            if width.is_finite() && width > 0.0 {
                assert!(grid.columns as f64 * grid.cell <= width + 1e-9, "{width} {faces}");
            }
            for face in 0..faces {
                let (x, y) = grid.center(face);
                assert_eq!(grid.face_at(x, y), Some(face));
            }
            assert_eq!(grid.face_at(-1.0, 5.0), None);
            assert_eq!(grid.face_at(f64::NAN, 5.0), None);
            assert!(grid.height() > 0.0 && grid.height().is_finite());
        }
    }

    #[test]
    fn a_hand_points_where_its_angle_says() {
        let grid = clock_grid(400.0, 4);
        let hands = PlaneHands {
            q_angle: 0.0, // 3 o'clock
            q_length: 2.0,
            k_angle: std::f64::consts::FRAC_PI_2, // 12 o'clock
            k_length: 1.0,
            ..Default::default()
        };
        let faces = [ClockFace { plane: 0, hands, wavelength: Some(std::f64::consts::TAU) }];
        let svg = svg_of((400, 200), |area| {
            draw_clock_hands(area, &faces, &grid, 2.0, &ChartStyle::LIGHT).unwrap();
        });
        let (cx, cy) = grid.center(0);
        let r = grid.radius();
        let q = lines_in(&svg, "#0072B2");
        let k = lines_in(&svg, "#D55E00");
        // The longest pair reaches the rim; k, half as long, points straight up (screen y down).
        assert!(q.iter().any(|l| l.len() == 2 && (l[1].0 - (cx + r)).abs() <= 1.0 && (l[1].1 - cy).abs() <= 1.0), "{q:?}");
        assert!(k.iter().any(|l| l.len() == 2 && (l[1].0 - cx).abs() <= 1.0 && (l[1].1 - (cy - r / 2.0)).abs() <= 1.0), "{k:?}");
    }

    #[test]
    fn shares_above_zero_rise_and_below_zero_fall() {
        let svg = svg_of((200, 100), |area| {
            draw_contributions(area, &[2.0, -1.0, 0.0, f64::NAN], Some(0), &ChartStyle::LIGHT).unwrap();
        });
        let rects: Vec<(f64, f64)> = svg
            .lines()
            .filter(|l| l.contains("<rect") && !l.contains("width=\"200\""))
            .map(|l| {
                let attr =
                    |name: &str| -> f64 { l.split(&format!(" {name}=\"")).nth(1).unwrap().split('"').next().unwrap().parse().unwrap() };
                (attr("y"), attr("height"))
            })
            .collect();
        assert_eq!(rects.len(), 4, "{svg}");
        // Between the axis's top (y = 6) and bottom (y = 84, above the planes' names) the zero
        // line is at y = 45: the first bar (2.0, the largest) spans from the top to it, the
        // second (−1.0) goes half as far down.
        assert!((rects[0].0 - 6.0).abs() <= 1.0 && (rects[0].0 + rects[0].1 - 45.0).abs() <= 1.0, "{rects:?}");
        assert!((rects[1].0 - 45.0).abs() <= 1.0 && (rects[1].1 - 19.5).abs() <= 1.5, "{rects:?}");
        // The axis says what the bars' heights are, and which planes they run from and to.
        for label in ["+2", "0", "−2", "plane 0", "plane 3"] {
            assert!(svg.lines().any(|line| line.trim() == label), "{label} in {svg}");
        }
        assert!(!svg.contains("NaN"));
    }

    fn faces_for_d8() -> Vec<ClockFace> {
        let f = Frequencies::plain(RopeParams::new(10000.0, 8).unwrap());
        let rotary = Rotary::new(Layout::Interleaved, &f);
        let (q, k) = (seeded_vector(1, Stream::Query, 8), seeded_vector(1, Stream::Key, 8));
        (0..4)
            .map(|plane| ClockFace { plane, hands: rotary.plane_hands(&q, &k, plane, 9.0, 6.0), wavelength: wavelength(f.inv_freq[plane]) })
            .collect()
    }

    #[test]
    fn the_clocks_and_the_plane_view_match_their_snapshots() {
        let faces = faces_for_d8();
        let grid = clock_grid(480.0, faces.len());
        let longest = faces.iter().fold(0.0_f64, |l, f| l.max(f.hands.q_length).max(f.hands.k_length));
        let clocks = svg_of((480, grid.height().ceil() as u32), |area| {
            draw_clock_faces(area, &faces, &grid, Some(1), &ChartStyle::LIGHT).unwrap();
            draw_clock_hands(area, &faces, &grid, longest, &ChartStyle::LIGHT).unwrap();
        });
        let plane = svg_of((300, 300), |area| {
            let view = PlaneView { hands: faces[1].hands, relative_angle: 3.0 * 0.1, longest };
            draw_plane_view(area, &view, &ChartStyle::DARK).unwrap();
        });
        assert_snapshot("clocks-d8.svg", &clocks);
        assert_snapshot("plane-view.svg", &plane);
    }
}

mod frequency_and_heatmap {
    use super::*;
    use rope_lab::charts::{diverging, draw_frequencies, heatmap_layout, heatmap_limit, heatmap_rgba, FrequencyChart};

    #[test]
    fn the_colour_scale_is_white_at_zero_and_purple_or_green_at_the_ends() {
        assert_eq!(diverging(0.0), (247, 247, 247));
        assert_eq!(diverging(-1.0), (64, 0, 75));
        assert_eq!(diverging(1.0), (0, 68, 27));
        assert_eq!(diverging(5.0), diverging(1.0));
        assert_eq!(diverging(f64::NAN), diverging(0.0));
        // Monotone in lightness away from zero on each side (green channel as a proxy).
        let greens: Vec<u8> = (0..=10).map(|i| diverging(i as f64 / 10.0).1).collect();
        assert!(greens.windows(2).all(|w| w[0] >= w[1]), "{greens:?}");
        let pixels = heatmap_rgba(&[2.0, -2.0, 0.0], heatmap_limit(&[2.0, -2.0, 0.0]));
        assert_eq!(&pixels[0..4], &[0, 68, 27, 255]);
        assert_eq!(&pixels[4..8], &[64, 0, 75, 255]);
        assert_eq!(&pixels[8..12], &[247, 247, 247, 255]);
        assert_eq!(heatmap_limit(&[]), 1.0);
    }

    /// The colour scale's limit is a two-digit E24 number at or just above the largest |score|
    /// (at most 16% above), and holds while the largest score moves within about 10%: over a
    /// sweep in steps of 1% it changes on fewer than one step in six (a limit equal to the
    /// largest score changes on every one).
    #[test]
    fn the_heatmap_limit_is_a_preferred_number_that_holds_over_small_changes() {
        let e24 = [10, 11, 12, 13, 15, 16, 18, 20, 22, 24, 27, 30, 33, 36, 39, 43, 47, 51, 56, 62, 68, 75, 82, 91];
        let mut previous = None;
        let mut changes = 0;
        let steps = 1600;
        for i in 0..steps {
            let largest = 1e-3 * 1.01_f64.powi(i);
            let limit = heatmap_limit(&[0.25 * largest, -largest, f64::NAN, 0.5 * largest]);
            assert!(limit >= largest && limit <= 1.16 * largest, "{largest}: {limit}");
            let digits = limit / 10f64.powi(limit.log10().floor() as i32 - 1);
            assert!(e24.iter().any(|e| (digits - *e as f64).abs() < 1e-6 * digits), "{largest}: {limit} is not in E24");
            changes += usize::from(previous.is_some_and(|p| p != limit));
            previous = Some(limit);
        }
        assert!(changes * 6 < steps as usize, "the limit changed on {changes} of {steps} steps");
        assert_eq!(heatmap_limit(&[4.7, -1.0]), 4.7);
        assert_eq!(heatmap_limit(&[-1000.0]), 1000.0);
        assert_eq!(heatmap_limit(&[f64::INFINITY, f64::NAN]), 1.0);
    }

    /// The heatmap's pixels come from a colour table: every channel within 1 of the scale's
    /// own colour, at many values between the table's steps, and white for NaN or infinity.
    #[test]
    fn the_pixels_follow_the_colour_scale() {
        let values: Vec<f64> = (0..=20_000).map(|i| -1.3 + 2.6 * i as f64 / 20_000.0).collect();
        let pixels = heatmap_rgba(&values, 1.0);
        for (v, pixel) in values.iter().zip(pixels.chunks_exact(4)) {
            let (r, g, b) = diverging(*v);
            let off = [r, g, b].iter().zip(pixel).map(|(want, got)| want.abs_diff(*got)).max().unwrap();
            assert!(off <= 1 && pixel[3] == 255, "{v}: {pixel:?} against {:?}", (r, g, b));
        }
        let odd = heatmap_rgba(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY], 1.0);
        assert!(odd.chunks_exact(4).all(|p| p == [247, 247, 247, 255]), "{odd:?}");
    }

    #[test]
    fn in_presenter_mode_the_heatmap_leaves_room_for_larger_labels() {
        use rope_lab::charts::heatmap_layout_magnified;
        let (plain, large) = (heatmap_layout(700.0), heatmap_layout_magnified(700.0, 1.5));
        // Margins 1.5 times as wide and tall, the plot square smaller by the difference.
        assert_eq!((large.left, large.top), (plain.left * 1.5, plain.top * 1.5));
        assert!((plain.side - large.side - (700.0 - plain.side - plain.left) * 0.5 - plain.left * 0.5).abs() < 1e-9);
        assert!(large.height() - large.side > (plain.height() - plain.side) * 1.49);
        assert!(large.legend_label_x() > large.left + large.side + 34.0);
        // Out of range: ordinary type.
        assert_eq!(heatmap_layout_magnified(700.0, f64::NAN), plain);
        assert_eq!(heatmap_layout_magnified(700.0, 0.5), plain);
    }

    #[test]
    fn the_heatmap_layout_hit_tests_its_cells() {
        let layout = heatmap_layout(700.0);
        assert!(layout.side > 100.0 && layout.height() > layout.side);
        let (x, y) = (layout.left + 0.5, layout.top + 0.5);
        assert_eq!(layout.cell_at(x, y, 256), Some((0, 0)));
        let far = layout.left + layout.side - 0.01;
        assert_eq!(layout.cell_at(far, layout.top + layout.side - 0.01, 256), Some((255, 255)));
        assert_eq!(layout.cell_at(layout.left - 1.0, y, 256), None);
        assert_eq!(layout.cell_at(f64::NAN, y, 256), None);
    }

    #[test]
    fn the_frequency_chart_counts_and_says_what_it_plots() {
        let inv_freq = Frequencies::plain(RopeParams::new(10000.0, 64).unwrap()).inv_freq;
        // Plane i turns within 4096 tokens (positions 0 to 4095) when 2π·10000^(2i/64) <= 4095.
        let by_hand = (0..32).filter(|i| std::f64::consts::TAU * 10000f64.powf(2.0 * *i as f64 / 64.0) <= 4095.0).count();
        let chart = FrequencyChart { inv_freq, context: 4096.0, selected: Some(3) };
        assert_eq!(chart.turning_within_context(), (by_hand, 32 - by_hand));
        let texts = Rc::new(RefCell::new(Vec::new()));
        let area = TextRecorder(texts.clone()).into_drawing_area();
        draw_frequencies(&area, &chart, &ChartStyle::LIGHT).unwrap();
        let texts = texts.borrow().clone();
        for expected in ["Wavelength and frequency of each plane", "plane i", "wavelength (tokens per turn)", "10¹", "10³"] {
            assert!(texts.iter().any(|t| t == expected), "{expected} missing from {texts:?}");
        }
        // The legend, shown beside the canvas, names the context and the two marks.
        let legend: Vec<String> = chart.legend(&ChartStyle::LIGHT).into_iter().map(|e| e.label).collect();
        assert!(legend.contains(&"context: 4096 tokens".to_string()), "{legend:?}");
        assert!(legend.iter().any(|l| l.contains("no full turn")), "{legend:?}");
        let svg = svg(|area| draw_frequencies(area, &chart, &ChartStyle::LIGHT).unwrap());
        // One dot per plane: filled for planes that turn within the context, rings for the rest.
        let dots = svg.lines().filter(|l| l.contains("<circle") && l.contains("#009E73")).count();
        assert!(dots >= 32, "{dots} dots");
    }

    #[test]
    fn the_decay_chart_labels_the_bound_and_the_scores_as_different_things() {
        let texts = Rc::new(RefCell::new(Vec::new()));
        let area = TextRecorder(texts.clone()).into_drawing_area();
        let mut chart = roformer_figure();
        chart.score = vec![0.5; chart.distances.len()];
        chart.q_equals_k = vec![1.0; chart.distances.len()];
        chart.compare = vec![(500000.0, chart.bound.clone())];
        draw_decay(&area, &chart, &ChartStyle::LIGHT).unwrap();
        let texts = texts.borrow().clone();
        assert!(texts.iter().any(|t| t == "score ÷ |q||k| (cosine)"), "{texts:?}");
        // The legend beside the canvas says which curve is the bound and which are scores.
        let legend = chart.legend(&ChartStyle::LIGHT);
        let labels: Vec<&str> = legend.iter().map(|e| e.label.as_str()).collect();
        for expected in [
            "relative bound (1/(d/2))·Σₜ|Sₜ| (left axis)",
            "mean of cos(rθᵢ): q = k, the same length in every plane (right axis)",
            "this q and k (right axis)",
            "random zero-mean q, k: expected 0 (right axis)",
            "relative bound, base 500000",
        ] {
            assert!(labels.contains(&expected), "{expected} missing from {labels:?}");
        }
        assert_eq!(legend[0].colour, ChartStyle::LIGHT.bound);
    }

    #[test]
    fn the_absolute_bound_chart_is_log_scaled_and_draws_both_curves() {
        let texts = Rc::new(RefCell::new(Vec::new()));
        let area = TextRecorder(texts.clone()).into_drawing_area();
        let distances: Vec<f64> = (0..=64).map(|i| i as f64 * 4.0).collect();
        let chart = AbsoluteChart {
            bound: distances.iter().map(|d| 1000.0 / (1.0 + d)).collect(),
            score: distances.iter().map(|d| (d / 10.0).cos().abs()).collect(),
            distances,
            log_x: false,
            cursor: Some(40.0),
        };
        draw_absolute(&area, &chart, &ChartStyle::LIGHT).unwrap();
        let texts = texts.borrow().clone();
        assert!(texts.iter().any(|t| t == "score units (log scale)"), "{texts:?}");
        // Ticks are powers of ten from below |score| to above the bound's peak of 1000.
        for expected in ["10⁰", "10³"] {
            assert!(texts.iter().any(|t| t == expected), "{expected} missing from {texts:?}");
        }
        let svg = svg(|area| draw_absolute(area, &chart, &ChartStyle::LIGHT).unwrap());
        assert!(svg.contains("#009E73"), "the bound is drawn in the bound's colour");
        assert_eq!(AbsoluteChart::legend(&ChartStyle::LIGHT).len(), 2);
    }

    fn svg(draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>)) -> String {
        svg_of((640, 360), draw)
    }
}

/// Byte-for-byte snapshots of the chart widgets' drawings (UPDATE_SNAPSHOTS=1 regenerates them).
#[test]
fn the_frequency_heatmap_and_full_decay_charts_match_their_snapshots() {
    use rope_lab::charts::{draw_frequencies, draw_heatmap_frame, heatmap_layout, FrequencyChart, HeatmapFrame};
    let inv_freq = Frequencies::plain(RopeParams::new(10000.0, 64).unwrap()).inv_freq;
    let mut decay = roformer_figure();
    decay.score = decay.distances.iter().map(|r| (r / 40.0).cos() * 0.5).collect();
    decay.q_equals_k = decay.distances.iter().map(|r| (r / 80.0).cos()).collect();
    decay.compare = vec![(500000.0, decay.bound.iter().map(|b| b * 1.1).collect())];
    let layout = heatmap_layout(640.0);
    let cases: Vec<(&str, String)> = vec![
        (
            "frequencies-d64.svg",
            svg_of((640, 320), |area| {
                draw_frequencies(area, &FrequencyChart { inv_freq, context: 4096.0, selected: Some(2) }, &ChartStyle::LIGHT).unwrap();
            }),
        ),
        ("decay-full.svg", render(&decay, &ChartStyle::DARK)),
        (
            "heatmap-frame.svg",
            svg_of((640, layout.height().ceil() as u32), |area| {
                draw_heatmap_frame(area, &HeatmapFrame { origin: (172, 72), size: 256, limit: Some(21.5) }, &layout, &ChartStyle::LIGHT)
                    .unwrap();
            }),
        ),
    ];
    for (name, svg) in cases {
        assert_snapshot(name, &svg);
    }
}
