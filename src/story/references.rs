//! The papers and posts the chapters follow, with links: the page's last section, in the part
//! of the split build that holds the last chapters (see [`crate::story`]).

use leptos::prelude::*;

/// The papers and posts the chapters follow, with links.
#[component]
pub fn References() -> impl IntoView {
    // (text, link or "" where our copy names none, what the page takes from it)
    const REFERENCES: [(&str, &str, &str); 17] = [
        ("Su, Lu, Pan, Murtadha, Wen, Liu (2021). RoFormer: Enhanced Transformer with Rotary Position Embedding.", "https://arxiv.org/abs/2104.09864", "the rotation, its complex form, the decay bounds (section 3.4.3)"),
        ("Vaswani et al. (2017). Attention Is All You Need.", "https://arxiv.org/abs/1706.03762", "sinusoidal encodings, added to x (section 3.5)"),
        ("Fleetwood (2024). You could have designed state of the art positional encoding. Hugging Face blog.", "https://huggingface.co/blog/designing-positional-encoding", "the two dogs; integer, binary, sinusoidal; PE(p+k) = M_k PE(p); p-RoPE"),
        ("Haviv, Ram, Press, Izsak, Levy (2022). Transformer Language Models without Positional Encodings Still Learn Positional Information. Findings of EMNLP 2022.", "https://arxiv.org/abs/2203.16634", "what a causal mask alone tells a decoder about order"),
        ("What is Positional Encoding and why it matters? (an explainer from sinusoidal encodings to rotation; unsigned in our copy).", "", "the “Dog attacks the Cat” sentences of the rotation lab, the period table, an interleaved PyTorch implementation"),
        ("Khan Ramsha, FinetuneX: positional_encoding.py and notes on RoPE.", "https://github.com/Khan-Ramsha/FinetuneX/blob/main/modules/positional_encoding.py", "the complex-number derivation, step by step, as in the complex view"),
        ("Quizzr. Maintaining Sequential Order with Rotary Positional Embeddings (RoPE).", "", "permutation invariance; rotate_half; PI, NTK-aware and YaRN in one place"),
        ("Rotary Positional Embedding (RoPE): A Deep Dive into Relative Positional Information (unsigned in our copy).", "", "where RoPE is applied; LongRoPE and xPos beside PI, NTK and YaRN"),
        ("Barbero, Vitvitskyi, Perivolaropoulos, Pascanu, Veličković (2024). Round and Round We Go! What makes Rotary Positional Encodings useful?", "https://arxiv.org/abs/2410.06205", "what decay does not explain; p-RoPE"),
        ("Chen, Wong, Chen, Tian (2023). Extending Context Window of Large Language Models via Positional Interpolation.", "https://arxiv.org/abs/2306.15595", "linear scaling (PI)"),
        ("Peng, Quesnelle, Fan, Shippole (2023). YaRN: Efficient Context Window Extension of Large Language Models.", "https://arxiv.org/abs/2309.00071", "YaRN's ramp and attention factor; NTK-aware scaling (bloc97)"),
        ("Ding et al. (2024). LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens.", "https://arxiv.org/abs/2402.13753", "per-plane factors (Phi-3)"),
        ("Sun et al. (2022). A Length-Extrapolatable Transformer.", "https://arxiv.org/abs/2212.10554", "xPos"),
        ("Black et al. (2022). GPT-NeoX-20B.", "https://arxiv.org/abs/2204.06745", "the rotate_half layout"),
        ("Hugging Face transformers, modeling_rope_utils.py and modeling_llama.py.", "https://github.com/huggingface/transformers", "rotate_half; the context-extension methods"),
        ("Meta, Llama reference code, model.py.", "https://github.com/meta-llama/llama", "apply_rotary_emb with view_as_complex"),
        ("EleutherAI (2021). Rotary Embeddings: A Relative Revolution.", "https://blog.eleuther.ai/rotary-embeddings/", "RoPE explained and benchmarked"),
    ];
    view! {
        <section class="widget references" id="references" aria-labelledby="references-title">
            <h2 id="references-title">"References"</h2>
            <ol>
                {REFERENCES.iter().map(|(text, url, what)| view! {
                    <li>
                        {if url.is_empty() { view! { <span>{*text}</span> }.into_any() } else { view! { <a href=*url rel="noopener">{*text}</a> }.into_any() }}
                        " " <span class="muted">{format!("({what})")}</span>
                    </li>
                }).collect_view()}
            </ol>
        </section>
    }
}
