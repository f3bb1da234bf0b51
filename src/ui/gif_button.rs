//! "Download GIF": a chart's animation as a looping GIF for slides and posts that cannot embed
//! the page (the contract: a widget that animates has a button whose name contains "GIF").
//! While it is made: its progress, and a button to cancel; the page stays usable meanwhile.

use crate::dom::gif::{download_gif, encode, Animation, Outcome};
use leptos::html::Button;
use leptos::prelude::*;

/// The button, and the progress and outcome of the GIF it makes.
#[component]
pub fn GifButton(
    /// The file is named `rope-lab-<name>.gif`.
    name: &'static str,
    /// The animation of the state as it is now (`None`: nothing to draw yet, the chart has no size).
    animation: Callback<(), Option<Animation>>,
) -> impl IntoView {
    // Some(share done) while a GIF is being made.
    let progress = RwSignal::new(None::<f64>);
    let said = RwSignal::new(String::new());
    // Which run is current: cancelling (or the widget going away) leaves a run behind, which
    // stops at its next frame.
    let run = StoredValue::new(0_u64);
    let start_button = NodeRef::<Button>::new();
    let cancel_button = NodeRef::<Button>::new();
    let focus = move |button: NodeRef<Button>| {
        request_animation_frame(move || {
            if let Some(button) = button.try_get_untracked().flatten() {
                let _ = button.focus();
            }
        })
    };

    let start = move |_| {
        let Some(animation) = animation.run(()) else {
            said.set("The chart is not drawn yet: scroll to it and try again.".to_string());
            return;
        };
        let token = run.get_value() + 1;
        run.set_value(token);
        said.set(String::new());
        progress.set(Some(0.0));
        focus(cancel_button);
        leptos::task::spawn_local(async move {
            let current = move || run.try_get_value() == Some(token);
            let outcome = encode(
                animation,
                Box::new(move |share| {
                    if current() {
                        progress.try_set(Some(share));
                    }
                }),
                Box::new(move || !current()),
            )
            .await;
            if !current() {
                return;
            }
            progress.try_set(None);
            match outcome {
                Outcome::Done(bytes) => {
                    download_gif(&bytes, &format!("rope-lab-{name}.gif"));
                    said.try_set(format!("GIF downloaded ({} KB).", bytes.len().div_ceil(1024)));
                }
                Outcome::Failed(why) => {
                    said.try_set(why);
                }
                Outcome::Cancelled => {}
            }
            focus(start_button);
        });
    };
    let cancel = move |_| {
        run.update_value(|r| *r += 1);
        progress.set(None);
        said.set("GIF cancelled.".to_string());
        focus(start_button);
    };
    on_cleanup(move || {
        // A GIF still being made stops at its next frame.
        let _ = run.try_update_value(|r| *r += 1);
    });
    let percent = move || (progress.get().unwrap_or(0.0) * 100.0).floor();

    view! {
        <div class="export" role="group" aria-label=format!("animated GIF of the {name} chart")>
            <button type="button" node_ref=start_button hidden=move || progress.get().is_some() on:click=start>"Download GIF"</button>
            <span class="gif-progress" hidden=move || progress.get().is_none()>
                <span class="sentence">{move || format!("Encoding GIF… {}%", percent())}</span>
                <progress max="100" value=percent aria-label="Encoding GIF"></progress>
                <button type="button" node_ref=cancel_button on:click=cancel>"Cancel"</button>
            </span>
            <span class="unit sentence" role="status">{move || said.get()}</span>
        </div>
    }
}
