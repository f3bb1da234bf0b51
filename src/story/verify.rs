//! Chapter 15 (`data-widget="verify"`): check your own RoPE. The page hands the engineer a small
//! test input for the settings in effect (as Python, JSON, or a file), they run their own
//! implementation on it and paste what it returns, and the page compares that with its own
//! result: right (and to what precision), or which known mistake it is (the other layout, the
//! wrong direction, cos and sin swapped, shifted positions, another base, the exponent's 2
//! forgotten, partial rotary, a scaling, angles in bf16 or fp16), with where the error sits and a
//! button that sets the page to what the paste was found to be. The reading and the diagnosis
//! are `crate::verify`'s, native and tested there.

use crate::lab::{use_lab, Lab};
use crate::quiz::verify::row_zero;
use crate::state::LabState;
use crate::ui::card::WidgetCard;
use crate::ui::check::Check;
use crate::ui::dialog::copy_text;
use crate::ui::readout::Readout;
use crate::verify::diagnose::diagnose;
use crate::verify::parse::read_paste;
use crate::verify::{test_input, TestInput};
use leptos::prelude::*;
use std::sync::Arc;
use std::time::Duration;

/// The chapter's id (`embed=verify`, `data-widget`): never changes meaning once published.
pub const ID: &str = "verify";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "Check your own RoPE: paste what your implementation returns";

/// How long typing must pause before a paste is read.
const PAUSE: Duration = Duration::from_millis(350);

/// What the page says of a paste, as shown.
#[derive(Debug, Clone, PartialEq)]
enum Verdict {
    /// It could not be read: why.
    Unread(String),
    Read {
        verdict: String,
        text: String,
        max_error: f64,
        per_plane: Vec<f64>,
        per_row: Vec<f64>,
        settings: Vec<(&'static str, String)>,
    },
}

/// The test input in the form asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Python,
    Json,
}

#[component]
pub fn VerifyWidget() -> impl IntoView {
    let lab = use_lab();
    // The test input follows the settings it depends on (d, base, layout, scaling, partial,
    // orig), not m, n or the plane: its JSON is its identity.
    // (Selected by the settings alone, compared cheaply: a step of m or n must not rebuild and
    // compare the JSON of 6 × d numbers.)
    let settings = lab.select(|s| (s.dim, s.base, s.layout, s.orig, s.scaling_params()));
    let json = Memo::new(move |_| {
        // Read, not only tracked: a memo never read never runs, so never learns of a change.
        settings.with(|_| ());
        lab.state.with_untracked(|s| test_input(s).map(|input| input.json()).map_err(|e| e.to_string()))
    });
    let input = move || -> Option<TestInput> {
        json.track();
        lab.state.with_untracked(|s| test_input(s).ok())
    };
    let form = RwSignal::new(Form::Python);
    let shown_input = Memo::new(move |_| match (json.get(), form.get()) {
        (Err(why), _) => format!("# The test input cannot be made for these settings: {why}"),
        (Ok(json), Form::Json) => json,
        (Ok(_), Form::Python) => input().map(|i| i.python()).unwrap_or_default(),
    });
    let copied = RwSignal::new("");

    // The paste, read once typing pauses.
    let typed = RwSignal::new(String::new());
    let pasted = RwSignal::new(String::new());
    let generation = StoredValue::new(0u32);
    let on_input = move |ev| {
        typed.set(event_target_value(&ev));
        let now = generation.get_value().wrapping_add(1);
        generation.set_value(now);
        set_timeout(
            move || {
                if generation.try_get_value() == Some(now) {
                    pasted.set(typed.get_untracked());
                }
            },
            PAUSE,
        );
    };
    let verdict = Memo::new(move |_| {
        let text = pasted.get();
        json.track();
        if text.trim().is_empty() {
            return None;
        }
        let input = input()?;
        let dim = input.x.first().map_or(0, Vec::len);
        Some(match read_paste(&text, input.x.len(), dim) {
            Err(why) => Verdict::Unread(why.to_string()),
            Ok(rows) => {
                let d = diagnose(&input, &rows);
                Verdict::Read {
                    verdict: d.verdict,
                    text: d.text,
                    max_error: d.max_error,
                    per_plane: d.per_plane,
                    per_row: d.per_row,
                    settings: d.settings,
                }
            }
        })
    });
    let verdict_value = move || {
        verdict.with(|v| match v {
            None => None,
            Some(Verdict::Unread(_)) => Some("unread".to_string()),
            Some(Verdict::Read { verdict, .. }) => Some(verdict.clone()),
        })
    };
    // The verdict, in three pieces: a piece of the reader's paste that a message quotes ('hello'
    // at character 3…) is theirs, kept as written in every language (`translate="no"`), between
    // the page's words before and after it.
    let verdict_text = Memo::new(move |_| {
        verdict.with(|v| match v {
            None => ("Paste your implementation's output above: the verdict follows as soon as you stop typing.".to_string(), None, None),
            Some(Verdict::Unread(why)) => {
                let quoted = why.strip_prefix('\'').and_then(|rest| rest.find("' at character").map(|end| end + 2));
                match quoted {
                    Some(end) => ("Could not read the paste: ".to_string(), Some(why[..end].to_string()), Some(why[end..].to_string())),
                    None => (format!("Could not read the paste: {why}"), None, None),
                }
            }
            Some(Verdict::Read { text, .. }) => (text.clone(), None, None),
        })
    });
    let max_error = Signal::derive(move || {
        verdict.with(|v| match v {
            Some(Verdict::Read { max_error, .. }) if max_error.is_finite() => Some(*max_error),
            _ => None,
        })
    });
    let settings = move || {
        verdict.with(|v| match v {
            Some(Verdict::Read { settings, .. }) if !settings.is_empty() => Some(settings.clone()),
            _ => None,
        })
    };
    let positions = move || input().map(|i| i.positions.clone()).unwrap_or_default();
    let shape = lab.select(|s| (s.dim, s.layout));

    view! {
        <WidgetCard id=ID title=TITLE>
            <p class="explain">
                "Most RoPE bugs are one of a few known mistakes: the other pairing of dimensions (transformers #25199), "
                "angles computed in bf16 (transformers PR #29285), a base or a scaling that is not the model's, positions "
                "off by one, a rotation the wrong way round. Run your implementation on the input below, with the settings "
                "of this page (set them in Parameters, or paste your config in the chapter on stretching the context), "
                "paste what it returns, and the page says whether it is right and, if not, which mistake it is."
            </p>
            <h3>"1. The test input"</h3>
            <p class="explain">
                {move || {
                    let p = positions();
                    let (rows, dim) = (p.len(), lab.state.with(|s| s.dim));
                    let orig = lab.state.with(|s| s.orig) as i64;
                    let past = if p.last() == Some(&orig) {
                        format!(" (the last, {}, is orig: the first position past the context the model was trained on)", crate::charts::format::whole_number(orig))
                    } else {
                        String::new()
                    };
                    format!(
                        "{rows} rows x of d = {dim} numbers, at positions {}{past}. Rotate each row as a query at its position and print the {rows} × {dim} result.",
                        p.iter().map(|p| crate::charts::format::whole_number(*p)).collect::<Vec<_>>().join(", "),
                    )
                }}
            </p>
            <div class="verify-forms" role="radiogroup" aria-label="form of the test input">
                <label><input type="radio" name="verify-form" prop:checked=move || form.get() == Form::Python
                    on:change=move |_| form.set(Form::Python) />" Python (numpy, torch)"</label>
                <label><input type="radio" name="verify-form" prop:checked=move || form.get() == Form::Json
                    on:change=move |_| form.set(Form::Json) />" JSON"</label>
            </div>
            <pre class="code verify-input" tabindex="0" aria-label="the test input"
                data-testid="verify-test-input" data-value=move || json.get().ok()>{move || shown_input.get()}</pre>
            <div class="verify-actions">
                <button type="button" on:click=move |_| copy_text(shown_input.get_untracked(), copied)>"Copy"</button>
                <button type="button" on:click=move |_| {
                    let (text, name, kind) = match form.get_untracked() {
                        Form::Python => (shown_input.get_untracked(), "rope-lab-test-input.py", "text/x-python"),
                        Form::Json => (shown_input.get_untracked(), "rope-lab-test-input.json", "application/json"),
                    };
                    let url = format!("data:{kind};charset=utf-8,{}", String::from(js_sys::encode_uri_component(&text)));
                    crate::ui::export::download(&url, name);
                }>"Download"</button>
                <span class="copy-status" role="status">{move || copied.get()}</span>
            </div>
            <h3>"2. Paste your output"</h3>
            <label class="control" for="verify-paste">
                "The rotated rows: a list of lists, JSON, numpy's array(…) or torch's tensor(…) as printed "
                "(a batch or head axis of size 1 is fine)"
            </label>
            <textarea id="verify-paste" class="verify-paste" data-testid="verify-paste" rows="6" spellcheck="false"
                autocomplete="off" placeholder="[[0.1234, -0.5678, …], …]" on:input=on_input
                prop:value=move || typed.get()></textarea>
            <h3>"3. The verdict"</h3>
            <p class="verify-verdict" data-testid="verify-verdict" data-value=verdict_value role="status" aria-live="polite"
                class:unread=move || verdict.with(|v| matches!(v, Some(Verdict::Unread(_))))>
                {move || verdict_text.get().0}
                {move || verdict_text.get().1.map(|quoted| view! { <span translate="no">{quoted}</span> })}
                {move || verdict_text.get().2}
            </p>
            {move || settings().map(|settings| view! {
                <button type="button" class="verify-use" on:click=move |_| use_settings(lab, &settings)>
                    "Use these settings"
                </button>
            })}
            <div class="readouts">
                <Readout testid="verify-max-error" label="largest difference, after the diagnosis" value=max_error
                    hint="the largest |your value − the page's| over every number, with the mistake found applied (for a match, against the page's own result)" />
            </div>
            {move || verdict.with(|v| match v {
                Some(Verdict::Read { per_plane, per_row, .. }) => Some(view! {
                    <ErrorPlaces per_plane=per_plane.clone() per_row=per_row.clone() positions=positions() />
                }),
                _ => None,
            })}
            <Check name="row-zero" look="the test input's first row, at position 0" ask=Arc::new(move || {
                let (dim, layout) = shape.get();
                row_zero(dim, layout)
            }) />
        </WidgetCard>
    }
}

/// Where the error sits, against the page's own result: a bar per plane (log scale) and a row
/// per position.
#[component]
fn ErrorPlaces(per_plane: Vec<f64>, per_row: Vec<f64>, positions: Vec<i64>) -> impl IntoView {
    // Bars from 10⁻⁸ (none) to 10¹ (all wrong), log scale.
    const LOW: f64 = -8.0;
    const HIGH: f64 = 1.0;
    let height = |e: f64| {
        let e = if e.is_finite() && e > 0.0 { e.log10() } else { LOW };
        ((e.clamp(LOW, HIGH) - LOW) / (HIGH - LOW) * 60.0).max(1.0)
    };
    let planes = per_plane.len().max(1);
    let width = planes as f64 * 6.0;
    let worst_plane = per_plane.iter().copied().enumerate().filter(|(_, e)| e.is_finite()).max_by(|a, b| a.1.total_cmp(&b.1));
    let said = |e: f64| {
        if e == 0.0 {
            "0".to_string()
        } else if e.is_finite() {
            format!("{e:.2e}")
        } else {
            "—".to_string()
        }
    };
    let summary = worst_plane.map_or_else(String::new, |(i, e)| format!("largest in plane {i}: {}", said(e)));
    view! {
        <figure class="verify-places">
            <svg class="verify-bars" viewBox=format!("0 0 {width} 62") preserveAspectRatio="none" role="img"
                aria-label=format!("Largest difference from the page's result per plane, log scale from 10⁻⁸ to 10: {summary}")>
                {per_plane.iter().enumerate().map(|(i, e)| {
                    let h = height(*e);
                    view! { <rect x=format!("{}", i as f64 * 6.0 + 0.5) y=format!("{}", 61.0 - h) width="5" height=format!("{h}")><title>{format!("plane {i}: {}", said(*e))}</title></rect> }
                }).collect_view()}
            </svg>
            <figcaption>{format!("Largest difference per plane (plane 0 at the left, log scale 10⁻⁸ to 10){}", if summary.is_empty() { String::new() } else { format!("; {summary}") })}</figcaption>
            <table class="verify-rows">
                <thead><tr><th scope="col">"position"</th><th scope="col">"largest difference"</th></tr></thead>
                <tbody>
                    {per_row.iter().zip(positions).map(|(e, p)| view! {
                        <tr><td>{crate::charts::format::whole_number(p)}</td><td class="mono">{said(*e)}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
        </figure>
    }
}

/// Sets the page to what the paste was found to be: the state's query with `settings` over it.
fn use_settings(lab: Lab, settings: &[(&'static str, String)]) {
    let query = lab.state.with_untracked(LabState::to_query);
    let mut pairs: Vec<(String, String)> =
        crate::state::query::parse_pairs(&query).into_iter().filter(|(name, _)| !settings.iter().any(|(n, _)| n == name)).collect();
    pairs.extend(settings.iter().map(|(n, v)| (n.to_string(), v.clone())));
    let query = pairs.iter().map(|(n, v)| format!("{n}={}", crate::state::query::encode(v))).collect::<Vec<_>>().join("&");
    let parsed = LabState::from_query(&query);
    lab.write(move |s| {
        let mut next = parsed.state;
        next.present = s.present;
        next.theme = s.theme;
        next.embed = s.embed.take();
        *s = next;
    });
}
