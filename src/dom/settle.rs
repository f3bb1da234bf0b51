//! "Once it is still": work that may wait until a drag, a run of key presses or an animation
//! stops (the address bar; the decay chart's exact envelope), instead of running on every step.

use leptos::prelude::*;
use std::time::Duration;

/// Calls `on_still` once no [`Settle::poke`] has come for `quiet_ms`. One timer at a time: a
/// poke while it waits only moves the moment it aims for.
#[derive(Clone, Copy)]
pub struct Settle {
    last_poke: StoredValue<f64>,
    waiting: StoredValue<bool>,
    quiet_ms: f64,
    on_still: Callback<()>,
}

impl Settle {
    pub fn new(quiet_ms: f64, on_still: impl Fn() + Send + Sync + 'static) -> Self {
        Self { last_poke: StoredValue::new(0.0), waiting: StoredValue::new(false), quiet_ms, on_still: Callback::new(move |()| on_still()) }
    }

    /// Something moved: `on_still` runs `quiet_ms` after the last such call.
    pub fn poke(self) {
        self.last_poke.set_value(js_sys::Date::now());
        if !self.waiting.get_value() {
            self.waiting.set_value(true);
            self.wait(self.quiet_ms);
        }
    }

    fn wait(self, delay_ms: f64) {
        set_timeout(
            move || {
                // Gone with its component: nothing to do.
                let Some(last) = self.last_poke.try_get_value() else { return };
                let still = js_sys::Date::now() - last;
                if still < self.quiet_ms {
                    self.wait(self.quiet_ms - still);
                    return;
                }
                self.waiting.set_value(false);
                self.on_still.run(());
            },
            Duration::from_secs_f64(delay_ms.max(1.0) / 1000.0),
        );
    }
}
