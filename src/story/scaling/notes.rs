//! What the context-extension chapter says beside its figures: each method's sentence, and
//! which part of each head a preset's model rotates.

use crate::charts::format::short_number;
use crate::rope::{ScalingMethod, Trend};
use crate::ui::check::Question;

/// One sentence per method: where it comes from and what it trades.
pub fn method_note(method: ScalingMethod) -> &'static str {
    match method {
        ScalingMethod::None => "Plain RoPE: θᵢ = b^(−2i/d). Beyond the trained context the slow planes turn to angles the model never saw.",
        ScalingMethod::Linear => "Position interpolation (Chen et al. 2023; kaiokendev): every θᵢ is divided by the factor, so positions up to factor × orig land on angles seen in training, but neighbouring tokens move closer in every plane: short-range detail blurs.",
        ScalingMethod::Ntk => "NTK-aware scaling (bloc97, 2023): a larger base, b·factor^(d/(d−2)), so the fastest plane keeps its frequency and the slowest is divided by the factor, with a geometric blend between. No fine-tuning needed, but middle planes still extrapolate a little.",
        ScalingMethod::Dynamic => "Dynamic NTK (emozilla's “Dynamically Scaled RoPE”, 2023; transformers' \"dynamic\"): the NTK base change with a scale that grows with the current sequence length seq_len, so text within the original context (orig, which transformers reads from max_position_embeddings for this method) is not scaled at all. Its frequencies change as the text grows, which is at odds with a cache of rotated keys. Shown here at seq_len = the target.",
        ScalingMethod::Yarn => "YaRN (Peng et al. 2023; DeepSeek, Qwen): planes that turn more than beta_fast times within orig keep their frequency, planes that turn fewer than beta_slow times are interpolated, a linear ramp in between; and an attention factor 0.1·ln(factor) + 1 that sharpens the softmax again.",
        ScalingMethod::Llama3 => "Llama 3.1 (Meta, 2024): wavelengths shorter than orig / high_freq_factor keep their frequency, longer than orig / low_freq_factor are divided by the factor, with a smooth blend between. The same idea as YaRN's ramp, by wavelength.",
        ScalingMethod::LongRope => "LongRoPE (Ding et al. 2024; Phi-3): a searched factor for every plane, short_factor while seq_len is within original_max_position_embeddings and long_factor beyond, and the attention factor √(1 + ln(factor)/ln(orig)). The pictures here are at seq_len = the target, so long_factor; the page's readouts use seq_len.",
        ScalingMethod::Proportional => "p-RoPE (Barbero et al. 2024): keep only the fastest fraction of the planes (partial_rotary_factor) at their usual exponents and drop the lowest frequencies, which carry little position and mostly act as semantic channels; the factor divides what remains.",
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

/// The chapter's question: does `method` slow plane 0, the fastest (θ₀ from `before` to
/// `after`, as the chapter computes them)?
pub fn fastest_plane_question(method: ScalingMethod, before: f64, after: f64) -> Question {
    let slower = Trend::of(before, after) == Trend::Falls;
    Question::labelled(
        match method {
            ScalingMethod::None => {
                "With no context extension chosen (pick a method above), does plane 0, the fastest, turn slower than before?".to_string()
            }
            chosen => format!("With {} as set now, does plane 0, the fastest, turn slower than without it?", chosen.label()),
        },
        &[("yes", "yes"), ("no", "no")],
        if slower { "yes" } else { "no" },
        format!(
            "θ₀ goes from {} to {} rad per token. {}",
            short_number(before),
            short_number(after),
            if slower {
                "This method divides even the fastest plane, so neighbouring tokens look closer together than in training."
            } else if method == ScalingMethod::None {
                "With no extension θ₀ is unchanged."
            } else {
                "Plane 0 turns many times within orig already; this method leaves it as it was, so nearby positions look as in training."
            }
        ),
    )
}
