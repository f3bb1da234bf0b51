//! SmolLM2's two questions (issue 56), from what its worker read of the reader's text: how many
//! of its heads are attention sinks, and which group of eight planes the text needs most.

use super::Question;

/// How many heads give the first token more than half of their attention; `first` holds each
/// head's mean attention to the first token (layers × heads).
pub fn sinks(first: &[f32]) -> Question {
    let n = first.len();
    let right = first.iter().filter(|&&v| v > 0.5).count();
    let mut choices: Vec<usize> = Vec::new();
    // Far from the answer first, then any count left (a grid of few heads has few to offer).
    for c in [right, right / 4, (2 * right).min(n), (right + n) / 2, n / 20, 0, n].into_iter().chain(0..=n) {
        if choices.len() < 4 && !choices.contains(&c) {
            choices.push(c);
        }
    }
    choices.sort_unstable();
    Question::plain(
        format!("How many of the {n} heads give the first token of this text more than half of their attention?"),
        choices.iter().map(usize::to_string),
        right.to_string(),
        format!(
            "{right} of the {n} heads do (mean attention to the first token over the queries after it, above 50%: the grid \
             coloured by the first token). Xiao et al. 2023 call such heads attention sinks."
        ),
    )
}

/// Which group of eight planes, off in every layer, raises the loss most; `losses[0]` is the loss
/// with every plane turning, `losses[1 + g]` with planes 8g..8g + 7 off. None until all are known.
pub fn groups(losses: &[Option<f64>], planes: usize) -> Option<Question> {
    let all: Vec<f64> = losses.iter().copied().collect::<Option<Vec<f64>>>()?;
    let (&base, groups) = all.split_first()?;
    if groups.len() != planes.div_ceil(8) || groups.is_empty() {
        return None;
    }
    let worst = (0..groups.len()).fold(0, |best, g| if groups[g] > groups[best] { g } else { best });
    let name = |g: usize| format!("{}-{}", 8 * g, (8 * g + 7).min(planes - 1));
    let label = |g: usize| format!("planes {}–{}", 8 * g, (8 * g + 7).min(planes - 1));
    let three = |v: f64| crate::charts::format::fixed(v, 3);
    Some(Question {
        ask: "Which group of eight planes, left unrotated in every layer, raises this text's loss the most?".to_string(),
        choices: (0..groups.len()).map(|g| (name(g), label(g))).collect(),
        right: name(worst),
        why: format!(
            "With {} off the loss is {} nats per token, against {} with every plane turning (the table above, for this text).",
            label(worst),
            three(groups[worst]),
            three(base)
        ),
    })
}
