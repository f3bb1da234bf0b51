// The strict Content-Security-Policy careful hosts set, read from the guide that tells them
// (docs/csp.md): the test server sends exactly it with every page, and the embedding spec checks it.
import { readFileSync } from 'node:fs';

const guide = readFileSync(new URL('../docs/csp.md', import.meta.url), 'utf8');
const policy = guide.match(/^Content-Security-Policy: (.+)$/m)?.[1];
if (!policy || !policy.includes("script-src 'self' 'wasm-unsafe-eval'")) throw new Error('docs/csp.md: no Content-Security-Policy line');
export const CSP = policy;
