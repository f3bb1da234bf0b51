//! The settings in effect as a transformers `rope_parameters` dict, with the few lines that
//! compute the same θᵢ (transformers' `inv_freq`), so an engineer can check a model against the page.
//! The dict names its fields as [`super::config`] reads them, so it pastes back unchanged.

use super::config::method_fields;
use super::format::fmt_number;
use super::LabState;
use crate::rope::ScalingMethod;

impl LabState {
    /// The settings in effect as a transformers `rope_parameters` dict and the few lines that
    /// compute the same θᵢ (`inv_freq`), to check a model against.
    pub fn python(&self) -> String {
        let s = self.scaling_params();
        let num = |v: f64| {
            let text = fmt_number(v);
            if text.contains(['.', 'e']) {
                text
            } else {
                format!("{text}.0")
            }
        };
        let mut dict = vec![
            format!("\"rope_type\": \"{}\"", if self.scaling == ScalingMethod::None { "default" } else { self.scaling.as_str() }),
            format!("\"rope_theta\": {}", num(self.base)),
        ];
        if self.partial != 1.0 {
            dict.push(format!("\"partial_rotary_factor\": {}", num(self.partial)));
        }
        let list = |v: &Option<Vec<f64>>, planes: usize| {
            let values = v.clone().unwrap_or_else(|| vec![1.0; planes]);
            format!("[{}]", values.iter().map(|x| num(*x)).collect::<Vec<_>>().join(", "))
        };
        let planes = self.scaling.rotary_dim(self.dim, self.partial).unwrap_or(self.dim) / 2;
        for key in method_fields(self.scaling) {
            let value = match *key {
                "factor" => num(s.factor),
                "original_max_position_embeddings" => self.orig.to_string(),
                "beta_fast" => num(s.beta_fast),
                "beta_slow" => num(s.beta_slow),
                "mscale" => match s.mscale {
                    Some(v) => num(v),
                    None => continue,
                },
                "mscale_all_dim" => match s.mscale_all_dim {
                    Some(v) => num(v),
                    None => continue,
                },
                "low_freq_factor" => num(s.low_freq_factor),
                "high_freq_factor" => num(s.high_freq_factor),
                "short_factor" => list(&s.short_factor, planes),
                "long_factor" => list(&s.long_factor, planes),
                _ => continue,
            };
            dict.push(format!("\"{key}\": {value}"));
        }
        let max_positions = match self.scaling {
            ScalingMethod::Dynamic => self.orig,
            _ => self.target_context(),
        };
        let mut out = format!(
            "# RoPE Lab: d = {}, {} layout\n\
             # inv_freq is transformers' name for the list of θᵢ, each plane's frequency in radians per token:\n\
             # the default rope_type computes θᵢ = 1 / rope_theta^(2i/d), an inverse, over the rotating dimensions.\n\
             rope_parameters = {{\n    {},\n}}\n",
            self.dim,
            self.layout.as_str(),
            dict.join(",\n    ")
        );
        if self.scaling == ScalingMethod::Ntk {
            // Not a transformers rope_type: the fixed NTK-aware base change, written out.
            out += &format!(
                "# \"ntk\" is the fixed NTK-aware base change, not a transformers rope_type:\nimport torch\n\
                 d, base, factor = {}, {}, {}\nbase = base * factor ** (d / (d - 2))\n\
                 inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.int64).double() / d))\n",
                self.scaling.rotary_dim(self.dim, self.partial).unwrap_or(self.dim),
                num(self.base),
                num(s.factor)
            );
            return out;
        }
        out += &format!(
            "\n# transformers 5.x\nfrom transformers import LlamaConfig\n\
             from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS\n\
             config = LlamaConfig(head_dim={}, hidden_size={}, num_attention_heads=1,\n    \
             max_position_embeddings={}, rope_parameters=rope_parameters)\n",
            self.dim, self.dim, max_positions
        );
        // transformers 4.x took the base and the fraction as config arguments, the rest as rope_scaling.
        let scaling_4x = if self.scaling == ScalingMethod::None {
            "None".to_string()
        } else {
            let rest: Vec<&str> = dict
                .iter()
                .map(String::as_str)
                .filter(|entry| !entry.starts_with("\"rope_theta\"") && !entry.starts_with("\"partial_rotary_factor\""))
                .collect();
            format!("{{{}}}", rest.join(", "))
        };
        let partial_4x = if self.partial != 1.0 { format!(" partial_rotary_factor={},", num(self.partial)) } else { String::new() };
        out += &format!(
            "# transformers 4.x spells the same settings as config arguments:\n\
             #   LlamaConfig(...,{partial_4x} rope_theta={}, rope_scaling={scaling_4x})\n",
            num(self.base)
        );
        if self.scaling == ScalingMethod::None {
            out += "import torch\n# Only the rotating part of the head: head_dim × partial_rotary_factor dimensions.\n\
                    d = int(config.head_dim * rope_parameters.get(\"partial_rotary_factor\", 1.0))\n\
                    base = rope_parameters[\"rope_theta\"]\n\
                    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d))\n\
                    attention_factor = 1.0\n";
        } else {
            let seq = match self.scaling {
                ScalingMethod::Dynamic | ScalingMethod::LongRope => format!(", seq_len={}", s.seq_len),
                _ => String::new(),
            };
            out += &format!("inv_freq, attention_factor = ROPE_INIT_FUNCTIONS[\"{}\"](config, \"cpu\"{seq})\n", self.scaling.as_str());
        }
        out
    }
}
