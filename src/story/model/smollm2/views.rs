//! What SmolLM2's reading shows: the text and its tokens, the 270 heads (previous token or
//! first token), a head's attention, its 32 planes (wavelength against the trained context,
//! share of |q|·|k|, the real rotated q and k as clock hands), planes switched off, and every
//! position shifted. Every number comes from the worker ([`super::client`]).

use super::client::Client;
use super::heads::HeadsPanel;
use super::planes::PlanesPanel;
use super::text::TextPanel;
use crate::lab::use_lab;
use leptos::prelude::*;
use std::time::Duration;

#[component]
pub(super) fn Views() -> impl IntoView {
    let lab = use_lab();
    let client = expect_context::<Client>();
    let inputs = lab.select(|s| (super::text_of(s), s.planes_off, s.offset));
    let selected = lab.select(|s| (s.layer as usize, s.head as usize));
    // The query and key the planes' clocks show (None: the last token, and the one before it).
    let query = RwSignal::new(None::<usize>);
    let key = RwSignal::new(None::<usize>);
    // The head last asked for, so that it is asked once per change.
    let asked = StoredValue::new(None::<(usize, usize)>);
    Effect::new(move |_| {
        let (text, off, offset) = inputs.get();
        let (l, h) = selected.get_untracked();
        asked.set_value(Some((l, h)));
        query.set(None);
        key.set(None);
        client.read(&text, off, offset, l, h);
    });
    Effect::new(move |_| {
        let sel = selected.get();
        let have = client.reading.with(Option::is_some);
        if have && asked.get_value() != Some(sel) {
            asked.set_value(Some(sel));
            client.pick_head(sel.0, sel.1);
        }
    });
    // The panels arrive a task apart: built in one, with the page's layout after, they held the
    // main thread for 50-60 ms when the model was ready.
    let stage = RwSignal::new(0u8);
    set_timeout(
        move || {
            if stage.try_set(1).is_none() {
                set_timeout(move || _ = stage.try_set(2), Duration::ZERO);
            }
        },
        Duration::ZERO,
    );
    view! {
        <TextPanel query key />
        <Show when=move || { stage.get() >= 1 }><HeadsPanel query key /></Show>
        <Show when=move || { stage.get() >= 2 }><PlanesPanel query key /></Show>
    }
}
