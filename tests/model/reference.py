#!/usr/bin/env python3
"""Independent float64 reference for Karpathy's stories260K (llama2.c) and its tokenizer.

Writes tests/fixtures/model.json: outputs only (token ids, logits, attention, losses),
never weights. The model files are read from $ROPELAB_MODEL_DIR or
/work/shared/models/stories260K; they are not part of the repository.

Developer tool only (needs numpy); CI never runs it:  python3 tests/model/reference.py
"""
import hashlib
import json
import os
import struct
from pathlib import Path

import numpy as np

MODEL_DIR = Path(os.environ.get("ROPELAB_MODEL_DIR", "/work/shared/models/stories260K"))
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "model.json"
SHA256 = {
    "stories260K.bin": "b0a507e7ad0f626624f17112325e66691f9076d622e1d3274d103d00299f2696",
    "tok512.bin": "037cb335abb25d1fa9e8ecae30ed2a3a8ace9302862ebcdc05d51a6bbb10c312",
}
BOS = 1
EXPECTED_START = ("Once upon a time, there was a little girl named Lily. She loved to play outside "
                  "in the park. One day, she saw a big, red ball. She wanted to play with it, but "
                  "it was too high")


def read_checked(name):
    data = (MODEL_DIR / name).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    assert digest == SHA256[name], f"{name}: sha256 {digest} is not the expected one"
    return data


# ---------------------------------------------------------------- checkpoint (legacy v0)
ckpt = read_checked("stories260K.bin")
DIM, HIDDEN, N_LAYERS, N_HEADS, N_KV, VOCAB, SEQ_LEN = struct.unpack_from("<7i", ckpt, 0)
assert (DIM, HIDDEN, N_LAYERS, N_HEADS, N_KV, VOCAB, SEQ_LEN) == (64, 172, 5, 8, 4, 512, 512)
HEAD = DIM // N_HEADS            # 8
KV_DIM = N_KV * HEAD             # 32
PLANES = HEAD // 2               # 4 rotation planes per head
floats = np.frombuffer(ckpt, dtype="<f4", offset=28).astype(np.float64)
_cursor = 0


def take(*shape):
    """Next tensor of the given shape from the flat f32 stream (row-major)."""
    global _cursor
    n = int(np.prod(shape))
    t = floats[_cursor:_cursor + n].reshape(shape)
    _cursor += n
    return t


W = {}
W["emb"] = take(VOCAB, DIM)
W["rms_att"] = take(N_LAYERS, DIM)
W["wq"] = take(N_LAYERS, DIM, DIM)
W["wk"] = take(N_LAYERS, KV_DIM, DIM)
W["wv"] = take(N_LAYERS, KV_DIM, DIM)
W["wo"] = take(N_LAYERS, DIM, DIM)
W["rms_ffn"] = take(N_LAYERS, DIM)
W["w1"] = take(N_LAYERS, HIDDEN, DIM)
W["w2"] = take(N_LAYERS, DIM, HIDDEN)
W["w3"] = take(N_LAYERS, HIDDEN, DIM)
W["rms_final"] = take(DIM)
take(SEQ_LEN, PLANES)            # freq_cis_real: recomputed below, not used
take(SEQ_LEN, PLANES)            # freq_cis_imag: idem
assert _cursor == floats.size, "checkpoint has trailing or missing data"

# ---------------------------------------------------------------- tokenizer (llama2.c format)
tok = read_checked("tok512.bin")
(MAX_TOKEN_LEN,) = struct.unpack_from("<i", tok, 0)
pieces, scores, at = [], [], 4
for _ in range(VOCAB):
    score, length = struct.unpack_from("<fi", tok, at)
    at += 8
    pieces.append(tok[at:at + length])
    scores.append(score)
    at += length
assert at == len(tok)
piece_id = {p: i for i, p in enumerate(pieces)}
assert len(piece_id) == VOCAB, "duplicate pieces would make llama2.c's lookup ambiguous"


def encode(text):
    """llama2.c encode(text, bos=1, eos=0)."""
    ids = [BOS]
    if text:
        ids.append(piece_id[b" "])                   # dummy prefix (id 410, not a byte token)
    for ch in text:                                  # one UTF-8 character at a time
        b = ch.encode("utf-8")
        if b in piece_id:
            ids.append(piece_id[b])
        else:
            ids.extend(x + 3 for x in b)             # byte fallback: <0xNN> is id NN + 3
    while True:                                      # greedy BPE-style merging
        best, best_score = None, -1e10
        for i in range(len(ids) - 1):               # like llama2.c, BOS takes part too, but
            cat = pieces[ids[i]] + pieces[ids[i + 1]]  # no piece starts with "\n<s>\n"
            j = piece_id.get(cat)
            if j is not None and scores[j] > best_score:   # '>' keeps the first on ties
                best, best_score = (i, j), scores[j]
        if best is None:
            return ids
        i, j = best
        ids[i:i + 2] = [j]


def decode(ids, prev=BOS):
    """Concatenate pieces as llama2.c's decode does; returns bytes."""
    out = b""
    for t in ids:
        p = pieces[t]
        if prev == BOS and p.startswith(b" "):
            p = p[1:]                                # drop the leading space after BOS
        if len(p) == 6 and p.startswith(b"<0x") and p.endswith(b">"):
            p = bytes([int(p[3:5], 16)])             # raw byte
        out += p
        prev = t
    return out


# ---------------------------------------------------------------- forward pass (float64)
def rmsnorm(x, w, eps=1e-5):
    return w * x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)


def rope(x, positions, off_planes):
    """Rotate interleaved pairs (2i, 2i+1) of each head by position * 10000^(-2i/8).

    x: [T, n_heads, HEAD]. Planes listed in off_planes get angle 0 (left unrotated)."""
    i = np.arange(PLANES, dtype=np.float64)
    theta = 10000.0 ** (-2.0 * i / HEAD)                      # 1, 0.1, 0.01, 0.001
    angle = positions[:, None].astype(np.float64) * theta[None, :]   # [T, PLANES]
    for p in off_planes:
        angle[:, p] = 0.0
    cos, sin = np.cos(angle)[:, None, :], np.sin(angle)[:, None, :]
    v0, v1 = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = v0 * cos - v1 * sin
    out[..., 1::2] = v0 * sin + v1 * cos
    return out


def forward(tokens, offset=0, off_planes=frozenset()):
    """Logits [T, VOCAB] and attention probabilities att[layer][head] = [T, T]."""
    T = len(tokens)
    positions = np.arange(T, dtype=np.float64) + offset
    causal = np.tril(np.ones((T, T), dtype=bool))
    x = W["emb"][tokens].copy()                                 # [T, DIM]
    att_all = []
    for l in range(N_LAYERS):
        xb = rmsnorm(x, W["rms_att"][l])
        q = (xb @ W["wq"][l].T).reshape(T, N_HEADS, HEAD)
        k = (xb @ W["wk"][l].T).reshape(T, N_KV, HEAD)
        v = (xb @ W["wv"][l].T).reshape(T, N_KV, HEAD)
        q, k = rope(q, positions, off_planes), rope(k, positions, off_planes)
        heads, att_l = [], []
        for h in range(N_HEADS):
            kv = h // (N_HEADS // N_KV)                         # query head h uses kv head h//2
            s = q[:, h, :] @ k[:, kv, :].T / np.sqrt(HEAD)
            s = np.where(causal, s, -np.inf)
            s = s - s.max(axis=1, keepdims=True)
            a = np.exp(s)
            a /= a.sum(axis=1, keepdims=True)
            att_l.append(a)
            heads.append(a @ v[:, kv, :])
        att_all.append(att_l)
        x = x + np.concatenate(heads, axis=1) @ W["wo"][l].T
        xb = rmsnorm(x, W["rms_ffn"][l])
        h1, h3 = xb @ W["w1"][l].T, xb @ W["w3"][l].T
        x = x + ((h1 / (1.0 + np.exp(-h1))) * h3) @ W["w2"][l].T  # SwiGLU
    logits = rmsnorm(x, W["rms_final"]) @ W["emb"].T            # tied classifier
    return logits, att_all


def loss(tokens, offset=0, off_planes=frozenset()):
    """Mean next-token cross-entropy (nats) over targets tokens[1:]."""
    logits, _ = forward(tokens, offset, off_planes)
    z = logits[:-1]
    m = z.max(axis=1, keepdims=True)
    logp = z - m - np.log(np.exp(z - m).sum(axis=1, keepdims=True))
    return float(-np.mean(logp[np.arange(len(tokens) - 1), tokens[1:]]))


def greedy(steps=200):
    """Argmax decoding from BOS alone; stops when the next token would be BOS."""
    ids = [BOS]
    for _ in range(steps):
        logits, _ = forward(ids)
        nxt = int(np.argmax(logits[-1]))
        if nxt == BOS:
            break
        ids.append(nxt)
    return ids[1:]


# ---------------------------------------------------------------- fixture
def r7(a):
    """Round to 7 significant digits (nested lists for arrays)."""
    if isinstance(a, np.ndarray):
        return [r7(v) for v in a]
    return float(f"{float(a):.7g}")


TOKEN_TEXTS = [
    "",
    "Once upon a time, there was a little girl named Lily.",
    "Tom and Tom's dog played. Tom was happy!",
    "Hello, world? 123 -- (ok); \"quoted\" end.",
    "The café had 3 cats 🐱 and a zebra.",
    "  two  spaces\nand a newline\ttab",
]
TEXT = "Lily saw a cat. Lily said hi to the cat."
LONG_TEXT = (
    "Once upon a time, there was a little boy named Ben. Ben had a red ball. Every day, Ben "
    "played with his ball in the park. One day, Ben saw a big dog. The dog wanted to play too. "
    "Ben threw the ball and the dog ran after it. Ben smiled and said, \"You are my friend!\" "
    "Ben and the dog played all day."
)


def main():
    gen = greedy(200)
    text = decode(gen).decode("utf-8")
    assert text.startswith(EXPECTED_START), f"greedy text differs:\n{text}"

    ids = encode(TEXT)
    logits, att = forward(ids)
    T = len(ids)
    prev_att = [[float(np.mean([att[l][h][t, t - 1] for t in range(1, T)]))
                 for h in range(N_HEADS)] for l in range(N_LAYERS)]
    losses = {
        "all": loss(ids),
        "plane_off": [loss(ids, off_planes={p}) for p in range(PLANES)],
        "all_off": loss(ids, off_planes=set(range(PLANES))),
        "offset_100000": loss(ids, offset=100000),
    }
    long_ids = encode(LONG_TEXT)
    long_losses = {
        "all": loss(long_ids),
        "plane_off": [loss(long_ids, off_planes={p}) for p in range(PLANES)],
    }

    tokens = []
    for t in TOKEN_TEXTS:
        e = encode(t)
        assert decode(e[1:]).decode("utf-8") == t, t   # round trip (dummy prefix dropped)
        tokens.append({"text": t, "ids": e})

    fixture = {
        "provenance": (
            "Computed by tests/model/reference.py (independent Python reference, numpy "
            f"{np.__version__}, float64 throughout, RoPE angles in float64) from stories260K.bin "
            f"(sha256 {SHA256['stories260K.bin']}) and tok512.bin (sha256 {SHA256['tok512.bin']}), "
            "both checked. Contains model outputs only (token ids, logits, attention, losses), "
            "never weights. Numbers rounded to 7 significant digits; losses in nats."
        ),
        "tokens": tokens,
        "greedy": {"ids": gen[:60], "text": decode(gen[:60]).decode("utf-8")},
        "logits": {"text": TEXT, "ids": ids, "values": r7(logits)},
        "attention": [{"layer": l, "head": h, "weights": r7(att[l][h])}
                      for l, h in [(0, 0), (1, 3), (4, 7)]],
        "prev_attention": [[r7(v) for v in row] for row in prev_att],
        "loss": {
            "all": r7(losses["all"]),
            "plane_off": [r7(v) for v in losses["plane_off"]],
            "all_off": r7(losses["all_off"]),
            "offset_100000": r7(losses["offset_100000"]),
        },
        "loss_long": {
            "text": LONG_TEXT,
            "ids": long_ids,
            "all": r7(long_losses["all"]),
            "plane_off": [r7(v) for v in long_losses["plane_off"]],
        },
    }
    FIXTURE.write_text(json.dumps(fixture, ensure_ascii=False, separators=(",", ":")) + "\n",
                       encoding="utf-8")

    print("greedy:", text)
    print(f"tokens: '{TEXT}' -> {T} ids; long text -> {len(long_ids)} ids")
    print("loss:", json.dumps(fixture["loss"]))
    print("loss_long:", json.dumps({k: fixture["loss_long"][k] for k in ("all", "plane_off")}))
    print(f"wrote {FIXTURE} ({FIXTURE.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
