//! The release build with parts (`make build`: `--cfg split` in RUSTFLAGS) links the page with
//! its relocations, which wasm-split needs to cut the module (.ci/split.mjs). Only the page's
//! binary: the model's worker (crates/worker) is built with the same RUSTFLAGS, and relocations
//! left in it keep wasm-opt from optimising it.

fn main() {
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split('\x1f').collect();
    let split = flags.windows(2).any(|pair| pair == ["--cfg", "split"]) || flags.contains(&"--cfg=split");
    if split && std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-bin=rope-lab=--emit-relocs");
    }
}
