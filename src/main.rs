//! Mounts RoPE Lab. Nothing else lives here.

/// The allocator: talc, smaller in the first visit than Rust's default for wasm (dlmalloc: 0.3 KB
/// gzipped, measured) and, by its authors' benchmarks, faster.
// SAFETY: talc's WasmHandler needs the page to run on one thread (no atomics), as it does.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::TalckWasm = unsafe { talc::TalckWasm::new_global() };

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    rope_lab::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("RoPE Lab runs in the browser: `make serve`, then open http://127.0.0.1:8080");
}
