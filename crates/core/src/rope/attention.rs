//! A tiny single-head self-attention, small enough to print every number of: why attention
//! alone cannot see word order. The example, "the dog chased another dog", is the one of the
//! Hugging Face post "You could have designed state of the art positional encoding"
//! (Fleetwood, 2024): without positions, the two "dog"s get the same output, to the last bit,
//! and shuffling the words only shuffles the outputs.
//!
//! That holds without a mask. The decoders RoPE is used in are causal: each token attends only
//! to itself and the tokens before it ([`Mask::Causal`]). The mask alone makes the two "dog"s
//! differ (each sees a different prefix) and makes a shuffle change the outputs, not only their
//! order (Haviv et al. 2022: such models learn some positional information without positions).
//!
//! Token vectors and the weights W_q, W_k, W_v are fixed (drawn once from a seed), so every
//! reader sees the same numbers. Positions enter one of three ways: not at all, as sinusoidal
//! encodings added to the token vectors (Vaswani et al. 2017), or as RoPE rotations of q and k.

use super::frequency::default_inv_freq;
use super::random::SplitMix64;
use super::rotate::dot;

/// The sentence of the chapter, one token per word.
pub const SENTENCE: [&str; 5] = ["the", "dog", "chased", "another", "dog"];
/// The two "dog"s in [`SENTENCE`].
pub const DOGS: (usize, usize) = (1, 4);
/// The width of the token vectors, q, k and v.
pub const MODEL_DIM: usize = 8;
/// The shuffle shown first: "another dog the chased dog" (token `j` of the shuffled sentence
/// is token `SHUFFLE[j]` of the sentence).
pub const SHUFFLE: [usize; 5] = [3, 1, 0, 2, 4];

/// How the tiny attention learns where each token is (`positions=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PositionMode {
    /// Nothing: without a mask the attention sees a bag of words.
    #[default]
    None,
    /// Sinusoidal encodings added to the token vectors before W_q, W_k and W_v.
    Sinusoidal,
    /// q and k rotated by their positions after W_q and W_k; v untouched.
    Rope,
}

impl PositionMode {
    pub const ALL: [PositionMode; 3] = [PositionMode::None, PositionMode::Sinusoidal, PositionMode::Rope];

    /// The name in the URL (`positions=`).
    pub fn as_str(self) -> &'static str {
        match self {
            PositionMode::None => "none",
            PositionMode::Sinusoidal => "sinusoidal",
            PositionMode::Rope => "rope",
        }
    }

    /// A label for people.
    pub fn label(self) -> &'static str {
        match self {
            PositionMode::None => "no positions",
            PositionMode::Sinusoidal => "sinusoidal, added to x",
            PositionMode::Rope => "RoPE, rotating q and k",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|mode| mode.as_str() == name)
    }
}

/// Which keys each query may attend to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mask {
    /// Every token attends to every token (an encoder's attention).
    #[default]
    None,
    /// Token i attends to tokens 0..=i only (a decoder's): the scores of later tokens are left
    /// out of the softmax and their weights are exactly 0.
    Causal,
}

/// Everything one pass of the tiny attention computes, one row per token.
#[derive(Debug, Clone, PartialEq)]
pub struct AttentionPass {
    pub q: Vec<Vec<f64>>,
    pub k: Vec<Vec<f64>>,
    pub v: Vec<Vec<f64>>,
    /// softmax(q_i · k_j / √d) over j, for each query token i (over j ≤ i under
    /// [`Mask::Causal`], which gives every j > i a weight of exactly 0).
    pub weights: Vec<Vec<f64>>,
    /// Σ_j weights[i][j] · v_j.
    pub outputs: Vec<Vec<f64>>,
}

/// The tiny model: one vector per word of the vocabulary and the three weight matrices.
#[derive(Debug, Clone, PartialEq)]
pub struct TinyAttention {
    vocabulary: Vec<(&'static str, Vec<f64>)>,
    w_q: Vec<Vec<f64>>,
    w_k: Vec<Vec<f64>>,
    w_v: Vec<Vec<f64>>,
}

/// Rounded to 3 decimals, so that the numbers printed are the numbers used.
fn draw(rng: &mut SplitMix64, scale: f64) -> f64 {
    (rng.next_normal() * scale * 1000.0).round() / 1000.0
}

impl Default for TinyAttention {
    fn default() -> Self {
        Self::seeded(2024)
    }
}

impl TinyAttention {
    /// Token vectors with unit-variance entries and weights scaled by 1/√d, from `seed`.
    pub fn seeded(seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut vocabulary = Vec::new();
        for word in SENTENCE {
            if !vocabulary.iter().any(|(w, _)| *w == word) {
                let vector = (0..MODEL_DIM).map(|_| draw(&mut rng, 1.0)).collect();
                vocabulary.push((word, vector));
            }
        }
        let scale = 1.0 / (MODEL_DIM as f64).sqrt();
        let mut matrix = || (0..MODEL_DIM).map(|_| (0..MODEL_DIM).map(|_| draw(&mut rng, scale)).collect()).collect();
        let (w_q, w_k, w_v) = (matrix(), matrix(), matrix());
        Self { vocabulary, w_q, w_k, w_v }
    }

    /// The vector of `word` (zeros for a word outside the vocabulary).
    pub fn embedding(&self, word: &str) -> Vec<f64> {
        self.vocabulary.iter().find(|(w, _)| *w == word).map_or_else(|| vec![0.0; MODEL_DIM], |(_, v)| v.clone())
    }

    /// Runs the attention over `words` at positions 0, 1, 2, …, with positions entering as
    /// `mode` says, at frequencies θᵢ = base^(−2i/d) (d = [`MODEL_DIM`]), each query seeing the
    /// keys `mask` lets it see.
    pub fn run(&self, words: &[&str], mode: PositionMode, mask: Mask, base: f64) -> AttentionPass {
        self.pass(words, mode, mask, base, 0.0, false)
    }

    /// [`TinyAttention::run`] without a mask, with the tokens at `start`, `start` + 1, …, and, if
    /// `rotate_values`, v rotated by its position too (which RoPE never does: the outputs would
    /// then turn with the absolute position of the tokens).
    pub fn run_with(&self, words: &[&str], mode: PositionMode, base: f64, start: f64, rotate_values: bool) -> AttentionPass {
        self.pass(words, mode, Mask::None, base, start, rotate_values)
    }

    fn pass(&self, words: &[&str], mode: PositionMode, mask: Mask, base: f64, start: f64, rotate_values: bool) -> AttentionPass {
        let theta = default_inv_freq(base.max(1.0 + f64::EPSILON).ln(), MODEL_DIM, MODEL_DIM / 2);
        let times = |w: &[Vec<f64>], x: &[f64]| -> Vec<f64> { w.iter().map(|row| dot(row, x)).collect() };
        let (mut q, mut k, mut v) = (Vec::new(), Vec::new(), Vec::new());
        for (index, word) in words.iter().enumerate() {
            let position = start + index as f64;
            let mut x = self.embedding(word);
            if mode == PositionMode::Sinusoidal {
                for (i, t) in theta.iter().enumerate() {
                    let (sin, cos) = (position * t).sin_cos();
                    x[2 * i] += sin;
                    x[2 * i + 1] += cos;
                }
            }
            let (mut qi, mut ki) = (times(&self.w_q, &x), times(&self.w_k, &x));
            if mode == PositionMode::Rope {
                rotate_pairs(&mut qi, &theta, position);
                rotate_pairs(&mut ki, &theta, position);
            }
            let mut vi = times(&self.w_v, &x);
            if rotate_values {
                rotate_pairs(&mut vi, &theta, position);
            }
            q.push(qi);
            k.push(ki);
            v.push(vi);
        }
        let scale = 1.0 / (MODEL_DIM as f64).sqrt();
        let weights: Vec<Vec<f64>> = q
            .iter()
            .enumerate()
            .map(|(i, qi)| {
                // Under the mask the keys after i are not scored at all (not scored −∞ and
                // exponentiated): their weights are exactly 0, and the first token's row is [1].
                let seen = if mask == Mask::Causal { i + 1 } else { k.len() };
                let mut row = softmax(&k.iter().take(seen).map(|kj| dot(qi, kj) * scale).collect::<Vec<_>>());
                row.resize(k.len(), 0.0);
                row
            })
            .collect();
        let outputs = weights
            .iter()
            .map(|row| {
                let mut out = vec![0.0; MODEL_DIM];
                for (w, vj) in row.iter().zip(&v) {
                    for (o, x) in out.iter_mut().zip(vj) {
                        *o += w * x;
                    }
                }
                out
            })
            .collect();
        AttentionPass { q, k, v, weights, outputs }
    }
}

/// Rotates each pair (2i, 2i+1) of `x` by `position · θᵢ` (RoPE, interleaved).
fn rotate_pairs(x: &mut [f64], theta: &[f64], position: f64) {
    for (i, t) in theta.iter().enumerate() {
        let (sin, cos) = (position * t).sin_cos();
        let (a, b) = (x[2 * i], x[2 * i + 1]);
        x[2 * i] = a * cos - b * sin;
        x[2 * i + 1] = a * sin + b * cos;
    }
}

/// exp(xᵢ − max) / Σ exp(xⱼ − max): sums to 1 and never overflows. Empty in, empty out.
pub fn softmax(scores: &[f64]) -> Vec<f64> {
    let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
    let total: f64 = exps.iter().sum();
    exps.into_iter().map(|e| e / total).collect()
}

/// The Euclidean distance between two vectors.
pub fn distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
}

/// What the "order" chapter reads out.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderReport {
    pub pass: AttentionPass,
    /// The words in the shuffled order, and their pass.
    pub shuffled_words: Vec<&'static str>,
    pub shuffled: AttentionPass,
    /// |output(dog₁) − output(dog₂)|.
    pub dog_gap: f64,
    /// max |outputs(shuffled words) − shuffled(outputs)|.
    pub permutation_gap: f64,
}

/// Runs the sentence and its shuffle by `permutation` (a permutation of 0..5; anything else
/// falls back to [`SHUFFLE`]), both under `mask`.
pub fn order_report(model: &TinyAttention, mode: PositionMode, mask: Mask, base: f64, permutation: &[usize]) -> OrderReport {
    let valid = permutation.len() == SENTENCE.len() && (0..SENTENCE.len()).all(|i| permutation.contains(&i));
    let permutation = if valid { permutation } else { &SHUFFLE[..] };
    let pass = model.run(&SENTENCE, mode, mask, base);
    let shuffled_words: Vec<&'static str> = permutation.iter().map(|&i| SENTENCE[i]).collect();
    let shuffled = model.run(&shuffled_words, mode, mask, base);
    let dog_gap = distance(&pass.outputs[DOGS.0], &pass.outputs[DOGS.1]);
    let permutation_gap = permutation
        .iter()
        .enumerate()
        .flat_map(|(j, &i)| shuffled.outputs[j].iter().zip(&pass.outputs[i]).map(|(a, b)| (a - b).abs()))
        .fold(0.0, f64::max);
    OrderReport { pass, shuffled_words, shuffled, dog_gap, permutation_gap }
}

/// The `draw`-th shuffle of the sentence: a permutation that moves some word (not the identity,
/// nor the two dogs swapped, which reads as the sentence itself), the same for the same `draw`
/// (Fisher–Yates from a seed).
pub fn shuffle(draw: u64) -> Vec<usize> {
    if draw == 0 {
        return SHUFFLE.to_vec();
    }
    let mut rng = SplitMix64::new(draw.wrapping_mul(0x9E37_79B9));
    loop {
        let mut order: Vec<usize> = (0..SENTENCE.len()).collect();
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        if order.iter().enumerate().any(|(i, &j)| SENTENCE[i] != SENTENCE[j]) {
            return order;
        }
    }
}
