//! Mounts RoPE Lab. Nothing else lives here.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    rope_lab::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("RoPE Lab runs in the browser: `make serve`, then open http://127.0.0.1:8080");
}
