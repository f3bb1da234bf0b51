// trunk's post_build step for the trained model's chapter (issue 44): packs Karpathy's
// stories260K (llama2.c's checkpoint and tokenizer, MIT, never part of this repository) into the
// int8 file the page downloads, `stories260K.rlm`, and writes `model.json` saying whether it is
// there (so that a build without the model makes no failing request: the chapter says in one
// line how to add it).
//
// The files are looked for in $ROPELAB_MODEL_DIR, then `models/stories260K/` (where `make model`
// puts them), then `../shared/models/stories260K/`. Their sha256 must be the published ones. The
// packing itself is Rust (`examples/pack_model.rs`, `rope_lab::model::pack`), the same code the
// native tests check; its output is kept in cargo's target folder, keyed by the files' and the
// packer's hashes, so a rebuild does not pack again.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const FILES = {
  'stories260K.bin': 'b0a507e7ad0f626624f17112325e66691f9076d622e1d3274d103d00299f2696',
  'tok512.bin': '037cb335abb25d1fa9e8ecae30ed2a3a8ace9302862ebcdc05d51a6bbb10c312',
};
const PACKED = 'stories260K.rlm';

const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** The folder holding both files, or null. */
export function modelDir(source = '.') {
  const candidates = [process.env.ROPELAB_MODEL_DIR, join(source, 'models', 'stories260K'), join(source, '..', 'shared', 'models', 'stories260K')];
  return candidates.filter(Boolean).map((d) => resolve(d)).find((d) => Object.keys(FILES).every((f) => existsSync(join(d, f)))) ?? null;
}

// SmolLM2-135M (issue 56): its GGUF file, served as it is beside the page (never stored by the
// offline worker: a reader downloads it only on asking, and the model's worker keeps it).
export const SMOLLM2 = {
  name: 'SmolLM2-135M-Instruct.Q4_1.gguf',
  bytes: 98362432,
  sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
  served: 'smollm2-135m.gguf',
};

/** The path of SmolLM2's file, or null. */
export function smollm2File(source = '.') {
  const named = process.env.ROPELAB_MODEL_DIR;
  const candidates = [named && join(named, 'smollm2-135m'), named, join(source, 'models', 'smollm2-135m'), join(source, '..', 'shared', 'models', 'smollm2-135m')];
  return candidates.filter(Boolean).map((d) => resolve(d, SMOLLM2.name)).find((f) => existsSync(f)) ?? null;
}

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error('model: run me from trunk (TRUNK_STAGING_DIR is not set)');
const source = process.env.TRUNK_SOURCE_DIR ?? '.';
const manifest = {};
const smol = smollm2File(source);
if (smol) {
  if (statSync(smol).size !== SMOLLM2.bytes || sha256(smol) !== SMOLLM2.sha256) throw new Error(`model: ${smol} is not the published file (size or sha256 differs)`);
  copyFileSync(smol, join(staging, SMOLLM2.served));
  manifest.smollm2 = { file: SMOLLM2.served, bytes: SMOLLM2.bytes };
  console.log(`model: ${SMOLLM2.served} from ${smol}`);
} else {
  console.log('model: SmolLM2-135M not found (ROPELAB_MODEL_DIR, models/smollm2-135m/, ../shared/models/smollm2-135m/): run `make model`; the chapter says how to add it');
}
const dir = modelDir(source);
if (!dir) {
  writeFileSync(join(staging, 'model.json'), JSON.stringify({ missing: true, ...manifest }));
  console.log('model: stories260K not found (ROPELAB_MODEL_DIR, models/stories260K/, ../shared/models/stories260K/): run `make model`; the chapter says how to add it');
  process.exit(0);
}
for (const [name, sum] of Object.entries(FILES)) {
  if (sha256(join(dir, name)) !== sum) throw new Error(`model: ${join(dir, name)} is not the published file (sha256 differs from ${sum})`);
}
const packer = ['crates/core/src/model/checkpoint.rs', 'examples/pack_model.rs'].map((f) => readFileSync(join(source, f))).join('\n');
const key = createHash('sha256').update(Object.values(FILES).join() + packer).digest('hex').slice(0, 16);
const target = JSON.parse(execFileSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], { cwd: source, maxBuffer: 1 << 26 })).target_directory;
mkdirSync(join(target, 'model'), { recursive: true });
const packed = join(target, 'model', `stories260K-${key}.rlm`);
if (!existsSync(packed)) {
  // A native build of the packer: none of the web build's flags (split, relocations) apply.
  const env = { ...process.env };
  for (const name of ['RUSTFLAGS', 'CARGO_ENCODED_RUSTFLAGS', 'CARGO_BUILD_TARGET']) delete env[name];
  execFileSync('cargo', ['run', '--quiet', '--locked', '--example', 'pack_model', '--', dir, packed], { cwd: source, env, stdio: ['ignore', 'inherit', 'inherit'] });
}
copyFileSync(packed, join(staging, PACKED));
writeFileSync(join(staging, 'model.json'), JSON.stringify({ file: PACKED, ...manifest }));
console.log(`model: ${PACKED} from ${dir}`);
