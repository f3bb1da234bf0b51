//! A config reading ([`super::config`]) or a model's preset ([`super::presets`]) put into the
//! lab's state: a whole config sets the model's parameters from the defaults up, a rope block
//! only the scaling parameters.

use super::change::Change;
use super::config::ConfigReading;
use super::{LabState, Notes, Notice};

impl LabState {
    /// Applies a config reading: a whole config sets the model's parameters from the defaults
    /// up (what it does not say is the default), a rope block only the scaling parameters.
    /// Positions, vectors and the views stay. Returns the corrections as notices.
    pub fn apply_config(&mut self, reading: &ConfigReading) -> Vec<Notice> {
        let mut notes = Notes::default();
        self.preset = None;
        self.apply_config_into(reading.whole, reading.changes.iter().cloned(), &mut notes);
        self.normalize_into(&mut notes);
        self.stamp(notes)
    }

    /// Loads the preset `id`: what the config reader makes of its published config (see
    /// [`super::presets`]), applied as a pasted whole config is.
    pub(super) fn load_preset(&mut self, id: &'static str, notes: &mut Notes) {
        let Some(preset) = super::presets::find(id) else { return };
        self.apply_config_into(true, (preset.changes)(), notes);
        self.preset = Some(preset.id);
    }

    fn apply_config_into(&mut self, whole: bool, changes: impl IntoIterator<Item = Change>, notes: &mut Notes) {
        let defaults = LabState::default();
        if whole {
            self.base = defaults.base;
            self.dim = defaults.dim;
            self.layout = defaults.layout;
            self.partial = defaults.partial;
            self.orig = defaults.orig;
        }
        self.scaling = defaults.scaling;
        self.factor = None;
        self.seq = None;
        self.target = None;
        self.beta_fast = defaults.beta_fast;
        self.beta_slow = defaults.beta_slow;
        self.mscale = None;
        self.mscale_all_dim = None;
        self.low_freq = defaults.low_freq;
        self.high_freq = defaults.high_freq;
        self.short_factor = None;
        self.long_factor = None;
        for change in changes {
            self.apply_into(change, notes);
        }
    }
}
