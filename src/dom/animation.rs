//! Animation: a frame loop that runs only while asked to, and the reader's motion preference.

use leptos::prelude::*;

/// Calls `on_frame(seconds since the last frame)` once per animation frame while `active` is
/// true. The loop stops by itself when `active` turns false or the component goes away; the
/// first frame after a start reports 0 seconds, and a long pause (a hidden tab) at most 0.1 s.
pub fn use_animation_frames(active: Signal<bool>, on_frame: impl Fn(f64) + 'static) {
    let on_frame = StoredValue::new_local(on_frame);
    let last_time = StoredValue::new(None::<f64>);
    let running = StoredValue::new(false);

    fn schedule<F: Fn(f64) + 'static>(
        active: Signal<bool>,
        on_frame: StoredValue<F, LocalStorage>,
        last_time: StoredValue<Option<f64>>,
        running: StoredValue<bool>,
    ) {
        request_animation_frame(move || {
            let still_active = active.try_get_untracked().unwrap_or(false);
            if !still_active || on_frame.is_disposed() {
                let _ = running.try_set_value(false);
                let _ = last_time.try_set_value(None);
                return;
            }
            let now = window().performance().map_or(0.0, |p| p.now());
            let elapsed = last_time.get_value().map_or(0.0, |last| ((now - last) / 1000.0).clamp(0.0, 0.1));
            last_time.set_value(Some(now));
            on_frame.with_value(|f| f(elapsed));
            schedule(active, on_frame, last_time, running);
        });
    }

    Effect::new(move |_| {
        if active.get() && !running.get_value() {
            running.set_value(true);
            last_time.set_value(None);
            schedule(active, on_frame, last_time, running);
        }
    });
}

/// Whether the reader asked the system for reduced motion (`prefers-reduced-motion: reduce`).
pub fn prefers_reduced_motion() -> bool {
    window().match_media("(prefers-reduced-motion: reduce)").ok().flatten().is_some_and(|query| query.matches())
}
