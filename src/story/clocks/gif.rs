//! The rotation lab's GIF: the clock faces as m runs from 0 to 40 (with n, when the lab
//! animates both), half a token a frame, drawn as the page draws them (the dials and the hands
//! in one picture) at the size the faces have on the page, from a copy of the state taken when
//! it is asked for.

use crate::charts::format::{short_number, whole_number};
use crate::charts::gif::schedule::frame_delay;
use crate::charts::{clock_grid_magnified, draw_clock_faces, draw_clock_hands, ChartStyle, ClockFace, LegendEntry, Mark};
use crate::dom::gif::Animation;
use crate::lab::Lab;
use crate::rope::wavelength;
use leptos::prelude::*;

/// m from 0 to 40 (the last frame at 39.5, then the loop starts again at 0) in 4 s.
const LAST_M: f64 = 40.0;
const FRAMES: usize = 80;
const SECONDS: f64 = 4.0;

/// The animation of the faces, whose box is `size` CSS pixels (width, height), in `style`; n
/// moves with m when `both`. `None` before the faces have a size.
pub(super) fn animation(lab: Lab, size: (f64, f64), both: bool, style: ChartStyle) -> Option<Animation> {
    let (width, height) = (size.0.round(), size.1.round());
    if width < 1.0 {
        return None;
    }
    let vectors = lab.vectors.get_untracked()?;
    let (dim, base, n0, selected) = lab.state.with_untracked(|s| (s.dim, s.base, s.n as f64, s.plane));
    let style = style.with_scale(1.0);
    let planes = vectors.rotary.planes();
    let grid = clock_grid_magnified(width, planes, style.magnify);
    let height = if height >= 1.0 { height } else { grid.height().ceil() };
    let step = LAST_M / FRAMES as f64;
    let at = move |i: usize| {
        let m = i as f64 * step;
        (m, if both { n0 + m } else { n0 })
    };
    let faces_at = move |(m, n): (f64, f64)| -> Vec<ClockFace> {
        (0..planes)
            .map(|plane| ClockFace {
                plane,
                hands: vectors.rotary.plane_hands(&vectors.q, &vectors.k, plane, m, n),
                wavelength: wavelength(vectors.rotary.inv_freq()[plane]),
            })
            .collect()
    };
    // Hands keep their lengths as they turn: the longest of the first frame holds for all.
    let longest = faces_at(at(0)).iter().fold(0.0_f64, |l, f| l.max(f.hands.q_length).max(f.hands.k_length));
    // A whole base with its digits grouped (10,000), else as the page writes numbers.
    let base_said = if base.fract() == 0.0 && base < 1e15 { whole_number(base as i64) } else { short_number(base) };
    let n_said = if both { format!("n = m + {}", short_number(n0)) } else { format!("n = {}", short_number(n0)) };
    Some(Animation {
        width: width as u32,
        height: height as u32,
        frames: FRAMES,
        delay: frame_delay(FRAMES, SECONDS),
        caption: format!("RoPE Lab · rotation lab, d = {dim}, base {base_said} · m 0 → {}, {n_said}", short_number(LAST_M)),
        label: Box::new(move |i| {
            let (m, n) = at(i);
            format!("m = {}, n = {}", m.floor(), n.floor())
        }),
        draw: Box::new(move |i, area| {
            let faces = faces_at(at(i));
            let _ = draw_clock_faces(area, &faces, &grid, Some(selected), &style);
            let _ = draw_clock_hands(area, &faces, &grid, longest, &style);
        }),
        // The page's legend under the faces.
        legend: vec![
            LegendEntry::new("q's hand", style.q, Mark::Dot),
            LegendEntry::new("k's hand", style.k, Mark::Ring),
            LegendEntry::new("angle between", style.phasor, Mark::Line),
        ],
        style,
    })
}
