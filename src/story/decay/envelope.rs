//! The decay charts at rest over a long linear range, drawn from every distance: each column of
//! the chart spans the lowest to the highest value over its distances. Gathered a slice of
//! distances per task (issue 9: all 65,536 distances at once were one task of 50 to 75 ms,
//! which a key press pressed just then had to wait for), and dropped as soon as the chart it
//! was gathered for is no longer the one shown.

use crate::charts::envelope::{column_spans, zigzag_x, ColumnExtremes};
use crate::charts::{AbsoluteChart, DecayChart};
use leptos::prelude::*;
use std::ops::Range;
use std::rc::Rc;
use std::time::Duration;

/// Distances per task: about 4 ms of work on the 2-core test machine, so a key press waits at
/// most that long for the page to answer.
const SLICE: usize = 4096;
/// The columns a long range is reduced to: a few per pixel of the widest chart.
const COLUMNS: usize = 1024;

/// The decay charts drawn from every distance, for the sampled chart `source`.
#[derive(Clone, PartialEq)]
pub struct Dense {
    pub source: DecayChart,
    pub envelope: DecayChart,
    pub absolute: Option<AbsoluteChart>,
}

/// The absolute chart for a decay chart (None without q and k).
pub type AbsoluteOf = Box<dyn Fn(&DecayChart) -> Option<AbsoluteChart>>;

/// What gathering needs from the widget.
pub struct Sources {
    /// The decay chart's curves at these distances.
    pub curves: Box<dyn Fn(Vec<f64>) -> DecayChart>,
    /// The absolute chart for a decay chart (None without q and k).
    pub absolute_of: AbsoluteOf,
    /// Whether this sampled chart is still the one the widget shows (false once it is gone).
    pub shown: Box<dyn Fn(&DecayChart) -> bool>,
    /// Receives the finished charts.
    pub done: Box<dyn Fn(Dense)>,
}

/// Gathers the envelope of `source` over the distances `0..=range`, a slice per task, unless a
/// later call (or a change of the chart shown) overtakes it. `generation` counts the calls.
pub fn gather(source: DecayChart, range: u64, generation: StoredValue<u64>, sources: Rc<Sources>) {
    let Some(mine) = generation.try_update_value(|g| {
        *g += 1;
        *g
    }) else {
        return;
    };
    let job = Gathering::new(source, range as usize + 1);
    next_slice(job, mine, generation, sources);
}

fn next_slice(mut job: Gathering, mine: u64, generation: StoredValue<u64>, sources: Rc<Sources>) {
    set_timeout(
        move || {
            let current = generation.try_get_value() == Some(mine) && (sources.shown)(&job.source);
            if !current {
                return;
            }
            untrack(|| {
                let end = (job.next + SLICE).min(job.len);
                let part = (sources.curves)((job.next..end).map(|r| r as f64).collect());
                let absolute = (sources.absolute_of)(&part);
                job.take(&part, absolute.as_ref());
            });
            if job.next < job.len {
                next_slice(job, mine, generation, sources);
            } else {
                (sources.done)(job.finish());
            }
        },
        Duration::ZERO,
    );
}

/// One curve's columns so far; none for a curve the chart does not draw.
#[derive(Default)]
struct Curve(Option<ColumnExtremes>);

impl Curve {
    fn take(&mut self, spans: &[Range<usize>], first: usize, values: &[f64]) {
        if !values.is_empty() {
            self.0.get_or_insert_with(|| ColumnExtremes::new(spans.len())).gather(spans, first, values);
        }
    }

    fn zigzag(&self) -> Vec<f64> {
        self.0.as_ref().map(ColumnExtremes::zigzag).unwrap_or_default()
    }
}

/// The envelope on its way: every curve's columns over the distances `0..next`.
struct Gathering {
    source: DecayChart,
    len: usize,
    next: usize,
    spans: Vec<Range<usize>>,
    bound: Curve,
    compare: Vec<(f64, Curve)>,
    unscaled: Curve,
    score: Curve,
    q_equals_k: Curve,
    /// The absolute chart's bound and |score|, while every slice has one.
    absolute: Option<(Curve, Curve)>,
}

impl Gathering {
    fn new(source: DecayChart, len: usize) -> Self {
        Self {
            source,
            len,
            next: 0,
            spans: column_spans(len, COLUMNS),
            bound: Curve::default(),
            compare: Vec::new(),
            unscaled: Curve::default(),
            score: Curve::default(),
            q_equals_k: Curve::default(),
            absolute: Some((Curve::default(), Curve::default())),
        }
    }

    /// Takes in `part`, the charts at the next distances.
    fn take(&mut self, part: &DecayChart, absolute: Option<&AbsoluteChart>) {
        let (spans, first) = (&self.spans, self.next);
        self.bound.take(spans, first, &part.bound);
        for (i, (base, curve)) in part.compare.iter().enumerate() {
            if self.compare.len() <= i {
                self.compare.push((*base, Curve::default()));
            }
            self.compare[i].1.take(spans, first, curve);
        }
        self.unscaled.take(spans, first, &part.unscaled);
        self.score.take(spans, first, &part.score);
        self.q_equals_k.take(spans, first, &part.q_equals_k);
        self.absolute = match (self.absolute.take(), absolute) {
            (Some((mut bound, mut score)), Some(a)) => {
                bound.take(spans, first, &a.bound);
                score.take(spans, first, &a.score);
                Some((bound, score))
            }
            _ => None,
        };
        self.next += part.distances.len().max(1);
    }

    fn finish(self) -> Dense {
        let distances: Vec<f64> = (0..self.len).map(|r| r as f64).collect();
        let x = zigzag_x(&distances, &self.spans);
        let absolute = self.absolute.map(|(bound, score)| AbsoluteChart {
            distances: x.clone(),
            bound: bound.zigzag(),
            score: score.zigzag(),
            log_x: false,
            cursor: None,
        });
        let envelope = DecayChart {
            distances: x,
            bound: self.bound.zigzag(),
            compare: self.compare.iter().map(|(base, curve)| (*base, curve.zigzag())).collect(),
            unscaled: self.unscaled.zigzag(),
            score: self.score.zigzag(),
            q_equals_k: self.q_equals_k.zigzag(),
            xpos: Vec::new(),
            cursor: None,
            log_x: false,
        };
        Dense { source: self.source, envelope, absolute }
    }
}
