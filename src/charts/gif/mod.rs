//! Animated GIFs of the charts, for slides and posts that cannot embed the page (issue 39).
//! Frames come as RGBA pixels of one size; the GIF loops forever. After the first frame, each
//! frame holds only the rectangle that changed, its unchanged pixels transparent, and keeps
//! what was there (a hand turning over still clock faces costs the hand, not the faces). Each
//! frame has its own palette of up to 255 colours ([`quantize`]): the colours of what changed.
//!
//! Pure Rust, tested natively by decoding what it writes; the page fetches it as a part of its
//! own only when a GIF is asked for (`src/dom/gif.rs`).

pub mod quantize;
pub mod schedule;

use quantize::{rgb_at, Histogram, MAX_COLOURS};
use std::borrow::Cow;

/// Why a GIF could not be written, in a few words (no formatting machinery in the page's part
/// that writes GIFs): a size GIF cannot hold, a frame of the wrong size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GifError(pub &'static str);

impl std::fmt::Display for GifError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for GifError {}

impl From<gif::EncodingError> for GifError {
    fn from(_: gif::EncodingError) -> Self {
        GifError("the encoder failed")
    }
}

/// A looping GIF being written, frame by frame.
pub struct GifWriter {
    encoder: gif::Encoder<Vec<u8>>,
    width: usize,
    height: usize,
    /// The last frame's pixels: what the GIF shows once it is drawn.
    previous: Option<Vec<u8>>,
}

/// A rectangle of pixels: left, top, width, height.
type Rect = (usize, usize, usize, usize);

impl GifWriter {
    /// A GIF of `width` × `height` pixels (1 to 65,535 each) that loops forever.
    pub fn new(width: u32, height: u32) -> Result<Self, GifError> {
        let fits = |n: u32| (1..=u32::from(u16::MAX)).contains(&n);
        if !fits(width) || !fits(height) {
            return Err(GifError("a GIF holds 1 to 65,535 pixels each way"));
        }
        let mut encoder = gif::Encoder::new(Vec::new(), width as u16, height as u16, &[])?;
        encoder.set_repeat(gif::Repeat::Infinite)?;
        Ok(Self { encoder, width: width as usize, height: height as usize, previous: None })
    }

    /// Adds a frame of RGBA pixels (alpha ignored: opaque), shown for `delay` hundredths of
    /// a second.
    pub fn add_frame(&mut self, rgba: &[u8], delay: u16) -> Result<(), GifError> {
        if rgba.len() != self.width * self.height * 4 {
            return Err(GifError("a frame is not the GIF's size"));
        }
        let previous = self.previous.as_deref();
        let frame = match previous.map_or(Some((0, 0, self.width, self.height)), |p| self.changed(p, rgba)) {
            Some(rect) => self.frame_of(rgba, previous, rect, delay),
            // Nothing changed: one transparent pixel holds the frame's time.
            None => gif::Frame {
                delay,
                width: 1,
                height: 1,
                transparent: Some(0),
                palette: Some(vec![0, 0, 0]),
                buffer: Cow::Owned(vec![0]),
                ..gif::Frame::default()
            },
        };
        self.encoder.write_frame(&frame)?;
        match &mut self.previous {
            Some(previous) => previous.copy_from_slice(rgba),
            None => self.previous = Some(rgba.to_vec()),
        }
        Ok(())
    }

    /// The GIF's bytes.
    pub fn finish(self) -> Result<Vec<u8>, GifError> {
        self.encoder.into_inner().map_err(|_| GifError("the encoder failed"))
    }

    /// The smallest rectangle holding every pixel that differs between `previous` and `now`.
    fn changed(&self, previous: &[u8], now: &[u8]) -> Option<Rect> {
        let row_bytes = self.width * 4;
        let same_pixel = |at: usize| previous[at..at + 4] == now[at..at + 4];
        let same_row = |y: usize| previous[y * row_bytes..(y + 1) * row_bytes] == now[y * row_bytes..(y + 1) * row_bytes];
        let top = (0..self.height).find(|y| !same_row(*y))?;
        let bottom = (top..self.height).rev().find(|y| !same_row(*y)).unwrap_or(top);
        let column_same = |x: usize| (top..=bottom).all(|y| same_pixel(y * row_bytes + x * 4));
        let left = (0..self.width).find(|x| !column_same(*x)).unwrap_or(0);
        let right = (left..self.width).rev().find(|x| !column_same(*x)).unwrap_or(left);
        Some((left, top, right - left + 1, bottom - top + 1))
    }

    /// The frame for `rect` of `rgba`: pixels unchanged since `previous` transparent.
    fn frame_of(&self, rgba: &[u8], previous: Option<&[u8]>, rect: Rect, delay: u16) -> gif::Frame<'static> {
        let (left, top, width, height) = rect;
        let at = |x: usize, y: usize| ((top + y) * self.width + left + x) * 4;
        let unchanged = |offset: usize| previous.is_some_and(|p| p[offset..offset + 4] == rgba[offset..offset + 4]);
        // The colours of the changed pixels, run by run.
        let mut histogram = Histogram::default();
        for y in 0..height {
            let mut run: Option<(u32, u32)> = None;
            for x in 0..width {
                let offset = at(x, y);
                if unchanged(offset) {
                    continue;
                }
                let colour = rgb_at(rgba, offset);
                run = match run {
                    Some((c, n)) if c == colour => Some((c, n + 1)),
                    Some((c, n)) => {
                        histogram.add(c, n);
                        Some((colour, 1))
                    }
                    None => Some((colour, 1)),
                };
            }
            if let Some((c, n)) = run {
                histogram.add(c, n);
            }
        }
        let mut palette = histogram.palette(MAX_COLOURS);
        let transparent = palette.colours().len() as u8;
        let mut indices = Vec::with_capacity(width * height);
        let mut last: Option<(u32, u8)> = None;
        for y in 0..height {
            for x in 0..width {
                let offset = at(x, y);
                if unchanged(offset) {
                    indices.push(transparent);
                    continue;
                }
                let colour = rgb_at(rgba, offset);
                let index = match last {
                    Some((c, i)) if c == colour => i,
                    _ => palette.index_of(colour),
                };
                last = Some((colour, index));
                indices.push(index);
            }
        }
        let mut table = palette.table();
        // The transparent index needs a slot of its own in the table; its colour is never shown.
        table.extend([0, 0, 0]);
        gif::Frame {
            delay,
            left: left as u16,
            top: top as u16,
            width: width as u16,
            height: height as u16,
            transparent: previous.map(|_| transparent),
            palette: Some(table),
            buffer: Cow::Owned(indices),
            ..gif::Frame::default()
        }
    }
}

#[cfg(test)]
mod tests;
