//! Every slider of the page: a native `<input type="range">` (keyboard, screen readers and
//! tests find it as one) that reports its value as a number, and that a vertical swipe on a
//! touch screen scrolls past without moving it.
//!
//! Chromium moves a range input to the touched point as soon as a finger lands on its track,
//! before it knows whether the finger will slide along the track or scroll the page. So on
//! touch the value is held back until the gesture shows itself: sideways (a drag, applied
//! from then on), lifted in place (a tap, applied), or taken by the browser to scroll
//! (`pointercancel`, under `touch-action: pan-y`: the slider goes back to where it was).

use leptos::ev;
use leptos::prelude::*;

/// How far a finger must move sideways, in CSS pixels, before a touch counts as a drag.
const DRAG_SLOP: f64 = 6.0;

/// A slider; `on_value` receives each value the reader sets.
#[component]
pub fn Slider(
    #[prop(optional)] id: Option<String>,
    #[prop(into)] min: Signal<String>,
    #[prop(into)] max: Signal<String>,
    step: &'static str,
    /// The value shown (the state's, as text).
    #[prop(into)]
    value: Signal<String>,
    /// Receives each value the reader sets. A `Callback`, not a generic closure, so that the
    /// component is compiled once rather than once per slider (a smaller download).
    #[prop(into)]
    on_value: Callback<f64>,
    #[prop(optional)] aria_label: Option<&'static str>,
    #[prop(optional, into)] aria_valuetext: Option<Signal<String>>,
) -> impl IntoView {
    // While a touch has not shown what it is: the value before it and where it started.
    let held = StoredValue::new(None::<(String, f64, f64)>);
    let input_of = |ev: &ev::Event| event_target::<web_sys::HtmlInputElement>(ev);
    let apply = move |input: &web_sys::HtmlInputElement| {
        let v = input.value_as_number();
        if v.is_finite() {
            on_value.run(v);
        }
    };
    view! {
        <input
            type="range"
            id=id
            min=min
            max=max
            step=step
            aria-label=aria_label
            aria-valuetext=move || aria_valuetext.map(|t| t.get())
            prop:value=move || value.get()
            on:pointerdown=move |ev: ev::PointerEvent| {
                if ev.pointer_type() == "touch" {
                    let before = event_target::<web_sys::HtmlInputElement>(&ev).value();
                    held.set_value(Some((before, ev.client_x() as f64, ev.client_y() as f64)));
                }
            }
            on:pointermove=move |ev: ev::PointerEvent| {
                let Some((_, x, y)) = held.get_value() else { return };
                let (dx, dy) = ((ev.client_x() as f64 - x).abs(), (ev.client_y() as f64 - y).abs());
                if dx > DRAG_SLOP && dx > dy {
                    held.set_value(None);
                    apply(&event_target::<web_sys::HtmlInputElement>(&ev));
                }
            }
            on:pointerup=move |ev: ev::PointerEvent| {
                if held.get_value().is_some() {
                    held.set_value(None);
                    apply(&event_target::<web_sys::HtmlInputElement>(&ev));
                }
            }
            on:pointercancel=move |ev: ev::PointerEvent| {
                if let Some((before, _, _)) = held.get_value() {
                    held.set_value(None);
                    event_target::<web_sys::HtmlInputElement>(&ev).set_value(&before);
                }
            }
            on:input=move |ev| {
                if held.get_value().is_none() {
                    apply(&input_of(&ev));
                }
            }
        />
    }
}
