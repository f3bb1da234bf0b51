//! Check yourself: a question at the end of a chapter that asks the reader to predict before the
//! page answers. A radio group (native radios, named by its question), a Check button, a live
//! region for the verdict and the reason, and a pointer to the control or figure that shows it.
//! The question, its choices and its right answer are computed from the current state each time
//! they are shown, so moving a slider changes the right answer where it should. Every question
//! is gathered for the printed handout, whose answers come after the references.

use crate::dom::size::{use_in_view, while_in_view};
use leptos::prelude::*;
use std::sync::Arc;

pub use crate::quiz::Question;

/// How a question is computed: a function of the shared state (it reads signals). Boxed, so
/// that [`Check`] is compiled once, not once per question.
pub type Asker = Arc<dyn Fn() -> Question + Send + Sync>;

thread_local! {
    /// Every question on the page, for the printed answers at its end: (its name, the
    /// question). Kept here rather than in the app's context, so that the page's first download
    /// carries none of it.
    static SHEET: std::cell::RefCell<Vec<(&'static str, Asker)>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[component]
pub fn Check(
    /// `data-testid="check-<name>"`, the radios' group name.
    name: &'static str,
    /// Where the page shows the answer ("the score readout above").
    look: &'static str,
    /// The question, its choices and its answer, from the current state.
    ask: Asker,
) -> impl IntoView {
    SHEET.with_borrow_mut(|sheet| sheet.push((name, ask.clone())));
    on_cleanup(move || SHEET.with_borrow_mut(|sheet| sheet.retain(|(n, _)| *n != name)));
    // What the reader picked and whether they asked for the verdict, each for the question as
    // it was asked then (its `asked` key): once the state changes the question, its wording,
    // choices or right answer, both lapse, so no verdict speaks of a question nobody answered.
    let picked = RwSignal::new(None::<(u64, String)>);
    let checked = RwSignal::new(None::<u64>);
    // Computed while near the screen or answered: a question nobody looks at costs no slider step.
    let group = NodeRef::<leptos::html::Fieldset>::new();
    let near = use_in_view(group);
    let question = while_in_view(Signal::derive(move || near.get() || checked.with(Option::is_some)), move || ask());
    let asked = Memo::new(move |_| question.with(asked_key));
    let pick = move || picked.with(|p| p.as_ref().filter(|(key, _)| *key == asked.get()).map(|(_, value)| value.clone()));
    let answered = move || checked.get() == Some(asked.get());
    let testid = format!("check-{name}");
    let legend = format!("{testid}-ask");
    let labelled_by = legend.clone();
    // The question and its choices, drawn afresh when the question changes (not when the reader
    // picks, which would take the focus from the radio under their arrow keys).
    let choices = move || {
        let now = untrack(pick);
        question.with(|q| {
            let choices = q
                .choices
                .iter()
                .map(|(value, label)| {
                    let (choice, right) = (value.clone(), *value == q.right);
                    view! {
                        <label class="check-choice" class:right=move || right && answered()>
                            <input type="radio" name=name value=value.clone() prop:checked=now.as_ref() == Some(value)
                                on:change=move |_| {
                                    picked.set(Some((asked.get_untracked(), choice.clone())));
                                    checked.set(None);
                                } />
                            " " {label.clone()}
                        </label>
                    }
                })
                .collect_view();
            view! {
                <legend id=legend.clone()><span class="check-tag">"Check yourself: "</span>{q.ask.clone()}</legend>
                <div class="check-choices">{choices}</div>
            }
        })
    };
    // Two sentences, each translated on its own (the verdict, then why): `class="sentence"`.
    let verdict = move || {
        answered().then(|| {
            question.with(|q| {
                let right = q.right_label();
                match pick() {
                    Some(p) if p == q.right => "Right.".to_string(),
                    Some(_) => format!("Not quite: {right}."),
                    None => format!("The answer: {right}."),
                }
            })
        })
    };
    let why = move || answered().then(|| question.with(|q| format!("{} See {look}.", q.why)));
    let check = move |_| checked.set(Some(asked.get_untracked()));
    view! {
        <div class="check">
            <fieldset node_ref=group data-testid=testid role="radiogroup" aria-labelledby=labelled_by
                data-value=move || answered().then(|| question.with(|q| q.right.clone()))>
                {choices}
            </fieldset>
            <div class="check-actions">
                <button type="button" class="button-small" disabled=move || pick().is_none() on:click=check>"Check"</button>
                <button type="button" class="button-small" hidden=answered on:click=check>"Show the answer"</button>
            </div>
            <p class="check-feedback" role="status" aria-live="polite">
                {move || answered().then(|| view! { <span class="sentence">{verdict}</span>" "<span class="sentence">{why}</span> })}
            </p>
        </div>
    }
}

/// What makes a question another one: its wording, its choices and its right answer (not its
/// why, whose numbers may follow the state while the answer holds).
fn asked_key(q: &Question) -> u64 {
    // FNV-1a over the three, each ended by a byte no text holds: a few instructions, where
    // std's SipHash would add its code to the page's first download.
    let texts = std::iter::once(&q.ask).chain(q.choices.iter().flat_map(|(value, label)| [value, label])).chain([&q.right]);
    texts
        .flat_map(|t| t.bytes().chain([0xff]))
        .fold(0xcbf2_9ce4_8422_2325, |hash: u64, byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3))
}

/// On paper, after the last chapter: every question of the page with its answer for the state
/// printed (computed when the print starts, not on every slider step).
#[component]
pub fn PrintedAnswers() -> impl IntoView {
    // Counts the prints: each one computes the answers afresh.
    let printing = RwSignal::new(0_u32);
    let listener = window_event_listener_untyped("beforeprint", move |_| printing.update(|n| *n += 1));
    on_cleanup(move || listener.remove());
    let answers = move || {
        (printing.get() > 0).then(|| {
            let mut questions = SHEET.with_borrow(Clone::clone);
            // In reading order: the order of the questions on the page.
            let order = reading_order();
            questions.sort_by_key(|(name, _)| order.iter().position(|n| n == name));
            untrack(|| {
                questions
                    .iter()
                    .map(|(_, ask)| {
                        let q = ask();
                        view! { <li><strong>{q.ask.clone()}</strong>" " {q.right_label()}". " {q.why}</li> }
                    })
                    .collect_view()
            })
        })
    };
    view! {
        <section class="print-only printed-answers widget" aria-hidden="true">
            <h2>"Check yourself: the answers"</h2>
            <ol>{answers}</ol>
        </section>
    }
}

/// The questions' names in the order the page shows them.
fn reading_order() -> Vec<String> {
    let Ok(found) = document().query_selector_all("[data-testid^='check-']") else { return Vec::new() };
    (0..found.length())
        .filter_map(|i| found.item(i))
        .filter_map(|node| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(node).ok())
        .filter_map(|element| element.get_attribute("data-testid")?.strip_prefix("check-").map(str::to_string))
        .collect()
}
