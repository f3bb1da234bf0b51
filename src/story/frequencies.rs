//! Frequencies and wavelengths (`data-widget="frequencies"`): each plane's θᵢ and wavelength
//! 2π·base^(2i/d) against the context length, the period table, and the θᵢ list as numbers.

use crate::charts::format::short_number;
use crate::charts::{draw_frequencies, FrequencyChart};
use crate::dom::canvas::use_canvas_chart;
use crate::dom::indexed::indexed;
use crate::dom::size::{use_in_view, while_in_view};
use crate::lab::{use_chart_style, use_lab};
use crate::quiz::planes::{planes_turning, slowest_hint, slowest_vs_context, slowest_wavelength, turning_counts, turns_in_context};
use crate::rope::{frequencies, wavelength, RopeParams, ScalingMethod};
use crate::state::{param, Change};
use crate::ui::card::WidgetCard;
use crate::ui::check::Check;
use crate::ui::controls::NumberField;
use crate::ui::export::{base_and_dim, csv_text, ExportButtons};
use crate::ui::formulas::{self, Formula};
use crate::ui::gif_button::GifButton;
use crate::ui::legend::ChartLegend;
use crate::ui::readout::{ListReadout, Readout};
use crate::ui::slider::Slider;
use leptos::html::Canvas;
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// The chapter's id (`embed=frequencies`, `data-widget`): never changes meaning once published.
pub const ID: &str = "frequencies";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "Frequencies and wavelengths";

/// Rows of the period table kept current beyond those its scroll box shows, on either side (the
/// box is estimated to show a share of the rows equal to its share of the scroll height; the
/// header and rounding are within this).
const ROW_MARGIN: usize = 3;
/// The rows kept current before the box first scrolls: its 320 px show about ten.
const FIRST_ROWS: (usize, usize) = (0, 16);

/// The context-length slider's range: 2^6 to 2^20 tokens.
const CONTEXT_LOG2: (f64, f64) = (6.0, 20.0);

/// The frequency chart and the period table.
#[component]
pub fn FrequenciesWidget() -> impl IntoView {
    let lab = use_lab();
    let style = use_chart_style();
    let inv_freq = lab.select_derived(|d| d.frequencies.inv_freq.clone());
    let context = lab.select(|s| s.orig);
    let plane = lab.select(|s| s.plane);
    let base = lab.select(|s| s.base);
    let dim = lab.select(|s| s.dim);
    let chart = Memo::new(move |_| FrequencyChart {
        inv_freq: inv_freq.get().unwrap_or_default(),
        context: context.get() as f64,
        selected: Some(plane.get()),
    });
    // One count for the readout and its question (`check-planes-turning` equals `planes-turning`).
    let counts = Memo::new(move |_| inv_freq.with(|f| turning_counts(f.as_deref().unwrap_or_default(), context.get())));
    let slowest = Memo::new(move |_| inv_freq.with(|f| f.as_deref().and_then(slowest_wavelength)));

    let scaling = lab.select(|s| s.scaling);
    // The same head with plain RoPE (no method; p-RoPE's dropped planes turning): the slowest
    // wavelength's hint compares the two.
    let unscaled = lab.select(|s| s.plain_params());
    let params = lab.select_derived(|d| d.params);
    let unscaled_freq =
        Memo::new(move |_| params.get().and_then(|p| unscaled.with(|u| frequencies(p, u).ok())).map(|f| f.inv_freq).unwrap_or_default());
    // Partial rotary (any method but p-RoPE, which drops planes instead): only the first r of
    // the d dimensions rotate, with θᵢ = b^(−2i/r) (transformers' inv_freq over
    // dim = int(head_dim·partial_rotary_factor)), and the other planes do not turn.
    let partial_note = Memo::new(move |_| {
        lab.state.with(|s| {
            let r = s.scaling.rotary_dim(s.dim, s.partial).ok().filter(|r| *r < s.dim)?;
            Some(partial_rotary_note(s.base, s.dim, r, s.partial, s.scaling != ScalingMethod::None))
        })
    });
    // p-RoPE's kept planes before its factor: the hint's middle step.
    let kept = lab.select(|s| (s.scaling == ScalingMethod::Proportional).then(|| s.unscaled_params()));
    let kept_freq = Memo::new(move |_| {
        params.get().and_then(|p| kept.with(|k| k.as_ref().and_then(|k| frequencies(p, k).ok()))).map(|f| f.inv_freq).unwrap_or_default()
    });
    let slowest_hint = move || {
        inv_freq.with(|f| {
            unscaled_freq.with(|u| kept_freq.with(|k| slowest_hint(f.as_deref().unwrap_or_default(), u, k, base.get(), scaling.get())))
        })
    };
    let canvas = NodeRef::<Canvas>::new();
    let canvas_size = use_canvas_chart(
        canvas,
        move || (chart.get(), style.get()),
        |area, (chart, style), ratio| {
            let _ = draw_frequencies(area, chart, &style.with_scale(ratio));
        },
    );
    // The GIF: this chart as the base sweeps 10² to 10⁶ and back, the rest of the state as it is.
    let gif = Callback::new(move |()| {
        let (dim, scaling, context, plane) = lab.state.with_untracked(|s| (s.dim, s.scaling_params(), s.orig, s.plane));
        let style = style.get_untracked().with_scale(1.0);
        let legend = FrequencyChart { inv_freq: Vec::new(), context: context as f64, selected: Some(plane) }.legend(&style);
        super::sweep::base_sweep_animation(
            "frequencies and wavelengths",
            dim,
            canvas_size.get_untracked(),
            (style, legend),
            super::sweep::FINE_STEPS,
            Box::new(move |base, area| {
                let inv_freq = RopeParams::new(base, dim).and_then(|p| frequencies(p, &scaling)).map(|f| f.inv_freq).unwrap_or_default();
                let _ = draw_frequencies(area, &FrequencyChart { inv_freq, context: context as f64, selected: Some(plane) }, &style);
            }),
        )
    });
    // The table's rows follow the state only while the table is in view (a base or dimension
    // step rebuilds every row): out of view the memo holds its rows and wakes nobody.
    let table = NodeRef::<leptos::html::Div>::new();
    let table_in_view = use_in_view(table);
    let rows = while_in_view(table_in_view, move || (inv_freq.get().unwrap_or_default(), context.get()));
    // And of those, only the rows the box shows (give or take ROW_MARGIN) follow a step: a step
    // of base rewrote every row's three numbers, and with the table in view 7 ms of a step went
    // to it (3 ms with the shown rows alone; d = 128). The others keep their text until the box
    // scrolls to them (the box's scroll position is read when it scrolls, never during a step).
    let shown_rows = RwSignal::new(FIRST_ROWS);
    let on_scroll = move |_| {
        let Some(table) = table.get_untracked() else { return };
        // Read by name, as numbers: no new bindings in the page's glue for three properties.
        let read = |name: &str| js_sys::Reflect::get(&table, &name.into()).ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
        let (top, height, total) = (read("scrollTop"), read("clientHeight"), read("scrollHeight"));
        // The header counts as about two rows: slot s holds row s − 2.
        let slots = rows.with_untracked(|(f, _)| f.len()) as f64 + 2.0;
        if total > 0.0 {
            let row = |y: f64, round: fn(f64) -> f64| (round(y / total * slots) as usize).saturating_sub(2);
            let (first, last) = (row(top, f64::floor).saturating_sub(ROW_MARGIN), row(top + height, f64::ceil) + ROW_MARGIN);
            if shown_rows.get_untracked() != (first, last) {
                shown_rows.set((first, last));
            }
        }
    };
    let selected = Selector::new(move || plane.get());
    // Arrow keys, Home and End move the selection through the rows, and the focus with it.
    let row_keys = move |ev: leptos::ev::KeyboardEvent| {
        let (current, last) = (plane.get_untracked(), inv_freq.with_untracked(|f| f.as_ref().map_or(0, Vec::len)).saturating_sub(1));
        let next = match ev.key().as_str() {
            "ArrowDown" => (current + 1).min(last),
            "ArrowUp" => current.saturating_sub(1),
            "Home" => 0,
            "End" => last,
            _ => return,
        };
        ev.prevent_default();
        lab.apply(Change::Plane(next as i64));
        // Focus the new row once its tab stop has moved to it.
        request_animation_frame(move || {
            let row = table
                .get_untracked()
                .and_then(|table| table.query_selector(&format!("[data-plane='{next}']")).ok().flatten())
                .and_then(|button| button.dyn_into::<web_sys::HtmlElement>().ok());
            if let Some(row) = row {
                let _ = row.focus();
            }
        });
    };
    let csv = move || {
        let context = context.get_untracked();
        inv_freq.with_untracked(|f| {
            csv_text(
                &["plane", "theta_rad_per_token", "wavelength_tokens", "turns_within_context"],
                f.iter()
                    .flatten()
                    .enumerate()
                    .map(|(i, theta)| vec![i as f64, *theta, wavelength(*theta).unwrap_or(0.0), turns_in_context(*theta, context)]),
            )
        })
    };

    view! {
        <WidgetCard id=ID title=TITLE explain="Plane i turns by θᵢ = b^(−2i/d) radians per token, once every 2π/θᵢ = 2π·b^(2i/d) tokens (its \
            wavelength). Plane 0 turns once every 2π ≈ 6.3 tokens; the last plane, i = d/2 − 1, once every \
            2π·b^(1−2/d) tokens: with b = 10,000, 75% of 2π·b at d = 64 and only 10% at d = 8. A context of L tokens holds \
            positions 0 to L − 1, whose farthest pair is L − 1 apart: within it a plane turns by at most (L − 1)·θᵢ, so it \
            completes a turn only if its wavelength is at most L − 1 tokens. With partial rotary (partial_rotary_factor below 1), r = ⌊d·partial⌋ \
            replaces d: see the note below.">
            <Formula math=formulas::FREQUENCIES />
            {move || partial_note.get().map(|text| view! { <p class="control-note" data-testid="partial-rotary-note">{text}</p> })}
            <Show when=move || scaling.get() != ScalingMethod::None>
                <p class="control-note">
                    {move || format!("The θᵢ here are those of {}, a context extension explained in ", scaling.get().label())}
                    <a href="#scaling">"Context extension"</a>
                    "; the slowest wavelength's readout compares them with plain RoPE's (no context extension, and under p-RoPE every plane turning)."
                </p>
            </Show>
            <div class="control context-control">
                <label for="context-slider">"context length orig " <span class="unit">"(tokens the model was trained on, log scale)"</span></label>
                <div class="control-row">
                    <Slider id="context-slider".to_string() step="0.5"
                        min=CONTEXT_LOG2.0.to_string() max=CONTEXT_LOG2.1.to_string()
                        aria_valuetext=Signal::derive(move || format!("{} tokens", context.get()))
                        value=Signal::derive(move || (context.get() as f64).log2().to_string())
                        on_value=move |log2: f64| lab.apply(Change::Orig(2f64.powf(log2).round() as i64)) />
                    <NumberField lab param=&param::ORIG aria_label="context, exact" step="1"
                        value=Signal::derive(move || context.get().to_string()) />
                </div>
            </div>
            <canvas class="chart frequency-chart" node_ref=canvas role="img"
                aria-label=move || {
                    let (turning, still) = counts.get();
                    let fastest = inv_freq.with(|f| f.as_ref().and_then(|f| f.first().copied()).and_then(wavelength));
                    format!(
                        "Wavelength (left, log scale) and frequency θᵢ (right, log scale) of each of {} planes, from {} tokens (plane 0) to {} tokens (the slowest); {turning} of them complete at least one turn within the context of {} tokens (wavelength at most L − 1), {still} never do",
                        turning + still,
                        fastest.map_or_else(|| "—".to_string(), short_number),
                        slowest.get().map_or_else(|| "—".to_string(), short_number),
                        context.get()
                    )
                }></canvas>
            <ChartLegend entries=Memo::new(move |_| chart.with(|c| c.legend(&style.get()))) />
            <div class="readouts">
                <Readout testid="planes-turning" label="planes that complete a turn within the context" integer=true
                    value=Signal::derive(move || Some(counts.get().0 as f64))
                    text=Signal::derive(move || format!("{} of {}", counts.get().0, counts.get().0 + counts.get().1))
                    hint=move || {
                        let (still, length) = (counts.get().1, context.get());
                        let verb = if still == 1 { "completes" } else { "complete" };
                        let last = length.saturating_sub(1);
                        format!("{still} never {verb} a turn in {length} tokens: positions 0 to {last} turn a plane by at most {last}·θᵢ")
                    } />
                <Readout testid="slowest-wavelength" label="slowest wavelength (tokens)" value=slowest
                    hint=slowest_hint />
            </div>
            <div class="exports">
                <ExportButtons name="frequencies" figure=".frequency-chart, .frequency-chart + .chart-legend" csv=Callback::new(move |()| csv())
                    caption=Callback::new(move |()| lab.state.with_untracked(|s| format!(
                        "Wavelength and frequency of each plane, context {} tokens, {}", s.orig, base_and_dim(s.base, s.dim)))) />
                <GifButton name="frequencies" animation=gif />
            </div>
            <div class="period-table" tabindex="0" role="region" aria-label="period table" node_ref=table on:scroll=on_scroll>
                <table>
                    <caption class="visually-hidden">"Each plane's frequency, wavelength and turns within the context, (L − 1)·θᵢ / 2π"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"plane"</th>
                            <th scope="col">"θᵢ " <span class="unit">"rad/token"</span></th>
                            // A soft hyphen: on a phone the word breaks as wave-length instead of overflowing.
                            <th scope="col">"wave\u{ad}length " <span class="unit">"tokens"</span></th>
                            <th scope="col">"turns in context"</th>
                        </tr>
                    </thead>
                    <tbody>
                        // One row per plane, kept (hidden past the last plane): a step of base or
                        // the context rewrites only the cells' text, a change of plane two rows' marks.
                        {indexed(move || rows.with(|(f, _)| f.len()), move |i, active| view! {
                            <PeriodRow i active rows shown=shown_rows.read_only() selected=selected.clone() on_click=move |_| lab.apply(Change::Plane(i as i64)) on_key=row_keys />
                        })}
                    </tbody>
                </table>
            </div>
            <h3>"The base b"</h3>
            <p class="explain">
                "b = 10,000 comes from the original transformer's sinusoids (Vaswani et al. 2017), a choice neither it nor "
                "RoFormer derives: its wavelengths run from 2π to 2π·10,000^((d−2)/d), which nears 2π·10,000 ≈ 62,832 tokens "
                "as d grows (47,117 at d = 64, about 54,000 at d = 128), longer than the texts "
                "trained on then. Long-context models raise it, so that the slow planes stay slow over a longer context: "
                "Llama 3.1 trains with b = 500,000, Qwen2.5 with 1,000,000 (rope_theta, b's name in their config.json). Try them and "
                "watch the slowest wavelength and the planes that turn:"
            </p>
            <div class="chapter-controls base-picks" role="group" aria-label="bases of real models">
                {[(10_000.0, "10,000: RoFormer, Llama 2"), (500_000.0, "500,000: Llama 3.1"), (1_000_000.0, "1,000,000: Qwen2.5")]
                    .into_iter()
                    .map(|(b, label)| view! {
                        <button type="button" class="button-small" aria-pressed=move || (base.get() == b).to_string()
                            on:click=move |_| lab.apply(Change::Base(b))>{label}</button>
                    })
                    .collect_view()}
            </div>
            <details class="lists">
                <summary>{move || format!("The θᵢ of the {} planes, as numbers", inv_freq.with(|f| f.as_ref().map_or(0, Vec::len)))}</summary>
                <p class="explain">
                    {move || {
                        let over = partial_note.with(|n| n.is_some()).then(|| {
                            lab.state.with(|s| s.scaling.rotary_dim(s.dim, s.partial).map_or(s.dim, |r| r))
                        });
                        let exponent = over.map_or_else(|| "d".to_string(), |r| r.to_string());
                        let rotating = over.map_or_else(String::new, |r| format!(" over the {r} dimensions that rotate (r = {r})"));
                        format!(
                            "θᵢ is a frequency, in radians per token. transformers calls the list inv_freq because its default computes \
                             each θᵢ as 1/b^(2i/{exponent}), the inverse of b^(2i/{exponent}){rotating}; planes that do not rotate show 0."
                        )
                    }}
                </p>
                <ListReadout testid="inv-freq" label="θᵢ, radians per token"
                    values=Signal::derive(move || inv_freq.get().unwrap_or_default()) />
            </details>
            <Check name="planes-turning" look="the planes-turning readout and the period table" ask=Arc::new(move || {
                inv_freq.with(|f| planes_turning(f.as_deref().unwrap_or_default(), context.get()))
            }) />
            <Check name="slowest-vs-context" look="the slowest-wavelength readout" ask=Arc::new(move || {
                inv_freq.with(|f| slowest_vs_context(f.as_deref().unwrap_or_default(), context.get(), base.get(), dim.get(), scaling.get()))
            }) />
        </WidgetCard>
    }
}

/// What the period table's rows show: each plane's θᵢ and the context length.
type Rows = (Vec<f64>, u64);

/// One row of the period table: plane `i`'s θᵢ, wavelength and turns within the context, from
/// `rows` (the frequencies and the context), marked when `i` is the selected plane; hidden, and
/// deaf to `rows`, while not `active`; its numbers wait while it is outside `shown`.
#[component]
fn PeriodRow(
    i: usize,
    active: Signal<bool>,
    rows: Memo<Rows>,
    shown: ReadSignal<(usize, usize)>,
    selected: Selector<usize>,
    on_click: impl Fn(leptos::ev::MouseEvent) + 'static,
    on_key: impl Fn(leptos::ev::KeyboardEvent) + 'static,
) -> impl IntoView {
    let near = Memo::new(move |_| shown.with(|(first, last)| (*first..=*last).contains(&i)));
    // Plane i's numbers, read so that only a row near the box's view follows `rows`: far from
    // it, a step does not wake the row, which shows the numbers of when it last was near (the
    // same holding back as `while_in_view`, without a memo of texts per row: 0.9 KB less).
    let read = move |f: &dyn Fn(&Rows) -> Option<(f64, f64)>| if near.get() { rows.with(f) } else { rows.with_untracked(f) };
    let numbers =
        move || active.get().then(|| read(&|(f, context)| f.get(i).map(|theta| (*theta, turns_in_context(*theta, *context))))).flatten();
    // The three cells follow the row's numbers in one update (cells have no attributes, so
    // rebuilding them only sets the texts that changed).
    let cells = move || {
        let [theta, wavelength, turns] = numbers()
            .map(|(theta, turns)| {
                [short_number(theta), wavelength(theta).map_or_else(|| "no turn".to_string(), short_number), short_number(turns)]
            })
            .unwrap_or_default();
        view! { <td>{theta}</td><td>{wavelength}</td><td>{turns}</td> }
    };
    let no_turn = move || numbers().is_some_and(|(_, turns)| turns < 1.0);
    // One subscription to the selection per row: it wakes only the rows that gain or lose it.
    let is_selected = Memo::new(move |_| selected.selected(&i));
    view! {
        <tr class:selected=is_selected class:no-turn=no_turn hidden=move || !active.get()>
            <th scope="row">
                <button type="button" class="row-select" data-plane=i
                    aria-pressed=move || is_selected.get().to_string()
                    // One tab stop for the whole table: the selected row's.
                    tabindex=move || if is_selected.get() { "0" } else { "-1" }
                    on:click=on_click on:keydown=on_key>
                    {i}
                </button>
            </th>
            {cells}
        </tr>
    }
}

/// The note under partial rotary: `r` of the `dim` dimensions rotate (`partial` of them, rounded
/// down), so θᵢ = b^(−2i/r) for the first r/2 planes and 0 for the rest; the last rotating
/// plane's wavelength 2π·b^(1−2/r), before any context extension when `scaled`.
fn partial_rotary_note(base: f64, dim: usize, r: usize, partial: f64, scaled: bool) -> String {
    let (half, planes) = (r / 2, dim / 2);
    let span = |a: usize, b: usize| if a == b { format!("plane {a}") } else { format!("planes {a} to {b}") };
    let last = half - 1;
    let wavelength = short_number(std::f64::consts::TAU * base.powf(1.0 - 2.0 / r as f64));
    let before = if scaled { " before context extension" } else { "" };
    format!(
        "Here partial_rotary_factor = {partial}: only the first r = ⌊{dim}·{partial}⌋ = {r} of the d = {dim} dimensions rotate. \
         θᵢ = b^(−2i/{r}){before} for {}, and θᵢ = 0 (no turn) for {}. The last rotating plane, i = {last}, turns once every \
         2π·b^(1−2/{r}) = {wavelength} tokens{before}.",
        span(0, last),
        span(half, planes - 1),
    )
}
