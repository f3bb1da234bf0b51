//! The writer's GIFs, decoded again: the file's own structure read byte by byte, and the
//! pictures composed as a browser composes them (each frame over the last, transparent pixels
//! keeping what was there).

use super::*;

const W: usize = 40;
const H: usize = 30;

/// A white picture with a grey bar that stays and a blue 6 × 6 square at column `x`.
fn picture(x: usize) -> Vec<u8> {
    let mut rgba = vec![255; W * H * 4];
    let mut paint = |px: usize, py: usize, rgb: [u8; 3]| {
        let at = (py * W + px) * 4;
        rgba[at..at + 3].copy_from_slice(&rgb);
    };
    for px in 0..W {
        paint(px, 25, [120, 120, 120]);
    }
    for py in 5..11 {
        for px in x..x + 6 {
            paint(px, py, [0, 114, 178]);
        }
    }
    rgba
}

/// A frame as shown: the picture, the frame's delay, the frame's rectangle.
type Shown = (Vec<u8>, u16, (u16, u16, u16, u16));

/// Every frame as shown.
fn decode(bytes: &[u8]) -> Vec<Shown> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let (width, height) = (decoder.width() as usize, decoder.height() as usize);
    let mut shown = vec![0u8; width * height * 4];
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        assert_eq!(frame.dispose, gif::DisposalMethod::Keep);
        for y in 0..frame.height as usize {
            for x in 0..frame.width as usize {
                let from = (y * frame.width as usize + x) * 4;
                if frame.buffer[from + 3] == 0 {
                    continue;
                }
                let to = ((frame.top as usize + y) * width + frame.left as usize + x) * 4;
                shown[to..to + 4].copy_from_slice(&frame.buffer[from..from + 4]);
            }
        }
        frames.push((shown.clone(), frame.delay, (frame.left, frame.top, frame.width, frame.height)));
    }
    frames
}

#[test]
fn frames_come_back_exactly_and_only_what_changed_is_stored() {
    let mut writer = GifWriter::new(W as u32, H as u32).unwrap();
    let pictures: Vec<Vec<u8>> = (0..12).map(|i| picture(2 + 2 * i)).collect();
    for p in &pictures {
        writer.add_frame(p, 7).unwrap();
    }
    let bytes = writer.finish().unwrap();
    assert_eq!(&bytes[..6], b"GIF89a");
    assert_eq!(u16::from_le_bytes([bytes[6], bytes[7]]), W as u16);
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), H as u16);
    assert!(bytes.windows(11).any(|w| w == b"NETSCAPE2.0"), "loops");
    assert_eq!(*bytes.last().unwrap(), 0x3b, "ends with the trailer");
    let frames = decode(&bytes);
    assert_eq!(frames.len(), 12);
    for (i, (shown, delay, rect)) in frames.iter().enumerate() {
        assert_eq!(*delay, 7);
        assert_eq!(shown, &pictures[i], "frame {i}");
        if i == 0 {
            assert_eq!(*rect, (0, 0, W as u16, H as u16));
        } else {
            // The square moved 2 columns: the old and new squares' columns and rows, nothing else.
            let x = 2 + 2 * (i as u16 - 1);
            assert_eq!(*rect, (x, 5, 8, 6), "frame {i}");
        }
    }
}

#[test]
fn an_unchanged_frame_keeps_its_time() {
    let mut writer = GifWriter::new(W as u32, H as u32).unwrap();
    writer.add_frame(&picture(3), 5).unwrap();
    writer.add_frame(&picture(3), 9).unwrap();
    let frames = decode(&writer.finish().unwrap());
    assert_eq!(frames.len(), 2);
    assert_eq!(frames[1].1, 9);
    assert_eq!(frames[1].0, picture(3));
}

#[test]
fn many_colours_come_back_close() {
    // A gradient of 40 × 30 = 1,200 colours: more than a palette holds.
    let (w, h) = (40usize, 30usize);
    let rgba: Vec<u8> = (0..w * h).flat_map(|i| [(i % w * 6) as u8, (i / w * 8) as u8, (i % 7 * 30) as u8, 255]).collect();
    let mut writer = GifWriter::new(w as u32, h as u32).unwrap();
    writer.add_frame(&rgba, 4).unwrap();
    let frames = decode(&writer.finish().unwrap());
    let shown = &frames[0].0;
    let errors: Vec<u32> = (0..w * h).map(|i| quantize::distance(quantize::rgb_at(shown, i * 4), quantize::rgb_at(&rgba, i * 4))).collect();
    let worst = *errors.iter().max().unwrap();
    let mean = errors.iter().sum::<u32>() as f64 / errors.len() as f64;
    // 255 colours for 1,200 spread over the cube: each within 32 levels per channel, on
    // average within 12 (a palette of the most frequent colours alone was 80 off).
    assert!(worst <= 3 * 32 * 32, "worst squared distance {worst}");
    assert!(mean <= 3.0 * 13.0 * 13.0, "mean squared distance {mean}");
}

#[test]
fn bad_sizes_are_errors_not_panics() {
    assert!(GifWriter::new(0, 10).is_err());
    assert!(GifWriter::new(10, 70_000).is_err());
    let mut writer = GifWriter::new(4, 4).unwrap();
    assert!(writer.add_frame(&[0; 10], 5).is_err());
    assert!(writer.add_frame(&[0; 64], 5).is_ok());
}
