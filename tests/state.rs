//! The URL contract (the README's "URL parameters"): every parameter is read, validated and clamped
//! with a notice; nothing a URL holds can break the page or put NaN on it.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rope_lab::rope::{Format, Layout, ScalingMethod};
use rope_lab::state::{Change, Derived, LabState, PatchCoordinate, Theme};

fn noticed(query: &str, param: &str) -> LabState {
    let parsed = LabState::from_query(query);
    assert!(parsed.notices.iter().any(|n| n.param == param), "{query}: expected a notice about {param}, got {:?}", parsed.notices);
    parsed.state
}

fn clean(query: &str) -> LabState {
    let parsed = LabState::from_query(query);
    assert!(parsed.notices.is_empty(), "{query}: unexpected notices {:?}", parsed.notices);
    parsed.state
}

#[test]
fn defaults_are_the_contracts() {
    let s = clean("");
    assert_eq!((s.base, s.dim, s.m, s.n, s.layout, s.seed), (10000.0, 64, 5, 2, Layout::Interleaved, 1));
    assert_eq!((s.scaling, s.effective_factor(), s.orig, s.partial, s.r), (ScalingMethod::None, 1.0, 4096, 1.0, 0));
    assert_eq!(s.query_vector().len(), 64);
    assert_ne!(s.query_vector(), s.key_vector());
    assert_eq!(clean("scaling=llama3").effective_factor(), 8.0);
    assert_eq!(clean("scaling=yarn").effective_factor(), 8.0);
    assert_eq!(clean("scaling=yarn&factor=4").effective_factor(), 4.0);
}

#[test]
fn valid_values_are_taken_as_given() {
    let s = clean("?base=500000&dim=128&m=100&n=37&layout=half&seed=7&scaling=dynamic&factor=2&orig=8192&seq=16384&r=20&partial=0.5&theme=dark&embed=scores&unknown=1");
    assert_eq!((s.base, s.dim, s.m, s.n, s.layout, s.seed), (500000.0, 128, 100, 37, Layout::Half, 7));
    assert_eq!((s.scaling, s.factor, s.orig, s.seq, s.r, s.partial), (ScalingMethod::Dynamic, Some(2.0), 8192, Some(16384), 20, 0.5));
    assert_eq!((s.theme, s.embed.as_deref()), (Some(Theme::Dark), Some("scores")));
    let s = clean("range=65536&log=1&compare=500000,1000000&heatmap=sinusoidal&embed=heatmap");
    assert_eq!((s.range, s.log, s.compare.clone()), (65536, true, Some(vec![500000.0, 1000000.0])));
    assert_eq!((s.heatmap, s.embed.as_deref()), (rope_lab::rope::HeatmapMode::Sinusoidal, Some("heatmap")));
    // The biases RoPE replaced: each name read, and written back as it came.
    for (name, mode) in [("t5", rope_lab::rope::HeatmapMode::T5), ("alibi", rope_lab::rope::HeatmapMode::Alibi)] {
        let s = clean(&format!("heatmap={name}"));
        assert_eq!(s.heatmap, mode);
        assert_eq!(s.to_query(), format!("heatmap={name}"));
        assert_eq!(LabState::from_query(&s.to_query()).state, s);
    }
    let s = clean("dim=4&q=1,2,3,4&k=-1.5,0,0,2e-3");
    assert_eq!(s.q, Some(vec![1.0, 2.0, 3.0, 4.0]));
    assert_eq!(s.k, Some(vec![-1.5, 0.0, 0.0, 0.002]));
}

#[test]
fn invalid_values_are_corrected_with_a_notice() {
    assert_eq!(noticed("base=abc", "base").base, 10000.0);
    assert_eq!(noticed("base=NaN", "base").base, 10000.0);
    assert_eq!(noticed("base=inf", "base").base, 10000.0);
    assert_eq!(noticed("base=1", "base").base, 10000.0);
    assert_eq!(noticed("base=-5", "base").base, 10000.0);
    assert_eq!(noticed("base=1e12", "base").base, 1e9);
    assert_eq!(noticed("dim=63", "dim").dim, 64);
    assert_eq!(noticed("dim=0", "dim").dim, 2);
    assert_eq!(noticed("dim=5000", "dim").dim, 1024);
    assert_eq!(noticed("dim=12.7", "dim").dim, 14);
    assert_eq!(noticed("m=-3", "m").m, 0);
    assert_eq!(noticed("n=99999999999", "n").n, 10_000_000);
    assert_eq!(noticed("m=2.5", "m").m, 3);
    assert_eq!(noticed("layout=diagonal", "layout").layout, Layout::Interleaved);
    assert_eq!(noticed("dim=4&q=1,2,3", "q").q, None);
    assert_eq!(noticed("dim=4&k=1,x,3,4", "k").k, None);
    assert_eq!(noticed("dim=2&q=1e300,0", "q").q, Some(vec![1e6, 0.0]));
    assert_eq!(noticed("seed=-1", "seed").seed, 1);
    assert_eq!(noticed("scaling=magic", "scaling").scaling, ScalingMethod::None);
    assert_eq!(noticed("factor=0.5", "factor").factor, Some(1.0));
    assert_eq!(noticed("orig=1", "orig").orig, 2);
    assert_eq!(noticed("beta_fast=0", "beta_fast").beta_fast, 32.0);
    assert_eq!(noticed("mscale=-1", "mscale").mscale, None);
    let s = noticed("low_freq=4&high_freq=1", "low_freq");
    assert_eq!((s.low_freq, s.high_freq), (1.0, 4.0));
    assert_eq!(noticed("dim=8&scaling=longrope&short_factor=1,2", "short_factor").short_factor, None);
    assert_eq!(noticed("dim=4&scaling=longrope&long_factor=1e-320,1&seq=9999", "long_factor").long_factor, None);
    assert_eq!(noticed("partial=0.3", "partial").partial, 18.0 / 64.0);
    assert_eq!(noticed("partial=0", "partial").partial, 2.0 / 64.0);
    assert_eq!(noticed("partial=2", "partial").partial, 1.0);
    assert_eq!(noticed("r=-1", "r").r, 0);
    assert_eq!(noticed("plane=40", "plane").plane, 31);
    assert_eq!(noticed("range=5", "range").range, 16);
    assert_eq!(noticed("range=99999999", "range").range, 1 << 20);
    assert!(!noticed("log=maybe", "log").log);
    assert_eq!(noticed("compare=500000,-3,0.5", "compare").compare, Some(vec![500000.0]));
    assert_eq!(noticed("compare=2,3,4,5", "compare").compare, Some(vec![2.0, 3.0, 4.0]));
    assert_eq!(noticed("heatmap=psychedelic", "heatmap").heatmap, rope_lab::rope::HeatmapMode::Rotated);
    // The notice names every mode there is.
    let notices = LabState::from_query("heatmap=T5").notices;
    let message = &notices.iter().find(|n| n.param == "heatmap").expect("a notice about heatmap").message;
    for mode in rope_lab::rope::HeatmapMode::ALL {
        assert!(message.contains(mode.as_str()), "{message:?} does not name {}", mode.as_str());
    }
    assert_eq!(noticed("plane=-2", "plane").plane, 0);
    assert_eq!(clean("dim=128&plane=40").plane, 40);
    // A plane beyond every d, before the d that has fewer planes: one notice, in that d's terms.
    let far = LabState::from_query("plane=900&dim=128");
    let planes: Vec<&str> = far.notices.iter().map(|n| n.message.as_str()).collect();
    assert_eq!(planes, ["plane 900 is out of range (it must be at most 63); using 63"]);
    assert_eq!(far.state.plane, 63);
    assert_eq!(clean("plane=40&dim=128").plane, 40);
    // Typed into the plane field: the notice names the value used (it said 511 before, while
    // the state went on to 31).
    let mut typed = LabState::default();
    let notices = typed.set_text(&rope_lab::state::param::PLANE, "900");
    assert_eq!(
        notices.iter().map(|n| n.message.as_str()).collect::<Vec<_>>(),
        ["plane 900 is out of range (it must be at most 31); using 31"]
    );
    assert_eq!(typed.plane, 31);
    // The app knows its widgets: an unknown id is dropped with a notice, a known one kept.
    let mut unknown = clean("embed=nope");
    assert!(unknown.check_embed(&["scores", "decay"]).is_some_and(|n| n.param == "embed" && n.message.contains("scores, decay")));
    assert_eq!(unknown.embed, None);
    let mut known = clean("embed=decay");
    assert_eq!((known.check_embed(&["scores", "decay"]), known.embed.as_deref()), (None, Some("decay")));
    assert_eq!(noticed("embed=%3Cscript%3E", "embed").embed, None);
    assert_eq!(noticed("theme=neon", "theme").theme, None);
}

#[test]
fn notices_say_what_was_changed() {
    let parsed = LabState::from_query("dim=63");
    let text = &parsed.notices[0].message;
    assert!(text.contains("63") && text.contains("64") && text.contains("odd"), "{text}");
}

#[test]
fn percent_encoded_values_are_decoded() {
    let s = clean("q=1%2C2&dim=2&k=%2B3,4");
    assert_eq!((s.q, s.k), (Some(vec![1.0, 2.0]), Some(vec![3.0, 4.0])));
}

proptest! {
    /// Any set of SmolLM2's planes off is written as planes and ranges that read back as the same
    /// set, with no notice, and a range is never shorter than three planes.
    #[test]
    fn any_planes_off_round_trips(bits in any::<u32>()) {
        let mut s = LabState::default();
        s.apply(Change::Model(rope_lab::state::TrainedModel::Smollm2));
        let planes: Vec<f64> = (0..32).filter(|i| bits >> i & 1 == 1).map(f64::from).collect();
        s.apply(Change::PlanesOff(planes));
        prop_assert_eq!(s.planes_off, u64::from(bits));
        let parsed = LabState::from_query(&s.to_query());
        prop_assert!(parsed.notices.is_empty(), "{:?}", parsed.notices);
        prop_assert_eq!(parsed.state.planes_off, u64::from(bits));
        let off = s.to_query().split('&').find_map(|p| p.strip_prefix("off=").map(str::to_string)).unwrap_or_default();
        for item in off.split(',').filter(|i| i.contains('-')) {
            let (a, b) = item.split_once('-').unwrap();
            prop_assert!(b.parse::<u32>().unwrap() >= a.parse::<u32>().unwrap() + 2, "{}", off);
        }
    }

    #[test]
    fn no_query_string_breaks_the_page(query in ".{0,200}") {
        let parsed = LabState::from_query(&query);
        let derived = Derived::compute(&parsed.state).expect("a parsed state always computes");
        prop_assert!(derived.scores.score.is_finite());
        prop_assert!(derived.scores.score_relative.is_finite());
        prop_assert!(derived.decay_bound_at_r.is_finite());
        prop_assert!(derived.frequencies.inv_freq.iter().all(|f| f.is_finite()));
    }

    #[test]
    fn a_state_survives_the_round_trip_through_its_url(
        base in 1.001f64..1e9, half in 1usize..=512, m in 0i64..=10_000_000, n in 0i64..=10_000_000,
        half_layout in any::<bool>(), seed in any::<u64>(), r in 0i64..100_000, plane in 0usize..512,
        method in prop::sample::select(vec!["none", "linear", "ntk", "dynamic", "yarn", "llama3"]),
        factor in prop::option::of(1.0f64..64.0),
        range in 16u64..=(1 << 20), log in any::<bool>(),
        compare in prop::option::of(prop::collection::vec(1.5f64..1e9, 1..=3)),
        heatmap in prop::sample::select(rope_lab::rope::HeatmapMode::ALL.to_vec()),
    ) {
        let mut state = LabState {
            // r lies on the decay chart (r <= range), an invariant of every state.
            base, dim: half * 2, m, n, seed, r: r.min(range as i64), plane: plane % half,
            layout: if half_layout { Layout::Half } else { Layout::Interleaved },
            scaling: ScalingMethod::parse(method).unwrap(), factor, range, log, compare, heatmap,
            ..LabState::default()
        };
        state.q = Some(state.query_vector());
        let parsed = LabState::from_query(&state.to_query());
        prop_assert!(parsed.notices.is_empty(), "{:?}", parsed.notices);
        prop_assert_eq!(parsed.state, state);
    }
}

/// Every parameter with every hostile value under every scaling method: 5,440 cases, all
/// checked on every run (a random sample found two overflows that a lucky run would miss).
#[test]
fn hostile_values_of_every_parameter_are_survived() {
    let names = [
        "base",
        "dim",
        "m",
        "n",
        "layout",
        "q",
        "k",
        "seed",
        "scaling",
        "factor",
        "orig",
        "seq",
        "beta_fast",
        "beta_slow",
        "mscale",
        "mscale_all_dim",
        "low_freq",
        "high_freq",
        "short_factor",
        "long_factor",
        "partial",
        "r",
        "embed",
        "theme",
        "plane",
        "range",
        "log",
        "compare",
        "heatmap",
        "scaling_b",
        "xpos",
        "scale_base",
        "unscaled",
        "present",
    ];
    let values = [
        "",
        "-1",
        "0",
        "1",
        "1e308",
        "-1e308",
        "NaN",
        "inf",
        "-inf",
        "0.5",
        "1e-320,1",
        "3",
        "1,2",
        "abc",
        "%",
        "%zz",
        "1e-320",
        "18446744073709551616",
        "9223372036854775807",
        "1e-320",
    ];
    let methods = ["none", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "proportional"];
    for name in names {
        for value in values {
            for method in methods {
                let query = format!("scaling={method}&seq=100000&{name}={value}");
                let parsed = LabState::from_query(&query);
                let derived = Derived::compute(&parsed.state).unwrap_or_else(|e| panic!("{query}: {e}"));
                let finite = derived.scores.score.is_finite()
                    && derived.scores.score_relative.is_finite()
                    && derived.frequencies.attention_factor.is_finite()
                    && derived.decay_bound_at_r.is_finite()
                    && derived.frequencies.inv_freq.iter().all(|f| f.is_finite());
                assert!(finite, "{query} gave a non-finite value");
            }
        }
    }
}

/// Numbers in notices and in the URL read as a person writes them, and one bad value makes one
/// notice that quotes it and says what is in effect.
#[test]
fn notices_and_links_write_numbers_as_people_do() {
    let huge = LabState::from_query("m=1e20");
    assert_eq!(huge.notices.len(), 1, "{:?}", huge.notices);
    assert_eq!(huge.notices[0].message, "m 1e20 is out of range (it must be at most 10000000); using 10000000");
    assert_eq!(huge.state.m, 10_000_000);

    let mut state = LabState::from_query("base=500000&dim=128").state;
    assert_eq!(state.to_query(), "base=500000&dim=128");
    let notices = state.set_text(&rope_lab::state::param::BASE, "abc");
    assert_eq!(notices[0].message, "base 'abc' is not a finite number; keeping 500000");
    let notices = state.set_text(&rope_lab::state::param::DIM, "");
    assert_eq!(notices[0].message, "dim '' is not a finite number; keeping 128");
    assert_eq!((state.base, state.dim), (500000.0, 128));
    assert!(!LabState::from_query("m=-5").notices[0].message.contains(".0"));

    // log takes 1 or 0 (true or false); anything else is said, not silently taken.
    assert!(!noticed("log=yes", "log").log);
    assert!(clean("log=true").log);
    assert_eq!(clean("log=1").to_query(), "log=1");
}

#[test]
fn the_story_chapters_parameters_follow_the_contract() {
    use rope_lab::rope::PositionMode;
    let s = clean("");
    assert_eq!(s.positions, PositionMode::None);
    let s = clean("positions=rope&p=65535&shift=0");
    assert_eq!((s.positions, s.p, s.shift), (PositionMode::Rope, 65_535, 0));
    assert_eq!(clean("positions=sinusoidal").positions, PositionMode::Sinusoidal);
    assert_eq!(noticed("positions=absolute", "positions").positions, PositionMode::None);
    assert_eq!(noticed("p=65536", "p").p, 65_535);
    assert_eq!(noticed("p=-4", "p").p, 0);
    assert_eq!(noticed("shift=1e9", "shift").shift, 65_535);
    assert_eq!(noticed("shift=2.5", "shift").shift, LabState::default().shift);
    // Written back only when not the default.
    let s = clean("positions=rope&p=12");
    assert!(s.to_query().contains("positions=rope") && s.to_query().contains("p=12") && !s.to_query().contains("shift"));
}

#[test]
fn the_decay_range_follows_r_and_r_follows_the_range() {
    // r past the chart's end widens the range to the next power of two that holds it.
    let state = LabState::from_query("r=1000").state;
    assert_eq!((state.r, state.range), (1000, 1024));
    // A smaller range brings r back onto the chart; the URL round-trips either way.
    let mut state = LabState::from_query("r=1000").state;
    state.apply(Change::Range(256));
    assert_eq!((state.r, state.range), (256, 256));
    for query in ["r=5000&range=65536", "range=4096&r=100", "r=9999999"] {
        let state = LabState::from_query(query).state;
        assert!(state.r as u64 <= state.range || state.range == 1 << 20, "{query}");
        assert_eq!(LabState::from_query(&state.to_query()).state, state, "{query}");
    }
}

#[test]
fn presenter_mode_and_reset() {
    let state = LabState::from_query("present=1&m=40&dim=8&theme=dark&embed=clocks").state;
    assert!(state.present);
    assert_eq!(LabState::from_query(&state.to_query()).state, state);
    assert!(!LabState::from_query("present=loud").state.present);
    // Reset brings every value back and keeps how the page is shown.
    let mut reset = state.clone();
    reset.reset();
    assert_eq!((reset.m, reset.dim), (LabState::default().m, LabState::default().dim));
    assert_eq!((reset.present, reset.theme, reset.embed.as_deref()), (true, Some(Theme::Dark), Some("clocks")));
}

#[test]
fn the_image_and_precision_chapters_parameters_follow_the_contract() {
    // Defaults: the chapter's patches, bf16.
    let s = clean("");
    assert_eq!((s.query_patch, s.key_patch, s.format), ((2, 5), (5, 3), Format::Bf16));
    let s = clean("qx=0&qy=7&kx=7&ky=0&format=fp16");
    assert_eq!((s.query_patch, s.key_patch, s.format), ((0, 7), (7, 0), Format::Fp16));
    assert_eq!(LabState::from_query(&s.to_query()).state, s);
    for format in ["bf16", "fp16", "f32", "f64"] {
        assert_eq!(clean(&format!("format={format}")).format.as_str(), format);
    }
    // Outside 0..=7: clamped, with a notice; not a format: the default, with a notice.
    assert_eq!(noticed("qx=99", "qx").query_patch.0, 7);
    assert_eq!(noticed("ky=-3", "ky").key_patch.1, 0);
    assert_eq!(noticed("kx=2.5", "kx").key_patch.0, 3);
    assert_eq!(noticed("format=bf32", "format").format, Format::Bf16);
    // Shifting both patches keeps them on the grid or moves neither.
    let mut s = clean("qx=0&qy=3&kx=6&ky=3");
    assert!(s.shift_patches(1, 1));
    assert_eq!((s.query_patch, s.key_patch), ((1, 4), (7, 4)));
    assert!(!s.shift_patches(1, 0));
    assert_eq!((s.query_patch, s.key_patch), ((1, 4), (7, 4)));
    assert!(!s.shift_patches(0, -5));
    assert!(s.shift_patches(-1, -4));
    assert_eq!((s.query_patch, s.key_patch), ((0, 0), (6, 0)));
    assert!(s.apply(Change::Patch(PatchCoordinate::Qy, 8)).iter().any(|n| n.param == "qy"));
    assert_eq!(s.query_patch.1, 7);
}

#[test]
fn compact_embeds() {
    let state = LabState::from_query("embed=clocks&compact=1&m=9").state;
    assert!(state.compact);
    assert_eq!(state.to_query(), "m=9&embed=clocks&compact=1");
    assert_eq!(LabState::from_query(&state.to_query()).state, state);
    // Off by default and left out of the URL; a bad value is corrected with a notice.
    assert!(!LabState::default().compact);
    assert_eq!(LabState::from_query("compact=0").state.to_query(), "");
    let bad = LabState::from_query("compact=yes");
    assert!(!bad.state.compact);
    assert_eq!(bad.notices.len(), 1);
    assert_eq!(bad.notices[0].param, "compact");
    // Reset keeps it, with the widget it applies to.
    let mut reset = state.clone();
    reset.reset();
    assert!(reset.compact && reset.embed.as_deref() == Some("clocks") && reset.m == LabState::default().m);
}

/// The trained model's chapter (issue 44): `text`, `layer`, `head`, `off`, `offset`.
#[test]
fn the_model_chapters_parameters() {
    let s = clean("");
    assert_eq!((s.model_text(), s.layer, s.head, s.planes_off, s.offset), (rope_lab::state::DEFAULT_MODEL_TEXT, 1, 3, 0, 0));
    let s = clean("text=Tom+and+Sue%2C+friends.&layer=4&head=0&off=0,2&offset=1000000");
    assert_eq!((s.model_text(), s.layer, s.head, s.planes_off, s.offset), ("Tom and Sue, friends.", 4, 0, 0b101, 1_000_000));
    assert_eq!(s.to_query(), "text=Tom%20and%20Sue,%20friends.&layer=4&head=0&off=0,2&offset=1000000");
    assert_eq!(LabState::from_query(&s.to_query()).state, s);
    // Out of range: the nearest valid value, with a notice; the rest unharmed.
    assert_eq!(noticed("layer=9&m=7", "layer").layer, 4);
    assert_eq!(noticed("layer=9&m=7", "layer").m, 7);
    assert_eq!(noticed("head=-3", "head").head, 0);
    assert_eq!(noticed("head=8", "head").head, 7);
    assert_eq!(noticed("offset=2000000", "offset").offset, 1_000_000);
    assert_eq!(noticed("offset=-5", "offset").offset, 0);
    assert_eq!(noticed("off=0,4,1.5,3", "off").planes_off, 0b1001);
    assert_eq!(noticed("off=x", "off").planes_off, 0);
    assert_eq!(noticed("layer=two", "layer").layer, 1);
    // Too long a text is cut to its first 2,000 characters (characters, not bytes).
    let long = "é".repeat(2500);
    let s = noticed(&format!("text={long}"), "text");
    assert_eq!(s.model_text().chars().count(), 2000);
    // An empty text is a text of its own (BOS alone), and survives the URL.
    let mut s = LabState::default();
    s.apply(Change::Text(String::new()));
    assert_eq!(s.model_text(), "");
    assert_eq!(LabState::from_query(&s.to_query()).state, s);
    // The default story leaves the URL; a switched plane comes back on.
    s.apply(Change::Text(rope_lab::state::DEFAULT_MODEL_TEXT.to_string()));
    s.apply(Change::PlaneOff(2, true));
    assert_eq!(s.to_query(), "off=2");
    s.apply(Change::PlaneOff(2, false));
    assert_eq!(s.to_query(), "");
}

/// A current model in the chapter (issue 56): `model`, and `layer`, `head` and `off` within its
/// shape (30 layers, 9 heads, 32 planes), `off` with ranges.
#[test]
fn smollm2s_parameters() {
    use rope_lab::state::TrainedModel;
    for model in TrainedModel::ALL {
        assert_eq!(TrainedModel::from_id(model.id()), Some(model));
    }
    let s = clean("model=smollm2-135m&layer=29&head=8&off=16-31&offset=100000");
    assert_eq!((s.model, s.layer, s.head, s.planes_off, s.offset), (TrainedModel::Smollm2, 29, 8, 0xffff_0000, 100_000));
    assert_eq!(s.to_query(), "layer=29&head=8&model=smollm2-135m&off=16-31&offset=100000");
    assert_eq!(LabState::from_query(&s.to_query()).state, s);
    // The model is read first, wherever it stands in the address.
    assert_eq!(clean("layer=20&off=0-3,8&model=smollm2-135m").planes_off, 0b1_0000_1111);
    assert_eq!(clean("off=0-3,8&model=smollm2-135m").to_query(), "model=smollm2-135m&off=0-3,8");
    // Runs of two stay a list; a reversed range is the same range.
    assert_eq!(clean("model=smollm2-135m&off=5,6").to_query(), "model=smollm2-135m&off=5,6");
    assert_eq!(clean("model=smollm2-135m&off=31-30").planes_off, 0b11 << 30);
    // Out of SmolLM2's shape: clamped, with a notice; stories260K keeps its own limits.
    assert_eq!(noticed("model=smollm2-135m&layer=30", "layer").layer, 29);
    assert_eq!(noticed("model=smollm2-135m&head=9", "head").head, 8);
    assert_eq!(noticed("model=smollm2-135m&off=30-40", "off").planes_off, 0b11 << 30);
    assert_eq!(noticed("off=0-3,8", "off").planes_off, 0b1111);
    // A range of other than whole planes: what it holds of them, with a notice.
    assert_eq!(noticed("model=smollm2-135m&off=1.5-4", "off").planes_off, 0);
    assert_eq!(noticed("model=smollm2-135m&off=2-x", "off").planes_off, 0);
    assert_eq!(noticed("layer=20", "layer").layer, 4);
    assert_eq!(noticed("off=1-x", "off").planes_off, 0);
    assert_eq!(noticed("model=gpt4", "model").model, TrainedModel::Stories260k);
    // Back to stories260K: what SmolLM2 allowed and it does not comes back within its shape.
    let mut s = clean("model=smollm2-135m&layer=20&head=8&off=2,20");
    s.apply(Change::Model(TrainedModel::Stories260k));
    assert_eq!((s.layer, s.head, s.planes_off), (4, 7, 0b100));
}

#[test]
fn the_language_follows_the_contract() {
    use rope_lab::i18n::Lang;
    // Unset: the browser's preference, which the page (not the state) reads.
    assert_eq!(clean("").lang, None);
    for (tag, lang) in [("en", Lang::En), ("zh-CN", Lang::ZhCn), ("es", Lang::Es), ("ja", Lang::Ja), ("zh-cn", Lang::ZhCn)] {
        let state = clean(&format!("lang={tag}&m=9"));
        assert_eq!(state.lang, Some(lang), "lang={tag}");
        // Written as the contract spells it, and read back the same.
        assert!(state.to_query().contains(&format!("lang={}", lang.as_str())));
        assert_eq!(LabState::from_query(&state.to_query()).state, state);
    }
    // Anything else: a notice, and the browser's preference.
    assert_eq!(noticed("lang=fr", "lang").lang, None);
    assert_eq!(noticed("lang=", "lang").lang, None);
    // Reset keeps the language, as it keeps the theme.
    let mut state = clean("lang=ja&m=40");
    state.reset();
    assert_eq!((state.lang, state.m), (Some(Lang::Ja), LabState::default().m));
}
