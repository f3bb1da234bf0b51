// Starts the model's worker (crates/worker): wasm-bindgen's glue for a classic worker, then the
// module, which tells the page it is ready once it listens.
importScripts('./model_worker.js');
wasm_bindgen({ module_or_path: './model_worker_bg.wasm' });
