//! Up to 255 colours for a frame of a chart, and each pixel's nearest one.
//!
//! A chart is a few flat colours (background, text, the curves' colours) and the shades their
//! anti-aliased edges blend into. A frame with 255 colours or fewer keeps every colour exactly;
//! with more, the palette is spread over them ([`spread`]) so that a thin curve of few pixels
//! keeps its own colour instead of losing its slot to a 200th shade of grey text.

use std::collections::HashMap;

/// Colours a frame's palette holds at most: the 256th index is the transparent one.
pub const MAX_COLOURS: usize = 255;

/// An opaque colour as 0xRRGGBB.
pub type Rgb = u32;

/// How often each colour occurs among the pixels counted, counted run by run (a chart's rows
/// are long runs of one colour: one hash per run, not per pixel).
#[derive(Debug, Default)]
pub struct Histogram {
    counts: HashMap<Rgb, u32>,
}

impl Histogram {
    /// Counts `run` pixels of `colour`.
    pub fn add(&mut self, colour: Rgb, run: u32) {
        *self.counts.entry(colour).or_insert(0) += run;
    }

    /// How many different colours were counted.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The palette for these colours, at most `max` of them (and at least one).
    pub fn palette(&self, max: usize) -> Palette {
        let max = max.clamp(1, 256);
        let mut by_count: Vec<(Rgb, u32)> = self.counts.iter().map(|(c, n)| (*c, *n)).collect();
        // The most frequent first; equal counts by colour, so that a frame always gets the same palette.
        by_count.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let colours = if by_count.len() <= max {
            by_count.iter().map(|(c, _)| *c).collect()
        } else {
            spread(&by_count[..by_count.len().min(CANDIDATES)], max)
        };
        Palette { colours: if colours.is_empty() { vec![0] } else { colours }, nearest: HashMap::new() }
    }
}

/// Colours considered for a palette that cannot hold them all: the most frequent ones.
const CANDIDATES: usize = 4096;

/// `max` of `candidates` (most frequent first): in passes that take, in order of frequency,
/// each colour at least a distance from every colour taken, the distance halving from 64
/// levels per channel to 0. The first pass takes the chart's distinct colours (background,
/// text, each curve's), the later ones their shades, most frequent first.
fn spread(candidates: &[(Rgb, u32)], max: usize) -> Vec<Rgb> {
    let mut colours = Vec::with_capacity(max);
    // Each candidate's squared distance to the nearest colour taken (MAX: taken or none yet).
    let mut nearest = vec![u32::MAX; candidates.len()];
    let mut taken = vec![false; candidates.len()];
    for level in [64u32, 32, 16, 8, 4, 2, 1, 0] {
        let apart = 3 * level * level;
        for i in 0..candidates.len() {
            if colours.len() == max {
                return colours;
            }
            if taken[i] || nearest[i] < apart {
                continue;
            }
            let colour = candidates[i].0;
            colours.push(colour);
            taken[i] = true;
            for (j, (other, _)) in candidates.iter().enumerate() {
                nearest[j] = nearest[j].min(distance(colour, *other));
            }
        }
    }
    colours
}

/// Squared distance between two colours in RGB.
pub fn distance(a: Rgb, b: Rgb) -> u32 {
    let channel = |shift: u32| {
        let d = ((a >> shift) & 0xff) as i32 - ((b >> shift) & 0xff) as i32;
        (d * d) as u32
    };
    channel(16) + channel(8) + channel(0)
}

/// A frame's colours, and which of them each colour met so far is drawn with.
#[derive(Debug, Clone)]
pub struct Palette {
    colours: Vec<Rgb>,
    nearest: HashMap<Rgb, u8>,
}

impl Palette {
    /// The colours, in index order.
    pub fn colours(&self) -> &[Rgb] {
        &self.colours
    }

    /// The palette as the GIF's colour table: r, g, b per colour.
    pub fn table(&self) -> Vec<u8> {
        self.colours.iter().flat_map(|c| [(c >> 16) as u8, (c >> 8) as u8, *c as u8]).collect()
    }

    /// The index of the colour nearest to `colour` (itself if it is in the palette).
    pub fn index_of(&mut self, colour: Rgb) -> u8 {
        if let Some(index) = self.nearest.get(&colour) {
            return *index;
        }
        let index = self.colours.iter().enumerate().min_by_key(|(i, c)| (distance(**c, colour), *i)).map_or(0, |(i, _)| i as u8);
        self.nearest.insert(colour, index);
        index
    }
}

/// The colour of the RGBA pixel at byte offset `at` (alpha ignored: the charts are opaque).
pub fn rgb_at(rgba: &[u8], at: usize) -> Rgb {
    (u32::from(rgba[at]) << 16) | (u32::from(rgba[at + 1]) << 8) | u32::from(rgba[at + 2])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn histogram(colours: &[(Rgb, u32)]) -> Histogram {
        let mut h = Histogram::default();
        for (c, n) in colours {
            h.add(*c, *n);
        }
        h
    }

    #[test]
    fn few_colours_are_kept_exactly() {
        let colours: Vec<(Rgb, u32)> = (0..200).map(|i| (i * 0x010203, 1 + i % 7)).collect();
        let mut palette = histogram(&colours).palette(MAX_COLOURS);
        assert_eq!(palette.colours().len(), 200);
        for (c, _) in &colours {
            let index = palette.index_of(*c);
            assert_eq!(palette.colours()[index as usize], *c);
        }
    }

    #[test]
    fn a_rare_distinct_colour_beats_frequent_shades() {
        // 300 shades of grey, each more frequent than one small blue curve.
        let mut colours: Vec<(Rgb, u32)> = (0..300u32).map(|i| ((i % 256) * 0x010101 + (i / 256), 1000)).collect();
        colours.push((0x0072b2, 3));
        let mut palette = histogram(&colours).palette(MAX_COLOURS);
        assert_eq!(palette.colours().len(), MAX_COLOURS);
        let blue = palette.index_of(0x0072b2);
        assert_eq!(palette.colours()[blue as usize], 0x0072b2);
        // A grey that did not make it is drawn with a near one.
        for i in 0..300u32 {
            let grey = (i % 256) * 0x010101 + (i / 256);
            let index = palette.index_of(grey);
            assert!(distance(palette.colours()[index as usize], grey) <= 3 * 2 * 2, "grey {grey:06x}");
        }
    }

    #[test]
    fn nearest_colour_and_table() {
        let mut palette = histogram(&[(0xffffff, 10), (0x000000, 5), (0xff0000, 1)]).palette(MAX_COLOURS);
        assert_eq!(palette.table(), vec![255, 255, 255, 0, 0, 0, 255, 0, 0]);
        assert_eq!(palette.index_of(0xf0f0f0), 0);
        assert_eq!(palette.index_of(0x101010), 1);
        assert_eq!(palette.index_of(0xc01010), 2);
        // An empty histogram still gives a colour to draw with.
        assert_eq!(Histogram::default().palette(MAX_COLOURS).colours().len(), 1);
    }

    #[test]
    fn distance_is_squared_rgb() {
        assert_eq!(distance(0x000000, 0x010203), 1 + 4 + 9);
        assert_eq!(distance(0xff0000, 0x00ff00), 2 * 255 * 255);
    }
}
