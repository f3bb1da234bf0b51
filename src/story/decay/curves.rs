//! The decay chart's curves for one set of frequencies, q and k: what the chart shows of the
//! page's state, and each frame of its GIF shows of a copy with another base; and as the CSV a
//! reader downloads.

use super::sampling::bound_curve;
use crate::charts::DecayChart;
use crate::rope::{cosine_by_distance, frequencies, mean_cos_by_distance, xpos_mean_cos, Frequencies, RopeParams, Rotary, ScalingParams};
use crate::state::fmt_list;
use crate::ui::export::csv_text;

/// What the curves are computed from.
pub(super) struct CurveInputs<'a> {
    /// The frequencies in effect, and the base and d they come from.
    pub inv_freq: &'a [f64],
    pub base: f64,
    pub dim: usize,
    /// Other bases whose bounds are overlaid.
    pub compare: &'a [f64],
    /// q, k and the rotation in effect (none: no cosine curves).
    pub vectors: Option<(&'a [f64], &'a [f64], &'a Rotary)>,
    /// xPos' scale_base, when it is overlaid.
    pub xpos: Option<f64>,
    /// With context extension on: the settings without it, for the original θᵢ's bound.
    pub unscaled: Option<&'a ScalingParams>,
}

/// The chart at `distances` (evenly spaced unless `log`), without its cursor.
pub(super) fn chart_at(inputs: &CurveInputs, distances: Vec<f64>, log: bool) -> DecayChart {
    let bound = bound_curve(inputs.inv_freq, &distances, log);
    let compare = inputs
        .compare
        .iter()
        .filter_map(|base| {
            let plain = Frequencies::plain(RopeParams::new(*base, inputs.dim).ok()?);
            Some((*base, bound_curve(&plain.inv_freq, &distances, log)))
        })
        .collect();
    let (score, q_equals_k) = match inputs.vectors {
        Some((q, k, rotary)) => (cosine_by_distance(rotary, q, k, &distances), mean_cos_by_distance(rotary.inv_freq(), &distances)),
        None => (Vec::new(), Vec::new()),
    };
    let xpos = inputs.xpos.map(|scale_base| xpos_mean_cos(inputs.inv_freq, &distances, scale_base)).unwrap_or_default();
    let unscaled = inputs
        .unscaled
        .and_then(|scaling| frequencies(RopeParams::new(inputs.base, inputs.dim).ok()?, scaling).ok())
        .map(|f| bound_curve(&f.inv_freq, &distances, log))
        .unwrap_or_default();
    DecayChart { distances, bound, compare, unscaled, score, q_equals_k, xpos, cursor: None, log_x: log }
}

/// The chart's curves as a table, a row per distance (the CSV download).
pub(super) fn csv_of(c: &DecayChart) -> String {
    let mut header = vec!["distance".to_string(), "bound".to_string()];
    header.extend(c.compare.iter().map(|(b, _)| format!("bound_base_{}", fmt_list(&[*b]))));
    if !c.unscaled.is_empty() {
        header.push("bound_original_theta".to_string());
    }
    header.extend(["score_over_norms".to_string(), "q_equals_k".to_string()]);
    if !c.xpos.is_empty() {
        header.push("xpos_q_equals_k".to_string());
    }
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    csv_text(
        &header,
        c.distances.iter().enumerate().map(|(i, d)| {
            let mut row = vec![*d, c.bound[i]];
            row.extend(c.compare.iter().map(|(_, curve)| curve[i]));
            row.extend(c.unscaled.get(i).copied());
            row.push(c.score.get(i).copied().unwrap_or(0.0));
            row.push(c.q_equals_k.get(i).copied().unwrap_or(0.0));
            row.extend(c.xpos.get(i).copied());
            row
        }),
    )
}
