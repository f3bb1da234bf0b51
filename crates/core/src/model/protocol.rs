//! The messages between the page and the model's worker: plain objects whose `kind` says what
//! they are and whose `id` says which request they answer. Both sides name the fields by these
//! constants, so a misspelt field does not compile.
//!
//! Page → worker: [`LOAD`] {url, cache}, [`READ`] {text, off, offset, layer, head, max_tokens},
//! [`HEAD`] {layer, head}, [`CONTINUE`] {count}, [`STOP`], [`PROFILE`] {text, max_tokens} (for
//! `make bench`: each kernel's time, answered by [`PROFILE_DONE`] {what, ms, gflops}).
//! Worker → page: [`READY`]; [`PROGRESS`] {loaded, total}, [`PARSING`], [`LOADED`] {shape,
//! stored} or [`ERROR`] {message}; for a read [`TOKENS`] {pieces, cut}, [`STEP`] {done, of, and
//! once the layers are done the losses known so far} (one per layer and block of logits), [`READ_DONE`] {loss, losses, next, prev, first, ms},
//! [`HEAD_DONE`] {layer, head, share, map, q, k}, [`GROUP`] {index, loss} (index −1: every plane
//! on), [`DRIFT`] {largest}; for a continuation [`WRITTEN`] {text, count} and [`WRITTEN_ALL`].

pub const KIND: &str = "kind";
pub const ID: &str = "id";

pub const LOAD: &str = "load";
pub const READ: &str = "read";
pub const HEAD: &str = "head";
pub const CONTINUE: &str = "continue";
pub const STOP: &str = "stop";
pub const PROFILE: &str = "profile";

pub const READY: &str = "ready";
pub const PROGRESS: &str = "progress";
pub const PARSING: &str = "parsing";
pub const LOADED: &str = "loaded";
pub const ERROR: &str = "error";
pub const TOKENS: &str = "tokens";
pub const STEP: &str = "step";
pub const READ_DONE: &str = "reading";
pub const HEAD_DONE: &str = "head-done";
pub const GROUP: &str = "group";
pub const DRIFT: &str = "drift";
pub const WRITTEN: &str = "written";
pub const WRITTEN_ALL: &str = "written-all";
pub const PROFILE_DONE: &str = "profile-done";

pub const URL: &str = "url";
pub const CACHE: &str = "cache";
pub const TEXT: &str = "text";
pub const OFF: &str = "off";
pub const OFFSET: &str = "offset";
pub const LAYER: &str = "layer";
pub const HEAD_INDEX: &str = "head";
pub const MAX_TOKENS: &str = "maxTokens";
pub const COUNT: &str = "count";
pub const MESSAGE: &str = "message";
pub const LOADED_BYTES: &str = "loaded";
pub const TOTAL: &str = "total";
pub const LAYERS: &str = "layers";
pub const HEADS: &str = "heads";
pub const KV_HEADS: &str = "kvHeads";
pub const PLANES: &str = "planes";
pub const CONTEXT: &str = "context";
pub const BASE: &str = "base";
pub const STORED: &str = "stored";
pub const PIECES: &str = "pieces";
pub const CUT: &str = "cut";
pub const DONE: &str = "done";
pub const OF: &str = "of";
pub const LOSS: &str = "loss";
pub const LOSSES: &str = "losses";
pub const NEXT: &str = "next";
pub const PREV: &str = "prev";
pub const FIRST: &str = "first";
pub const MS: &str = "ms";
pub const SHARE: &str = "share";
pub const MAP: &str = "map";
pub const Q: &str = "q";
pub const K: &str = "k";
pub const INDEX: &str = "index";
pub const LARGEST: &str = "largest";
pub const WHAT: &str = "what";
pub const GFLOPS: &str = "gflops";
/// The worker's WebAssembly memory in bytes, with [`GROUP`] and [`DRIFT`] (its largest so far).
pub const MEMORY: &str = "memory";

/// Why a load failed, in words the page shows.
pub const OFFLINE: &str = "The model could not be downloaded (is the network down?).";
pub const NOT_SERVED: &str =
    "The model's file is not served beside this page: run `make model` (or set ROPELAB_MODEL_DIR), then build again.";
pub const NOT_LOADED: &str = "The model is not loaded yet.";
