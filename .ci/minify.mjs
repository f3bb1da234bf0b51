// trunk's last post_build hook in release builds: minify the page's CSS and JavaScript with
// esbuild (issue 9: every byte of a first visit). trunk 0.21 can minify too (`minify =
// "on_release"`), but the split hook rewrites the glue after trunk's step, and trunk's HTML
// minifier would rewrite index.html's boot script tag under the CSP hook. The stylesheets carry
// integrity hashes (sha384) in index.html: they are recomputed here. Does nothing in other builds
// (trunk serve stays readable).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transformSync } from 'esbuild';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error('minify: run me from trunk (TRUNK_STAGING_DIR is not set)');
if (process.env.TRUNK_PROFILE !== 'release') process.exit(0);

const loaders = { '.css': 'css', '.js': 'js' };
const files = [];
for (const name of readdirSync(staging)) {
  const path = join(staging, name);
  if (statSync(path).isDirectory() && name.startsWith('split-')) {
    // The parts' loader too: which files each part needs is in parts.json (.ci/split.mjs).
    for (const inner of readdirSync(path)) files.push(join(path, inner));
  } else if (statSync(path).isDirectory() && name === 'assets') {
    // The style sheets the parts, dialogs and embeds link when asked for (without integrity
    // hashes: the page links them itself); assets/embed-resize.js stays as host pages copy it.
    for (const inner of readdirSync(path)) if (inner.endsWith('.css')) files.push(join(path, inner));
  } else {
    files.push(path);
  }
}
let page = readFileSync(join(staging, 'index.html'), 'utf8');
let before = 0;
let after = 0;
for (const path of files) {
  const loader = loaders[path.slice(path.lastIndexOf('.'))];
  if (!loader) continue;
  const source = readFileSync(path, 'utf8');
  // The glue is an ES module: keep its exports' names; esbuild renames only locals. The model's
  // worker's glue is a classic script (wasm-bindgen's no-modules target) whose global
  // `wasm_bindgen` its loader calls: its names stay.
  const classic = /(^|\/)model_worker(_loader)?\.js$/.test(path);
  const { code } = transformSync(source, {
    loader,
    minify: !classic,
    minifyWhitespace: classic || undefined,
    minifySyntax: classic || undefined,
    format: loader === 'js' && !classic ? 'esm' : undefined,
    logLevel: 'error',
  });
  writeFileSync(path, code);
  before += source.length;
  after += code.length;
  // Stylesheets are linked with an integrity hash; scripts (module preloads) are not.
  if (loader === 'css' && !path.includes('/assets/')) {
    const name = path.slice(staging.length + 1);
    const tag = new RegExp(`(href="\\./${name.replaceAll('.', '\\.')}" integrity=")sha384-[^"]+"`);
    if (!tag.test(page)) throw new Error(`minify: index.html links ${name} without the integrity hash expected`);
    page = page.replace(tag, `$1sha384-${createHash('sha384').update(code).digest('base64')}"`);
  }
}
// The page's comments are for who edits index.html, not for every reader's first download.
page = page.replace(/<!--[\s\S]*?-->\s*/g, '');
writeFileSync(join(staging, 'index.html'), page);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`minify: CSS and JavaScript ${kb(before)} -> ${kb(after)}`);
