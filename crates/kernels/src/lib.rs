//! The few loops the trained model spends its time in (RoPE Lab's `src/model/forward.rs`):
//! a matrix times a vector and a dot product, in f32. A crate of their own so that the release
//! build can compile them for speed (`opt-level = 3` in the workspace's `Cargo.toml`) while
//! everything else is compiled for size: at `opt-level = "z"` the model read 128 tokens about
//! three times slower. In the browser they use WebAssembly's 128-bit SIMD, four products at a
//! time, enabled for these functions only.

pub mod quant;

/// `out[r] = Σᵢ w[r·n + i] · x[i]` for `w` of `out.len()` rows of `n = x.len()` numbers.
pub fn matvec(out: &mut [f32], w: &[f32], x: &[f32]) {
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: simd128 is a feature of every browser the page supports (WebAssembly SIMD:
        // Chrome 91, Firefox 89, Safari 16.4); the function only reads and writes the slices.
        unsafe { simd::matvec(out, w, x) }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let n = x.len();
        for (o, row) in out.iter_mut().zip(w.chunks_exact(n)) {
            *o = dot(row, x);
        }
    }
}

/// `Σᵢ a[i] · b[i]` over the shorter of the two, four sums at once.
#[inline(always)]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0f32; 4];
    for (x, y) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        acc[0] += x[0] * y[0];
        acc[1] += x[1] * y[1];
        acc[2] += x[2] * y[2];
        acc[3] += x[3] * y[3];
    }
    let tail = n - n % 4;
    let rest: f32 = a[tail..].iter().zip(&b[tail..]).map(|(x, y)| x * y).sum();
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + rest
}

/// The dot products of four rows (`rows`: four rows of `x.len()` numbers one after another)
/// with `x`: `x` is read once for the four.
pub fn dot4(rows: &[f32], x: &[f32]) -> [f32; 4] {
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: as `matvec`'s; the function only reads the slices, within their lengths.
        unsafe { simd::dot4(rows, x) }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let n = x.len();
        let (r0, rest) = rows.split_at(n);
        let (r1, rest) = rest.split_at(n);
        let (r2, r3) = rest.split_at(n);
        [dot(r0, x), dot(r1, x), dot(r2, x), dot(&r3[..n], x)]
    }
}

/// One head's causal attention for one query: `att[t] = softmax_t(q · k_t · scale)` over the
/// positions t of `att`, then `out = Σ_t att[t] · v_t`, where k_t and v_t are the `q.len()`
/// numbers at `t · stride + at` of `keys` and `values` (a cache of all heads, `stride` wide).
#[allow(clippy::too_many_arguments)] // the loop's own inputs and outputs, no more
pub fn attend(q: &[f32], keys: &[f32], values: &[f32], stride: usize, at: usize, scale: f32, att: &mut [f32], out: &mut [f32]) {
    #[cfg(target_arch = "wasm32")]
    {
        // SAFETY: as `matvec`'s; the body only indexes its slices.
        unsafe { simd::attend(q, keys, values, stride, at, scale, att, out) }
    }
    #[cfg(not(target_arch = "wasm32"))]
    attend_body(q, keys, values, stride, at, scale, att, out, softmax)
}

/// [`attend`] without SIMD, for heads of a few numbers (stories260K's 8, a query's few hundred
/// keys): as quick there, and the page's model part does not carry the SIMD exponential.
#[allow(clippy::too_many_arguments)]
pub fn attend_scalar(q: &[f32], keys: &[f32], values: &[f32], stride: usize, at: usize, scale: f32, att: &mut [f32], out: &mut [f32]) {
    attend_body(q, keys, values, stride, at, scale, att, out, softmax_scalar)
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn attend_body(
    q: &[f32],
    keys: &[f32],
    values: &[f32],
    stride: usize,
    at: usize,
    scale: f32,
    att: &mut [f32],
    out: &mut [f32],
    softmax: fn(&mut [f32]),
) {
    let hs = q.len();
    for (t, a) in att.iter_mut().enumerate() {
        *a = dot(q, &keys[t * stride + at..][..hs]) * scale;
    }
    softmax(att);
    out.fill(0.0);
    for (t, &a) in att.iter().enumerate() {
        add_scaled(out, a, &values[t * stride + at..][..hs]);
    }
}

/// `out += a · v`, element by element.
#[inline(always)]
pub fn add_scaled(out: &mut [f32], a: f32, v: &[f32]) {
    out.iter_mut().zip(v).for_each(|(o, v)| *o += a * v);
}

/// `run.c`'s rmsnorm: `out = weight · x / sqrt(mean(x²) + eps)`.
pub fn rmsnorm(out: &mut [f32], x: &[f32], weight: &[f32], eps: f32) {
    let ss = dot(x, x) / x.len() as f32 + eps;
    let inv = 1.0 / ss.sqrt();
    out.iter_mut().zip(x).zip(weight).for_each(|((o, x), w)| *o = w * (inv * x));
}

/// Softmax in place, numerically stable.
#[inline(always)]
pub fn softmax(x: &mut [f32]) {
    let max = x.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
    #[cfg(target_arch = "wasm32")]
    let sum = {
        // SAFETY: as `matvec`'s; the function only reads and writes the slice.
        unsafe { simd::exp_shifted(x, max) }
    };
    #[cfg(not(target_arch = "wasm32"))]
    let sum = exp_shifted_scalar(x, max);
    let inv = 1.0 / sum;
    x.iter_mut().for_each(|v| *v *= inv);
}

/// Softmax in place with the standard library's exponential.
#[inline(always)]
fn softmax_scalar(x: &mut [f32]) {
    let max = x.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
    let inv = 1.0 / exp_shifted_scalar(x, max);
    x.iter_mut().for_each(|v| *v *= inv);
}

/// `x[i] = e^(x[i] − max)` in place; returns their sum.
#[inline(always)]
fn exp_shifted_scalar(x: &mut [f32], max: f32) -> f32 {
    let mut sum = 0.0;
    x.iter_mut().for_each(|v| {
        *v = (*v - max).exp();
        sum += *v;
    });
    sum
}

/// `ln Σᵢ e^(xᵢ)` without overflow (the normaliser of a softmax, for a loss and the top
/// candidates' probabilities), summed in f64 from f32 exponentials: within a few parts in 10⁷ of
/// the f64 computation over 50,000 logits.
pub fn log_sum_exp(x: &[f32]) -> f64 {
    let max = x.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
    if !max.is_finite() {
        return max as f64;
    }
    #[cfg(target_arch = "wasm32")]
    let sum = {
        // SAFETY: as `matvec`'s; the function only reads the slice.
        unsafe { simd::sum_exp(x, max) }
    };
    #[cfg(not(target_arch = "wasm32"))]
    let sum: f64 = x.iter().map(|&v| ((v - max) as f64).exp()).sum();
    max as f64 + sum.ln()
}

/// SwiGLU's gate in place: `a = silu(a) · b`, silu(a) = a / (1 + e^(−a)).
pub fn silu_times(a: &mut [f32], b: &[f32]) {
    a.iter_mut().zip(b).for_each(|(a, b)| *a = *a / (1.0 + (-*a).exp()) * b);
}

#[cfg(target_arch = "wasm32")]
mod simd {
    use core::arch::wasm32::*;

    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "simd128")]
    pub unsafe fn attend(q: &[f32], keys: &[f32], values: &[f32], stride: usize, at: usize, scale: f32, att: &mut [f32], out: &mut [f32]) {
        super::attend_body(q, keys, values, stride, at, scale, att, out, super::softmax)
    }

    /// e^x for four numbers at once (Cephes' `expf`: x = n·ln 2 + r, |r| ≤ ln 2 / 2, a degree-6
    /// polynomial for e^r, then 2^n put in the exponent's bits), within 2 ulp for x in
    /// [−87, 88]; below −87 it is e^−87 (about 1.6e−38), a term no softmax sum can see.
    #[inline(always)]
    pub fn exp4(x: v128) -> v128 {
        let x = f32x4_min(f32x4_max(x, f32x4_splat(-87.0)), f32x4_splat(88.0));
        let n = f32x4_nearest(f32x4_mul(x, f32x4_splat(core::f32::consts::LOG2_E)));
        let r = f32x4_sub(f32x4_sub(x, f32x4_mul(n, f32x4_splat(0.693_359_4))), f32x4_mul(n, f32x4_splat(-2.121_944_4e-4)));
        let mut p = f32x4_splat(1.987_569_1e-4);
        for c in [1.398_199_9e-3, 8.333_452e-3, 4.166_579_6e-2, 0.166_666_65, 0.5] {
            p = f32x4_add(f32x4_mul(p, r), f32x4_splat(c));
        }
        let y = f32x4_add(f32x4_add(f32x4_mul(f32x4_mul(p, r), r), r), f32x4_splat(1.0));
        i32x4_add(y, i32x4_shl(i32x4_trunc_sat_f32x4(n), 23))
    }

    /// `x[i] = e^(x[i] − max)` in place; returns their sum.
    #[target_feature(enable = "simd128")]
    pub unsafe fn exp_shifted(x: &mut [f32], max: f32) -> f32 {
        let n = x.len();
        let lanes = n - n % 4;
        let m = f32x4_splat(max);
        let mut acc = f32x4_splat(0.0);
        let p = x.as_mut_ptr();
        let mut i = 0;
        while i < lanes {
            // SAFETY: i + 4 <= n.
            unsafe {
                let e = exp4(f32x4_sub(v128_load(p.add(i) as *const v128), m));
                v128_store(p.add(i) as *mut v128, e);
                acc = f32x4_add(acc, e);
            }
            i += 4;
        }
        let mut sum = hsum(acc);
        for v in &mut x[lanes..] {
            *v = (*v - max).exp();
            sum += *v;
        }
        sum
    }

    /// `Σ e^(x[i] − max)`, in f32 within runs of 256 numbers and in f64 across them.
    #[target_feature(enable = "simd128")]
    pub unsafe fn sum_exp(x: &[f32], max: f32) -> f64 {
        let m = f32x4_splat(max);
        let mut total = 0f64;
        for run in x.chunks(256) {
            let lanes = run.len() - run.len() % 4;
            let mut acc = f32x4_splat(0.0);
            let p = run.as_ptr();
            let mut i = 0;
            while i < lanes {
                // SAFETY: i + 4 <= run.len().
                acc = f32x4_add(acc, exp4(f32x4_sub(unsafe { v128_load(p.add(i) as *const v128) }, m)));
                i += 4;
            }
            total += hsum(acc) as f64 + run[lanes..].iter().map(|&v| ((v - max) as f64).exp()).sum::<f64>();
        }
        total
    }

    #[inline(always)]
    pub fn hsum(a: v128) -> f32 {
        (f32x4_extract_lane::<0>(a) + f32x4_extract_lane::<1>(a)) + (f32x4_extract_lane::<2>(a) + f32x4_extract_lane::<3>(a))
    }

    #[target_feature(enable = "simd128")]
    pub unsafe fn matvec(out: &mut [f32], w: &[f32], x: &[f32]) {
        let n = x.len();
        let lanes = n - n % 4;
        for (o, row) in out.iter_mut().zip(w.chunks_exact(n)) {
            let mut acc = f32x4_splat(0.0);
            let mut i = 0;
            while i < lanes {
                // SAFETY: i + 4 <= lanes <= n = row.len() = x.len(); unaligned loads are allowed.
                let (r, v) = unsafe { (v128_load(row.as_ptr().add(i) as *const v128), v128_load(x.as_ptr().add(i) as *const v128)) };
                acc = f32x4_add(acc, f32x4_mul(r, v));
                i += 4;
            }
            let mut sum = (f32x4_extract_lane::<0>(acc) + f32x4_extract_lane::<1>(acc))
                + (f32x4_extract_lane::<2>(acc) + f32x4_extract_lane::<3>(acc));
            for j in lanes..n {
                sum += row[j] * x[j];
            }
            *o = sum;
        }
    }

    #[target_feature(enable = "simd128")]
    pub unsafe fn dot4(rows: &[f32], x: &[f32]) -> [f32; 4] {
        let n = x.len();
        assert!(rows.len() >= 4 * n);
        let lanes = n - n % 4;
        let p = rows.as_ptr();
        let xp = x.as_ptr();
        let (mut a0, mut a1, mut a2, mut a3) = (f32x4_splat(0.0), f32x4_splat(0.0), f32x4_splat(0.0), f32x4_splat(0.0));
        let mut i = 0;
        while i < lanes {
            // SAFETY: i + 4 <= n, and row j's numbers are at j·n..(j + 1)·n <= rows.len().
            unsafe {
                let v = v128_load(xp.add(i) as *const v128);
                a0 = f32x4_add(a0, f32x4_mul(v128_load(p.add(i) as *const v128), v));
                a1 = f32x4_add(a1, f32x4_mul(v128_load(p.add(n + i) as *const v128), v));
                a2 = f32x4_add(a2, f32x4_mul(v128_load(p.add(2 * n + i) as *const v128), v));
                a3 = f32x4_add(a3, f32x4_mul(v128_load(p.add(3 * n + i) as *const v128), v));
            }
            i += 4;
        }
        let sum =
            |a: v128| (f32x4_extract_lane::<0>(a) + f32x4_extract_lane::<1>(a)) + (f32x4_extract_lane::<2>(a) + f32x4_extract_lane::<3>(a));
        let mut out = [sum(a0), sum(a1), sum(a2), sum(a3)];
        for j in lanes..n {
            for (r, o) in out.iter_mut().enumerate() {
                *o += rows[r * n + j] * x[j];
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matvec_is_the_sum_of_products() {
        let (rows, n) = (5, 11);
        let w: Vec<f32> = (0..rows * n).map(|i| (i as f32 * 0.37).sin()).collect();
        let x: Vec<f32> = (0..n).map(|i| (i as f32 * 1.3).cos()).collect();
        let mut out = vec![0.0; rows];
        matvec(&mut out, &w, &x);
        for r in 0..rows {
            let want: f64 = (0..n).map(|i| w[r * n + i] as f64 * x[i] as f64).sum();
            assert!((out[r] as f64 - want).abs() < 1e-5, "row {r}");
        }
        assert_eq!(dot(&[1.0, 2.0, 3.0, 4.0, 5.0], &[1.0, 1.0, 1.0, 1.0, 2.0]), 20.0);
    }
}
