//! The URL contract's defaults and limits (the README's table of parameters): what an unset
//! parameter means and how far each may go. Read by the state, its validation and the chapters.

pub const DEFAULT_DIM: usize = 64;
pub const DEFAULT_M: i64 = 5;
pub const DEFAULT_N: i64 = 2;
pub const DEFAULT_SEED: u64 = 1;
/// The counting chapters' position p and shift k (`p=`, `shift=`): p = 5 as the default m,
/// and a shift of 3 turns plane 0 by a visible 3 radians.
pub const DEFAULT_P: u32 = 5;
pub const DEFAULT_SHIFT: u32 = 3;
/// The decay chart's default span in tokens (RoFormer's figure 2), its smallest and its largest.
pub const DEFAULT_RANGE: u64 = 256;
pub const MIN_RANGE: u64 = 16;
pub const MAX_RANGE: u64 = 1 << 20;
/// At most this many extra bases overlaid on the decay chart.
pub const MAX_COMPARE: usize = 3;
/// xPos's `scale_base` (`scale_base=`): at least 1 token, at most this many.
pub const MAX_SCALE_BASE: f64 = 1e9;
/// The "rope2d" chapter's picture is cut into PATCH_GRID × PATCH_GRID patches.
pub const PATCH_GRID: u8 = 8;
/// Its default query and key patches (column, row): the key three columns right of and two
/// rows above the query.
pub const DEFAULT_QUERY_PATCH: (u8, u8) = (2, 5);
pub const DEFAULT_KEY_PATCH: (u8, u8) = (5, 3);
/// The trained model's chapter ("model"): its default text, a TinyStories opening in which a
/// name repeats, so that heads that look back at a name have something to find.
pub const DEFAULT_MODEL_TEXT: &str =
    "Once upon a time, there was a little girl named Lily. She loved to play with her ball. One day, Lily went to the park.";
/// The longest text the URL or the field takes (`text=`), in characters.
pub const MAX_MODEL_TEXT: usize = 2000;
/// stories260K's layers, query heads and rotation planes per head (`layer=`, `head=`, `off=`).
pub const MODEL_LAYERS: u8 = 5;
pub const MODEL_HEADS: u8 = 8;
pub const MODEL_PLANES: u8 = 4;
/// SmolLM2-135M's layers, query heads and rotation planes per head.
pub const SMOLLM2_LAYERS: u8 = 30;
pub const SMOLLM2_HEADS: u8 = 9;
pub const SMOLLM2_PLANES: u8 = 32;
/// Which model the trained-model chapter reads (`model=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TrainedModel {
    /// Karpathy's stories260K, built into the page.
    #[default]
    Stories260k,
    /// Hugging Face's SmolLM2-135M, downloaded when the reader asks.
    Smollm2,
}

impl TrainedModel {
    pub const ALL: [TrainedModel; 2] = [TrainedModel::Stories260k, TrainedModel::Smollm2];

    /// Its name in the URL.
    pub fn id(self) -> &'static str {
        match self {
            TrainedModel::Stories260k => "stories260k",
            TrainedModel::Smollm2 => "smollm2-135m",
        }
    }

    pub fn from_id(id: &str) -> Option<TrainedModel> {
        match id {
            "stories260k" => Some(TrainedModel::Stories260k),
            "smollm2-135m" => Some(TrainedModel::Smollm2),
            _ => None,
        }
    }

    /// Layers, query heads and planes per head: the limits of `layer=`, `head=` and `off=`.
    pub fn shape(self) -> (u8, u8, u8) {
        match self {
            TrainedModel::Stories260k => (MODEL_LAYERS, MODEL_HEADS, MODEL_PLANES),
            TrainedModel::Smollm2 => (SMOLLM2_LAYERS, SMOLLM2_HEADS, SMOLLM2_PLANES),
        }
    }
}

/// The head the chapter opens on (`layer=1`, `head=3`).
pub const DEFAULT_LAYER: u8 = 1;
pub const DEFAULT_HEAD: u8 = 3;
/// The largest shift of every position (`offset=`).
pub const MAX_MODEL_OFFSET: u64 = 1_000_000;
/// Largest magnitude of a typed q or k component: keeps every score finite at d = 1024.
pub const MAX_COMPONENT: f64 = 1e6;
