//! Chapter 7 (`data-widget="layouts"`): two layouts, one idea. The interleaved pairing
//! (2i, 2i+1) of RoFormer and Meta's Llama code, and the half pairing (i, i + d/2) of
//! `rotate_half` (GPT-NeoX, Hugging Face), as three short implementations with the lines that
//! pick each plane's two dimensions marked for the selected plane; and what goes wrong when
//! weights made for one run with the other's code.

use crate::dom::size::{use_in_view, while_in_view};
use crate::lab::use_lab;
use crate::quiz::variants::half_partner;
use crate::rope::{dot, Layout, Trend, VectorName};
use crate::ui::card::WidgetCard;
use crate::ui::check::{Check, Question};
use crate::ui::readout::Readout;
use leptos::prelude::*;
use std::sync::Arc;

/// The chapter's id (`embed=layouts`, `data-widget`): never changes meaning once published.
pub const ID: &str = "layouts";
/// Its title, the heading of its card and its line in the table of contents.
pub const TITLE: &str = "Two pairings, one idea: interleaved and rotate_half";

/// (title, layout, lines); a line starting with `>` picks the plane's dimensions.
const LISTINGS: [(&str, Layout, &[&str]); 3] = [
    (
        "Interleaved, in PyTorch (as RoFormer writes it)",
        Layout::Interleaved,
        &[
            "def apply_rope(x, pos, base=10000.0):",
            "    d = x.shape[-1]",
            "    theta = base ** (-torch.arange(0, d, 2) / d)   # θ_i, i = 0 … d/2−1",
            "    angle = pos[:, None] * theta                   # (seq, d/2)",
            "    cos, sin = angle.cos(), angle.sin()",
            ">    x1, x2 = x[..., 0::2], x[..., 1::2]           # plane i: dims 2i, 2i+1",
            "    out = torch.empty_like(x)",
            ">    out[..., 0::2] = x1 * cos - x2 * sin",
            ">    out[..., 1::2] = x1 * sin + x2 * cos",
            "    return out",
        ],
    ),
    (
        "Half, Hugging Face transformers (rotate_half)",
        Layout::Half,
        &[
            "def rotate_half(x):",
            ">    x1 = x[..., : x.shape[-1] // 2]               # dims i",
            ">    x2 = x[..., x.shape[-1] // 2 :]               # dims i + d/2",
            "    return torch.cat((-x2, x1), dim=-1)",
            "",
            "inv_freq = 1.0 / (base ** (torch.arange(0, d, 2).float() / d))",
            "freqs = pos[:, None].float() * inv_freq           # (seq, d/2)",
            ">emb = torch.cat((freqs, freqs), dim=-1)            # θ_0 … θ_{d/2−1}, θ_0 … θ_{d/2−1}",
            "cos, sin = emb.cos(), emb.sin()",
            ">q_embed = q * cos + rotate_half(q) * sin",
        ],
    ),
    (
        "Interleaved, Meta's Llama (complex numbers)",
        Layout::Interleaved,
        &[
            "# theta here is the base b (rope_theta), not a plane's θ_i",
            "freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim))",
            "angles = torch.outer(torch.arange(seq_len), freqs)       # m·θ_i",
            "freqs_cis = torch.polar(torch.ones_like(angles), angles) # e^(i m θ_i)",
            "# xq: (batch, seq, heads, d)",
            ">xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))  # plane i: dims 2i, 2i+1",
            "freqs_cis = reshape_for_broadcast(freqs_cis, xq_)        # (seq, d/2) -> (1, seq, 1, d/2)",
            ">xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)",
        ],
    ),
];

#[component]
pub fn LayoutsWidget() -> impl IntoView {
    let lab = use_lab();
    let at = lab.select(|s| (s.m, s.n, s.plane));
    let layout = lab.select(|s| s.layout);
    let vectors = lab.vectors;
    let score = lab.select_derived(|d| d.scores.score);
    // d, the partial_rotary_factor and the r dimensions that rotate (r < d with partial rotary).
    let shape = lab.select(|s| (s.dim, s.partial));
    let rotary_dim = lab.select_derived(|d| d.frequencies.rotary_dim);
    // (score with q, k permuted into the other layout and rotated by its code; score with q, k
    // as they are, rotated by the other layout's code).
    let other_scores = Memo::new(move |_| {
        let (m, n, _) = at.get();
        vectors.with(|v| {
            let v = v.as_ref()?;
            let other = v.rotary.with_layout(v.rotary.layout().other());
            let score = |q: &[f64], k: &[f64]| -> Option<f64> {
                Some(dot(&other.rotate(VectorName::Query, q, m).ok()?, &other.rotate(VectorName::Key, k, n).ok()?))
            };
            Some((score(&v.rotary.permute_into(&v.q, &other), &v.rotary.permute_into(&v.k, &other))?, score(&v.q, &v.k)?))
        })
    });
    let dims = move |layout: Layout| {
        let plane = at.get().2;
        vectors.with(|v| {
            v.as_ref().map(|v| {
                let rotary = v.rotary.with_layout(layout);
                let plane = plane.min(rotary.planes().saturating_sub(1));
                let (a, b) = rotary.plane_dims(plane);
                let d = rotary.dim();
                // Partial rotary: only the first r dimensions rotate; p-RoPE: some planes' θᵢ is 0.
                let partial = match rotary_dim.get() {
                    Some(r) if r < d => format!(" (only the first {r} rotate)"),
                    _ => String::new(),
                };
                let still = if rotary.inv_freq().get(plane) == Some(&0.0) {
                    format!("; θ_{plane} = 0, so it does not turn")
                } else {
                    String::new()
                };
                format!("plane {plane} (θ_{plane}) touches dimensions {a} and {b} of d = {d}{partial}{still}")
            })
        })
    };
    // The listings' lines of text follow m, n and the plane only near the screen (the readable
    // scores below them do not wait).
    let listings = NodeRef::<leptos::html::Div>::new();
    let shown_dims = while_in_view(use_in_view(listings), move || (dims(Layout::Interleaved), dims(Layout::Half)));

    view! {
        <WidgetCard id=ID title=TITLE explain="Which two dimensions form a plane is a convention. RoFormer and Meta's Llama \
            pair neighbours, (2i, 2i+1); GPT-NeoX and Hugging Face's rotate_half pair dimension i with the one half the \
            rotating dimensions further on (i + d/2 when the whole head rotates). Both \
            rotate plane i by m·θᵢ, so they compute the same function up to a fixed reordering of the dimensions, \
            which the weights W_q and W_k can absorb: Hugging Face's conversion of Meta's Llama checkpoints permutes \
            the rows of W_q and W_k for exactly this reason.">
            <div class="listings" node_ref=listings>
                {LISTINGS.iter().map(|(title, listing_layout, lines)| view! {
                    <figure class="listing" class:current=move || layout.get() == *listing_layout>
                        <figcaption>{*title}</figcaption>
                        <pre class="code" tabindex="0"><code>
                            {lines.iter().map(|line| {
                                let (marked, text) = match line.strip_prefix('>') { Some(t) => (true, t), None => (false, *line) };
                                view! { <span class="code-line" class:marked=marked>{text}"\n"</span> }
                            }).collect_view()}
                        </code></pre>
                        <p class="listing-dims">{move || shown_dims.with(|(interleaved, half)| match listing_layout {
                            Layout::Interleaved => interleaved.clone(),
                            Layout::Half => half.clone(),
                        })}</p>
                    </figure>
                }).collect_view()}
            </div>
            <div class="readouts">
                <Readout testid="layout-score" label="score: q, k and the layout in effect" value=score />
                <Readout testid="layout-permuted-score" label="q, k permuted into the other layout, rotated by its code"
                    value=Signal::derive(move || other_scores.get().map(|s| s.0)) hint="the same score: same function, reordered" />
                <Readout testid="layout-mismatch-score" label="q, k as they are, rotated by the other layout's code"
                    value=Signal::derive(move || other_scores.get().map(|s| s.1)) hint=move || {
                        let same = match (score.get(), other_scores.get()) {
                            (Some(score), Some((_, mismatch))) => Trend::of(score, mismatch) == Trend::Stays,
                            _ => false,
                        };
                        match rotary_dim.get() {
                            // One rotating plane: both layouts turn dimensions 0 and 1 together.
                            Some(2) => "the same here: both layouts make dimensions 0 and 1 the only plane that can turn".to_string(),
                            _ if same => "the same here only by chance of these q and k; in general a different, wrong number".to_string(),
                            _ => "a different, wrong number".to_string(),
                        }
                    } />
            </div>
            <p class="explain">
                "The mismatch is a real bug: load weights trained with one layout into code written for the other and "
                "every plane pairs two dimensions that were never meant to turn together. Nothing crashes, and scores "
                "still depend only on n − m, but each dimension now turns with a partner and at a frequency it was "
                "never trained with, so the scores the model learned to read are scrambled. The layout menu in the panel does exactly this: it keeps q and k "
                "and changes the code that rotates them, as if the same weights ran with the other implementation, "
                "not as a different model."
            </p>
            <Check name="half-partner" look="the rotate_half listing's line under it" ask=Arc::new(move || {
                let (dim, partial) = shape.get();
                rotary_dim.get().map_or_else(Question::default, |r| half_partner(dim, r, partial))
            }) />
        </WidgetCard>
    }
}
