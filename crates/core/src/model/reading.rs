//! What one read of a text keeps, and what the chapter asks of it: the loss of each token, the
//! next token's candidates, every head's attention (and how much of it goes to the previous
//! token), and each plane's part of a score, which is where RoPE's planes are seen at work.

use super::checkpoint::Config;
use super::hooks::Rope;

/// Everything kept from reading one text.
#[derive(Debug, Clone)]
pub struct Reading {
    config: Config,
    pub tokens: Vec<u32>,
    pub rope: Rope,
    /// `[position][vocab]`: the logits for the token after each position.
    logits: Vec<f32>,
    /// Per layer and head, the causal attention rows one after another (row t has t + 1
    /// weights, starting at t(t + 1)/2).
    attention: Vec<f32>,
    /// `[layer][head][position][head_size]`: q after rotation.
    q: Vec<f32>,
    /// `[layer][kv head][position][head_size]`: k after rotation.
    k: Vec<f32>,
}

/// For one query: why a head attends where it does, plane by plane.
#[derive(Debug, Clone, PartialEq)]
pub struct PlaneWhy {
    /// The key the head attends to most.
    pub top_key: usize,
    /// Each plane's part of score(top key) − the mean score of the other keys (q·k/√d parts).
    pub difference: Vec<f64>,
    /// Each plane's share of Σ |qᵢ||kᵢ| over the keys: where the vectors' magnitude sits.
    pub magnitude: Vec<f64>,
}

fn triangle(t: usize) -> usize {
    t * (t + 1) / 2
}

impl Reading {
    pub(super) fn new(config: Config, tokens: Vec<u32>, rope: Rope) -> Reading {
        let t = tokens.len();
        let hs = config.head_size();
        Reading {
            config,
            rope,
            logits: vec![0.0; t * config.vocab_size],
            attention: vec![0.0; config.n_layers * config.n_heads * triangle(t)],
            q: vec![0.0; config.n_layers * config.n_heads * t * hs],
            k: vec![0.0; config.n_layers * config.n_kv_heads * t * hs],
            tokens,
        }
    }

    pub(super) fn keep_qk(&mut self, layer: usize, pos: usize, q: &[f32], k: &[f32]) {
        let (c, t, hs) = (self.config, self.tokens.len(), self.config.head_size());
        for (h, head) in q.chunks_exact(hs).enumerate() {
            self.q[((layer * c.n_heads + h) * t + pos) * hs..][..hs].copy_from_slice(head);
        }
        for (h, head) in k.chunks_exact(hs).enumerate() {
            self.k[((layer * c.n_kv_heads + h) * t + pos) * hs..][..hs].copy_from_slice(head);
        }
    }

    pub(super) fn keep_attention(&mut self, layer: usize, head: usize, pos: usize, row: &[f32]) {
        let at = (layer * self.config.n_heads + head) * triangle(self.tokens.len()) + triangle(pos);
        self.attention[at..][..=pos].copy_from_slice(row);
    }

    pub(super) fn keep_logits(&mut self, pos: usize, logits: &[f32]) {
        let v = self.config.vocab_size;
        self.logits[pos * v..][..v].copy_from_slice(logits);
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Tokens read, BOS included.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The logits for the token after position `pos`.
    pub fn logits(&self, pos: usize) -> &[f32] {
        let v = self.config.vocab_size;
        self.logits.get(pos * v..(pos + 1) * v).unwrap_or(&[])
    }

    /// The cross-entropy in nats of token `pos` (≥ 1) given the tokens before it; 0 at BOS.
    pub fn token_loss(&self, pos: usize) -> f64 {
        if pos == 0 || pos >= self.tokens.len() {
            return 0.0;
        }
        cross_entropy(self.logits(pos - 1), self.tokens[pos])
    }

    /// The mean cross-entropy of every token after BOS (0 for BOS alone).
    pub fn loss(&self) -> f64 {
        let n = self.tokens.len();
        if n < 2 {
            return 0.0;
        }
        (1..n).map(|t| self.token_loss(t)).sum::<f64>() / (n - 1) as f64
    }

    /// The `k` most likely tokens after the text, with their probabilities, most likely first.
    pub fn next(&self, k: usize) -> Vec<(u32, f64)> {
        let Some(last) = self.tokens.len().checked_sub(1) else { return Vec::new() };
        let logits = self.logits(last);
        let max = logits.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v)) as f64;
        let sum: f64 = logits.iter().map(|&v| (v as f64 - max).exp()).sum();
        // Highest first, the lower id first on a tie (as the greedy choice): k passes, no sort.
        let mut ranked: Vec<(u32, f64)> = Vec::with_capacity(k);
        for _ in 0..k.min(logits.len()) {
            let taken = |i: usize| ranked.iter().any(|&(id, _)| id as usize == i);
            let best = (0..logits.len()).filter(|&i| !taken(i)).fold(None, |best: Option<usize>, i| match best {
                Some(b) if logits[b] >= logits[i] => Some(b),
                _ => Some(i),
            });
            let Some(best) = best else { break };
            ranked.push((best as u32, (logits[best] as f64 - max).exp() / sum));
        }
        ranked
    }

    /// Head `head` of layer `layer`: the weight query `query` gives key `key` (0 for a key
    /// after the query, which the causal mask hides, or out of range).
    pub fn attention(&self, layer: usize, head: usize, query: usize, key: usize) -> f32 {
        let t = self.tokens.len();
        if layer >= self.config.n_layers || head >= self.config.n_heads || query >= t || key > query {
            return 0.0;
        }
        self.attention[(layer * self.config.n_heads + head) * triangle(t) + triangle(query) + key]
    }

    /// The row of weights query `query` gives keys 0..=query.
    pub fn attention_row(&self, layer: usize, head: usize, query: usize) -> &[f32] {
        let t = self.tokens.len();
        if layer >= self.config.n_layers || head >= self.config.n_heads || query >= t {
            return &[];
        }
        &self.attention[(layer * self.config.n_heads + head) * triangle(t) + triangle(query)..][..=query]
    }

    /// The mean weight a head gives the previous token, over queries 1..T−1 (0 for a text of
    /// BOS alone).
    pub fn previous_token(&self, layer: usize, head: usize) -> f64 {
        let t = self.tokens.len();
        if t < 2 {
            return 0.0;
        }
        (1..t).map(|q| self.attention(layer, head, q, q - 1) as f64).sum::<f64>() / (t - 1) as f64
    }

    /// [`Reading::previous_token`] of every head, layer by layer.
    pub fn previous_token_all(&self) -> Vec<Vec<f64>> {
        (0..self.config.n_layers).map(|l| (0..self.config.n_heads).map(|h| self.previous_token(l, h)).collect()).collect()
    }

    /// The rotated q of a head at a position (empty out of range).
    pub fn q(&self, layer: usize, head: usize, pos: usize) -> &[f32] {
        let (c, t, hs) = (self.config, self.tokens.len(), self.config.head_size());
        if layer >= c.n_layers || head >= c.n_heads || pos >= t {
            return &[];
        }
        &self.q[((layer * c.n_heads + head) * t + pos) * hs..][..hs]
    }

    /// The rotated k that query head `head` reads at a position (its key/value head's).
    pub fn k(&self, layer: usize, head: usize, pos: usize) -> &[f32] {
        let (c, t, hs) = (self.config, self.tokens.len(), self.config.head_size());
        if layer >= c.n_layers || head >= c.n_heads || pos >= t {
            return &[];
        }
        let kv = head / (c.n_heads / c.n_kv_heads);
        &self.k[((layer * c.n_kv_heads + kv) * t + pos) * hs..][..hs]
    }

    /// Each plane's part of the score q·k/√head_size of query `query` and key `key`: they add
    /// up to the score itself.
    pub fn plane_parts(&self, layer: usize, head: usize, query: usize, key: usize) -> Vec<f64> {
        let (q, k) = (self.q(layer, head, query), self.k(layer, head, key));
        let scale = 1.0 / (self.config.head_size() as f64).sqrt();
        q.chunks_exact(2).zip(k.chunks_exact(2)).map(|(a, b)| (a[0] as f64 * b[0] as f64 + a[1] as f64 * b[1] as f64) * scale).collect()
    }

    /// For query `query` (≥ 1): the key the head attends to most, each plane's part of the gap
    /// between that key's score and the mean score of the other keys, and each plane's share of
    /// the magnitude Σ |qᵢ||kᵢ| over all keys. `None` for BOS (one key, no gap).
    pub fn why(&self, layer: usize, head: usize, query: usize) -> Option<PlaneWhy> {
        let row = self.attention_row(layer, head, query);
        if row.len() < 2 {
            return None;
        }
        let top_key = (0..row.len()).fold(0, |best, i| if row[i] > row[best] { i } else { best });
        let planes = self.config.planes();
        let scale = 1.0 / (self.config.head_size() as f64).sqrt();
        let (mut top, mut others, mut magnitude) = (vec![0.0; planes], vec![0.0; planes], vec![0.0; planes]);
        let q = self.q(layer, head, query);
        for key in 0..row.len() {
            let k = self.k(layer, head, key);
            for i in 0..planes {
                let (q0, q1, k0, k1) = (q[2 * i] as f64, q[2 * i + 1] as f64, k[2 * i] as f64, k[2 * i + 1] as f64);
                magnitude[i] += q0.hypot(q1) * k0.hypot(k1);
                let part = (q0 * k0 + q1 * k1) * scale;
                if key == top_key {
                    top[i] = part;
                } else {
                    others[i] += part;
                }
            }
        }
        let n = (row.len() - 1) as f64;
        let difference = top.iter().zip(&others).map(|(t, o)| t - o / n).collect();
        let total: f64 = magnitude.iter().sum();
        if total > 0.0 {
            magnitude.iter_mut().for_each(|m| *m /= total);
        }
        Some(PlaneWhy { top_key, difference, magnitude })
    }

    /// The key query `query` attends to most (the first on a tie), if it has one.
    pub fn top_key(&self, layer: usize, head: usize, query: usize) -> Option<usize> {
        let row = self.attention_row(layer, head, query);
        (!row.is_empty()).then(|| (0..row.len()).fold(0, |best, i| if row[i] > row[best] { i } else { best }))
    }

    /// [`Reading::why`] averaged over every query after BOS: what the head does in general,
    /// plane by plane (`top_key` is the last query's).
    pub fn why_mean(&self, layer: usize, head: usize) -> Option<PlaneWhy> {
        let planes = self.config.planes();
        let (mut difference, mut magnitude, mut n, mut top_key) = (vec![0.0; planes], vec![0.0; planes], 0.0, 0);
        for query in 1..self.tokens.len() {
            let why = self.why(layer, head, query)?;
            difference.iter_mut().zip(&why.difference).for_each(|(d, w)| *d += w);
            magnitude.iter_mut().zip(&why.magnitude).for_each(|(m, w)| *m += w);
            n += 1.0;
            top_key = why.top_key;
        }
        (n > 0.0).then(|| PlaneWhy {
            top_key,
            difference: difference.iter().map(|d| d / n).collect(),
            magnitude: magnitude.iter().map(|m| m / n).collect(),
        })
    }
}

/// −ln softmax(logits)[target], in f64.
pub fn cross_entropy(logits: &[f32], target: u32) -> f64 {
    let max = logits.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v)) as f64;
    let sum: f64 = logits.iter().map(|&v| (v as f64 - max).exp()).sum();
    let target = logits.get(target as usize).map_or(f64::NEG_INFINITY, |&v| v as f64);
    max + sum.ln() - target
}
