// trunk's post_build hook for the release build (`make build`): cut the app into the page's
// frame and four lazily fetched parts of chapters (issue 9: a first visit downloads the frame
// alone, with the first chapter, and each part follows when the reader nears it; an embed, the
// frame and its own part).
//
// The Makefile builds with `--cfg split` (each part is a `wasm_split` function, as Leptos'
// `#[lazy]` makes them but with load failures returned, see src/story/parts.rs) and links the page with its relocations (build.rs: wasm-split needs them).
// trunk then runs wasm-bindgen on the whole module; this script redoes that step on the split
// one: wasm-split-cli cuts cargo's output, wasm-bindgen binds the main part under trunk's hashed
// name, wasm-opt shrinks every part, and the parts go to `split-<hash>/` beside it, so a deploy
// never mixes parts of two builds. Without `--cfg split` (trunk serve, plain `trunk build`) it
// does nothing.
import { execFile, execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shortenImports } from './short-imports.mjs';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error('split: run me from trunk (TRUNK_STAGING_DIR is not set)');
if (process.env.TRUNK_PROFILE !== 'release' || !/--cfg[= ]split\b/.test(process.env.RUSTFLAGS ?? '')) {
  process.exit(0);
}

const run = (cmd, args) => execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] });
const target = JSON.parse(execFileSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], {
  cwd: process.env.TRUNK_SOURCE_DIR ?? '.', maxBuffer: 1 << 26,
})).target_directory;
const raw = join(target, 'wasm32-unknown-unknown', 'release', 'rope-lab.wasm');
const glue = readdirSync(staging).find((f) => /^rope-lab-[0-9a-f]+\.js$/.test(f));
if (!glue || !existsSync(raw)) throw new Error(`split: missing ${glue ? raw : 'rope-lab-<hash>.js in ' + staging}`);
const name = glue.slice(0, -'.js'.length);
const parts = `split-${name.slice('rope-lab-'.length)}`;

const work = join(staging, '.split');
rmSync(work, { recursive: true, force: true });
run('wasm-split-cli', ['--target', 'web', '--out-name', name, raw, join(work, 'cut')]);
run('wasm-bindgen', ['--target', 'web', '--keep-lld-exports', '--no-typescript', '--out-name', name,
  '--out-dir', join(work, 'bound'), join(work, 'cut', `${name}.wasm`)]);
// The frame's imports by short names, and no exports nothing calls (.ci/short-imports.mjs).
shortenImports(join(work, 'bound', `${name}_bg.wasm`), join(work, 'bound', `${name}.js`), name);

// The features rustc turns on for wasm32: the ones index.html gives trunk's own wasm-opt.
const page = readFileSync(join(process.env.TRUNK_SOURCE_DIR ?? '.', 'index.html'), 'utf8');
const features = page.match(/data-wasm-opt-params="([^"]*)"/)?.[1].split(/\s+/).filter(Boolean) ?? [];
if (!features.length) throw new Error('split: index.html gives wasm-opt no feature flags');
mkdirSync(join(staging, parts));
const jobs = [[join(work, 'bound', `${name}_bg.wasm`), join(staging, `${name}_bg.wasm`)]];
for (const f of readdirSync(join(work, 'cut'))) {
  if (f.endsWith('.wasm') && f !== `${name}.wasm`) jobs.push([join(work, 'cut', f), join(staging, parts, f)]);
}
const shrink = promisify(execFile);
const worker = async () => {
  for (let job = jobs.shift(); job; job = jobs.shift()) {
    // The custom sections naming the toolchain and the features are for tools, not browsers:
    // about 200 bytes in each of the sixteen files. Nothing lives in the lowest 1 KB of memory
    // (rustc puts the stack there, growing down from 1 MB), which lets wasm-opt fold more
    // address arithmetic (0.9 KB of the frame). WASM_NAMES=1 keeps functions' names, for a
    // profile.
    await shrink('wasm-opt', [...(process.env.WASM_NAMES ? ['-g'] : []), '-Oz', '--low-memory-unused', '--strip-producers', '--strip-target-features', ...features, job[0], '-o', job[1]]);
  }
};
await Promise.all(Array.from({ length: availableParallelism() }, worker));
// The loader sits with the parts (it fetches them relative to itself) and imports the glue one
// folder up; the glue imports the loader from its folder.
const loader = readFileSync(join(work, 'cut', '__wasm_split.js'), 'utf8');
const fromLoader = `from "./${name}.js"`;
if (!loader.includes(fromLoader)) throw new Error('split: the loader does not import the glue as expected');
writeFileSync(join(staging, parts, '__wasm_split.js'), loader.replaceAll(fromLoader, `from "../${name}.js"`));
// Which files each part needs, as the loader says (`const __chunk_7 = makeLoad(() => { ...
// "./chunk_7.wasm" ... }, [])` and `export const __wasm_split_load_<part>_<hash> =
// wrapAsyncCb(makeLoad(() => { ... "./split_<part>_<hash>.wasm" ... }, [__chunk_6, ...]))`),
// written down for e2e/budget.mjs and the offline cache before the loader is minified.
const fileOf = new Map();
for (const [, variable, file] of loader.matchAll(/const (__chunk_\d+) = makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/([\w.]+\.wasm)"/g)) {
  fileOf.set(variable, file);
}
const needs = {};
for (const [, part, file, deps] of loader.matchAll(/__wasm_split_load_([a-z][a-z0-9]*?)_\d+ = wrapAsyncCb\(makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/([\w.]+\.wasm)"[\s\S]*?\n\s*,\s*\[([^\]]*)\]\)\)/g)) {
  needs[part] = [file, ...deps.split(',').map((d) => d.trim()).filter(Boolean).map((d) => fileOf.get(d))];
}
if (!needs.opening || Object.values(needs).flat().some((f) => !f)) throw new Error('split: could not read which files each part needs from the loader');
writeFileSync(join(staging, parts, 'parts.json'), JSON.stringify(needs, null, 1));
const bound = readFileSync(join(work, 'bound', `${name}.js`), 'utf8');
// Only the import statements move: the import object keeps the module name the wasm asks for.
const statement = /^(import \* as \w+ from )"\.\/__wasm_split\.js"/gm;
if (!statement.test(bound)) throw new Error('split: the glue does not import the loader');
writeFileSync(join(staging, glue), bound.replace(statement, `$1"./${parts}/__wasm_split.js"`));
rmSync(work, { recursive: true, force: true });
const count = readdirSync(join(staging, parts)).length - 1;
console.log(`split: ${name}_bg.wasm and ${count} lazily fetched parts in ${parts}/`);
