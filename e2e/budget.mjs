// Size budget of the release build: prints what a first visit downloads, gzipped, and fails
// if it grows past the budget. (For scale: the richest RoPE page we compare against ships
// 130 KB of its own code plus 675 KB of MathJax.)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, extname } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist', import.meta.url));
// wasm + js + css + html, gzipped. Raised from 200 KB (foundation) to 250 KB (rotation lab) to
// 300 KB with the three chart widgets (278 KB). Issue 8's additions took it to 307 KB; compiling
// the slider and the canvas scheduler once instead of once per use (no generic closures in
// their hot code) brought it back to 298 KB. Drawing the clock faces as one canvas pair per row
// (so a step repaints only the rows in view: about 3.4 ms less per key press at d = 128) costs
// 3 KB: 305 KB. Issue 10's six story chapters cost 76 KB more (measured one chapter at a time:
// order 15.5, counting 11.4, layouts 7.5 KB), the decay chart's absolute bound, the table of
// contents and references the rest: 381 KB. Issue 9's goal is 200 KB: twiggy shows the cost
// spread over thousands of monomorphised view closures (Leptos' typed views). Building with
// `--cfg erase_components` (Leptos boxes each reactive closure) took 45 KB off but cost about
// 2.5 ms per base step and 6 ms per dimension step, and the decay chart's in-browser test drew
// nothing under it: not adopted yet. Issue 11's context-extension chapter (presets, a JSON
// reader for pasted configs, the wavelength chart in SVG, the Python export) costs 27 KB:
// 425 KB. Its comparison of two methods (an SVG chart), xPos on the decay chart and the heatmap's
// original-θᵢ switch cost 22 KB more: 448 KB. The story's key formulas as MathML, the original
// bound on the decay chart and the references with every post the chapters follow: 454 KB.
// Issue 12's classroom and blog tools (presenter mode, the page's tools and shortcuts sheet,
// the embed dialog with its preview, dialogs, clipboard, live chart descriptions) and a review's
// fixes (methods picked in the chapter show their effect, DeepSeek's softmax scale): 476 KB;
// the per-plane table of angles in training and within the target: 479 KB, budget 481 KB.
// Issue 13's two chapters, measured one at a time (wasm as trunk ships it): RoPE for images
// 21 KB (the picture itself is a separate 1.6 KB SVG, not counted: it loads with its chapter),
// precision 22 KB: 524 KB, budget 526 KB.
const BUDGET_GZIP_BYTES = 526 * 1024;
const counted = new Set(['.wasm', '.js', '.css', '.html']);

const rows = [];
for (const name of readdirSync(dist)) {
  const path = join(dist, name);
  if (!statSync(path).isFile() || !counted.has(extname(name))) continue;
  const raw = readFileSync(path);
  rows.push({ name, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length });
}
if (!rows.some((r) => r.name.endsWith('.wasm'))) {
  console.error('budget: no .wasm in dist/; run `trunk build --release` first');
  process.exit(1);
}
const total = rows.reduce((sum, r) => sum + r.gzip, 0);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
for (const r of rows.sort((a, b) => b.gzip - a.gzip)) {
  console.log(`budget: ${r.name.padEnd(36)} ${kb(r.raw).padStart(10)} raw ${kb(r.gzip).padStart(10)} gzipped`);
}
console.log(`budget: total ${kb(total)} gzipped (budget ${kb(BUDGET_GZIP_BYTES)}), no third-party downloads at run time`);
if (total > BUDGET_GZIP_BYTES) {
  console.error(`budget: over by ${kb(total - BUDGET_GZIP_BYTES)}`);
  process.exit(1);
}
