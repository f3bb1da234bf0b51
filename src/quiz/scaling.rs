//! The questions of context extension.

use super::Question;
use crate::charts::format::short_number;
use crate::rope::{ScalingMethod, Trend};

/// `fastest-plane`: does `method` slow plane 0, the fastest? `before` and `after` are the
/// chapter's θᵢ without and with the extension (empty when they cannot be computed), `orig` the
/// trained context. Every sentence of the why is computed from these numbers, so it holds for
/// any factor (LongRoPE's may be below 1, or not monotone), for orig < 2π, and at d = 2, where
/// plane 0 is the head's only plane and "the fastest" would leave nothing to compare it with.
pub fn fastest_plane(method: ScalingMethod, before: &[f64], after: &[f64], orig: u64) -> Question {
    let only = before.len() <= 1;
    let plane = if only { "plane 0, the head's only plane (d = 2)" } else { "plane 0, the fastest" };
    let ask = match method {
        ScalingMethod::None => format!("With no context extension chosen (pick a method above), does {plane} turn slower than before?"),
        chosen => format!("With {} as set now, does {plane} turn slower than without it?", chosen.label()),
    };
    let choices = [("yes", "yes, slower"), ("no", "no, at the same speed"), ("faster", "no, faster")];
    let (Some(&was), Some(&now)) = (before.first(), after.first()) else {
        return Question::labelled(
            ask,
            &choices,
            "no",
            "These settings give no frequencies (the chapter says why), so nothing turns.".to_string(),
        );
    };
    let trend = Trend::of(was, now);
    let right = match trend {
        Trend::Falls => "yes",
        Trend::Stays => "no",
        Trend::Rises => "faster",
    };
    let label = method.label();
    let why = if was == 0.0 && now == 0.0 {
        "θ₀ is 0 with and without it: plane 0 does not turn in this head at all, so it can neither slow down nor speed up.".to_string()
    } else {
        let from = format!("θ₀ goes from {} to {} rad per token.", short_number(was), short_number(now));
        let rest = match trend {
            Trend::Falls if now == 0.0 => format!("Under {label} plane 0 no longer turns at all."),
            Trend::Falls => format!(
                "{label} divides it by {ratio}: the angle between neighbouring tokens in plane 0 is {ratio} times smaller than in training, so short-range detail blurs.",
                ratio = short_number(was / now)
            ),
            Trend::Stays if method == ScalingMethod::None => "With no extension θ₀ is unchanged.".to_string(),
            Trend::Stays => format!(
                "{label} leaves it as it was, so nearby positions look as in training (positions 0 to orig − 1 = {} take plane 0 through {} turns).",
                orig.saturating_sub(1),
                short_number(orig.saturating_sub(1) as f64 * was / std::f64::consts::TAU)
            ),
            Trend::Rises => format!(
                "{label} makes it turn {}× as fast as without it{}: neighbouring tokens are now {} rad apart in plane 0, where training put them {} rad apart.",
                short_number(now / was),
                if method == ScalingMethod::LongRope { " (its factor for plane 0 is below 1, and θ₀ is divided by it)" } else { "" },
                short_number(now),
                short_number(was)
            ),
        };
        format!("{from} {rest}")
    };
    Question::labelled(ask, &choices, right, why)
}
