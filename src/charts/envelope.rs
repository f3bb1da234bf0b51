//! A curve known at every distance, reduced to the columns of a chart: for each column, the
//! lowest and the highest value over its distances. Drawn as one polyline that goes down and up
//! each column in turn, it covers exactly the band the curve sweeps through, where a polyline
//! through a few hundred samples of a curve that turns every few tokens shows a false pattern
//! (aliasing).

use std::ops::Range;

/// `len` points split into at most `columns` runs of consecutive indices, as even as can be.
pub fn column_spans(len: usize, columns: usize) -> Vec<Range<usize>> {
    let columns = columns.min(len);
    (0..columns).map(|c| (c * len / columns)..((c + 1) * len / columns)).collect()
}

/// Two x positions per column: the mean of its first and last distance, twice.
pub fn zigzag_x(distances: &[f64], spans: &[Range<usize>]) -> Vec<f64> {
    spans
        .iter()
        .flat_map(|span| {
            let first = distances.get(span.start).copied().unwrap_or(0.0);
            let last = distances.get(span.end.saturating_sub(1)).copied().unwrap_or(first);
            let x = (first + last) / 2.0;
            [x, x]
        })
        .collect()
}

/// Two values per column, its lowest and highest finite value (0 for a column with none), in
/// turn: low then high in even columns, high then low in odd ones, so that the line between
/// two columns joins two highs or two lows.
pub fn zigzag(values: &[f64], spans: &[Range<usize>]) -> Vec<f64> {
    let mut extremes = ColumnExtremes::new(spans.len());
    extremes.gather(spans, 0, values);
    extremes.zigzag()
}

/// The lowest and highest finite value met in each column so far: a curve can be gathered a
/// run of distances at a time (the decay chart computes 65,536 distances in slices, so that
/// the page answers a key press between two of them) and gives the same [`zigzag`].
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnExtremes {
    low: Vec<f64>,
    high: Vec<f64>,
}

impl ColumnExtremes {
    pub fn new(columns: usize) -> Self {
        Self { low: vec![f64::INFINITY; columns], high: vec![f64::NEG_INFINITY; columns] }
    }

    /// Takes in `values`, the curve at the indices `first..first + values.len()` of the
    /// indices `spans` split into columns.
    pub fn gather(&mut self, spans: &[Range<usize>], first: usize, values: &[f64]) {
        let end = first + values.len();
        let mut column = spans.partition_point(|span| span.end <= first);
        while let Some(span) = spans.get(column).filter(|span| span.start < end) {
            let (Some(low), Some(high)) = (self.low.get_mut(column), self.high.get_mut(column)) else { return };
            let run = values.get(span.start.max(first) - first..span.end.min(end) - first).unwrap_or(&[]);
            for v in run.iter().copied().filter(|v| v.is_finite()) {
                *low = low.min(v);
                *high = high.max(v);
            }
            column += 1;
        }
    }

    /// Two values per column, as [`zigzag`] gives them.
    pub fn zigzag(&self) -> Vec<f64> {
        self.low
            .iter()
            .zip(&self.high)
            .enumerate()
            .flat_map(|(c, (&low, &high))| {
                let (low, high) = if low <= high { (low, high) } else { (0.0, 0.0) };
                if c % 2 == 0 {
                    [low, high]
                } else {
                    [high, low]
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_cover_every_index_once_in_order() {
        for (len, columns) in [(65_537, 1024), (10, 3), (5, 8), (0, 4), (1, 1)] {
            let spans = column_spans(len, columns);
            assert_eq!(spans.len(), columns.min(len));
            let flat: Vec<usize> = spans.iter().flat_map(Clone::clone).collect();
            assert_eq!(flat, (0..len).collect::<Vec<_>>(), "{len} over {columns}");
            assert!(spans.iter().all(|s| !s.is_empty()));
        }
    }

    #[test]
    fn each_column_holds_its_extremes_and_the_line_alternates() {
        // A curve that turns every few points: cos(0.9 r) + r/1000.
        let values: Vec<f64> = (0..10_000).map(|r| (0.9 * r as f64).cos() + r as f64 / 1000.0).collect();
        let spans = column_spans(values.len(), 300);
        let line = zigzag(&values, &spans);
        assert_eq!(line.len(), 2 * spans.len());
        for (c, span) in spans.iter().enumerate() {
            let (a, b) = (line[2 * c], line[2 * c + 1]);
            let (low, high) = if c % 2 == 0 { (a, b) } else { (b, a) };
            assert!(values[span.clone()].iter().all(|v| (low..=high).contains(v)), "column {c}");
            assert!(values[span.clone()].contains(&low) && values[span.clone()].contains(&high), "column {c}");
            // Samples every 33 points would miss most of the swing; the band holds nearly all of it.
            assert!(high - low > 1.8, "column {c}: {low} to {high}");
        }
    }

    #[test]
    fn gathered_in_slices_it_is_the_same_line() {
        let values: Vec<f64> = (0..65_537).map(|r| (0.37 * r as f64).sin() * (1.0 + r as f64 / 9_000.0)).collect();
        let spans = column_spans(values.len(), 1024);
        let whole = zigzag(&values, &spans);
        // Slices that start and end inside columns, of uneven lengths, the last one short.
        for slice in [4096, 1000, 7, 65_537] {
            let mut extremes = ColumnExtremes::new(spans.len());
            for (i, part) in values.chunks(slice).enumerate() {
                extremes.gather(&spans, i * slice, part);
            }
            assert_eq!(extremes.zigzag(), whole, "slices of {slice}");
        }
        // Nothing gathered yet: every column 0.
        assert_eq!(ColumnExtremes::new(2).zigzag(), vec![0.0; 4]);
    }

    #[test]
    fn non_finite_values_are_left_out() {
        let values = [f64::NAN, 2.0, f64::INFINITY, -1.0, f64::NAN, f64::NAN];
        let spans = column_spans(values.len(), 3);
        assert_eq!(zigzag(&values, &spans), vec![2.0, 2.0, -1.0, -1.0, 0.0, 0.0]);
        assert_eq!(zigzag_x(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], &spans), vec![0.5, 0.5, 2.5, 2.5, 4.5, 4.5]);
    }
}
