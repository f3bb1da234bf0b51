//! What the context-extension chapter says beside its figures: each method's sentence, and
//! which part of each head a preset's model rotates.

use crate::rope::ScalingMethod;

/// One sentence per method: where it comes from and what it trades.
pub fn method_note(method: ScalingMethod) -> &'static str {
    match method {
        ScalingMethod::None => "Plain RoPE: θᵢ = b^(−2i/d). Beyond the trained context the slow planes turn to angles the model never saw.",
        ScalingMethod::Linear => "Position interpolation (Chen et al. 2023; kaiokendev): every θᵢ is divided by the factor, so positions up to factor × orig land on angles seen in training, but neighbouring tokens move closer in every plane: short-range detail blurs.",
        ScalingMethod::Ntk => "NTK-aware scaling (bloc97, 2023): a larger base, b·factor^(d/(d−2)), so the fastest plane keeps its frequency and the slowest is divided by the factor, with a geometric blend between. No fine-tuning needed, but middle planes still extrapolate a little.",
        ScalingMethod::Dynamic => "Dynamic NTK (emozilla's “Dynamically Scaled RoPE”, 2023; transformers' \"dynamic\"): the NTK base change with a scale that grows with the current sequence length seq_len, so text within the original context (orig, which transformers reads from max_position_embeddings for this method) is not scaled at all. Its frequencies change as the text grows, which is at odds with a cache of rotated keys. Shown here at seq_len = the target.",
        ScalingMethod::Yarn => "YaRN (Peng et al. 2023; DeepSeek, Qwen): planes that turn more than beta_fast times within orig keep their frequency, planes that turn fewer than beta_slow times are interpolated, a linear ramp in between (with values as configs set them: beta_fast below beta_slow, or an orig so long that every plane turns more than beta_fast times, runs transformers' ramp backwards, and it can divide even plane 0); and an attention factor 0.1·ln(factor) + 1 that sharpens the softmax again. mscale and mscale_all_dim, set by DeepSeek's configs, replace that factor by the ratio of two such terms, (0.1·mscale·ln(factor) + 1) / (0.1·mscale_all_dim·ln(factor) + 1), when both are set and not 0.",
        ScalingMethod::Llama3 => "Llama 3.1 (Meta, 2024): wavelengths shorter than orig / high_freq_factor keep their frequency, longer than orig / low_freq_factor are divided by the factor, with a smooth blend between. The same idea as YaRN's ramp, by wavelength.",
        ScalingMethod::LongRope => "LongRoPE (Ding et al. 2024; Phi-3): a searched factor for every plane, short_factor while seq_len (the length of the text so far) is within original_max_position_embeddings and long_factor beyond, and the attention factor √(1 + ln(factor)/ln(orig)). The pictures here are at seq_len = the target, so long_factor; the page's readouts use seq_len.",
        ScalingMethod::Proportional => "p-RoPE (Barbero et al. 2024, “Round and Round We Go! What makes Rotary Positional Encodings useful?”): keep only the fastest fraction of the planes (partial_rotary_factor) at their usual exponents and drop the slowest, which carry little position and mostly act as semantic channels. Barbero et al.'s p-RoPE has no factor: dividing what remains by factor, as PI does, is transformers' proportional rope_type (Gemma 4).",
    }
}

/// Which part of each head RoPE turns in a preset's model, where it is not the whole head.
pub fn rotates(preset: &str) -> Option<&'static str> {
    match preset {
        "gpt-neox-20b" => Some(
            "Partial rotary: rotary_pct = 0.25 turns 24 of each head's 96 dimensions (d here is the head, partial_rotary_factor 0.25); \
             the other 72 carry no position.",
        ),
        "deepseek-v3" => Some(
            "Decoupled RoPE (multi-head latent attention): RoPE turns a separate 64-dimension part of each query and key \
             (qk_rope_head_dim; the key's part is shared by all heads), beside 128 dimensions without position (qk_nope_head_dim); \
             d here is that 64-dimension part.",
        ),
        _ => None,
    }
}
