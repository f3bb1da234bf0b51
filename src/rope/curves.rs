//! Scores as functions of relative distance and of both positions: what the decay and heatmap
//! charts plot. Each uses the fact that with RoPE the score depends only on n − m, so a curve
//! or a whole window needs one evaluation per distinct distance.

use super::rotate::Rotary;

/// One plane's rest-state product q̃ᵢ k̃ᵢ* = (a, b): the score at relative distance r is
/// Σᵢ a cos(r θᵢ) + b sin(r θᵢ) (from Re[q̃ k̃* e^{i(m−n)θ}] with r = n − m).
fn plane_products(rotary: &Rotary, q: &[f64], k: &[f64]) -> Vec<(f64, f64)> {
    (0..rotary.planes())
        .map(|plane| {
            let (x, y) = rotary.plane_dims(plane);
            let (qa, qb) = (q.get(x).copied().unwrap_or(0.0), q.get(y).copied().unwrap_or(0.0));
            let (ka, kb) = (k.get(x).copied().unwrap_or(0.0), k.get(y).copied().unwrap_or(0.0));
            // Re[(qa + i qb)(ka − i kb) e^{−irθ}] = a cos(rθ) + b sin(rθ), with
            // a = qa ka + qb kb and b = qb ka − qa kb.
            (qa * ka + qb * kb, qb * ka - qa * kb)
        })
        .collect()
}

/// The rotated score q · R(r) k at each relative distance r in `distances` (n − m = r).
/// Equal to `Rotary::scores(..).score` for any m, n with n − m = r.
pub fn score_by_distance(rotary: &Rotary, q: &[f64], k: &[f64], distances: &[f64]) -> Vec<f64> {
    let products = plane_products(rotary, q, k);
    distances
        .iter()
        .map(|r| {
            products
                .iter()
                .zip(rotary.inv_freq())
                .map(|((a, b), theta)| {
                    let (sin, cos) = (r * theta).sin_cos();
                    a * cos + b * sin
                })
                .sum()
        })
        .collect()
}

/// [`score_by_distance`] divided by |q||k|: the cosine of the angle between q and R(r)k, in
/// [−1, 1] whatever the vectors' lengths (all zeros for a zero vector).
pub fn cosine_by_distance(rotary: &Rotary, q: &[f64], k: &[f64], distances: &[f64]) -> Vec<f64> {
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let norms = norm(q) * norm(k);
    let norms = if norms > 0.0 { norms } else { 1.0 };
    score_by_distance(rotary, q, k, distances).into_iter().map(|s| s / norms).collect()
}

/// The score of a vector with itself at distance r, per unit norm: the mean of cos(r θᵢ) over
/// the planes when every plane carries the same weight (q = k with equal-length pairs).
pub fn mean_cos_by_distance(inv_freq: &[f64], distances: &[f64]) -> Vec<f64> {
    let planes = inv_freq.len().max(1) as f64;
    distances
        .iter()
        .map(|r| inv_freq.iter().map(|theta| (r * theta).cos()).sum::<f64>() / planes)
        .collect()
}

/// The largest |q̃ᵢ k̃ᵢ* − q̃ᵢ₊₁ k̃ᵢ₊₁*| over the planes, with a zero after the last one: the
/// factor that turns RoFormer's relative bound into a bound on |score| (section 3.4.3).
pub fn abel_factor(rotary: &Rotary, q: &[f64], k: &[f64]) -> f64 {
    let products = plane_products(rotary, q, k);
    let mut largest = 0.0_f64;
    for i in 0..products.len() {
        let next = products.get(i + 1).copied().unwrap_or((0.0, 0.0));
        let (da, db) = (products[i].0 - next.0, products[i].1 - next.1);
        largest = largest.max(da.hypot(db));
    }
    largest
}

/// What a heatmap cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HeatmapMode {
    /// RoPE: q rotated to m, k rotated to n. Depends only on n − m: diagonal stripes.
    #[default]
    Rotated,
    /// No position information: q · k everywhere.
    Unrotated,
    /// Vaswani-style: sinusoidal encodings added, (q + PE(m)) · (k + PE(n)). The PE·PE term
    /// depends on n − m, the cross terms on m and n alone: blurred stripes.
    Sinusoidal,
}

/// Scores for m in `m0..m0+size` (rows) and n in `n0..n0+size` (columns), row-major, computed
/// from the 2·size − 1 distinct distances (and, for sinusoidal, 2·size encodings).
pub fn score_window(
    rotary: &Rotary,
    q: &[f64],
    k: &[f64],
    (m0, n0): (i64, i64),
    size: usize,
    mode: HeatmapMode,
    base: f64,
) -> Vec<f64> {
    let size_i = size as i64;
    let mut cells = vec![0.0; size * size];
    match mode {
        HeatmapMode::Unrotated => {
            let plain: f64 = q.iter().zip(k).map(|(a, b)| a * b).sum();
            cells.iter_mut().for_each(|c| *c = plain);
        }
        HeatmapMode::Rotated => {
            // distance n − m runs from n0 − (m0 + size − 1) to n0 + size − 1 − m0.
            let first = n0 - (m0 + size_i - 1);
            let distances: Vec<f64> = (0..2 * size_i - 1).map(|i| (first + i) as f64).collect();
            let by_distance = score_by_distance(rotary, q, k, &distances);
            for row in 0..size {
                for col in 0..size {
                    let distance = (n0 + col as i64) - (m0 + row as i64);
                    cells[row * size + col] = by_distance[(distance - first) as usize];
                }
            }
        }
        HeatmapMode::Sinusoidal => {
            let dim = q.len();
            let encode = |p: i64| -> Vec<f64> {
                let mut out = Vec::with_capacity(dim);
                for i in 0..dim / 2 {
                    let theta = (-(2.0 * i as f64 / dim as f64) * base.ln()).exp();
                    let (sin, cos) = (p as f64 * theta).sin_cos();
                    out.push(sin);
                    out.push(cos);
                }
                out
            };
            let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
            let rows: Vec<Vec<f64>> = (0..size_i).map(|r| encode(m0 + r)).collect();
            let cols: Vec<Vec<f64>> = (0..size_i).map(|c| encode(n0 + c)).collect();
            let plain = dot(q, k);
            let q_pe: Vec<f64> = cols.iter().map(|pe| dot(q, pe)).collect();
            let pe_k: Vec<f64> = rows.iter().map(|pe| dot(pe, k)).collect();
            // PE(m) · PE(n) = Σ cos((m − n) θᵢ): one value per distance.
            let first = n0 - (m0 + size_i - 1);
            let thetas: Vec<f64> = (0..dim / 2).map(|i| (-(2.0 * i as f64 / dim as f64) * base.ln()).exp()).collect();
            let pe_pe: Vec<f64> = (0..2 * size_i - 1)
                .map(|i| thetas.iter().map(|t| ((first + i) as f64 * t).cos()).sum())
                .collect();
            for row in 0..size {
                for col in 0..size {
                    let distance = (n0 + col as i64) - (m0 + row as i64);
                    cells[row * size + col] = plain + q_pe[col] + pe_k[row] + pe_pe[(distance - first) as usize];
                }
            }
        }
    }
    cells
}
