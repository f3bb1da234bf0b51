//! Chapter (`data-widget="precision"`): positions and angles in bf16, fp16, f32 and f64. The
//! page's m as the chosen format stores it, the run of neighbouring tokens that collapse onto
//! it, every plane's angle error against f64, the score's error, the standard fixes at m, and
//! a chart of the error against position up to 2²⁰ tokens for each format and fix.

mod charts;

use crate::charts::format::{short_number, whole_number};
use crate::lab::use_lab;
use crate::quiz::variants::stored_position;
use crate::rope::{max_angle_error, score_with, table_cast_error, Format, Pipeline};
use crate::state::{param, Change};
use crate::ui::card::WidgetCard;
use crate::ui::check::Check;
use crate::ui::controls::{PositionControl, SelectControl};
use crate::ui::export::{base_and_dim, ExportButtons};
use crate::ui::readout::Readout;
use charts::{ErrorByPosition, PlaneErrors, LAST_POSITION};
use leptos::prelude::*;
use std::sync::Arc;

/// The chapter's id (`embed=precision`, `data-widget`): never changes meaning once published.
pub const ID: &str = "precision";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "Beyond f32: what bf16 and fp16 do to long positions";

/// Positions worth a click: inside bf16's 64-token steps, the first position fp16 rounds to
/// infinity (halfway past its largest value, 65,504, and the next step 65,536), and a million.
const JUMPS: [i64; 3] = [15_962, 65_520, 1_000_000];

/// (name in the URL, what the menu says).
const FORMATS: [(&str, &str); 4] = [
    ("bf16", "bf16: 8 significant bits, f32's range"),
    ("fp16", "fp16: 11 significant bits, largest 65,504"),
    ("f32", "f32: 24 significant bits"),
    ("f64", "f64: 53 significant bits (the reference)"),
];

/// The fixes compared at m: (what is done, how the angle error is computed).
fn fixes(format: Format) -> [(String, Option<Pipeline>); 5] {
    let f = format.as_str();
    [
        (format!("everything in {f}: the position, θᵢ and m·θᵢ"), Some(Pipeline::All(format))),
        (format!("positions kept as exact integers, θᵢ and m·θᵢ in {f}"), Some(Pipeline::IntegerPositions(format))),
        ("angles computed in f32 (positions and θᵢ in f32)".to_string(), Some(Pipeline::All(Format::F32))),
        ("angles computed in f64".to_string(), Some(Pipeline::All(Format::F64))),
        (format!("cos and sin tables built in f32, then cast to {f} (error of cos and sin)"), None),
    ]
}

/// An angle in radians as people read it, with degrees.
fn radians(v: f64) -> String {
    format!("{} rad ({}°)", short_number(v), short_number(v.to_degrees()))
}

#[component]
pub fn PrecisionWidget() -> impl IntoView {
    let lab = use_lab();
    let format = lab.select(|s| s.format);
    let m = lab.select(|s| s.m);
    let n = lab.select(|s| s.n);
    // The frequencies in effect (context extension included), as the lab rotates with them.
    let inv_freq = lab.select_derived(|d| d.frequencies.inv_freq.clone());
    let vectors = lab.vectors;

    let stored = Memo::new(move |_| format.get().round(m.get() as f64));
    let run = Memo::new(move |_| format.get().collapsed_run(m.get() as u64));
    let angle_error =
        Memo::new(move |_| inv_freq.with(|f| f.as_ref().map(|f| max_angle_error(Pipeline::All(format.get()), m.get() as f64, f))));
    let scores = Memo::new(move |_| {
        let (m, n, format) = (m.get() as f64, n.get() as f64, format.get());
        inv_freq.with(|f| {
            vectors.with(|v| {
                let (f, v) = (f.as_ref()?, v.as_ref()?);
                let score = |pipeline| score_with(pipeline, &v.q, &v.k, m, n, f).ok();
                Some((score(Pipeline::All(format))?, score(Pipeline::All(Format::F64))?))
            })
        })
    });
    // One error per fix, in the order of `fixes`; the rows themselves never change.
    let fix_errors = Memo::new(move |_| {
        let (m, format) = (m.get() as f64, format.get());
        inv_freq.with(|f| {
            f.as_ref().map(|f| {
                fixes(format).map(|(_, pipeline)| match pipeline {
                    Some(p) => max_angle_error(p, m, f),
                    None => table_cast_error(format, m, f),
                })
            })
        })
    });

    let stored_text = Signal::derive(move || {
        let (stored, m, format) = (stored.get(), m.get(), format.get());
        if !stored.is_finite() {
            return format!("∞: past {}'s largest value, {}", format.as_str(), short_number(format.max_finite()));
        }
        let gap = stored as i64 - m;
        match gap {
            0 => format!("{} (exact)", whole_number(stored as i64)),
            g => format!("{} (m {} {})", whole_number(stored as i64), if g > 0 { "+" } else { "−" }, whole_number(g.abs())),
        }
    });
    let run_hint = move || match run.get() {
        Some((first, last)) if first == last => "every position has its own value here".to_string(),
        Some((first, last)) => {
            format!(
                "positions {} to {} all become {}",
                whole_number(first as i64),
                whole_number(last as i64),
                whole_number(stored.get() as i64)
            )
        }
        None => "the position overflows".to_string(),
    };

    view! {
        <WidgetCard id=ID title=TITLE explain="Models run in bf16 or fp16 to save memory, and a position is a number \
            too. bf16 keeps 8 significant bits: every integer up to 256, then every 2nd, every 4th … and between \
            8,192 and 16,384 only every 64th. If the code turns positions into bf16 before multiplying by θᵢ, tokens \
            far into a long context share one position, and the fastest planes' angles m·θᵢ, thousands of \
            radians, whose bf16 steps (8, 16 … 64 radians) are longer than a whole turn, lose every digit that \
            says where on the circle they are. Pick a format and a position.">
            <div class="chapter-controls precision-controls">
                <SelectControl lab id="format-select" label="number format" options=FORMATS.to_vec()
                    value=Signal::derive(move || format.get().as_str())
                    on_pick=|name| Format::parse(name).map(Change::Format) />
                <PositionControl lab param=&param::M label="position m (shared with the whole page)" change=Change::M value=m
                    max=LAST_POSITION as i64 id="precision-m-slider" exact_label="exact position (tokens)" />
                <div class="jumps" role="group" aria-label="go to a position">
                    {JUMPS.into_iter().map(|p| view! {
                        <button type="button" class="jump" on:click=move |_| lab.apply(Change::M(p))>{format!("m = {}", whole_number(p))}</button>
                    }).collect_view()}
                </div>
            </div>
            <div class="readouts">
                <Readout testid="position-in-format" label="m as the format stores it"
                    value=Signal::derive(move || Some(stored.get())) text=stored_text />
                <Readout testid="collapsed-run" label="tokens stored as this same position" integer=true
                    value=Signal::derive(move || run.get().map(|(a, b)| (b - a + 1) as f64)) hint=run_hint />
                <Readout testid="max-angle-error" label="largest angle error over the planes, radians" value=angle_error
                    hint=move || format!("{}°: |m·θᵢ in the format − m·θᵢ in f64|, wrapped to [0, π]",
                        angle_error.get().map_or_else(|| "—".to_string(), |v| short_number(v.to_degrees()))) />
                <Readout testid="precision-score-error" label="error of the score q·k at (m, n)"
                    value=Signal::derive(move || scores.get().map(|(s, exact)| (s - exact).abs()))
                    hint=move || scores.get().map_or_else(String::new, |(s, exact)| {
                        format!("{} with the angles of m and n in the format, {} in f64", short_number(s), short_number(exact))
                    }) />
            </div>
            <div class="precision-charts">
                <PlaneErrors inv_freq format m />
                <ErrorByPosition inv_freq format m />
            </div>
            <ExportButtons name="precision" figure=".precision-charts"
                caption=Callback::new(move |()| lab.state.with_untracked(|s| format!(
                    "Angle errors of m·θᵢ by plane at m = {} and by position, angles in {}, {}", s.m, s.format.as_str(), base_and_dim(s.base, s.dim)))) />
            <h3>"The standard fixes, at m"</h3>
            <table class="fixes" data-testid="precision-fixes">
                <thead><tr><th scope="col">"how the angles are computed"</th><th scope="col">"largest error"</th></tr></thead>
                <tbody>
                    {(0..5).map(|row| {
                        let error = move || fix_errors.with(|e| e.map(|e| e[row]));
                        view! {
                            <tr>
                                <td>{move || fixes(format.get())[row].0.clone()}</td>
                                <td class="mono" data-value=move || error().map(|e| format!("{e:?}"))>
                                    // The last row is an error of cos and sin: a plain number.
                                    {move || error().map_or_else(|| "—".to_string(), |e| if row == 4 { short_number(e) } else { radians(e) })}
                                </td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
            <p class="explain">
                "What each fix buys. Exact integer positions alone do not save bf16: the product m·θᵢ is rounded to "
                "bf16 as well, and around 16,000 its steps are 64 apart, so without scaling (θ₀ = 1) the fastest "
                "plane's angle near m = 16,000 is off by up to 32 radians, five turns. Angles computed in f32 are the "
                "real fix: f32 stores every integer up to 16,777,216, and its 24 bits keep the angle of every plane "
                "turning at most 1 radian per token within about a tenth of a radian at a million tokens (m·θᵢ·2⁻²³ at "
                "worst; without scaling m·θ₀ = m is exact). That is what transformers does: inv_freq and the positions in float32 with "
                "autocast disabled, cos and sin built in float32, then cast to the model's dtype, the last row: "
                "the cast of the values, which lie in [−1, 1], to bf16 adds at most 2⁻⁹ to each, however long "
                "the context; what that row shows beyond it is f32's angle error, which grows with m. "
                "fp16 has a harder wall: from 65,520 on, a position is infinity."
            </p>
            <p class="credit">
                "The failure is real and was reported and fixed more than once: transformers #29285 (RoPE loses "
                "precision for Llama and Gemma in bfloat16, 2024) and GPT-NeoX #1003 (rotary tables wrong in fp16 "
                "and bf16, 2023); Megatron-LM #744 (2024) asks whether inv_freq and sin/cos should stay in float32."
            </p>
            <Check name="stored-position" look="the position-in-format readout" ask=Arc::new(move || stored_position(format.get(), m.get())) />
        </WidgetCard>
    }
}
