//! A Hugging Face `config.json` (or just its rope block) read as the lab's parameters, the way
//! transformers reads it. The reverse, the settings as Python, is [`super::python`].
//!
//! What transformers reads (modeling_rope_utils and the model configs): the base from
//! `rope_theta` (GPT-NeoX: `rotary_emb_base`; transformers 5 may nest it in `rope_parameters`);
//! the head dimension from `head_dim`, else `hidden_size // num_attention_heads` (DeepSeek's
//! rotary part: `qk_rope_head_dim`); `partial_rotary_factor` (GPT-NeoX: `rotary_pct`); the
//! method from `rope_scaling` or `rope_parameters`, by `rope_type` or the older `type`.

use super::change::Change;
use super::format::fmt_number;
use super::json::{Json, JsonError};
use crate::rope::{Layout, ScalingMethod};

/// What a pasted config says, as changes to the lab, and what the reader made of each field.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigReading {
    /// The changes, in an order that validates (dim before the per-plane lists).
    pub changes: Vec<Change>,
    /// Whether it was a whole config (the model's parameters start from the defaults) or only
    /// a rope block (only the scaling parameters do).
    pub whole: bool,
    /// The fields used, as `name = value`.
    pub read: Vec<String>,
    /// Fields it could not use, each with why.
    pub skipped: Vec<String>,
}

/// Keys of a rope block that describe the method, not a parameter of it.
const TYPE_KEYS: [&str; 2] = ["rope_type", "type"];

/// The fields each method reads from its rope block (besides its type), as transformers does.
pub(super) fn method_fields(method: ScalingMethod) -> &'static [&'static str] {
    match method {
        ScalingMethod::None => &[],
        ScalingMethod::Linear | ScalingMethod::Ntk | ScalingMethod::Proportional => &["factor"],
        ScalingMethod::Dynamic => &["factor"],
        ScalingMethod::Yarn => &["factor", "original_max_position_embeddings", "beta_fast", "beta_slow", "mscale", "mscale_all_dim"],
        ScalingMethod::Llama3 => &["factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"],
        ScalingMethod::LongRope => &["factor", "original_max_position_embeddings", "short_factor", "long_factor"],
    }
}

/// The method a `rope_type` names. "su" is Phi-3's first name for LongRoPE (transformers reads it
/// as longrope); "default" is plain RoPE.
fn method_named(name: &str) -> Option<ScalingMethod> {
    match name {
        "default" => Some(ScalingMethod::None),
        "su" => Some(ScalingMethod::LongRope),
        "ntk" => None, // not a transformers rope_type: the fixed NTK base change has no config name
        other => ScalingMethod::parse(other).filter(|m| *m != ScalingMethod::None),
    }
}

struct Reading {
    changes: Vec<Change>,
    read: Vec<String>,
    skipped: Vec<String>,
}

impl Reading {
    /// A number field, or a note why it is not one.
    fn number(&mut self, name: &str, value: &Json) -> Option<f64> {
        match value.as_f64() {
            Some(v) => {
                self.read.push(format!("{name} = {}", fmt_number(v)));
                Some(v)
            }
            None => {
                self.skipped.push(format!("{name} is {}, not a number: ignored", value.kind()));
                None
            }
        }
    }

    /// The first of `candidates` (name, value) that is present, read as a number.
    fn first_number(&mut self, candidates: &[(String, Option<&Json>)]) -> Option<f64> {
        let (name, value) = candidates.iter().find_map(|(name, value)| value.map(|v| (name, v)))?;
        self.number(name, value)
    }

    fn list(&mut self, name: &str, value: &Json) -> Option<Vec<f64>> {
        let numbers = match value {
            Json::Array(items) => items.iter().map(Json::as_f64).collect::<Option<Vec<f64>>>(),
            _ => None,
        };
        match numbers {
            Some(list) => {
                let count = list.len();
                self.read.push(format!("{name} = [{count} {}]", if count == 1 { "number" } else { "numbers" }));
                Some(list)
            }
            None => {
                self.skipped.push(format!("{name} is not a list of numbers: ignored"));
                None
            }
        }
    }
}

/// An integer count from a number (`4096` or `4096.0`); fractions are rounded as the URL does.
fn count(v: f64) -> i64 {
    v.round().clamp(i64::MIN as f64, i64::MAX as f64) as i64
}

/// Reads `text`: a whole `config.json` or only its rope block. Invalid JSON is an error that
/// says where it broke, and nothing changes.
pub fn read_config(text: &str) -> Result<ConfigReading, JsonError> {
    // Lines copied out of a config (`"rope_scaling": {…}, "rope_theta": 500000.0,`) are the
    // members of an object without its braces: read them as one.
    let (root, unbraced) = match Json::parse(text) {
        Ok(root) => (root, false),
        Err(error) => {
            let members = text.trim().trim_end_matches(',');
            match members.starts_with('"').then(|| Json::parse(&format!("{{{members}}}"))) {
                Some(Ok(root)) => (root, true),
                _ => return Err(error),
            }
        }
    };
    let Json::Object(_) = root else {
        return Err(JsonError { line: 1, column: 1, reason: "expected an object { … }: a config.json or its rope_scaling block" });
    };
    let mut r = Reading { changes: Vec::new(), read: Vec::new(), skipped: Vec::new() };
    if unbraced {
        r.read.push("the lines pasted, as the members of one object".into());
    }
    let nested =
        ["rope_parameters", "rope_scaling"].into_iter().find_map(|key| root.get(key).filter(|v| **v != Json::Null).map(|v| (key, v)));
    // A rope block names its type (and may hold rope_theta, as transformers 5's does); a
    // config holds the model's sizes.
    let typed = TYPE_KEYS.iter().any(|k| root.get(k).is_some());
    let whole = nested.is_some()
        || [
            "rotary_emb_base",
            "hidden_size",
            "head_dim",
            "num_attention_heads",
            "max_position_embeddings",
            "qk_rope_head_dim",
            "model_type",
        ]
        .iter()
        .any(|k| root.get(k).is_some())
        || !typed && root.get("rope_theta").is_some();
    let block = match nested {
        Some((_, block)) => Some(block),
        None if !whole => Some(&root),
        None => None,
    };
    let block_name = nested.map_or("", |(key, _)| key);
    let field = |name: &str| if block_name.is_empty() { name.to_string() } else { format!("{block_name}.{name}") };

    // The base and the fraction that rotates: a whole config's, or a rope block's own
    // (transformers 5 keeps both in rope_parameters).
    let nested_field = |name: &str| (field(name), block.filter(|_| whole).and_then(|b| b.get(name)));
    let top = |name: &str| (name.to_string(), root.get(name));
    if let Some(base) = r.first_number(&[top("rope_theta"), top("rotary_emb_base"), nested_field("rope_theta")]) {
        r.changes.push(Change::Base(base));
    }
    let partial = [top("partial_rotary_factor"), top("rotary_pct"), nested_field("partial_rotary_factor")];
    if let Some(p) = r.first_number(&partial) {
        r.changes.push(Change::Partial(p));
    }
    // A model's own fields: without them (a rope block pasted with its key, a base and a
    // length) nothing says the head's size or its layout, and both stay as they are.
    let model = ["hidden_size", "head_dim", "num_attention_heads", "qk_rope_head_dim", "model_type"].iter().any(|k| root.get(k).is_some());
    if whole && model {
        // The head dimension (its rotary part where the model splits it).
        if let Some(v) = root.get("qk_rope_head_dim") {
            if let Some(d) = r.number("qk_rope_head_dim", v) {
                r.changes.push(Change::Dim(count(d)));
                // As the DeepSeek-V3 preset says it: d is the part RoPE turns, not the head.
                let beside = root
                    .get("qk_nope_head_dim")
                    .and_then(Json::as_f64)
                    .map_or_else(String::new, |n| format!(", beside {} dimensions without position (qk_nope_head_dim)", fmt_number(n)));
                r.read.push(format!(
                    "decoupled RoPE (multi-head latent attention): RoPE turns a separate {}-dimension part of each query and key{beside}; \
                     d here is that part",
                    fmt_number(d)
                ));
            }
        } else if let Some(v) = root.get("head_dim").filter(|v| **v != Json::Null) {
            if let Some(d) = r.number("head_dim", v) {
                r.changes.push(Change::Dim(count(d)));
            }
        } else if let (Some(hidden), Some(heads)) = (root.get("hidden_size"), root.get("num_attention_heads")) {
            match (hidden.as_f64(), heads.as_f64()) {
                (Some(h), Some(n)) if n >= 1.0 => {
                    let d = (h / n).floor();
                    r.read.push(format!("hidden_size / num_attention_heads = {} / {} = {}", fmt_number(h), fmt_number(n), fmt_number(d)));
                    r.changes.push(Change::Dim(count(d)));
                }
                _ => r
                    .skipped
                    .push("hidden_size and num_attention_heads must be numbers (heads at least 1): head dimension unchanged".into()),
            }
        }
        // transformers applies rotate_half (pairs (i, i + d/2)), unless the model says interleave.
        // DeepSeek-V3's config class defaults rope_interleave to true.
        let deepseek = root.get("model_type").and_then(Json::as_str) == Some("deepseek_v3");
        match root.get("rope_interleave") {
            Some(Json::Bool(true)) => {
                r.read.push("rope_interleave = true: interleaved pairs".into());
                r.changes.push(Change::Layout(Layout::Interleaved));
            }
            None if deepseek => {
                r.read.push("model_type = \"deepseek_v3\": rope_interleave defaults to true, interleaved pairs".into());
                r.changes.push(Change::Layout(Layout::Interleaved));
            }
            Some(Json::Bool(false)) => {
                r.read.push("rope_interleave = false: rotate_half, dimension i with i + d/2".into());
                r.changes.push(Change::Layout(Layout::Half));
            }
            _ => {
                r.read.push("no rope_interleave: transformers' rotate_half, dimension i with i + d/2".into());
                r.changes.push(Change::Layout(Layout::Half));
            }
        }
    }

    // The context lengths: max_position_embeddings is the target; the original is the block's
    // original_max_position_embeddings, else the config's, else max_position_embeddings.
    let max_positions = root.get("max_position_embeddings").and_then(|v| r.number("max_position_embeddings", v));
    // (A rope block pasted alone is its own root: its original_max_position_embeddings is read
    // with its other fields, once.)
    let top_original =
        root.get("original_max_position_embeddings").filter(|_| whole).and_then(|v| r.number("original_max_position_embeddings", v));
    if !model {
        // Said whether the block came with its key ("rope_scaling": {…}) or without.
        let alone = match nested {
            Some((key, _)) => format!("a {key} block alone"),
            None if whole => "the text pasted".to_string(),
            None => "a rope block alone".to_string(),
        };
        r.skipped.push(if r.changes.iter().any(|c| matches!(c, Change::Base(_))) {
            format!("{alone} has no head_dim: the head dimension and the layout stay as they are")
        } else {
            format!("{alone} has no rope_theta or head_dim: the base, the head dimension and the layout stay as they are")
        });
    }

    let mut method = ScalingMethod::None;
    let mut factor = None;
    let mut block_original = None;
    if let Some(block) = block {
        let type_field = TYPE_KEYS.iter().find_map(|k| block.get(k).map(|v| (*k, v)));
        match type_field {
            Some((key, value)) => match value.as_str().map(|name| (name, method_named(name))) {
                Some((name, Some(m))) => {
                    r.read.push(format!("{} = \"{name}\"", field(key)));
                    method = m;
                }
                Some((name, None)) => r.skipped.push(format!(
                    "{} \"{name}\" is not a method transformers' ROPE_INIT_FUNCTIONS computes here \
                     (default, linear, dynamic, yarn, llama3, longrope, proportional): scaling left as none",
                    field(key)
                )),
                None => r.skipped.push(format!("{} is {}, not a string: scaling left as none", field(key), value.kind())),
            },
            None if !block_name.is_empty() || !whole => {
                r.skipped.push(format!(
                    "{} has no rope_type (or type): scaling left as none",
                    if block_name.is_empty() { "the block" } else { block_name }
                ));
            }
            None => {}
        }
        let Json::Object(members) = block else {
            r.skipped.push(format!("{block_name} is {}, not an object: ignored", block.kind()));
            return Ok(finish(r, whole, method, None, None, max_positions, top_original));
        };
        let wanted = method_fields(method);
        for (key, value) in members {
            let name = field(key);
            if TYPE_KEYS.contains(&key.as_str()) || key.starts_with('_') || key == "rope_theta" || key == "partial_rotary_factor" {
                continue;
            }
            if !wanted.contains(&key.as_str()) {
                if !block_name.is_empty() || !whole {
                    let why = match key.as_str() {
                        "attention_factor" => {
                            "RoPE Lab computes the attention factor from the method's parameters; an explicit one is not used"
                        }
                        "truncate" => "RoPE Lab's YaRN truncates the correction range, as transformers does by default",
                        _ => "not read by this method",
                    };
                    r.skipped.push(format!("{name}: {why}"));
                }
                continue;
            }
            match key.as_str() {
                "factor" => factor = r.number(&name, value),
                "original_max_position_embeddings" => block_original = r.number(&name, value),
                "beta_fast" => r.number(&name, value).into_iter().for_each(|v| r.changes.push(Change::BetaFast(v))),
                "beta_slow" => r.number(&name, value).into_iter().for_each(|v| r.changes.push(Change::BetaSlow(v))),
                "mscale" => r.number(&name, value).into_iter().for_each(|v| r.changes.push(Change::Mscale(Some(v)))),
                "mscale_all_dim" => r.number(&name, value).into_iter().for_each(|v| r.changes.push(Change::MscaleAllDim(Some(v)))),
                "low_freq_factor" => r.number(&name, value).into_iter().for_each(|v| r.changes.push(Change::LowFreq(v))),
                "high_freq_factor" => r.number(&name, value).into_iter().for_each(|v| r.changes.push(Change::HighFreq(v))),
                "short_factor" => r.list(&name, value).into_iter().for_each(|v| r.changes.push(Change::ShortFactor(Some(v)))),
                "long_factor" => r.list(&name, value).into_iter().for_each(|v| r.changes.push(Change::LongFactor(Some(v)))),
                _ => {}
            }
        }
    }
    if method == ScalingMethod::LongRope {
        for list in ["short_factor", "long_factor"] {
            if block.and_then(|b| b.get(list)).is_none() {
                r.skipped.push(format!("{} is missing: every plane's factor is 1", field(list)));
            }
        }
    }
    Ok(finish(r, whole, method, factor, block_original, max_positions, top_original))
}

fn finish(
    mut r: Reading,
    whole: bool,
    method: ScalingMethod,
    mut factor: Option<f64>,
    block_original: Option<f64>,
    max_positions: Option<f64>,
    top_original: Option<f64>,
) -> ConfigReading {
    // transformers' dynamic NTK treats max_position_embeddings as the trained context.
    let original = match method {
        ScalingMethod::Dynamic => max_positions,
        _ => block_original.or(top_original).or(max_positions),
    };
    // LongRoPE as in Phi-3: with original_max_position_embeddings in the config itself,
    // transformers takes the factor as max_position_embeddings / original.
    if method == ScalingMethod::LongRope {
        if let (Some(top), Some(max)) = (top_original, max_positions) {
            if top > 0.0 {
                factor = Some(max / top);
                r.read.push(format!("factor = max_position_embeddings / original_max_position_embeddings = {}", fmt_number(max / top)));
            }
        }
    }
    let mut changes = vec![Change::Scaling(method)];
    if let Some(o) = original {
        changes.push(Change::Orig(count(o)));
    }
    if let Some(max) = max_positions.filter(|_| method != ScalingMethod::Dynamic) {
        // A config that scales but keeps max_position_embeddings at the original context (Qwen2.5's
        // YaRN recipe: 32768 and factor 4) stretches to orig × factor: the target's own default.
        let no_longer_than = |original: f64| method != ScalingMethod::None && max <= original;
        if original.is_some_and(no_longer_than) {
            r.read.push("max_position_embeddings is not beyond the original context: the target context is orig × factor".into());
            changes.push(Change::Target(None));
        } else {
            changes.push(Change::Target(Some(count(max))));
        }
    }
    changes.push(Change::Factor(factor));
    // Dim and the others first, then what depends on them (the per-plane lists).
    let (lists, mut rest): (Vec<Change>, Vec<Change>) =
        r.changes.into_iter().partition(|c| matches!(c, Change::ShortFactor(_) | Change::LongFactor(_)));
    rest.extend(changes);
    rest.extend(lists);
    ConfigReading { changes: rest, whole, read: r.read, skipped: r.skipped }
}
