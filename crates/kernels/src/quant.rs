//! Matrices stored as ggml stores them (llama.cpp's `ggml-quants.c`): rows of numbers, each row
//! either plain (f32, f16, bf16) or cut into blocks of 32 numbers that share a scale (Q8_0,
//! Q4_0, Q4_1). The product of such a matrix with a batch of vectors dequantises each row once
//! and reuses it across every vector of the batch: reading a text costs one dequantisation per
//! weight, not one per weight and token.

/// How a matrix's numbers are stored (ggml's type ids in [`Format::from_ggml`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    F32,
    F16,
    Bf16,
    /// 32 numbers in 34 bytes: f16 scale d, then 32 signed bytes q; number j is d·q_j.
    Q8_0,
    /// 32 numbers in 18 bytes: f16 scale d, then 16 bytes of 4-bit q; number j is d·(q_j − 8),
    /// j < 16 in the low nibbles, j ≥ 16 in the high ones.
    Q4_0,
    /// 32 numbers in 20 bytes: f16 scale d, f16 minimum m, 16 bytes of 4-bit q; number j is
    /// d·q_j + m, nibbles as Q4_0.
    Q4_1,
}

/// Numbers per block of the block formats.
pub const BLOCK: usize = 32;

impl Format {
    /// The format of ggml type `id`, or the id back when this reader does not support it.
    pub fn from_ggml(id: u32) -> Result<Format, u32> {
        Ok(match id {
            0 => Format::F32,
            1 => Format::F16,
            2 => Format::Q4_0,
            3 => Format::Q4_1,
            8 => Format::Q8_0,
            30 => Format::Bf16,
            other => return Err(other),
        })
    }

    /// ggml's name of type `id` (`ggml_type_name`), for a notice that names what is unsupported.
    pub fn ggml_name(id: u32) -> &'static str {
        const NAMES: [&str; 31] = [
            "F32", "F16", "Q4_0", "Q4_1", "Q4_2", "Q4_3", "Q5_0", "Q5_1", "Q8_0", "Q8_1", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K", "Q8_K",
            "IQ2_XXS", "IQ2_XS", "IQ3_XXS", "IQ1_S", "IQ4_NL", "IQ3_S", "IQ2_S", "IQ4_XS", "I8", "I16", "I32", "I64", "F64", "IQ1_M",
            "BF16",
        ];
        NAMES.get(id as usize).copied().unwrap_or("an unknown type")
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::F32 => "F32",
            Format::F16 => "F16",
            Format::Bf16 => "BF16",
            Format::Q8_0 => "Q8_0",
            Format::Q4_0 => "Q4_0",
            Format::Q4_1 => "Q4_1",
        }
    }

    /// Bytes that hold `count` numbers in rows of `row_len`, or None when the rows cannot be
    /// stored in this format (a block format needs rows of whole blocks) or the size overflows.
    pub fn bytes_for(self, row_len: usize, count: usize) -> Option<usize> {
        let (numbers, bytes) = self.block();
        if row_len == 0 || row_len % numbers != 0 {
            return None;
        }
        (count / numbers).checked_mul(bytes)
    }

    /// Numbers per block and the block's bytes (a plain format's block is one number).
    fn block(self) -> (usize, usize) {
        match self {
            Format::F32 => (1, 4),
            Format::F16 | Format::Bf16 => (1, 2),
            Format::Q8_0 => (BLOCK, 34),
            Format::Q4_0 => (BLOCK, 18),
            Format::Q4_1 => (BLOCK, 20),
        }
    }

    /// Bytes of one row of `cols` numbers.
    pub fn row_bytes(self, cols: usize) -> usize {
        let (numbers, bytes) = self.block();
        cols / numbers * bytes
    }
}

/// IEEE half precision to f32 without a branch for normal and subnormal numbers: the bits moved
/// into f32's places and multiplied by 2^112, the difference of the two exponent biases.
#[inline(always)]
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h & 0x8000) as u32) << 16;
    let rest = (h & 0x7fff) as u32;
    let magnitude =
        if rest >= 0x7c00 { f32::from_bits((rest << 13) | 0x7f80_0000) } else { f32::from_bits(rest << 13) * f32::from_bits(0x7780_0000) };
    f32::from_bits(magnitude.to_bits() | sign)
}

/// Every f16's value, 256 KB (llama.cpp's `ggml_table_f32_f16`): a block's scale is one load
/// from a table that stays in the cache. Converted where it is used, a Q4_1 block's two scales
/// cost a third of its products; read from f32 copies of every scale, the model's 30 MB more
/// to stream cost a quarter.
#[cfg(target_arch = "wasm32")]
fn halves() -> &'static [f32] {
    static TABLE: std::sync::OnceLock<Vec<f32>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| (0..=u16::MAX).map(f16_to_f32).collect())
}

#[inline(always)]
fn half(bytes: &[u8], at: usize) -> f32 {
    f16_to_f32(u16::from_le_bytes([bytes[at], bytes[at + 1]]))
}

/// Row `bytes` (one row of `out.len()` numbers in `format`) as f32 into `out`.
#[inline(always)]
pub fn dequantize_row(format: Format, bytes: &[u8], out: &mut [f32]) {
    match format {
        Format::F32 => out.iter_mut().zip(bytes.chunks_exact(4)).for_each(|(o, b)| *o = f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        Format::F16 => out.iter_mut().zip(bytes.chunks_exact(2)).for_each(|(o, b)| *o = f16_to_f32(u16::from_le_bytes([b[0], b[1]]))),
        Format::Bf16 => out
            .iter_mut()
            .zip(bytes.chunks_exact(2))
            .for_each(|(o, b)| *o = f32::from_bits((u16::from_le_bytes([b[0], b[1]]) as u32) << 16)),
        Format::Q8_0 => {
            for (o, b) in out.chunks_exact_mut(BLOCK).zip(bytes.chunks_exact(34)) {
                let d = half(b, 0);
                o.iter_mut().zip(&b[2..34]).for_each(|(o, &q)| *o = d * (q as i8) as f32);
            }
        }
        Format::Q4_0 => {
            for (o, b) in out.chunks_exact_mut(BLOCK).zip(bytes.chunks_exact(18)) {
                let d = half(b, 0);
                let (low, high) = o.split_at_mut(16);
                for ((l, h), &q) in low.iter_mut().zip(high).zip(&b[2..18]) {
                    *l = d * ((q & 15) as i32 - 8) as f32;
                    *h = d * ((q >> 4) as i32 - 8) as f32;
                }
            }
        }
        Format::Q4_1 => {
            for (o, b) in out.chunks_exact_mut(BLOCK).zip(bytes.chunks_exact(20)) {
                let (d, m) = (half(b, 0), half(b, 2));
                let (low, high) = o.split_at_mut(16);
                for ((l, h), &q) in low.iter_mut().zip(high).zip(&b[4..20]) {
                    *l = d * (q & 15) as f32 + m;
                    *h = d * (q >> 4) as f32 + m;
                }
            }
        }
    }
}

/// Rows dequantised together: each vector of the batch is read once per group.
const GROUP: usize = 4;

/// Batches of at most this many vectors are multiplied straight from the blocks (a block's
/// numbers never written out as f32): a continuation's one token reads each weight once, so
/// dequantising first would cost a store and a load per weight for nothing.
#[cfg(target_arch = "wasm32")]
const FUSED_TOKENS: usize = 2;

/// `out[t][r] = Σ_c W[r][c] · x[t][c]` for a matrix W of `rows` rows of `cols` numbers stored
/// in `format` (`w`: `rows` rows of [`Format::row_bytes`]), `x` a batch of vectors of `cols`
/// numbers one after another, and `out` the batch's results, `rows` numbers a vector.
pub fn matmul(format: Format, w: &[u8], rows: usize, cols: usize, x: &[f32], out: &mut [f32]) {
    #[cfg(target_arch = "wasm32")]
    {
        let tokens = x.len() / cols.max(1);
        if tokens <= FUSED_TOKENS && matches!(format, Format::Q4_0 | Format::Q4_1 | Format::Q8_0) && cols % BLOCK == 0 {
            for (xt, o) in x.chunks_exact(cols).zip(out.chunks_exact_mut(rows)) {
                // SAFETY: as `matmul_simd`'s; `fused` checks the slices' lengths first.
                unsafe { fused::matvec(format, w, rows, cols, xt, o) }
            }
            return;
        }
        // SAFETY: simd128 is a feature of every browser the page supports (see `matvec`); the
        // body only indexes its slices.
        unsafe { matmul_simd(format, w, rows, cols, x, out) }
    }
    #[cfg(not(target_arch = "wasm32"))]
    matmul_body(format, w, rows, cols, x, out)
}

/// [`matmul`] compiled with WebAssembly's SIMD, so that the dequantisation inlined into it is
/// vectorised too.
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
unsafe fn matmul_simd(format: Format, w: &[u8], rows: usize, cols: usize, x: &[f32], out: &mut [f32]) {
    matmul_body(format, w, rows, cols, x, out)
}

#[inline(always)]
fn matmul_body(format: Format, w: &[u8], rows: usize, cols: usize, x: &[f32], out: &mut [f32]) {
    let tokens = x.len() / cols.max(1);
    let row_bytes = format.row_bytes(cols);
    let mut dense = vec![0f32; GROUP * cols];
    let mut r0 = 0;
    while r0 < rows {
        let n = GROUP.min(rows - r0);
        for (i, row) in dense.chunks_exact_mut(cols).take(n).enumerate() {
            dequantize_row(format, &w[(r0 + i) * row_bytes..][..row_bytes], row);
        }
        for t in 0..tokens {
            let xt = &x[t * cols..][..cols];
            let o = &mut out[t * rows + r0..][..n];
            if n == GROUP {
                let sums = super::dot4(&dense, xt);
                o.copy_from_slice(&sums);
            } else {
                for (i, o) in o.iter_mut().enumerate() {
                    *o = super::dot(&dense[i * cols..][..cols], xt);
                }
            }
        }
        r0 += n;
    }
}

/// A matrix of blocks times one vector, straight from the blocks, four numbers at a time: a
/// block's bytes are spread into 32-bit lanes by one shuffle per four numbers, converted to f32
/// and multiplied by x; the block's scale multiplies the block's sum once, and Q4_1's minimum
/// (Q4_0's −8·d) multiplies the block's Σx, computed once for every row.
#[cfg(target_arch = "wasm32")]
mod fused {
    use super::{Format, BLOCK};
    use core::arch::wasm32::*;

    const Z: v128 = u8x16(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /// Bytes 4k..4k+3 of `v` zero-extended into the four 32-bit lanes.
    #[inline(always)]
    fn lanes<const K: usize>(v: v128) -> v128 {
        match K {
            0 => i8x16_shuffle::<0, 16, 16, 16, 1, 16, 16, 16, 2, 16, 16, 16, 3, 16, 16, 16>(v, Z),
            1 => i8x16_shuffle::<4, 16, 16, 16, 5, 16, 16, 16, 6, 16, 16, 16, 7, 16, 16, 16>(v, Z),
            2 => i8x16_shuffle::<8, 16, 16, 16, 9, 16, 16, 16, 10, 16, 16, 16, 11, 16, 16, 16>(v, Z),
            _ => i8x16_shuffle::<12, 16, 16, 16, 13, 16, 16, 16, 14, 16, 16, 16, 15, 16, 16, 16>(v, Z),
        }
    }

    /// Bytes 4k..4k+3 of `v` as unsigned numbers (a nibble each, Q4), as f32.
    #[inline(always)]
    fn unsigned<const K: usize>(v: v128) -> v128 {
        f32x4_convert_i32x4(lanes::<K>(v))
    }

    /// Bytes 4k..4k+3 of `v` as signed numbers (Q8_0), as f32: each byte moved to the top of its
    /// lane, then shifted down with its sign.
    #[inline(always)]
    fn signed<const K: usize>(v: v128) -> v128 {
        f32x4_convert_i32x4(i32x4_shr(i32x4_shl(lanes::<K>(v), 24), 24))
    }

    /// Σ of 16 numbers (`a`'s four groups of four) times x at `xp`..`xp + 16`, as two partial sums.
    #[inline(always)]
    unsafe fn sixteen(a: [v128; 4], xp: *const f32, s: &mut [v128; 2]) {
        // SAFETY: the caller gives 16 readable numbers at `xp`.
        unsafe {
            s[0] = f32x4_add(s[0], f32x4_mul(a[0], v128_load(xp as *const v128)));
            s[1] = f32x4_add(s[1], f32x4_mul(a[1], v128_load(xp.add(4) as *const v128)));
            s[0] = f32x4_add(s[0], f32x4_mul(a[2], v128_load(xp.add(8) as *const v128)));
            s[1] = f32x4_add(s[1], f32x4_mul(a[3], v128_load(xp.add(12) as *const v128)));
        }
    }

    /// `out[r] = Σ_c W[r][c] · x[c]`; W in a block format.
    #[target_feature(enable = "simd128")]
    pub unsafe fn matvec(format: Format, w: &[u8], rows: usize, cols: usize, x: &[f32], out: &mut [f32]) {
        let halves = super::halves();
        // One loop compiled per format, so that no block asks which format it is.
        match format {
            Format::Q8_0 => rows_of::<8>(w, halves, rows, cols, x, out),
            Format::Q4_0 => rows_of::<2>(w, halves, rows, cols, x, out),
            _ => rows_of::<3>(w, halves, rows, cols, x, out),
        }
    }

    /// [`matvec`] for the format of ggml type id `F` (2: Q4_0, 3: Q4_1, 8: Q8_0).
    #[inline(always)]
    unsafe fn rows_of<const F: u32>(w: &[u8], halves: &[f32], rows: usize, cols: usize, x: &[f32], out: &mut [f32]) {
        let (format, block_bytes) = match F {
            8 => (Format::Q8_0, 34),
            2 => (Format::Q4_0, 18),
            _ => (Format::Q4_1, 20),
        };
        let blocks = cols / BLOCK;
        let row_bytes = format.row_bytes(cols);
        assert!(w.len() >= rows * row_bytes && x.len() >= cols && out.len() >= rows && blocks * BLOCK == cols && halves.len() == 1 << 16);
        // A block's f16 at `p`, from the table (its 65,536 entries: any u16 is an index).
        let half = |p: *const u8| unsafe { *halves.get_unchecked(u16::from_le_bytes([*p, *p.add(1)]) as usize) };
        // Σx of each block, for the minimum (Q4_1) or the offset of 8 (Q4_0).
        let sums: Vec<f32> = x.chunks_exact(BLOCK).map(|b| b.iter().sum()).collect();
        let xp = x.as_ptr();
        let mask = u8x16_splat(15);
        for (r, o) in out.iter_mut().enumerate().take(rows) {
            // SAFETY: row r's blocks are within `w` (asserted), each load is inside its block
            // (Q4: 16 bytes from byte 2 or 4 of 18 or 20; Q8_0: 32 from byte 2 of 34), and x has
            // `blocks` × 32 numbers.
            unsafe {
                let row = w.as_ptr().add(r * row_bytes);
                let mut acc = f32x4_splat(0.0);
                let mut shift = 0f32;
                for b in 0..blocks {
                    let xb = xp.add(b * BLOCK);
                    let p = row.add(b * block_bytes);
                    let mut s = [f32x4_splat(0.0); 2];
                    let d = if F == 8 {
                        let (q0, q1) = (v128_load(p.add(2) as *const v128), v128_load(p.add(18) as *const v128));
                        sixteen([signed::<0>(q0), signed::<1>(q0), signed::<2>(q0), signed::<3>(q0)], xb, &mut s);
                        sixteen([signed::<0>(q1), signed::<1>(q1), signed::<2>(q1), signed::<3>(q1)], xb.add(16), &mut s);
                        half(p)
                    } else {
                        let raw = v128_load(p.add(if F == 3 { 4 } else { 2 }) as *const v128);
                        let (lo, hi) = (v128_and(raw, mask), u8x16_shr(raw, 4));
                        sixteen([unsigned::<0>(lo), unsigned::<1>(lo), unsigned::<2>(lo), unsigned::<3>(lo)], xb, &mut s);
                        sixteen([unsigned::<0>(hi), unsigned::<1>(hi), unsigned::<2>(hi), unsigned::<3>(hi)], xb.add(16), &mut s);
                        let d = half(p);
                        shift += *sums.get_unchecked(b) * if F == 3 { half(p.add(2)) } else { -8.0 * d };
                        d
                    };
                    acc = f32x4_add(acc, f32x4_mul(f32x4_add(s[0], s[1]), f32x4_splat(d)));
                }
                *o = crate::simd::hsum(acc) + shift;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_convert_exactly() {
        // 1.0, −2.0, 65504 (largest), 2^−14 (smallest normal), 2^−24 (smallest subnormal), 0, −0.
        let cases =
            [(0x3c00u16, 1.0f32), (0xc000, -2.0), (0x7bff, 65504.0), (0x0400, 6.103_515_6e-5), (0x0001, 5.960_464_5e-8), (0x0000, 0.0)];
        for (h, want) in cases {
            assert_eq!(f16_to_f32(h), want, "{h:#06x}");
        }
        assert!(f16_to_f32(0x8000).is_sign_negative());
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
        assert!(f16_to_f32(0x7e00).is_nan());
    }

    #[test]
    fn q4_1_block_is_scale_times_nibble_plus_minimum() {
        // d = 0.5, m = −1: number j is 0.5·q_j − 1 with q_j = j mod 16 (low) and 15 − (j mod 16) (high).
        let mut block = vec![0x00, 0x38, 0x00, 0xbc];
        block.extend((0..16u8).map(|j| j | ((15 - j) << 4)));
        let mut out = [0f32; 32];
        dequantize_row(Format::Q4_1, &block, &mut out);
        for j in 0..16 {
            assert_eq!(out[j], 0.5 * j as f32 - 1.0);
            assert_eq!(out[16 + j], 0.5 * (15 - j) as f32 - 1.0);
        }
    }

    #[test]
    fn matmul_equals_row_by_row_products() {
        let (rows, cols, tokens) = (7, 64, 3);
        let mut w = Vec::new();
        for r in 0..rows * cols / BLOCK {
            w.extend_from_slice(&[0x00, 0x30, 0x00, 0x00]); // d = 0.125, m = 0
            w.extend((0..16).map(|j| ((r * 7 + j * 3) % 256) as u8));
        }
        let x: Vec<f32> = (0..tokens * cols).map(|i| ((i * 37 % 11) as f32 - 5.0) * 0.25).collect();
        let mut out = vec![0f32; tokens * rows];
        matmul(Format::Q4_1, &w, rows, cols, &x, &mut out);
        let mut row = vec![0f32; cols];
        for r in 0..rows {
            dequantize_row(Format::Q4_1, &w[r * 40..][..40], &mut row);
            for t in 0..tokens {
                let want: f32 = row.iter().zip(&x[t * cols..][..cols]).map(|(a, b)| a * b).sum();
                assert!((out[t * rows + r] - want).abs() < 1e-4, "row {r} token {t}");
            }
        }
    }
}
