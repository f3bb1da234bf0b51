//! One plane in the complex plane: q̃ e^{imθ}, k̃ e^{inθ} and the unit phasor e^{−i(n−m)θ}
//! whose real part, scaled by q̃ k̃*, is the plane's share of the score.

use super::ChartStyle;
use crate::rope::PlaneHands;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// What the plane view shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlaneView {
    pub hands: PlaneHands,
    /// −(n − m)·θ_i, the angle of the relative phasor e^{−i(n−m)θ}.
    pub relative_angle: f64,
    /// The longest pair of q or k, so the vectors are drawn at the same scale as the clocks.
    pub longest: f64,
}

/// Draws the unit circle with its axes, q̃ e^{imθ} and k̃ e^{inθ} as arrows, and the phasor
/// e^{−i(n−m)θ} on the circle.
pub fn draw_plane_view<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    view: &PlaneView,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&style.background)?;
    let s = style.scale;
    let (width, height) = area.dim_in_pixel();
    let (width, height) = (width as f64, height as f64);
    let center = (width / 2.0, height / 2.0);
    // Room outside the circle for the labels at the tips, whichever way they point.
    let radius = (width.min(height) / 2.0 - 44.0 * s).max(4.0);
    let point = |angle: f64, length: f64| -> (i32, i32) {
        ((center.0 + radius * length * angle.cos()).round() as i32, (center.1 - radius * length * angle.sin()).round() as i32)
    };
    let stroke = |w: f64| ((w * s).round() as u32).max(1);
    let font = |size: f64| style.font(size);
    let c = (center.0.round() as i32, center.1.round() as i32);

    // Axes and the unit circle.
    let axis = style.grid.stroke_width(stroke(1.0));
    area.draw(&PathElement::new(vec![point(std::f64::consts::PI, 1.12), point(0.0, 1.12)], axis))?;
    area.draw(&PathElement::new(vec![point(-std::f64::consts::FRAC_PI_2, 1.12), point(std::f64::consts::FRAC_PI_2, 1.12)], axis))?;
    area.draw(&Circle::new(c, radius.round() as i32, style.grid.stroke_width(stroke(1.5))))?;
    area.draw(&Text::new("Re", point(0.0, 1.12), font(11.0).pos(Pos::new(HPos::Right, VPos::Bottom))))?;
    area.draw(&Text::new("Im", point(std::f64::consts::FRAC_PI_2, 1.12), font(11.0).pos(Pos::new(HPos::Left, VPos::Top))))?;

    let longest = if view.longest.is_finite() && view.longest > 0.0 { view.longest } else { 1.0 };
    let hands = &view.hands;
    let arrows = [
        (hands.k_angle, (hands.k_length / longest).clamp(0.0, 1.0), style.k, "k̃ eⁱⁿᶿ"),
        (hands.q_angle, (hands.q_length / longest).clamp(0.0, 1.0), style.q, "q̃ eⁱᵐᶿ"),
    ];
    for (angle, length, colour, label) in arrows {
        let tip = point(angle, length);
        area.draw(&PathElement::new(vec![c, tip], colour.stroke_width(stroke(3.0))))?;
        // Arrow head: two short strokes back from the tip.
        for side in [-0.45_f64, 0.45] {
            let back = angle + std::f64::consts::PI + side;
            let head = (tip.0 + (10.0 * s * back.cos()).round() as i32, tip.1 - (10.0 * s * back.sin()).round() as i32);
            area.draw(&PathElement::new(vec![tip, head], colour.stroke_width(stroke(3.0))))?;
        }
        let at = point(angle, length + 0.16);
        area.draw(&Text::new(label, at, font(12.0).color(&colour).pos(Pos::new(HPos::Center, VPos::Center))))?;
    }

    let phasor = point(view.relative_angle, 1.0);
    area.draw(&PathElement::new(vec![c, phasor], style.phasor.stroke_width(stroke(1.5))))?;
    area.draw(&Circle::new(phasor, stroke(5.0) as i32, style.phasor.filled()))?;
    area.draw(&Text::new(
        "e⁻ⁱ⁽ⁿ⁻ᵐ⁾ᶿ",
        point(view.relative_angle, 1.17),
        font(12.0).color(&style.phasor).pos(Pos::new(HPos::Center, VPos::Center)),
    ))?;
    area.present()
}
