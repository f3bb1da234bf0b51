//! Export a chart: its canvas as PNG, its data as CSV, downloaded from the page itself.

use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Starts a download of `url` as `file_name`.
fn download(url: &str, file_name: &str) {
    let Ok(link) = document().create_element("a") else { return };
    let Ok(link) = link.dyn_into::<web_sys::HtmlAnchorElement>() else { return };
    link.set_href(url);
    link.set_download(file_name);
    link.click();
}

/// "PNG" and "CSV" buttons for one chart. `csv` builds the file's text when asked.
#[component]
pub fn ExportButtons<F>(
    /// The chart's canvas (PNG).
    canvas: NodeRef<Canvas>,
    /// File names start with `rope-lab-<name>`.
    name: &'static str,
    /// The chart's data as CSV, header first.
    csv: F,
    /// The PNG's data URL, for a chart drawn in layers; else the canvas' own.
    #[prop(optional)]
    picture: Option<Callback<(), Option<String>>>,
) -> impl IntoView
where
    F: Fn() -> String + 'static,
{
    let png = move |_| {
        let url = match picture {
            Some(picture) => picture.run(()),
            None => canvas.get_untracked().and_then(|c| c.to_data_url().ok()),
        };
        if let Some(url) = url {
            download(&url, &format!("rope-lab-{name}.png"));
        }
    };
    let data = move |_| {
        let text = String::from(js_sys::encode_uri_component(&csv()));
        download(&format!("data:text/csv;charset=utf-8,{text}"), &format!("rope-lab-{name}.csv"));
    };
    view! {
        <div class="export" role="group" aria-label=format!("export the {name} chart")>
            <button type="button" on:click=png>"Download PNG"</button>
            <button type="button" on:click=data>"Download CSV"</button>
        </div>
    }
}

/// CSV text from a header and rows of numbers (full precision).
pub fn csv_text(header: &[&str], rows: impl Iterator<Item = Vec<f64>>) -> String {
    let mut text = header.join(",");
    text.push('\n');
    for row in rows {
        text.push_str(&row.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(","));
        text.push('\n');
    }
    text
}
