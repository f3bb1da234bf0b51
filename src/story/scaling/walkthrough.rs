//! The chapter's opening: the one idea of context extension, walked through on Llama 3.1 8B's
//! settings. Every number is read from the state (the reader may have changed the factor, orig
//! or the target since loading the preset); what is said about the real model is its own fact.

use crate::charts::format::{short_number, whole_number};
use crate::lab::use_lab;
use crate::rope::{PlaneChange, PlaneStretch, ScalingMethod};
use crate::state::Change;
use leptos::prelude::*;

/// The preset the walk-through follows.
const PRESET: &str = "llama-3.1-8b";

/// What the walk-through reads from the state.
#[derive(Debug, Clone, PartialEq)]
struct Settings {
    method: ScalingMethod,
    factor: f64,
    orig: u64,
    target: u64,
    low_freq: f64,
    high_freq: f64,
}

/// A number of tokens: grouped by three when it is a whole number ("131,072"), else short.
pub fn tokens(v: f64) -> String {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 9e15 {
        whole_number(v as i64)
    } else {
        short_number(v)
    }
}

/// "planes 3–17", "plane 3", "no plane" for `count` planes from `first`.
fn span(first: usize, count: usize) -> String {
    match count {
        0 => "no plane".to_string(),
        1 => format!("plane {first}"),
        _ => format!("planes {first}–{}", first + count - 1),
    }
}

/// The bands of a llama3 head, the interpolation limit and the overshoot, from the state.
fn bands(s: &Settings, planes: &[PlaneStretch], worst: Option<(f64, usize)>) -> Vec<String> {
    // transformers' llama3 rule on each rotating plane's wavelength before scaling.
    let rotating: Vec<f64> = planes.iter().filter(|p| p.change != PlaneChange::Still).map(|p| p.wavelength_before).collect();
    let (short, long) = (s.orig as f64 / s.high_freq, s.orig as f64 / s.low_freq);
    let kept = rotating.iter().filter(|w| **w < short).count();
    let divided = rotating.iter().filter(|w| **w > long).count();
    let blended = rotating.len() - kept - divided;
    let n = |v: f64| short_number(v);
    // "no plane" (none) and "plane 3" (one) are singular, "planes 3–5" plural.
    let verb = |count: usize, one: &'static str, many: &'static str| if count <= 1 { one } else { many };
    let have = |count: usize| if count <= 1 { "has" } else { "have" };
    let mut out = vec![format!(
        "Here orig = {} tokens and factor = {}. Llama 3.1's rule reads orig over each plane's wavelength 2π/θᵢ (about how \
         many turns the plane makes within orig). Of the {} rotating planes, {} {} it above high_freq_factor = {} \
         (wavelength under orig/high_freq_factor = {} tokens) and {} θᵢ; {} {} it below low_freq_factor = {} (wavelength \
         over {} tokens) and {} divided by the factor; {} between {} blended.",
        tokens(s.orig as f64),
        n(s.factor),
        rotating.len(),
        span(0, kept),
        have(kept),
        n(s.high_freq),
        tokens(short),
        verb(kept, "keeps", "keep"),
        span(kept + blended, divided),
        have(divided),
        n(s.low_freq),
        tokens(long),
        verb(divided, "is", "are"),
        span(kept, blended),
        verb(blended, "is", "are"),
    )];
    out.push(format!(
        "A plane divided by the factor reaches at position p the angle it reached at p/{}. {}",
        n(s.factor),
        reach_sentence(s.factor, s.orig, s.target)
    ));
    out.push(match worst {
        Some((worst, count)) if count > 0 => format!(
            "Within the target {count} {} that never completed a turn in training {} up to {}× as far as in training \
             (the readout “beyond the angles seen in training” below): interpolation alone does not cover it.",
            if count == 1 { "plane" } else { "planes" },
            if count == 1 { "turns" } else { "turn" },
            super::times(worst),
        ),
        Some(_) => "Within the target no plane turns past the angles it reached in training.".to_string(),
        None => String::new(),
    });
    out
}

/// How far a plane divided by the whole `factor` stays within the angles of training: positions
/// 0 to orig − 1 turned it by up to (orig − 1)·θᵢ, and position p now turns it by p·θᵢ/factor,
/// so up to position factor·(orig − 1); and where the target context's last position, target − 1,
/// stands against that.
pub fn reach_sentence(factor: f64, orig: u64, target: u64) -> String {
    let limit = factor * orig.saturating_sub(1) as f64;
    let last = target.saturating_sub(1) as f64;
    let ratio = last / limit;
    format!(
        "With factor = {} and orig = {}, such a plane stays within the angles of training (positions 0 to orig − 1) up to \
         position factor × (orig − 1) = {}; the target (max_position_embeddings), {} tokens, ends at position {}, {}.",
        short_number(factor),
        tokens(orig as f64),
        tokens(limit),
        tokens(target as f64),
        tokens(last),
        if ratio > 1.0 + 1e-12 {
            format!(
                "{}× that: a divided plane that never completed a turn in training turns that much further than it did there",
                super::times(ratio)
            )
        } else {
            "within that: a divided plane stays within what training showed".to_string()
        }
    )
}

/// The opening walk-through. `planes` and `overshoot` are the chapter's (every plane before and
/// after; the worst overshoot and how many planes overshoot).
#[component]
pub fn Walkthrough(planes: Memo<Option<Vec<PlaneStretch>>>, overshoot: Signal<Option<(f64, usize)>>) -> impl IntoView {
    let lab = use_lab();
    let settings = lab.select(|s| Settings {
        method: s.scaling,
        factor: s.effective_factor(),
        orig: s.orig,
        target: s.target_context(),
        low_freq: s.low_freq,
        high_freq: s.high_freq,
    });
    // Whether the rope settings are the preset's (loading it again would change none of them).
    let loaded = lab.select(|s| {
        let mut preset = s.clone();
        preset.apply(Change::Preset(PRESET));
        (preset.base, preset.dim, preset.target_context(), preset.scaling_params())
            == (s.base, s.dim, s.target_context(), s.scaling_params())
    });
    let text = move || {
        let s = settings.get();
        if s.method != ScalingMethod::Llama3 {
            return Vec::new();
        }
        planes.with(|p| p.as_ref().map(|p| bands(&s, p, overshoot.get())).unwrap_or_default())
    };
    view! {
        <h3>"The one idea, on Llama 3.1"</h3>
        <p class="explain">
            "A model trained on orig tokens (positions 0 to orig − 1) has seen each plane turn only as far as (orig − 1)·θᵢ. Run it on longer text and "
            "the slow planes (those that never completed a turn within orig) reach angles it never saw, while the fast "
            "ones have turned through every angle many times already. So: interpolate the slow planes (divide their θᵢ, "
            "so that longer text lands on angles seen in training) and keep the fast ones, which tell neighbouring tokens apart."
        </p>
        <p class="explain">
            "Two lengths, two names each: orig, the context the model was trained on (the frequencies chapter's "
            "context slider; a config calls it original_max_position_embeddings, or max_position_embeddings "
            "before any extension), and the target, the context it is extended to (max_position_embeddings once "
            "extended)."
        </p>
        <p class="explain" hidden=move || loaded.get()>
            "This walk-through follows Llama 3.1 8B's settings (rope_type llama3), which are not all in effect now: "
            <button type="button" class="load-walkthrough" data-testid="scaling-walkthrough-load"
                on:click=move |_| lab.apply(Change::Preset(PRESET))>"load Llama 3.1 8B"</button>
        </p>
        <div data-testid="scaling-walkthrough">
            {move || text().into_iter().filter(|t| !t.is_empty()).map(|t| view! { <p class="explain">{t}</p> }).collect_view()}
        </div>
        <p class="explain">
            "Llama 3.1 itself goes from 8,192 to 131,072 tokens, 16 × orig with factor 8, so its divided planes turn about twice "
            "as far as in training (131,071 / (8 × 8,191) ≈ 2.0002). Its 128K rests on more than the factor: the final stages of its pre-training were on "
            "long text, raising the training context from 8K to 128K in steps (six, over about 800B tokens, for the 405B model; "
            "Llama 3 paper, §3.4.2). Under “In detail” below, the menus and fields change every setting, the other methods "
            "too, and the chart, the table and the readouts show each plane before and after."
        </p>
    }
}
