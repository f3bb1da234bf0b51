//! Check your own RoPE's question: which mistake the row at position 0 cannot show.

use super::Question;
use crate::rope::Layout;

/// "Which mistake still gives the page's result for the row at position 0?": the other layout.
/// At position 0 every angle is 0, so cos is 1 and sin 0 in every plane, whatever dimensions a
/// plane pairs and whatever θᵢ: the row comes out as it went in. Swapped cos and sin give
/// (−x_b, x_a) in each plane, and positions counted from 1 turn each plane by θᵢ (nonzero for
/// every rotating plane). The test input starts at position 0 and goes on to 1 and beyond for
/// this reason: the layout shows only in rows past 0.
pub fn row_zero(dim: usize, layout: Layout) -> Question {
    let (ours, theirs) = match layout {
        Layout::Interleaved => ("(2i, 2i+1)", "(i, i + d/2), as rotate_half does"),
        Layout::Half => ("(i, i + d/2), as rotate_half does", "(2i, 2i+1), interleaved"),
    };
    Question::labelled(
        format!(
            "This page pairs dimensions {ours} (d = {dim}). Which implementation still returns the page's result for the \
             test input's row at position 0?"
        ),
        &[
            ("layout", "one that pairs the other way"),
            ("cos-sin", "one that swaps cos and sin"),
            ("offset", "one whose positions start at 1"),
        ],
        "layout",
        format!(
            "At position 0 every angle m·θᵢ is 0: cos 1 and sin 0 in every plane, so the row comes out unchanged whichever \
             dimensions form a plane, and one that pairs {theirs}, agrees there. Swapped cos and sin turn each plane's (a, b) \
             into (−b, a), and positions from 1 turn each plane by θᵢ. That is why the test input goes on to positions 1 and \
             beyond: only there does the layout show."
        ),
    )
}
