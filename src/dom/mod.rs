//! The browser machinery under the chapters, with no chapter and no shared state in it: canvases
//! drawn off the main thread's layout (OffscreenCanvas) and the plotters backend for them, the
//! size and visibility observers that keep work to what is on screen, pixel pictures, settling
//! after a drag, animation frames, and lists updated in place.

pub mod animation;
pub mod backend;
pub mod canvas;
pub mod gif;
pub mod indexed;
pub mod js;
pub mod keys;
pub mod page;
pub mod pixels;
pub mod settle;
pub mod size;
pub mod style;
pub mod translate;
