//! Lists of positions (plane 0, 1, …, a dial per chosen plane): row i is made once and kept while
//! there are more than i rows, so a step of base moves what the rows show (their reactive
//! attributes and text) instead of rebuilding them, and a step of d adds or removes rows at the
//! end. One compiled list for every caller: the row maker is boxed.

use leptos::prelude::*;
use std::sync::Arc;

/// `count` rows, row i from `row(i)`.
pub fn indexed<V: IntoView + 'static>(count: impl Fn() -> usize + Send + Sync + 'static, row: impl Fn(usize) -> V + Send + Sync + 'static) -> AnyView {
    boxed(Arc::new(count), Arc::new(move |i| row(i).into_any()))
}

type Rows = Arc<dyn Fn(usize) -> AnyView + Send + Sync>;

fn boxed(count: Arc<dyn Fn() -> usize + Send + Sync>, row: Rows) -> AnyView {
    view! { <For each=move || 0..count() key=|i| *i children=move |i| row(i) /> }.into_any()
}
