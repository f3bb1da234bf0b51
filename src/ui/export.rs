//! Export a figure: a PNG of what the page shows of it (with its legend and a line saying what
//! it shows, src/ui/figure_png.rs) and its data as CSV, downloaded from the page itself.

use super::figure_png::figure_png;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Starts a download of `url` as `file_name`.
pub fn download(url: &str, file_name: &str) {
    let Ok(link) = document().create_element("a") else { return };
    let Ok(link) = link.dyn_into::<web_sys::HtmlAnchorElement>() else { return };
    link.set_href(url);
    link.set_download(file_name);
    link.click();
}

/// "Download PNG" (and "Download CSV" when there is `csv`) for one figure of a chapter.
#[component]
pub fn ExportButtons(
    /// File names start with `rope-lab-<name>`.
    name: &'static str,
    /// What the PNG holds: a CSS selector for the elements of the chapter's card that make the
    /// figure (its charts, pictures, legends), drawn as the page lays them out.
    figure: &'static str,
    /// The line under the PNG saying what it shows (after "RoPE Lab · ").
    caption: Callback<(), String>,
    /// The figure's data as CSV, header first.
    #[prop(optional)]
    csv: Option<Callback<(), String>>,
) -> impl IntoView {
    let busy = RwSignal::new(false);
    let png = move |ev: leptos::ev::MouseEvent| {
        let card = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|button| button.closest("[data-widget]").ok().flatten());
        let Some(card) = card else { return };
        let parts: Vec<web_sys::Element> = card
            .query_selector_all(figure)
            .map(|list| (0..list.length()).filter_map(|i| list.item(i)?.dyn_into().ok()).collect())
            .unwrap_or_default();
        let caption = format!("RoPE Lab · {}", caption.run(()));
        busy.set(true);
        leptos::task::spawn_local(async move {
            if let Some(url) = figure_png(&parts, &caption).await {
                download(&url, &format!("rope-lab-{name}.png"));
            }
            busy.set(false);
        });
    };
    let data = move |_| {
        let Some(csv) = csv else { return };
        let text = String::from(js_sys::encode_uri_component(&csv.run(())));
        download(&format!("data:text/csv;charset=utf-8,{text}"), &format!("rope-lab-{name}.csv"));
    };
    view! {
        <div class="export" role="group" aria-label=format!("export the {name} figure") data-figure=figure>
            <button type="button" on:click=png aria-busy=move || busy.get().to_string()>"Download PNG"</button>
            {csv.is_some().then(|| view! { <button type="button" on:click=data>"Download CSV"</button> })}
        </div>
    }
}

/// "b = 10,000, d = 64": the two settings most figures depend on, for their captions.
pub fn base_and_dim(base: f64, dim: usize) -> String {
    use crate::charts::format::{short_number, whole_number};
    let base = if base.fract() == 0.0 && base < 1e15 { whole_number(base as i64) } else { short_number(base) };
    format!("b = {base}, d = {dim}")
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
