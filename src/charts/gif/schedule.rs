//! What an animation's frames show, and for how long: the pure part of the page's GIFs.

/// Bases from `low` to `high` and back, evenly spaced on a log scale: `steps` values up, both
/// ends included, then the way down without its ends, so that the loop runs on without a
/// repeated frame (2·`steps` − 2 values; `steps` at least 2).
pub fn base_sweep(low: f64, high: f64, steps: usize) -> Vec<f64> {
    let steps = steps.max(2);
    let (low, high) = (low.ln(), high.ln());
    let up: Vec<f64> = (0..steps).map(|i| (low + (high - low) * i as f64 / (steps - 1) as f64).exp()).collect();
    let down = up[1..steps - 1].iter().rev().copied();
    up.iter().copied().chain(down).collect()
}

/// Each frame's delay, in the hundredths of a second GIF counts in, for `frames` frames to
/// last about `seconds`: at least 2 (browsers show shorter delays as 10).
pub fn frame_delay(frames: usize, seconds: f64) -> u16 {
    let delay = (seconds * 100.0 / frames.max(1) as f64).round();
    if delay.is_finite() {
        delay.clamp(2.0, 6000.0) as u16
    } else {
        2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_sweep_goes_there_and_back_on_a_log_scale() {
        let bases = base_sweep(100.0, 1e6, 25);
        assert_eq!(bases.len(), 48);
        assert!((bases[0] - 100.0).abs() < 1e-9);
        assert!((bases[24] - 1e6).abs() < 1e-6);
        // Up, then down through the same values, ending one step above the first.
        assert!(bases[..25].windows(2).all(|w| w[1] > w[0]));
        assert!(bases[24..].windows(2).all(|w| w[1] < w[0]));
        assert_eq!(bases[25], bases[23]);
        assert_eq!(bases[47], bases[1]);
        // Four decades in 24 steps: each step multiplies by 10^(1/6).
        for w in bases[..25].windows(2) {
            assert!((w[1] / w[0] - 10f64.powf(1.0 / 6.0)).abs() < 1e-9);
        }
        // Fewer than two steps: the two ends.
        let ends = base_sweep(10.0, 20.0, 0);
        assert_eq!(ends.len(), 2);
        assert!((ends[0] - 10.0).abs() < 1e-12 && (ends[1] - 20.0).abs() < 1e-12);
    }

    #[test]
    fn frames_last_about_the_time_asked() {
        assert_eq!(frame_delay(48, 3.84), 8);
        assert_eq!(frame_delay(80, 4.0), 5);
        assert_eq!(frame_delay(1000, 1.0), 2);
        assert_eq!(frame_delay(0, f64::NAN), 2);
    }
}
