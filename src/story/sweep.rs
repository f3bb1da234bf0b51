//! The base swept from 10² to 10⁶ and back: what the frequency and the decay charts animate
//! as a GIF (`GifButton`). Both draw each frame from a copy of the state with only the base
//! changed; the page's own base stays where it is.

use crate::charts::format::whole_number;
use crate::charts::gif::schedule::{base_sweep, frame_delay};
use crate::charts::{ChartStyle, LegendEntry};
use crate::dom::backend::MeasuredCanvas;
use crate::dom::gif::Animation;
use plotters::coord::Shift;
use plotters::prelude::DrawingArea;
use std::rc::Rc;

/// The sweep: 100 to 1,000,000 and back in 3.84 s, in `steps` bases each way: 25 (steps of
/// 10^(1/6), 48 frames) for a chart of dots, whose frames are small; 17 (steps of 10^(1/4), 32
/// frames) for the decay chart, whose curves change every pixel of the plot every frame (its GIF
/// was 3.1 MB at a wide page's size).
const LOW: f64 = 100.0;
const HIGH: f64 = 1e6;
pub const FINE_STEPS: usize = 25;
pub const COARSE_STEPS: usize = 17;
const SECONDS: f64 = 3.84;

/// Draws the chart at a base on a frame's area.
pub type DrawAtBase = Box<dyn Fn(f64, &DrawingArea<MeasuredCanvas, Shift>)>;

/// The animation of a chart of `size` CSS pixels (width, height) over the sweep: `draw(base,
/// area)` draws the chart at that base, `legend` says what its marks are. `None` while the chart
/// has no size.
pub fn base_sweep_animation(
    chart: &str,
    dim: usize,
    size: (f64, f64),
    (style, legend): (ChartStyle, Vec<LegendEntry>),
    steps: usize,
    draw: DrawAtBase,
) -> Option<Animation> {
    let (width, height) = (size.0.round(), size.1.round());
    if !(width >= 1.0 && height >= 1.0) {
        return None;
    }
    let bases = Rc::new(base_sweep(LOW, HIGH, steps));
    let frames = bases.len();
    let said = bases.clone();
    Some(Animation {
        width: width as u32,
        height: height as u32,
        frames,
        delay: frame_delay(frames, SECONDS),
        caption: format!(
            "RoPE Lab · {chart}, d = {dim} · base {low} → {} → {low}",
            whole_number(HIGH as i64),
            low = whole_number(LOW as i64)
        ),
        label: Box::new(move |i| format!("base {}", whole_number(said[i].round() as i64))),
        draw: Box::new(move |i, area| draw(bases[i], area)),
        style,
        legend,
    })
}
