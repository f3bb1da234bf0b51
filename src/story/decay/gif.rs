//! The decay chart's GIF: the chart as the base sweeps 10² to 10⁶ and back (the bound flattens
//! and ripples further out as the planes slow down), from a copy of the state taken when it
//! is asked for; every other setting (range, log scale, compared bases, xPos, q and k, r) as
//! the page has it.

use super::curves::{chart_at, CurveInputs};
use super::sampling::distances;
use crate::charts::{draw_decay, ChartStyle, DecayChart};
use crate::dom::gif::Animation;
use crate::lab::Lab;
use crate::rope::{decay_bound, frequencies, RopeParams, Rotary, ScalingMethod};
use leptos::prelude::*;

/// The animation of the chart at `size` CSS pixels, in `style`; `None` before it has a size.
pub(super) fn animation(lab: Lab, size: (f64, f64), style: ChartStyle) -> Option<Animation> {
    let vectors = lab.vectors.get_untracked()?;
    let state = lab.state.get_untracked();
    let (dim, layout, log, r) = (state.dim, state.layout, state.log, state.r as f64);
    let distances = distances(state.range, log);
    let scaling = state.scaling_params();
    let unscaled = (state.scaling != ScalingMethod::None).then(|| state.unscaled_params());
    let compare = state.compare.clone().unwrap_or_default();
    let xpos = state.xpos.then_some(state.scale_base);
    let style = style.with_scale(1.0);
    // The page's legend for these settings: the bound, the bases compared, the two cosines.
    let legend = DecayChart::legend_for(&compare, unscaled.is_some(), true, true, xpos.is_some(), &style);
    super::super::sweep::base_sweep_animation(
        "long-term decay",
        dim,
        size,
        (style, legend),
        super::super::sweep::COARSE_STEPS,
        Box::new(move |base, area| {
            let Ok(frequencies) = RopeParams::new(base, dim).and_then(|p| frequencies(p, &scaling)) else { return };
            let rotary = Rotary::new(layout, &frequencies);
            let inputs = CurveInputs {
                inv_freq: &frequencies.inv_freq,
                base,
                dim,
                compare: &compare,
                vectors: Some((&vectors.q, &vectors.k, &rotary)),
                xpos,
                unscaled: unscaled.as_ref(),
            };
            let mut chart = chart_at(&inputs, distances.clone(), log);
            chart.cursor = Some((r, decay_bound(&frequencies.inv_freq, r)));
            let _ = draw_decay(area, &chart, &style);
        }),
    )
}
