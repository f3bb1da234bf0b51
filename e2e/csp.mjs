// The strict Content-Security-Policy careful hosts set (README, "Content-Security-Policy"): the
// test server sends it with every page, and the embedding spec checks it.
export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:";
