//! Where a reading's time goes, kernel by kernel, at the model's own shapes: what `make bench`
//! prints beside what the machine allows (issue 56: about 23 GFLOP/s for a batch of 128 tokens
//! and 9 for one token, single-threaded WebAssembly SIMD). The clock is the caller's
//! (`performance.now` in the worker), so the core stays free of the browser. And the two small
//! loops of the forward pass that are not matrix products.

use super::{Hooks, LlamaModel, TOP};

/// One kernel's time: what it did, its milliseconds, and its billions of multiply-adds × 2 a
/// second (0 where counting them means nothing).
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    pub what: String,
    pub ms: f64,
    pub gflops: f64,
}

impl LlamaModel {
    /// Times each kernel on `tokens` (a batch) and on one token, `clock` in milliseconds.
    pub fn profile(&self, tokens: &[u32], clock: &dyn Fn() -> f64) -> Vec<Timing> {
        let c = &self.config;
        let n = tokens.len().max(1);
        let mut out = Vec::new();
        let mut time = |what: String, flops: f64, work: &mut dyn FnMut()| {
            let start = clock();
            work();
            let ms = clock() - start;
            out.push(Timing { what, ms, gflops: if ms > 0.0 && flops > 0.0 { flops / ms / 1e6 } else { 0.0 } });
        };
        let layer_macs: usize =
            self.layers.iter().map(|w| [w.q, w.k, w.v, w.o, w.gate, w.up, w.down].iter().map(|m| m.rows * m.cols).sum::<usize>()).sum();
        let classifier_macs = self.output.rows * self.output.cols;
        for batch in [n, 1] {
            let x = vec![0.01f32; batch * c.dim.max(c.hidden_dim)];
            time(format!("layers' matrices, {batch} token(s)"), 2.0 * layer_macs as f64 * batch as f64, &mut || {
                for w in &self.layers {
                    for m in [&w.q, &w.k, &w.v, &w.o, &w.gate, &w.up, &w.down] {
                        std::hint::black_box(self.apply(m, &x[..batch * m.cols]));
                    }
                }
            });
            time(format!("classifier, {batch} token(s)"), 2.0 * classifier_macs as f64 * batch as f64, &mut || {
                for from in (0..batch).step_by(super::LOGIT_CHUNK) {
                    let to = (from + super::LOGIT_CHUNK).min(batch);
                    std::hint::black_box(self.apply(&self.output, &x[from * c.dim..to * c.dim]));
                }
            });
        }
        let logits: Vec<f32> = (0..c.vocab_size).map(|i| ((i * 7919) % 1000) as f32 / 100.0).collect();
        time(format!("softmax normaliser and top {TOP}, {n} × {} logits", c.vocab_size), 0.0, &mut || {
            for _ in 0..n {
                let normaliser = rope_lab_kernels::log_sum_exp(&logits);
                std::hint::black_box(top_k(&logits, normaliser));
            }
        });
        let mut reading = None;
        time(format!("a whole reading of {n} tokens (all of the above and attention)"), 0.0, &mut || {
            reading = Some(self.read(tokens, Hooks::default(), true));
        });
        if let Some(r) = reading {
            let mut session = r.for_continuing();
            let feeds = 8;
            time(format!("continuation: one token (mean of {feeds})"), 0.0, &mut || {
                for _ in 0..feeds {
                    std::hint::black_box(self.feed(&mut session, 198));
                }
            });
            if let Some(t) = out.last_mut() {
                t.ms /= feeds as f64;
            }
        }
        out
    }
}

/// Turns plane i of every head of `v` (`head_dim` numbers each) by its angle: (a, b) ↦
/// (a cos − b sin, a sin + b cos). Planes past `rotation.len()` (partial rotary) stay.
pub(super) fn rotate(v: &mut [f32], head_dim: usize, rotation: &[(f32, f32)]) {
    for head in v.chunks_exact_mut(head_dim) {
        for (pair, &(cos, sin)) in head.chunks_exact_mut(2).zip(rotation) {
            let (a, b) = (pair[0], pair[1]);
            pair[0] = a * cos - b * sin;
            pair[1] = a * sin + b * cos;
        }
    }
}

/// The [`TOP`] highest logits as (id, probability), highest first, the lower id on a tie;
/// `normaliser` is ln Σ e^logit.
pub(super) fn top_k(logits: &[f32], normaliser: f64) -> [(u32, f32); TOP] {
    let mut best = [(0u32, f32::NEG_INFINITY); TOP];
    for (i, &v) in logits.iter().enumerate() {
        if v > best[TOP - 1].1 {
            let mut at = TOP - 1;
            while at > 0 && v > best[at - 1].1 {
                best[at] = best[at - 1];
                at -= 1;
            }
            best[at] = (i as u32, v);
        }
    }
    best.map(|(id, v)| (id, (v as f64 - normaliser).exp() as f32))
}
