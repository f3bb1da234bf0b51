#!/usr/bin/env python3
"""Independent float64 reference for SmolLM2-135M-Instruct (GGUF Q4_1) and its tokenizer.

Writes tests/fixtures/smollm2.json: outputs only (token ids, token bytes, losses, a few
logits, attention statistics), never weights. The model file is read from $ROPELAB_SMOLLM2
or /work/shared/models/smollm2-135m/SmolLM2-135M-Instruct.Q4_1.gguf; it is not part of the
repository, and its sha256 is checked against the one in that folder's README.

The forward pass is llama as llama.cpp runs GGUF llama models, in float64 throughout, with
the weights dequantised exactly (d*q + m computed in float64). The tokenizer is Hugging
Face's SmolLM2 setup (byte-level BPE, digits split one by one), rebuilt from the GGUF
metadata with the `tokenizers` library.

Developer tool only (needs numpy, gguf and tokenizers); CI never runs it:
    python3 tests/model/smollm2_reference.py
"""
import hashlib
import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np
import gguf
import tokenizers
from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

MODEL_PATH = Path(os.environ.get(
    "ROPELAB_SMOLLM2", "/work/shared/models/smollm2-135m/SmolLM2-135M-Instruct.Q4_1.gguf"))
SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "smollm2.json"

# Hyper-parameters, as the README states; checked against the file's metadata below.
N_LAYERS, DIM, HIDDEN, N_HEADS, N_KV, HEAD, VOCAB = 30, 576, 1536, 9, 3, 64, 49152
GROUP = N_HEADS // N_KV          # 3 query heads share one key/value head
PLANES = HEAD // 2               # 32 rotation planes per head
ROPE_BASE = 100000.0
TRAINED_CONTEXT = 8192
EPS = 1e-5                       # the file stores it as the float32 nearest to 1e-5

LIGHTHOUSE = ("The old lighthouse keeper climbed the narrow stairs every evening to light the "
              "lamp, and he watched the ships pass safely through the dark water below.")
EXPECTED_GREEDY = ("\n\nThe old lighthouse keeper watched the ships pass safely through the dark "
                   "water below.")
PARAGRAPH = (
    "A river begins as rain or melting snow high in the hills. Water gathers in small streams, "
    "and the streams join as they run downhill. Over thousands of years the moving water cuts a "
    "valley into the rock, carrying sand and stones toward the sea. Where the land is flat, the "
    "river slows down, drops the sand it carries, and spreads out into wide curves. Near the "
    "coast it may split into many channels before it finally reaches the ocean. People have "
    "always settled beside rivers, because they bring fresh water, fertile soil and an easy way "
    "to travel."
)
TOKEN_TEXTS = [
    "",
    LIGHTHOUSE,
    "In 2024, SmolLM2 had 135M parameters and π ≈ 3.14159.",
    "Café, naïve, Ñandú and façade.",
    "I ❤️ Rust 🦀 and 日本語 and 你好，世界。",
    "fn main() {\n    println!(\"{}\", 1 + 2);\n}\n",
    "<|im_start|>user\nHello!<|im_end|>\n<|im_start|>assistant\n",
    "  two  spaces,\ttab\t\tand\n\n\nnewlines   ",
    "don't they'll I'M we've 1,000,000 x=y+z;",
]
OFFSET = 100000                  # the "far away" position offset


# ---------------------------------------------------------------- file and metadata
def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


digest = sha256_of(MODEL_PATH)
assert digest == SHA256, f"{MODEL_PATH}: sha256 {digest} is not the README's {SHA256}"
reader = gguf.GGUFReader(MODEL_PATH)
meta = {k: f.contents() for k, f in reader.fields.items()
        if k not in ("tokenizer.ggml.tokens", "tokenizer.ggml.token_type", "tokenizer.ggml.merges")}
assert meta["general.architecture"] == "llama"
assert (meta["llama.block_count"], meta["llama.embedding_length"],
        meta["llama.feed_forward_length"], meta["llama.attention.head_count"],
        meta["llama.attention.head_count_kv"], meta["llama.rope.dimension_count"],
        meta["llama.vocab_size"]) == (N_LAYERS, DIM, HIDDEN, N_HEADS, N_KV, HEAD, VOCAB)
assert meta["llama.rope.freq_base"] == ROPE_BASE
assert meta["llama.context_length"] == TRAINED_CONTEXT
assert abs(meta["llama.attention.layer_norm_rms_epsilon"] - EPS) < 1e-12
assert meta["tokenizer.ggml.add_bos_token"] is False    # no BOS is ever added


# ---------------------------------------------------------------- dequantisation (exact)
def dequant_q4_1(raw, rows, cols):
    """Q4_1: blocks of 32 weights in 20 bytes: f16 d, f16 m, 16 bytes of nibbles.

    Weight j is d*q_j + m; j < 16 in the low nibbles of bytes 0..15, j >= 16 in the high."""
    b = raw.reshape(-1, 20)
    d = b[:, 0:2].copy().view("<f2").astype(np.float64)          # [n_blocks, 1]
    m = b[:, 2:4].copy().view("<f2").astype(np.float64)
    qs = b[:, 4:20]
    q = np.concatenate([qs & 0x0F, qs >> 4], axis=1).astype(np.float64)   # [n_blocks, 32]
    return (d * q + m).reshape(rows, cols)


def dequant_q8_0(raw, rows, cols):
    """Q8_0: blocks of 32 weights in 34 bytes: f16 d, 32 signed bytes; weight j is d*q_j."""
    b = raw.reshape(-1, 34)
    d = b[:, 0:2].copy().view("<f2").astype(np.float64)
    q = b[:, 2:34].copy().view(np.int8).astype(np.float64)
    return (d * q).reshape(rows, cols)


def load(tensor):
    """A tensor as float64. GGUF lists dims innermost first: [cols, rows] is rows of cols."""
    dims = [int(n) for n in tensor.shape]
    cols, rows = dims[0], (dims[1] if len(dims) > 1 else 1)
    qt = tensor.tensor_type
    raw = np.asarray(tensor.data)
    if qt == gguf.GGMLQuantizationType.F32:
        out = raw.astype(np.float64).reshape(rows, cols)
    elif qt == gguf.GGMLQuantizationType.Q4_1:
        out = dequant_q4_1(raw, rows, cols)
    elif qt == gguf.GGMLQuantizationType.Q8_0:
        out = dequant_q8_0(raw, rows, cols)
    else:
        raise ValueError(f"{tensor.name}: unexpected type {qt.name}")
    # Cross-check against gguf-py's dequantize, which computes d*q + m in float32. In this
    # file every weight comes out identical (d*q + m never needs more than float32's 24 bits),
    # so the float32 and float64 dequantisations are the same model.
    ref = gguf.quants.dequantize(raw, qt).astype(np.float64).reshape(rows, cols)
    assert np.array_equal(out, ref), f"{tensor.name}: dequantisation differs from gguf-py's"
    return out if len(dims) > 1 else out[0]


T_ = {t.name: t for t in reader.tensors}
assert len(T_) == 272 and "output.weight" not in T_      # tied classifier
EMB = load(T_["token_embd.weight"])                      # [VOCAB, DIM]
OUT_NORM = load(T_["output_norm.weight"])                # [DIM]
LAYERS = []
for l in range(N_LAYERS):
    p = f"blk.{l}."
    LAYERS.append({name: load(T_[p + name + ".weight"]) for name in (
        "attn_norm", "attn_q", "attn_k", "attn_v", "attn_output",
        "ffn_norm", "ffn_gate", "ffn_up", "ffn_down")})
assert EMB.shape == (VOCAB, DIM)
assert LAYERS[0]["attn_q"].shape == (DIM, DIM) and LAYERS[0]["attn_k"].shape == (N_KV * HEAD, DIM)
assert LAYERS[0]["ffn_gate"].shape == (HIDDEN, DIM) and LAYERS[0]["ffn_down"].shape == (DIM, HIDDEN)


# ---------------------------------------------------------------- tokenizer
def bytes_to_unicode():
    """GPT-2's table: every byte -> a printable unicode character (byte-level BPE alphabet)."""
    bs = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
          + list(range(ord("®"), ord("ÿ") + 1)))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


BYTE_DECODER = {c: b for b, c in bytes_to_unicode().items()}
TOK_STRS = reader.fields["tokenizer.ggml.tokens"].contents()
TOK_TYPES = reader.fields["tokenizer.ggml.token_type"].contents()
MERGES = reader.fields["tokenizer.ggml.merges"].contents()
assert len(TOK_STRS) == VOCAB and len(set(TOK_STRS)) == VOCAB
SPECIAL_IDS = [i for i, t in enumerate(TOK_TYPES) if t in (3, 4)]   # control, user-defined


def build_tokenizer():
    """Hugging Face's SmolLM2 tokenizer.json setup, from the GGUF metadata."""
    vocab = {s: i for i, s in enumerate(TOK_STRS)}
    merges = [tuple(m.split(" ")) for m in MERGES]
    assert all(len(m) == 2 for m in merges)
    tk = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    tk.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
    ])
    tk.decoder = decoders.ByteLevel()
    # Control tokens are matched whole in the text, before pre-tokenisation.
    tk.add_special_tokens([AddedToken(TOK_STRS[i], special=True, normalized=False)
                           for i in SPECIAL_IDS])
    for i in SPECIAL_IDS:
        assert tk.token_to_id(TOK_STRS[i]) == i
    return tk


TOKENIZER = build_tokenizer()


def encode(text):
    return TOKENIZER.encode(text, add_special_tokens=False).ids


def decode(ids):
    return TOKENIZER.decode(ids, skip_special_tokens=False)


def token_bytes(i):
    """The raw bytes a token stands for: special tokens their UTF-8 text, the others their
    byte-level string mapped back through GPT-2's unicode-to-bytes table."""
    s = TOK_STRS[i]
    if i in SPECIAL_IDS:
        return s.encode("utf-8")
    return bytes(BYTE_DECODER[c] for c in s)


# ---------------------------------------------------------------- forward pass (float64)
def rmsnorm(x, w):
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + EPS) * w


THETA = ROPE_BASE ** (-2.0 * np.arange(PLANES, dtype=np.float64) / HEAD)   # theta_i
WAVELENGTHS = 2.0 * np.pi / THETA


def rope(x, positions, off_planes):
    """Rotate plane i = dims (2i, 2i+1) of each head by position * theta_i (llama.cpp's
    "normal" RoPE on this file's permuted q/k rows). x: [T, heads, HEAD].
    Planes in off_planes get angle 0, i.e. stay unrotated."""
    angle = positions[:, None] * THETA[None, :]                  # [T, PLANES]
    for p in off_planes:
        angle[:, p] = 0.0
    cos, sin = np.cos(angle)[:, None, :], np.sin(angle)[:, None, :]
    a, b = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = a * cos - b * sin
    out[..., 1::2] = a * sin + b * cos
    return out


def forward(ids, offset=0, off_planes=(), keep_qk=False):
    """Logits [T, VOCAB], attention att[l] = [N_HEADS, T, T], and (if keep_qk) the rotated
    q [T, N_HEADS, HEAD] and k [T, N_KV, HEAD] of every layer."""
    T = len(ids)
    positions = np.arange(T, dtype=np.float64) + offset
    causal = np.tril(np.ones((T, T), dtype=bool))
    x = EMB[ids].copy()                                          # [T, DIM] residual stream
    att, qs, ks = [], [], []
    for L in LAYERS:
        xn = rmsnorm(x, L["attn_norm"])
        q = (xn @ L["attn_q"].T).reshape(T, N_HEADS, HEAD)
        k = (xn @ L["attn_k"].T).reshape(T, N_KV, HEAD)
        v = (xn @ L["attn_v"].T).reshape(T, N_KV, HEAD)
        q, k = rope(q, positions, off_planes), rope(k, positions, off_planes)
        if keep_qk:
            qs.append(q)
            ks.append(k)
        heads, att_l = [], []
        for h in range(N_HEADS):
            kv = h // GROUP                                      # grouped-query attention
            s = q[:, h, :] @ k[:, kv, :].T / math.sqrt(HEAD)     # scores / 8
            s = np.where(causal, s, -np.inf)
            s = s - s.max(axis=1, keepdims=True)
            a = np.exp(s)
            a /= a.sum(axis=1, keepdims=True)
            att_l.append(a)
            heads.append(a @ v[:, kv, :])
        att.append(np.stack(att_l))
        x = x + np.concatenate(heads, axis=1) @ L["attn_output"].T
        xn = rmsnorm(x, L["ffn_norm"])
        g, u = xn @ L["ffn_gate"].T, xn @ L["ffn_up"].T
        x = x + ((g / (1.0 + np.exp(-g))) * u) @ L["ffn_down"].T  # SwiGLU: silu(gate) * up
    logits = rmsnorm(x, OUT_NORM) @ EMB.T                       # tied classifier
    return logits, att, qs, ks


def logsumexp(z):
    m = z.max(axis=-1, keepdims=True)
    return (m + np.log(np.exp(z - m).sum(axis=-1, keepdims=True)))[..., 0]


def token_losses(logits, ids):
    """Per-token loss for targets t = 1..T-1: -log softmax(logits[t-1])[ids[t]] (nats)."""
    z = logits[:-1]
    return logsumexp(z) - z[np.arange(len(ids) - 1), ids[1:]]


def mean_loss(ids, **kw):
    return float(np.mean(token_losses(forward(ids, **kw)[0], ids)))


def top_ids(row, n):
    """The n largest entries, ties to the lowest id (stable sort of -row)."""
    return [int(i) for i in np.argsort(-row, kind="stable")[:n]]


def heads_prev(att, T):
    """[layer][head]: mean over queries t = 1..T-1 of the weight on key t-1."""
    t = np.arange(1, T)
    return [[float(np.mean(att[l][h][t, t - 1])) for h in range(N_HEADS)]
            for l in range(N_LAYERS)]


def heads_first(att, T):
    """[layer][head]: mean over queries t = 1..T-1 of the weight on key 0."""
    return [[float(np.mean(att[l][h][1:, 0])) for h in range(N_HEADS)]
            for l in range(N_LAYERS)]


def planes(a, b):
    return tuple(range(a, b + 1))


# ---------------------------------------------------------------- fixture
def main():
    start = time.time()
    fx = {}
    fx["provenance"] = {
        "file": MODEL_PATH.name,
        "sha256": SHA256,
        "numpy": np.__version__,
        "gguf": getattr(gguf, "__version__", None) or _dist_version("gguf"),
        "tokenizers": tokenizers.__version__,
        "how": ("Computed by tests/model/smollm2_reference.py, an independent Python reference "
                "written without reading the Rust code: weights dequantised exactly into float64 "
                "(identical to gguf-py's dequantize), llama forward pass as llama.cpp runs GGUF llama "
                "models in float64 throughout (RMSNorm eps 1e-5, GQA 9/3, adjacent-pair RoPE "
                "base 100000, tied classifier, no BOS), tokenizer rebuilt from the GGUF metadata "
                "with Hugging Face tokenizers. Outputs only, never weights; losses in nats; "
                "floats at full float64 precision."),
    }

    # --- tokens: ids, the bytes of each id, and the round trip
    fx["tokens"] = []
    for text in TOKEN_TEXTS:
        ids = encode(text)
        assert decode(ids) == text, f"round trip failed for {text!r}"
        assert b"".join(token_bytes(i) for i in ids) == text.encode("utf-8"), text
        fx["tokens"].append({"text": text, "ids": ids,
                             "pieces": [token_bytes(i).hex() for i in ids]})

    # --- check: the README's lighthouse numbers
    ids = encode(LIGHTHOUSE)
    assert len(ids) == 28, f"lighthouse text is {len(ids)} tokens, README says 28"
    logits, _, _, _ = forward(ids)
    losses = token_losses(logits, ids)
    loss = float(np.mean(losses))
    assert round(loss, 3) == 4.185, f"lighthouse loss {loss}, README says 4.185"
    gen = list(ids)
    for _ in range(24):                                          # full recompute each step
        nxt = int(np.argmax(forward(gen)[0][-1]))                # argmax: lowest id on ties
        gen.append(nxt)
    greedy_ids = gen[len(ids):]
    greedy_text = decode(greedy_ids)
    assert greedy_text.startswith(EXPECTED_GREEDY), f"greedy text differs: {greedy_text!r}"
    probe = [0, 1, 2, 100, 1000, 49151]
    check_logits = []
    for pos in (0, 13, 27):
        sel = top_ids(logits[pos], 8) + probe
        check_logits.append({"position": pos, "ids": sel,
                             "values": [float(logits[pos, i]) for i in sel],
                             "logsumexp": float(logsumexp(logits[pos]))})
    fx["check"] = {"text": LIGHTHOUSE, "ids": ids, "losses": [float(v) for v in losses],
                   "loss": loss, "greedy": {"ids": greedy_ids, "text": greedy_text},
                   "logits": check_logits}
    print(f"lighthouse: {len(ids)} tokens, loss {loss:.6f}, greedy {greedy_text!r}")

    # --- paragraph: statistics with all planes on, offset 0
    ids = encode(PARAGRAPH)
    T = len(ids)
    logits, att, qs, ks = forward(ids, keep_qk=True)
    losses = token_losses(logits, ids)
    loss = float(np.mean(losses))
    last = logits[-1] - logsumexp(logits[-1])
    nxt = top_ids(logits[-1], 5)
    # |q||k| share: per head and plane, mean |q_p| times mean |k_p| over all positions,
    # normalised over the 32 planes.
    share = []
    for l in range(N_LAYERS):
        qn = np.hypot(qs[l][..., 0::2], qs[l][..., 1::2]).mean(axis=0)   # [N_HEADS, PLANES]
        kn = np.hypot(ks[l][..., 0::2], ks[l][..., 1::2]).mean(axis=0)   # [N_KV, PLANES]
        row = []
        for h in range(N_HEADS):
            s = qn[h] * kn[h // GROUP]
            row.append([float(v) for v in s / s.sum()])
        share.append(row)
    par = {"text": PARAGRAPH, "ids": ids, "loss": loss, "losses": [float(v) for v in losses],
           "next": {"ids": nxt, "probs": [float(np.exp(last[i])) for i in nxt]},
           "heads_prev": heads_prev(att, T), "heads_first": heads_first(att, T),
           "plane_share": share,
           "attention": [{"layer": l, "head": h,
                          # The first 64 query rows: enough to check the map, small to keep.
                          "weights": [[float(v) for v in att[l][h][t, :t + 1]] for t in range(min(T, 64))]}
                         for l, h in [(16, 0), (18, 7)]]}
    del qs, ks

    # --- planes off (every layer, every head, q and k), offset 0
    par["group_off_loss"] = [mean_loss(ids, off_planes=planes(8 * i, 8 * i + 7)) for i in range(4)]
    par["off_loss"] = {}
    for name, off in [("0-3", planes(0, 3)), ("16-31", planes(16, 31)),
                      ("0-31", planes(0, 31)), ("8", (8,))]:
        lg, at, _, _ = forward(ids, off_planes=off)
        par["off_loss"][name] = float(np.mean(token_losses(lg, ids)))
        if name == "0-3":
            par["prev_16_0_off_0_3"] = heads_prev(at, T)[16][0]

    # --- far positions: offset 100000, all planes on
    lg, at, _, _ = forward(ids, offset=OFFSET)
    par["offset_loss"] = float(np.mean(token_losses(lg, ids)))
    par["offset_heads_prev"] = heads_prev(at, T)
    par["offset_max_logit_change"] = float(np.max(np.abs(lg - logits)))
    fx["paragraph"] = par

    fx["wavelengths"] = [float(w) for w in WAVELENGTHS]
    fx["turning_planes"] = int(np.sum(WAVELENGTHS <= TRAINED_CONTEXT))

    # Seven significant digits (the wavelengths, compared to 1e-12, whole): far below every other
    # tolerance the tests use (2e-5 and up), and the fixture stays small (outputs only).
    def rounded(v):
        if isinstance(v, float):
            return float(f"{v:.7g}")
        if isinstance(v, list):
            return [rounded(x) for x in v]
        if isinstance(v, dict):
            return {k: rounded(x) for k, x in v.items()}
        return v
    fx = {k: (v if k == "wavelengths" else rounded(v)) for k, v in fx.items()}
    FIXTURE.write_text(json.dumps(fx, ensure_ascii=False, separators=(",", ":")) + "\n",
                       encoding="utf-8")

    # --- summary, to compare in kind with the README's issue text
    hp, hf = np.array(par["heads_prev"]), np.array(par["heads_first"])
    sh = np.array(share)
    print(f"paragraph: {T} tokens, loss {loss:.4f}; next {nxt[:3]} "
          f"({[round(p, 3) for p in par['next']['probs'][:3]]})")
    print("planes off, loss:", {k: round(v, 4) for k, v in par["off_loss"].items()},
          "groups of 8:", [round(v, 4) for v in par["group_off_loss"]])
    print(f"head (16,0) previous-token attention: {hp[16, 0]:.4f} with all planes, "
          f"{par['prev_16_0_off_0_3']:.4f} with planes 0-3 off")
    print(f"|q||k| share of planes 16-31, mean over heads: {sh[..., 16:].sum(-1).mean():.4f} "
          f"(min {sh[..., 16:].sum(-1).min():.4f})")
    print(f"heads with > 1/2 of their attention on the first token: {(hf > 0.5).sum()} of "
          f"{hf.size}")
    print(f"offset {OFFSET}: loss {par['offset_loss']:.4f}, "
          f"max |logit change| {par['offset_max_logit_change']:.4g}, "
          f"head (16,0) prev {par['offset_heads_prev'][16][0]:.4f}")
    print(f"turning planes (wavelength <= {TRAINED_CONTEXT}): {fx['turning_planes']}")
    print(f"wrote {FIXTURE} ({FIXTURE.stat().st_size} bytes) in {time.time() - start:.1f} s")


def _dist_version(name):
    from importlib.metadata import version
    return version(name)


if __name__ == "__main__":
    sys.exit(main())
