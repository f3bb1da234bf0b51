//! The papers and posts the chapters follow, with links: the page's last section, in the part
//! of the split build that holds the last chapters (see [`crate::story`]).

use crate::ui::check::PrintedAnswers;
use leptos::prelude::*;

/// The papers and posts the chapters follow, with links.
#[component]
pub fn References() -> impl IntoView {
    // (text, link or "" where our copy names none, what the page takes from it)
    const REFERENCES: [(&str, &str, &str); 27] = [
        ("Su, Lu, Pan, Murtadha, Wen, Liu (2021). RoFormer: Enhanced Transformer with Rotary Position Embedding.", "https://arxiv.org/abs/2104.09864", "the rotation, its complex form, the decay bounds (section 3.4.3)"),
        ("Vaswani et al. (2017). Attention Is All You Need.", "https://arxiv.org/abs/1706.03762", "sinusoidal encodings, added to x (section 3.5)"),
        ("Fleetwood (2024). You could have designed state of the art positional encoding. Hugging Face blog.", "https://huggingface.co/blog/designing-positional-encoding", "the two dogs; integer, binary, sinusoidal; PE(p+k) = M_k PE(p); p-RoPE"),
        ("Haviv, Ram, Press, Izsak, Levy (2022). Transformer Language Models without Positional Encodings Still Learn Positional Information. Findings of EMNLP 2022.", "https://arxiv.org/abs/2203.16634", "what a causal mask alone tells a decoder about order"),
        ("What is Positional Encoding and why it matters? (an explainer from sinusoidal encodings to rotation; unsigned in our copy).", "", "the “Dog attacks the Cat” sentences of the rotation lab, the period table, an interleaved PyTorch implementation"),
        ("Khan Ramsha, FinetuneX: positional_encoding.py and notes on RoPE.", "https://github.com/Khan-Ramsha/FinetuneX/blob/main/modules/positional_encoding.py", "the complex-number derivation, step by step, as in the complex view"),
        ("Quizzr. Maintaining Sequential Order with Rotary Positional Embeddings (RoPE).", "", "permutation invariance; rotate_half; PI, NTK-aware and YaRN in one place"),
        ("Rotary Positional Embedding (RoPE): A Deep Dive into Relative Positional Information (unsigned in our copy).", "", "where RoPE is applied; LongRoPE and xPos beside PI, NTK and YaRN"),
        ("Barbero, Vitvitskyi, Perivolaropoulos, Pascanu, Veličković (2024). Round and Round We Go! What makes Rotary Positional Encodings useful?", "https://arxiv.org/abs/2410.06205", "what decay does not explain; p-RoPE; in Gemma 7B the fastest planes make positional heads, the slowest carry content (the trained model's chapter)"),
        ("Karpathy (2023). llama2.c: Inference Llama 2 in one file of pure C; the tinyllamas checkpoints (stories260K, MIT).", "https://github.com/karpathy/llama2.c", "the trained model and its tokenizer, run in the tab; run.c's forward pass and tokenizer, followed here"),
        ("Eldan, Li (2023). TinyStories: How Small Can Language Models Be and Still Speak Coherent English?", "https://arxiv.org/abs/2305.07759", "the children's stories the model was trained on"),
        ("Chen, Wong, Chen, Tian (2023). Extending Context Window of Large Language Models via Positional Interpolation.", "https://arxiv.org/abs/2306.15595", "linear scaling (PI)"),
        ("Peng, Quesnelle, Fan, Shippole (2023). YaRN: Efficient Context Window Extension of Large Language Models.", "https://arxiv.org/abs/2309.00071", "YaRN's ramp and attention factor; NTK-aware scaling (bloc97)"),
        ("Ding et al. (2024). LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens.", "https://arxiv.org/abs/2402.13753", "per-plane factors (Phi-3)"),
        ("Sun et al. (2022). A Length-Extrapolatable Transformer.", "https://arxiv.org/abs/2212.10554", "xPos"),
        ("Black et al. (2022). GPT-NeoX-20B.", "https://arxiv.org/abs/2204.06745", "the rotate_half layout"),
        ("Hugging Face transformers, modeling_rope_utils.py and modeling_llama.py.", "https://github.com/huggingface/transformers", "rotate_half; the context-extension methods"),
        ("Meta, Llama reference code, model.py.", "https://github.com/meta-llama/llama", "apply_rotary_emb with view_as_complex"),
        ("EleutherAI (2021). Rotary Embeddings: A Relative Revolution.", "https://blog.eleuther.ai/rotary-embeddings/", "RoPE explained and benchmarked"),
        ("bloc97 (2023). NTK-Aware Scaled RoPE allows LLaMA models to have extended (8k+) context size without any fine-tuning and minimal perplexity degradation. r/LocalLLaMA.", "https://www.reddit.com/r/LocalLLaMA/comments/14lz7j5/ntkaware_scaled_rope_allows_llama_models_to_have/", "NTK-aware scaling: base·α^(d/(d−2)) (with α = the factor in transformers' form)"),
        ("emozilla (2023). Dynamically Scaled RoPE further increases performance of long context LLaMA with zero fine-tuning. r/LocalLLaMA.", "https://www.reddit.com/r/LocalLLaMA/comments/14mrgpr/dynamically_scaled_rope_further_increases/", "dynamic NTK"),
        ("Llama Team, AI @ Meta (2024). The Llama 3 Herd of Models.", "https://arxiv.org/abs/2407.21783", "rope_theta = 500,000; Llama 3.1's long context"),
        ("Raffel et al. (2020). Exploring the Limits of Transfer Learning with a Unified Text-to-Text Transformer (T5).", "https://arxiv.org/abs/1910.10683", "a learned relative bias per bucket of distances"),
        ("Press, Smith, Lewis (2022). Train Short, Test Long: Attention with Linear Biases Enables Input Length Extrapolation (ALiBi).", "https://arxiv.org/abs/2108.12409", "a fixed linear bias, −slope·distance"),
        ("Fang et al. (2023). EVA-02: A Visual Representation for Neon Genesis.", "https://arxiv.org/abs/2303.11331", "2D RoPE in a vision transformer"),
        ("Heo, Park, Han, Yun (2024). Rotary Position Embedding for Vision Transformer (RoPE-ViT). ECCV.", "https://arxiv.org/abs/2403.13298", "RoPE-Axial and RoPE-Mixed"),
        ("Wang et al. (2024). Qwen2-VL: Enhancing Vision-Language Model's Perception of the World at Any Resolution.", "https://arxiv.org/abs/2409.12191", "2D RoPE in its vision encoder; M-RoPE"),
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
        <PrintedAnswers />
    }
}
