//! Mounts RoPE Lab. Nothing else lives here.

/// The allocator: talc, smaller than Rust's default for wasm (dlmalloc) and faster. Called, not
/// inlined: inlined, its code was copied into every function that allocates (4 KB more).
#[cfg(target_arch = "wasm32")]
struct Allocator(talc::TalckWasm);

#[cfg(target_arch = "wasm32")]
// SAFETY: each call goes to talc as it is; talc's WasmHandler needs one thread (no atomics),
// which the page has.
unsafe impl std::alloc::GlobalAlloc for Allocator {
    #[inline(never)]
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        unsafe { self.0.alloc(layout) }
    }
    #[inline(never)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        unsafe { self.0.dealloc(ptr, layout) }
    }
    #[inline(never)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        unsafe { self.0.realloc(ptr, layout, new_size) }
    }
}

#[cfg(target_arch = "wasm32")]
#[global_allocator]
// SAFETY: as above.
static ALLOCATOR: Allocator = Allocator(unsafe { talc::TalckWasm::new_global() });

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    rope_lab::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("RoPE Lab runs in the browser: `make serve`, then open http://127.0.0.1:8080");
}
