//! Widgets mounted in real headless Chromium (wasm-bindgen-test): they render the contract's
//! readable values, follow their controls, and draw.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use rope_lab::lab::Lab;
use rope_lab::state::{LabState, Notice};
use rope_lab::story::decay::DecayWidget;
use rope_lab::story::scores::ScoresWidget;
use rope_lab::ui::controls::Controls;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlCanvasElement, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

const ORACLE: &str = include_str!("fixtures/oracle.json");

/// A fresh container in the test page, at the top of the screen: what waits out of view
/// (charts, texts) must be in view, wherever an earlier test left the page scrolled.
fn container() -> HtmlElement {
    let element = document().create_element("div").unwrap();
    // First in the page: an earlier test's widgets left behind (the model chapter keeps its
    // loading) must not push this one below the screen.
    document().body().unwrap().prepend_with_node_1(&element).unwrap();
    window().scroll_to_with_x_and_y(0.0, 0.0);
    element.unchecked_into()
}

/// Waits for Leptos' effects and the next two animation frames.
async fn settle() {
    for _ in 0..2 {
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            window().request_animation_frame(&resolve).unwrap();
        });
        wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
    }
}

/// Waits frame by frame, up to two seconds, until `done()`: charts draw only once their size
/// and visibility observers have reported, which takes longer on a busy machine.
async fn settle_until(done: impl Fn() -> bool) {
    for _ in 0..60 {
        if done() {
            return;
        }
        settle().await;
    }
}

/// The RGBA pixels a canvas shows, whatever its context (a chart's canvas is handed its picture
/// as a bitmap): drawn onto a scratch canvas and read back there.
fn shown_pixels(canvas: &HtmlCanvasElement) -> Vec<u8> {
    let copy: HtmlCanvasElement = document().create_element("canvas").unwrap().unchecked_into();
    copy.set_width(canvas.width());
    copy.set_height(canvas.height());
    let context: web_sys::CanvasRenderingContext2d = copy.get_context("2d").unwrap().unwrap().unchecked_into();
    context.draw_image_with_html_canvas_element(canvas, 0.0, 0.0).unwrap();
    context.get_image_data(0.0, 0.0, canvas.width() as f64, canvas.height() as f64).unwrap().data().to_vec()
}

fn value_of(root: &HtmlElement, testid: &str) -> f64 {
    let element = root
        .query_selector(&format!("[data-testid='{testid}']"))
        .unwrap()
        .unwrap_or_else(|| panic!("no element with data-testid={testid}"));
    let text = element.get_attribute("data-value").unwrap_or_else(|| panic!("{testid} has no data-value"));
    text.parse().unwrap_or_else(|_| panic!("{testid} data-value {text:?} is not a number"))
}

fn input(root: &HtmlElement, selector: &str) -> HtmlInputElement {
    root.query_selector(selector).unwrap().unwrap().unchecked_into()
}

/// Sets a field's value and fires `event` as a user's edit would (bubbling, as Leptos may
/// listen on the document).
fn dispatch(element: &HtmlInputElement, event: &str, value: &str) {
    element.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    element.dispatch_event(&web_sys::Event::new_with_event_init_dict(event, &init).unwrap()).unwrap();
}

/// Mounts `widget` 900 px wide on a state read from `query`, the lab in context.
fn mount_widget(query: &str, widget: fn() -> AnyView) -> (HtmlElement, Lab, impl Sized) {
    let root = container();
    root.style().set_property("width", "900px").unwrap();
    let parsed = LabState::from_query(query);
    let lab = Lab::new(parsed.state, parsed.notices);
    let handle = leptos::mount::mount_to(root.clone(), move || {
        provide_context(lab);
        widget()
    });
    (root, lab, handle)
}

/// Mounts the controls and the scores widget on a state read from `query`.
fn mount_scores(query: &str) -> (HtmlElement, Lab, impl Sized) {
    let root = container();
    let parsed = LabState::from_query(query);
    let lab = Lab::new(parsed.state, parsed.notices);
    let handle = leptos::mount::mount_to(root.clone(), move || {
        provide_context(lab);
        view! { <Controls /> <ScoresWidget /> }
    });
    (root, lab, handle)
}

fn oracle_case() -> (String, f64) {
    let oracle: serde_json::Value = serde_json::from_str(ORACLE).unwrap();
    let case = &oracle["scores"][0];
    let list =
        |v: &serde_json::Value| v.as_array().unwrap().iter().map(|x| format!("{:?}", x.as_f64().unwrap())).collect::<Vec<_>>().join(",");
    let query =
        format!("base={}&dim={}&m={}&n={}&q={}&k={}", case["base"], case["dim"], case["m"], case["n"], list(&case["q"]), list(&case["k"]));
    (query, case["interleaved"]["score"].as_f64().unwrap())
}

#[wasm_bindgen_test]
async fn the_scores_widget_shows_the_reference_score() {
    let (query, want) = oracle_case();
    let (root, _lab, _handle) = mount_scores(&query);
    settle().await;
    assert!(root.query_selector("[data-widget='scores']").unwrap().is_some());
    let score = value_of(&root, "score");
    assert!((score - want).abs() <= 1e-9 * want.abs(), "score {score} vs Meta Llama's {want}");
    assert!((value_of(&root, "score-relative") - want).abs() <= 1e-9 * want.abs());
    let inv_freq = root.query_selector("[data-testid='inv-freq']").unwrap().unwrap();
    assert_eq!(inv_freq.get_attribute("data-value").unwrap().split(',').count(), 4);
}

#[wasm_bindgen_test]
async fn moving_m_changes_the_score_and_moving_both_does_not() {
    let (root, _lab, _handle) = mount_scores("");
    settle().await;
    let start = value_of(&root, "score");
    let unrotated = value_of(&root, "score-unrotated");

    dispatch(&input(&root, "#m-slider"), "input", "9");
    settle().await;
    let moved = value_of(&root, "score");
    assert!((moved - start).abs() > 1e-6, "moving m from 5 to 9 left the score at {start}");
    assert_eq!(value_of(&root, "score-unrotated"), unrotated);

    // n from 2 to 6: the same distance n - m = -3 as at the start.
    dispatch(&input(&root, "#n-slider"), "input", "6");
    settle().await;
    let shifted = value_of(&root, "score");
    assert!((shifted - start).abs() <= 1e-9 * start.abs().max(1.0), "{shifted} vs {start}");
}

#[wasm_bindgen_test]
async fn the_base_slider_is_logarithmic_and_the_dimension_slider_resizes_the_vectors() {
    let (root, lab, _handle) = mount_scores("");
    settle().await;
    dispatch(&input(&root, "#base-slider"), "input", "5");
    settle().await;
    assert_eq!(lab.state.get_untracked().base, 100_000.0);

    dispatch(&input(&root, "#dim-slider"), "input", "128");
    settle().await;
    let q_rot = root.query_selector("[data-testid='q-rot']").unwrap().unwrap();
    assert_eq!(q_rot.get_attribute("data-value").unwrap().split(',').count(), 128);
}

#[wasm_bindgen_test]
async fn a_typed_invalid_value_is_corrected_with_a_notice_beside_its_field() {
    let (root, lab, _handle) = mount_scores("");
    settle().await;
    let field = input(&root, "input[aria-label='d, exact']");
    dispatch(&field, "change", "63");
    settle().await;
    assert_eq!(lab.state.get_untracked().dim, 64);
    let notices: Vec<Notice> = lab.field_notices.get_untracked();
    assert!(notices.iter().any(|n| n.param == "dim" && n.message.contains("odd")), "{notices:?}");
    // Said beside the field (its aria-describedby), which is marked invalid; not at the top.
    let message_id = field.get_attribute("aria-describedby").expect("the field points at its message");
    let message = root.query_selector(&format!("#{message_id}")).unwrap().unwrap().text_content().unwrap_or_default();
    assert_eq!(message, "dim 63 is odd (RoPE rotates pairs of dimensions); using 64");
    assert_eq!(field.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert!(lab.notices.get_untracked().is_empty());
    // Moving d by its slider changes the value the message spoke of: the message goes.
    dispatch(&input(&root, "#dim-slider"), "input", "96");
    settle().await;
    assert_eq!(root.query_selector(&format!("#{message_id}")).unwrap().unwrap().text_content().unwrap_or_default(), "");
    assert_eq!(field.get_attribute("aria-invalid").as_deref(), Some("false"));
}

#[wasm_bindgen_test]
async fn the_decay_chart_draws_its_frame_and_its_curve() {
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), || view! { <DecayWidget /> });
    let canvas: HtmlCanvasElement = root.query_selector("canvas").unwrap().unwrap().unchecked_into();
    // No style sheet in this test page: give the chart the size it has on the page.
    let style = web_sys::HtmlElement::style(&canvas);
    style.set_property("width", "700px").unwrap();
    style.set_property("height", "360px").unwrap();
    window().dispatch_event(&web_sys::Event::new("resize").unwrap()).unwrap();
    // The frame on the canvas: its background and grid, in the light theme.
    let drawn_pixels = || {
        if canvas.width() == 0 || canvas.height() == 0 {
            return 0;
        }
        shown_pixels(&canvas).chunks(4).filter(|p| p[3] == 255).count()
    };
    // The bound over it: a path of the layer in the light theme's bound colour, (0, 158, 115),
    // through every whole distance of the default range (0 to 256), inside the canvas' pixels.
    let bound = || {
        let paths = root.query_selector_all(".decay-lines path").unwrap();
        (0..paths.length())
            .filter_map(|i| paths.item(i)?.dyn_into::<web_sys::Element>().ok())
            .find(|p| p.get_attribute("stroke").as_deref() == Some("rgba(0,158,115,1)"))
            .and_then(|p| p.get_attribute("d"))
    };
    // The chapter now opens with its conclusion: the chart is below it, drawn once in view.
    canvas.scroll_into_view();
    settle_until(|| drawn_pixels() > 10_000 && bound().is_some()).await;
    let d = bound().expect("a path in the bound's colour");
    let points: Vec<(f64, f64)> = d
        .split(['M', 'L'])
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (x, y) = p.split_once(' ').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    assert_eq!(points.len(), 257);
    let (width, height) = (canvas.width() as f64, canvas.height() as f64);
    assert!(points.iter().all(|(x, y)| (0.0..width).contains(x) && (0.0..height).contains(y)), "{d}");
    let view_box = root.query_selector(".decay-lines").unwrap().unwrap().get_attribute("viewBox");
    assert_eq!(view_box, Some(format!("0 0 {width} {height}")));
    // The bound falls from its peak at r = 0: the first point is the highest (least y).
    assert!(points.iter().all(|p| p.1 >= points[0].1));
    drop(handle);
}

/// Every widget the registry lists mounts alone, carries its id and its title, and shows a
/// readable value (a `data-testid`): what `embed=<id>` relies on.
#[wasm_bindgen_test]
async fn every_registered_widget_mounts_alone_under_its_id() {
    use rope_lab::story::{EMBED_ONLY, WIDGETS};
    let ids: Vec<&str> = WIDGETS.iter().chain(&EMBED_ONLY).map(|w| w.id).collect();
    assert_eq!(ids.len(), ids.iter().collect::<std::collections::HashSet<_>>().len(), "ids repeat: {ids:?}");
    for widget in WIDGETS.iter().chain(&EMBED_ONLY) {
        let root = container();
        let handle = leptos::mount::mount_to(root.clone(), move || widget.view());
        settle().await;
        let card = root
            .query_selector(&format!("[data-widget='{}']", widget.id))
            .unwrap()
            .unwrap_or_else(|| panic!("{} has no data-widget", widget.id));
        let heading = card.query_selector("h2").unwrap().and_then(|h| h.text_content()).unwrap_or_default();
        assert_eq!(heading, widget.title, "{}", widget.id);
        assert!(card.query_selector("[data-testid]").unwrap().is_some(), "{} shows no readable value", widget.id);
        drop(handle);
    }
}

mod clocks {
    use super::*;
    use rope_lab::story::clocks::ClocksWidget;

    fn mount_clocks(query: &str) -> (HtmlElement, Lab, impl Sized) {
        mount_widget(query, || view! { <ClocksWidget /> }.into_any())
    }

    fn click(root: &HtmlElement, selector: &str) {
        let element: HtmlElement = root.query_selector(selector).unwrap().unwrap().unchecked_into();
        element.click();
    }

    /// Counts pixels of the canvas matching `rgb` exactly.
    fn pixels_of(canvas: &HtmlCanvasElement, rgb: (u8, u8, u8)) -> usize {
        shown_pixels(canvas).chunks(4).filter(|p| (p[0], p[1], p[2]) == rgb).count()
    }

    #[wasm_bindgen_test]
    async fn the_clocks_draw_one_face_per_plane_with_q_and_k_hands() {
        let (root, _lab, _handle) = mount_clocks("dim=8");
        settle().await;
        assert!(root.query_selector("[data-widget='clocks']").unwrap().is_some());
        let canvas: HtmlCanvasElement = root.query_selector(".clock-hands").unwrap().unwrap().unchecked_into();
        // Canvases draw only in view (or within 5% of a screen of it), as a reader scrolls.
        canvas.scroll_into_view();
        settle().await;
        settle().await;
        assert!(canvas.height() > 0);
        // Light theme: q's hands in (0, 114, 178), k's in (213, 94, 0).
        assert!(pixels_of(&canvas, (0, 114, 178)) > 40, "q's hands are missing");
        assert!(pixels_of(&canvas, (213, 94, 0)) > 40, "k's hands are missing");
        // The plane detail's numbers are there (its complex formula is the complex chapter's now).
        assert!(root.query_selector(".plane-numbers").unwrap().is_some());
    }

    #[wasm_bindgen_test]
    async fn shifting_both_turns_the_hands_but_keeps_the_score() {
        let (root, lab, _handle) = mount_clocks("dim=16&m=9&n=6");
        settle().await;
        let before = value_of(&root, "score");
        let share = value_of(&root, "plane-contribution");
        click(&root, "button[aria-label='shift both right']");
        click(&root, "button[aria-label='shift both right']");
        settle().await;
        let state = lab.state.get_untracked();
        assert_eq!((state.m, state.n), (11, 8));
        assert!((value_of(&root, "score") - before).abs() <= 1e-9 * before.abs().max(1.0));
        assert!((value_of(&root, "plane-contribution") - share).abs() <= 1e-9 * share.abs().max(1.0));
        // The short sentence moves both back by 6 tokens: the same score again.
        click(&root, ".sentence-choice button:first-child");
        settle().await;
        let state = lab.state.get_untracked();
        assert_eq!((state.m, state.n), (5, 2));
        assert!((value_of(&root, "score") - before).abs() <= 1e-9 * before.abs().max(1.0));
    }

    #[wasm_bindgen_test]
    async fn clicking_a_token_moves_the_chosen_marker() {
        let (root, lab, _handle) = mount_clocks("");
        settle().await;
        click(&root, "button[data-token='7']");
        settle().await;
        assert_eq!(lab.state.get_untracked().m, 7);
        click(&root, ".marker-choice label:nth-child(2) input");
        settle().await;
        click(&root, "button[data-token='3']");
        settle().await;
        let state = lab.state.get_untracked();
        assert_eq!((state.m, state.n), (7, 3));
    }
}

mod heatmap {
    use super::*;
    use rope_lab::charts::heatmap_layout;
    use rope_lab::story::heatmap::HeatmapWidget;

    /// The RGB of cell (row, col) of the 256-cell window: one pixel of the cells' canvas.
    fn cell_colour(cells: &HtmlCanvasElement, row: usize, col: usize) -> (u8, u8, u8) {
        let context: web_sys::CanvasRenderingContext2d = cells.get_context("2d").unwrap().unwrap().unchecked_into();
        let p = context.get_image_data(col as f64, row as f64, 1.0, 1.0).unwrap().data();
        (p[0], p[1], p[2])
    }

    /// Mounts the heatmap; returns its root, the cells' canvas once drawn, and the mount.
    async fn mount(query: &str) -> (HtmlElement, HtmlCanvasElement, impl Sized) {
        let root = container();
        let parsed = LabState::from_query(query);
        let lab = Lab::new(parsed.state, parsed.notices);
        let handle = leptos::mount::mount_to(root.clone(), move || {
            provide_context(lab);
            view! { <HeatmapWidget /> }
        });
        let frame: HtmlCanvasElement = root.query_selector(".heatmap-canvas").unwrap().unwrap().unchecked_into();
        let cells: HtmlCanvasElement = root.query_selector(".heatmap-cells").unwrap().unwrap().unchecked_into();
        assert_eq!((cells.width(), cells.height()), (256, 256), "one canvas pixel per cell");
        // No style sheet in this test page: give the frame a size and let it redraw.
        web_sys::HtmlElement::style(&frame).set_property("width", "700px").unwrap();
        window().dispatch_event(&web_sys::Event::new("resize").unwrap()).unwrap();
        // Drawn: the middle cell is opaque, and the cells lie over the frame's plot square.
        let drawn = || {
            let context: web_sys::CanvasRenderingContext2d = cells.get_context("2d").unwrap().unwrap().unchecked_into();
            let opaque = context.get_image_data(128.0, 128.0, 1.0, 1.0).unwrap().data()[3] == 255;
            let side = heatmap_layout(frame.client_width() as f64).side;
            let width = web_sys::HtmlElement::style(&cells).get_property_value("width").unwrap_or_default();
            let placed = width.trim_end_matches("px").parse::<f64>().is_ok_and(|w| (w - side).abs() < 0.1);
            opaque && frame.client_width() > 0 && placed
        };
        settle_until(drawn).await;
        settle().await;
        (root, cells, handle)
    }

    #[wasm_bindgen_test]
    async fn rotated_scores_paint_one_colour_along_each_diagonal() {
        let (_root, canvas, _handle) = mount("dim=16&m=300&n=200").await;
        let mut distinct = std::collections::HashSet::new();
        for (row, col) in [(10, 40), (60, 5), (128, 128), (200, 90)] {
            let here = cell_colour(&canvas, row, col);
            distinct.insert(here);
            for step in [7, 23, 40] {
                if row + step < 256 && col + step < 256 {
                    assert_eq!(cell_colour(&canvas, row + step, col + step), here, "diagonal from ({row}, {col})");
                }
            }
        }
        assert!(distinct.len() > 1, "the map should not be one colour");
    }

    /// Each cell's colour is its own score's, from the core: at the corners and edges too,
    /// where a row copied one pixel off (RoPE's cells are coloured once per distance)
    /// would show a neighbouring diagonal; and for the sinusoidal map, drawn cell by cell.
    #[wasm_bindgen_test]
    async fn every_cell_is_painted_in_its_own_scores_colour() {
        use rope_lab::charts::{heatmap_limit, heatmap_rgba};
        use rope_lab::rope::{score_window, Frequencies, HeatmapMode, ModeInputs, RopeParams, Rotary};
        for (query, mode) in [
            ("dim=16&m=300&n=200", HeatmapMode::Rotated),
            ("dim=16&m=300&n=200&heatmap=sinusoidal", HeatmapMode::Sinusoidal),
            ("dim=16&m=300&n=200&heatmap=t5", HeatmapMode::T5),
            ("dim=16&m=300&n=200&heatmap=alibi", HeatmapMode::Alibi),
        ] {
            let (root, canvas, _handle) = mount(query).await;
            // The window's first m and n, from the map's description.
            let label = root.query_selector(".heatmap-canvas").unwrap().unwrap().get_attribute("aria-label").unwrap();
            let number = |after: &str| -> i64 {
                label.split(after).nth(1).unwrap().split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
            };
            let (m0, n0) = (number("m from "), number("n from "));
            let state = LabState::from_query(query).state;
            let params = RopeParams::new(state.base, state.dim).unwrap();
            let rotary = Rotary::new(state.layout, &Frequencies::plain(params));
            let (q, k) = (state.query_vector(), state.key_vector());
            let cells = score_window(&rotary, &q, &k, (m0, n0), 256, mode, ModeInputs { params, seed: state.seed });
            let colours = heatmap_rgba(&cells, heatmap_limit(&cells));
            let mut wrong = Vec::new();
            for (row, col) in [
                (0, 0),
                (0, 255),
                (255, 0),
                (255, 255),
                (0, 128),
                (128, 0),
                (17, 201),
                (201, 17),
                (128, 129),
                (254, 1),
                (254, 0),
                (255, 1),
                (250, 0),
                (240, 3),
                (200, 0),
                (100, 0),
            ] {
                let i = (row * 256 + col) * 4;
                let expected = (colours[i], colours[i + 1], colours[i + 2]);
                let got = cell_colour(&canvas, row, col);
                if got != expected {
                    wrong.push(format!("({row}, {col}): {got:?} not {expected:?}"));
                }
            }
            assert!(wrong.is_empty(), "{query}: {wrong:?}");
        }
    }

    #[wasm_bindgen_test]
    async fn sinusoidal_encodings_blur_the_stripes() {
        let (_root, canvas, _handle) = mount("dim=16&m=300&n=200&heatmap=sinusoidal").await;
        let differs = [(10, 40), (60, 5), (128, 128), (30, 150)]
            .into_iter()
            .any(|(row, col)| cell_colour(&canvas, row, col) != cell_colour(&canvas, row + 50, col + 50));
        assert!(differs, "with sinusoidal encodings the diagonals should not all be constant");
    }
}

mod beyond {
    use super::*;
    use rope_lab::rope::{Format, Rope2d, RopeParams};
    use rope_lab::story::precision::PrecisionWidget;
    use rope_lab::story::rope2d::Rope2dWidget;

    fn mount(query: &str, precision: bool) -> (HtmlElement, Lab, impl Sized) {
        if precision {
            mount_widget(query, || view! { <PrecisionWidget /> }.into_any())
        } else {
            mount_widget(query, || view! { <Rope2dWidget /> }.into_any())
        }
    }

    /// The core's axial and mixed scores for the lab's q and k at the state's patches.
    fn core_scores(lab: Lab) -> (f64, f64) {
        lab.state.with_untracked(|s| {
            let rope = Rope2d::new(RopeParams::new(s.base, s.dim).unwrap());
            let (q, k) = (s.query_vector(), s.key_vector());
            let patch = |(x, y): (u8, u8)| (x as i64, y as i64);
            let (qp, kp) = (patch(s.query_patch), patch(s.key_patch));
            (rope.score(&q, &k, qp, kp).unwrap(), rope.mixed_score(&q, &k, qp, kp).unwrap())
        })
    }

    #[wasm_bindgen_test]
    async fn a_clicked_patch_becomes_the_key_and_the_scores_follow() {
        let (root, lab, _handle) = mount("dim=16&qx=1&qy=1&kx=3&ky=2", false);
        settle().await;
        let (axial, mixed) = core_scores(lab);
        assert_eq!(value_of(&root, "rope2d-score"), axial);
        assert_eq!(value_of(&root, "rope2d-mixed-score"), mixed);
        let cell: HtmlElement = root.query_selector("[data-cell='46']").unwrap().unwrap().unchecked_into();
        cell.click(); // column 6, row 5
        settle().await;
        assert_eq!(lab.state.with_untracked(|s| s.key_patch), (6, 5));
        let (axial, mixed) = core_scores(lab);
        assert_eq!(value_of(&root, "rope2d-score"), axial);
        assert_eq!(value_of(&root, "rope2d-mixed-score"), mixed);
        // Both patches one row down: the same offset, the same score.
        let down: HtmlElement = root.query_selector("[aria-label='shift both patches down']").unwrap().unwrap().unchecked_into();
        down.click();
        settle().await;
        assert_eq!(lab.state.with_untracked(|s| (s.query_patch, s.key_patch)), ((1, 2), (6, 6)));
        assert_eq!(value_of(&root, "rope2d-score"), axial);
    }

    #[wasm_bindgen_test]
    async fn the_precision_chapter_shows_m_as_the_format_stores_it() {
        let (root, lab, _handle) = mount("m=15962", true);
        settle().await;
        assert_eq!(value_of(&root, "position-in-format"), 15936.0);
        assert_eq!(value_of(&root, "collapsed-run"), 63.0);
        assert!(value_of(&root, "max-angle-error") > 1.0);
        let select: web_sys::HtmlSelectElement = root.query_selector("#format-select").unwrap().unwrap().unchecked_into();
        select.set_value("f64");
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        select.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap()).unwrap();
        settle().await;
        assert_eq!(lab.state.with_untracked(|s| s.format), Format::F64);
        assert_eq!(value_of(&root, "position-in-format"), 15962.0);
        assert_eq!(value_of(&root, "max-angle-error"), 0.0);
        lab.apply(rope_lab::state::Change::Format(Format::Fp16));
        lab.apply(rope_lab::state::Change::M(70_000));
        settle().await;
        let stored = root.query_selector("[data-testid='position-in-format']").unwrap().unwrap();
        assert_eq!(stored.get_attribute("data-value").as_deref(), Some("inf"));
        assert!(stored.text_content().unwrap_or_default().contains('∞'));
    }
}

/// The page reads typed and linked numbers with JavaScript's `parseFloat` behind Rust's grammar,
/// and writes them from JavaScript's shortest digits in Rust's layouts (src/state/format.rs), so
/// that it ships neither of Rust's float reader and writer: each must agree with Rust's.
mod numbers {
    use super::*;
    use rope_lab::state::{fmt_f64, fmt_list, fmt_plain, parse_f64, Exp};

    /// xorshift64*: the same texts on every run.
    struct Draw(u64);
    impl Draw {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    fn same(text: &str) {
        let ours = parse_f64(text);
        let rusts = text.parse::<f64>().ok();
        match (ours, rusts) {
            (Some(a), Some(b)) if a.is_nan() && b.is_nan() => assert_eq!(a.is_sign_negative(), b.is_sign_negative(), "{text:?}"),
            (a, b) => assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{text:?}"),
        }
    }

    #[wasm_bindgen_test]
    fn numbers_are_written_as_rust_writes_them() {
        let mut draw = Draw(0x2545_f491_4f6c_dd1d);
        let mut values = vec![
            0.0,
            -0.0,
            1.0,
            0.1,
            1e-4,
            9.999e-5,
            1e16,
            1e21,
            1e22,
            1e-7,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            123456.0,
            0.5,
            -2.5e-300,
            9007199254740993.0,
        ];
        for _ in 0..20_000 {
            let bits = draw.next();
            values.push(f64::from_bits(bits));
            // Everyday magnitudes too: the page's own values are mostly these.
            values.push((bits >> 11) as f64 / (1u64 << 53) as f64 * 10f64.powi((bits % 17) as i32 - 8));
            // Short decimals (rounded readouts), which are written without JavaScript.
            values.push((bits >> (24 + bits % 16)) as f64 / 10f64.powi((bits % 9) as i32));
        }
        for v in values.iter().copied() {
            assert_eq!(fmt_f64(v), format!("{v:?}"));
            assert_eq!(fmt_plain(v), format!("{v}"));
            assert_eq!(Exp(v).to_string(), format!("{v:e}"));
        }
        let expected: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
        assert_eq!(fmt_list(&values), expected.join(","));
    }

    #[wasm_bindgen_test]
    fn typed_numbers_read_as_rust_reads_them() {
        let mut draw = Draw(0x9e37_79b9_7f4a_7c15);
        // Every f64 written the ways the page and people write them.
        for _ in 0..20_000 {
            let v = f64::from_bits(draw.next());
            for text in [format!("{v:?}"), format!("{v}"), format!("{v:e}"), format!("{v:.3}"), format!("{v:.25e}")] {
                same(&text);
            }
        }
        // Texts near the grammar's edges: signs, points, exponents, words, spaces, long digits.
        let pieces = [
            "0",
            "1",
            "5",
            "9",
            "00",
            "12345678901234567890123",
            ".",
            "e",
            "E",
            "+",
            "-",
            "e-",
            "e+3",
            "e400",
            "e-400",
            "inf",
            "Infinity",
            "nan",
            " ",
            "_",
            "x",
            "0x",
            ",",
        ];
        for _ in 0..20_000 {
            let text: String = (0..1 + draw.below(6)).map(|_| pieces[draw.below(pieces.len())]).collect();
            same(&text);
        }
        // Halfway cases, which only a correctly rounding reader gets right.
        for text in [
            "9007199254740993",
            "2.2250738585072011e-308",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "0.1",
            "123456789012345678901234567890e-30",
        ] {
            same(text);
        }
    }
}

/// The trained model's chapter mounted where no model was built in (the test runner's server has
/// no model.json): it says in one line how to add the model, shows no number it does not have,
/// and the rest of its controls are there.
#[wasm_bindgen_test]
async fn the_model_chapter_without_its_model_says_how_to_add_it() {
    use rope_lab::story::model::ModelWidget;
    let (root, _lab, handle) = mount_widget("layer=2&head=5", || view! { <ModelWidget /> }.into_any());
    let status = root.query_selector("[data-testid='model-status']").unwrap().unwrap();
    for _ in 0..50 {
        if status.text_content().unwrap_or_default().contains("make model") {
            break;
        }
        settle().await;
    }
    assert!(status.text_content().unwrap_or_default().contains("make model"), "{:?}", status.text_content());
    assert!(root.query_selector("[data-testid='model-loss']").unwrap().unwrap().get_attribute("data-value").is_none());
    // The grid of heads is there, with the URL's head picked.
    let picked = root.query_selector(".model-head.selected").unwrap().unwrap();
    assert_eq!(picked.get_attribute("aria-label").unwrap_or_default().split(':').next(), Some("layer 2, head 5"));
    assert_eq!(root.query_selector_all(".model-head").unwrap().length(), 40);
    drop(handle);
}

/// The model's kernels as the browser runs them (WebAssembly SIMD; native tests run the plain
/// loops): a continuation's one token multiplies straight from the blocks, the batch from
/// dequantised rows, and the exponentials are a polynomial. Each against f64 sums of the
/// dequantised numbers.
mod kernels {
    use super::*;
    use rope_lab_kernels::quant::{dequantize_row, matmul, Format};

    /// A matrix of `rows` × `cols` in `format` from a fixed draw: random bytes with scales of a
    /// trained model's size (d ≈ 0.01, Q4_1's minimum ≈ −0.08).
    fn matrix(format: Format, rows: usize, cols: usize) -> Vec<u8> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut w: Vec<u8> = (0..format.row_bytes(cols) * rows)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        let (block, scales): (usize, &[u8]) = match format {
            Format::Q4_1 => (20, &[0x1f, 0x21, 0x1f, 0xad]),
            Format::Q4_0 => (18, &[0x1f, 0x21]),
            _ => (34, &[0x1f, 0x21]),
        };
        for b in w.chunks_exact_mut(block) {
            b[..scales.len()].copy_from_slice(scales);
        }
        w
    }

    #[wasm_bindgen_test]
    fn products_from_blocks_equal_the_dequantised_sums() {
        let (rows, cols) = (37, 192);
        for format in [Format::Q4_0, Format::Q4_1, Format::Q8_0] {
            let w = matrix(format, rows, cols);
            for tokens in [1, 2, 3, 9] {
                let x: Vec<f32> = (0..tokens * cols).map(|i| ((i * 7919 % 1000) as f32 / 500.0 - 1.0) * 1.7).collect();
                let mut out = vec![0f32; tokens * rows];
                matmul(format, &w, rows, cols, &x, &mut out);
                let mut row = vec![0f32; cols];
                for r in 0..rows {
                    dequantize_row(format, &w[r * format.row_bytes(cols)..][..format.row_bytes(cols)], &mut row);
                    for t in 0..tokens {
                        let want: f64 = row.iter().zip(&x[t * cols..][..cols]).map(|(&a, &b)| a as f64 * b as f64).sum();
                        let scale: f64 = row.iter().zip(&x[t * cols..][..cols]).map(|(&a, &b)| (a as f64 * b as f64).abs()).sum();
                        let got = out[t * rows + r] as f64;
                        assert!(
                            (got - want).abs() <= 1e-5 * scale.max(1.0),
                            "{} tokens {tokens} row {r}: {got} against {want}",
                            format.name()
                        );
                    }
                }
            }
        }
    }

    /// One head's attention, with SIMD (SmolLM2) and without (stories260K), against f64: the
    /// softmax over the keys and the weighted sum of the values.
    #[wasm_bindgen_test]
    fn attention_with_and_without_simd_equals_f64() {
        let (hs, stride, at, keys) = (8, 24, 8, 37);
        let draw = |i: usize| ((i * 7919 % 1013) as f32 / 506.5 - 1.0) * 2.3;
        let q: Vec<f32> = (0..hs).map(draw).collect();
        let k: Vec<f32> = (0..keys * stride).map(|i| draw(i + 100)).collect();
        let v: Vec<f32> = (0..keys * stride).map(|i| draw(i + 5000)).collect();
        let scale = 1.0 / (hs as f32).sqrt();
        let scores: Vec<f64> =
            (0..keys).map(|t| (0..hs).map(|i| q[i] as f64 * k[t * stride + at + i] as f64).sum::<f64>() * scale as f64).collect();
        let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = scores.iter().map(|s| (s - max).exp()).sum();
        let weights: Vec<f64> = scores.iter().map(|s| (s - max).exp() / sum).collect();
        let out: Vec<f64> = (0..hs).map(|i| (0..keys).map(|t| weights[t] * v[t * stride + at + i] as f64).sum()).collect();
        type Attend = fn(&[f32], &[f32], &[f32], usize, usize, f32, &mut [f32], &mut [f32]);
        for (name, attend) in [("simd", rope_lab_kernels::attend as Attend), ("scalar", rope_lab_kernels::attend_scalar as Attend)] {
            let (mut att, mut o) = (vec![0f32; keys], vec![0f32; hs]);
            attend(&q, &k, &v, stride, at, scale, &mut att, &mut o);
            for (g, w) in att.iter().zip(&weights) {
                assert!((*g as f64 - w).abs() < 1e-6, "{name}: weight {g} against {w}");
            }
            for (g, w) in o.iter().zip(&out) {
                assert!((*g as f64 - w).abs() < 1e-5, "{name}: output {g} against {w}");
            }
        }
    }

    #[wasm_bindgen_test]
    fn exponentials_are_within_a_few_ulp() {
        let logits: Vec<f32> = (0..49_157u64).map(|i| ((i * 104_729 % 100_003) as f32 / 100_003.0 - 0.5) * 60.0).collect();
        let max = logits.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v)) as f64;
        let want = max + logits.iter().map(|&v| (v as f64 - max).exp()).sum::<f64>().ln();
        let got = rope_lab_kernels::log_sum_exp(&logits);
        assert!((got - want).abs() < 1e-6, "{got} against {want}");
        for n in [1, 3, 4, 130] {
            let mut x: Vec<f32> = logits[..n].to_vec();
            let m = x.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v)) as f64;
            let sum: f64 = x.iter().map(|&v| (v as f64 - m).exp()).sum();
            // The kernel takes x − max in f32: rounding an argument of size a moves e^a by a·2⁻²⁴ of itself.
            let want: Vec<(f64, f64)> = x.iter().map(|&v| ((v as f64 - m).exp() / sum, (v as f64 - m).abs())).collect();
            rope_lab_kernels::softmax(&mut x);
            for (g, (w, a)) in x.iter().zip(&want) {
                assert!((*g as f64 - w).abs() <= (1e-6 + a * 6e-8) * w + 1e-37, "softmax of {n}: {g} against {w}");
            }
        }
    }
}
