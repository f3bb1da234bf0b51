//! GGUF, the file format of llama.cpp (`ggml/docs/gguf.md`, version 2 and 3, little-endian):
//! a header, metadata as typed key/value pairs, a table of tensors (name, dimensions innermost
//! first, type, offset), then the tensors' data, aligned. Only read here: the container, not
//! what a model makes of it ([`super::llama`] does that).
//!
//! A hostile file cannot make this reader allocate without bound or read out of the file: every
//! count is checked against the bytes left before anything is reserved for it, every tensor
//! against the data section, and every failure is a [`ModelError`].

use super::quant::TensorKind;
use super::{Bytes, ModelError};

/// The file's first four bytes.
pub const MAGIC: &[u8; 4] = b"GGUF";
/// `general.alignment` when the file does not say.
const DEFAULT_ALIGNMENT: usize = 32;
/// Arrays inside arrays deeper than this are refused (GGUF allows nesting; no model uses it).
const MAX_DEPTH: usize = 2;
/// The most dimensions a tensor has in ggml.
const MAX_DIMS: usize = 4;

/// A metadata value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(i64),
    /// u64 values past i64 (never seen in a model; kept exact).
    Unsigned(u64),
    Float(f64),
    Bool(bool),
    Text(String),
    Array(Vec<Value>),
}

impl Value {
    /// The value as a count or size, when it is a non-negative integer.
    pub fn as_usize(&self) -> Option<usize> {
        match *self {
            Value::Int(v) => usize::try_from(v).ok(),
            Value::Unsigned(v) => usize::try_from(v).ok(),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Float(v) => Some(v),
            Value::Int(v) => Some(v as f64),
            Value::Unsigned(v) => Some(v as f64),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Text(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }
}

/// One tensor of the table: where its data is and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorInfo {
    pub name: String,
    /// Dimensions, innermost first (a matrix of `dims[1]` rows of `dims[0]`).
    pub dims: Vec<usize>,
    pub kind: TensorKind,
    /// Its data's place in the file, checked to lie inside it.
    pub start: usize,
    pub len: usize,
}

impl TensorInfo {
    /// Numbers in the tensor.
    pub fn count(&self) -> usize {
        self.dims.iter().product()
    }
}

/// A GGUF file's header, metadata and tensor table (the data stays in the caller's bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct Gguf {
    pub version: u32,
    pub metadata: Vec<(String, Value)>,
    pub tensors: Vec<TensorInfo>,
}

impl Gguf {
    /// Reads everything but the tensors' data, and checks that each tensor lies in `bytes`.
    pub fn read(bytes: &[u8]) -> Result<Gguf, ModelError> {
        let mut b = Bytes::new(bytes);
        if b.take(4, "the magic number")? != MAGIC {
            return Err(ModelError::NotGguf);
        }
        let version = b.u32("the version")?;
        if !(2..=3).contains(&version) {
            return Err(ModelError::BadHeader { field: "GGUF version", value: version.into() });
        }
        let tensor_count = b.u64("the tensor count")?;
        let kv_count = b.u64("the metadata count")?;
        // A tensor's entry is at least 24 bytes, a key/value pair at least 13: a count that
        // cannot fit in what is left is refused before anything is reserved for it.
        let fits = |count: u64, each: usize, left: usize| count <= (left / each) as u64;
        if !fits(kv_count, 13, b.remaining()) {
            return Err(ModelError::BadHeader { field: "metadata count", value: kv_count as i64 });
        }
        let mut metadata = Vec::with_capacity(kv_count as usize);
        for _ in 0..kv_count {
            let key = b.string("a metadata key")?;
            let kind = b.u32("a metadata type")?;
            let value = read_value(&mut b, kind, 0)?;
            metadata.push((key, value));
        }
        if !fits(tensor_count, 24, b.remaining()) {
            return Err(ModelError::BadHeader { field: "tensor count", value: tensor_count as i64 });
        }
        let mut table = Vec::with_capacity(tensor_count as usize);
        for _ in 0..tensor_count {
            let name = b.string("a tensor's name")?;
            let n_dims = b.u32("a tensor's dimension count")? as usize;
            if n_dims == 0 || n_dims > MAX_DIMS {
                return Err(ModelError::BadTensor { name, why: "has no dimensions or more than four" });
            }
            let mut dims = Vec::with_capacity(n_dims);
            for _ in 0..n_dims {
                let d = b.u64("a tensor's dimensions")?;
                dims.push(usize::try_from(d).unwrap_or(usize::MAX));
            }
            let kind = TensorKind::from_ggml(b.u32("a tensor's type")?)
                .map_err(|id| ModelError::Unsupported { what: "tensor type", name: format!("{} ({name})", TensorKind::ggml_name(id)) })?;
            let offset = b.u64("a tensor's offset")?;
            table.push((name, dims, kind, offset));
        }
        let alignment = metadata
            .iter()
            .find(|(k, _)| k == "general.alignment")
            .map(|(_, v)| v.as_usize().filter(|a| a.is_power_of_two() && *a <= 1 << 16))
            .unwrap_or(Some(DEFAULT_ALIGNMENT))
            .ok_or(ModelError::BadHeader { field: "general.alignment", value: -1 })?;
        let header_end = bytes.len() - b.remaining();
        let data_start = header_end.div_ceil(alignment).saturating_mul(alignment);
        let data_len = bytes.len().saturating_sub(data_start);
        let mut tensors = Vec::with_capacity(table.len());
        for (name, dims, kind, offset) in table {
            let count = dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
            let Some(len) = count.and_then(|n| kind.bytes_for(dims[0], n)) else {
                return Err(ModelError::BadTensor { name, why: "has a shape its type cannot store" });
            };
            let inside = usize::try_from(offset).ok().filter(|&o| o % alignment == 0 && o <= data_len && len <= data_len - o);
            let Some(offset) = inside else {
                return Err(ModelError::BadTensor { name, why: "lies outside the file" });
            };
            tensors.push(TensorInfo { name, dims, kind, start: data_start + offset, len });
        }
        Ok(Gguf { version, metadata, tensors })
    }

    /// A metadata value by key.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.metadata.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// A tensor by name.
    pub fn tensor(&self, name: &str) -> Option<&TensorInfo> {
        self.tensors.iter().find(|t| t.name == name)
    }
}

/// One value of type `kind` (GGUF's `gguf_metadata_value_type`).
fn read_value(b: &mut Bytes, kind: u32, depth: usize) -> Result<Value, ModelError> {
    Ok(match kind {
        0 => Value::Int(b.take(1, "a u8 value")?[0].into()),
        1 => Value::Int((b.take(1, "an i8 value")?[0] as i8).into()),
        2 => Value::Int(u16::from_le_bytes(b.array("a u16 value")?).into()),
        3 => Value::Int(i16::from_le_bytes(b.array("an i16 value")?).into()),
        4 => Value::Int(b.u32("a u32 value")?.into()),
        5 => Value::Int(b.i32("an i32 value")?.into()),
        6 => Value::Float(b.f32("an f32 value")?.into()),
        7 => Value::Bool(b.take(1, "a bool value")?[0] != 0),
        8 => Value::Text(b.string("a string value")?),
        9 => {
            let inner = b.u32("an array's type")?;
            let count = b.u64("an array's length")?;
            let least = match inner {
                0 | 1 | 7 => 1,
                2 | 3 => 2,
                4..=6 => 4,
                8 | 10..=12 => 8,
                9 => 12,
                _ => 1,
            };
            if depth >= MAX_DEPTH || count > (b.remaining() / least) as u64 {
                return Err(ModelError::BadHeader { field: "array length", value: count as i64 });
            }
            let mut items = Vec::with_capacity(count as usize);
            for _ in 0..count {
                items.push(read_value(b, inner, depth + 1)?);
            }
            Value::Array(items)
        }
        10 => {
            let v = b.u64("a u64 value")?;
            i64::try_from(v).map(Value::Int).unwrap_or(Value::Unsigned(v))
        }
        11 => Value::Int(b.u64("an i64 value")? as i64),
        12 => Value::Float(f64::from_le_bytes(b.array("an f64 value")?)),
        other => return Err(ModelError::BadHeader { field: "metadata type", value: other.into() }),
    })
}
