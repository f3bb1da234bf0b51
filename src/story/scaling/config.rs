//! The context-extension chapter's config box: a Hugging Face `config.json` (or its rope block)
//! pasted and read as transformers reads it, with what was read and what could not be used,
//! named; and the settings in effect back as Python for transformers.

use crate::lab::use_lab;
use crate::state::config::read_config;
use leptos::prelude::*;

/// What the box offers to paste: Llama 3.1's rope settings.
const EXAMPLE: &str = r#"{"rope_theta": 500000.0, "head_dim": 128, "max_position_embeddings": 131072,
 "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                  "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}"#;

/// The box, its report, and `python`: the settings in effect as Python.
#[component]
pub fn ConfigBox(python: Memo<String>) -> impl IntoView {
    let lab = use_lab();
    let config_text = RwSignal::new(String::new());
    let config_report = RwSignal::new(Vec::<(bool, String)>::new());
    let apply_config = move || {
        let text = config_text.get_untracked();
        match read_config(&text) {
            Err(error) => config_report.set(vec![(true, format!("Not JSON, nothing changed: {error}."))]),
            Ok(reading) => {
                let mut notices = Vec::new();
                lab.write(|s| notices = s.apply_config(&reading));
                let mut report: Vec<(bool, String)> = Vec::new();
                report.push((
                    false,
                    if reading.read.is_empty() {
                        "Nothing RoPE Lab reads was found.".to_string()
                    } else {
                        format!("Read: {}.", reading.read.join("; "))
                    },
                ));
                report.extend(reading.skipped.into_iter().map(|s| (true, format!("{s}."))));
                report.extend(notices.into_iter().map(|n| (true, format!("{}.", n.message))));
                config_report.set(report);
            }
        }
    };
    view! {
        <h3>"Paste a config"</h3>
        <p class="explain">"A whole Hugging Face config.json, or just its rope_scaling (or rope_parameters) block (rope_theta there is the base b). It is read as transformers reads it; what cannot be used is named below."</p>
        <textarea class="config-text" rows="6" spellcheck="false" aria-label="model config (config.json or its rope block)"
            placeholder=EXAMPLE
            prop:value=move || config_text.get()
            on:input=move |ev| config_text.set(event_target_value(&ev))></textarea>
        <div class="config-actions">
            <button type="button" on:click=move |_| apply_config()>"apply config"</button>
            <button type="button" on:click=move |_| { config_text.set(EXAMPLE.to_string()); }>"paste an example"</button>
        </div>
        <ul class="config-report" data-testid="config-report" role="status" aria-live="polite">
            // Each sentence ends in a space, so that read as one text (a screen reader's
            // summary, a copy) they do not run together.
            {move || config_report.get().into_iter().map(|(problem, text)| view! {
                <li class:problem=problem>{text}" "</li>
            }).collect_view()}
        </ul>
        <h3>"The same in Python"</h3>
        <p class="explain">"The settings in effect as a transformers rope_parameters dict, and the lines that compute the same θᵢ (transformers calls the list inv_freq, since θᵢ = 1/b^(2i/d)): run them and compare with the page's inv-freq list."</p>
        <pre class="python" data-testid="python-export" tabindex="0" aria-label="Python code for these settings">{move || python.get()}</pre>
    }
}
