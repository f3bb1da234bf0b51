// trunk's last post_build hook: the offline worker (issue 39, a classroom without network).
// In the release build with parts (`make build`): the boot script registers
// `service-worker.js` once the page is idle, and the worker stores every file of the build,
// each with its SHA-256 (fetch's integrity check), in a cache named by a hash over them all, so
// that a new deploy replaces the whole build at once. In every other build (trunk serve, a plain
// trunk build) nothing registers a worker, and `service-worker.js` retires one a release build
// may have left on the same address (.ci/offline/retire.js).
//
// `node .ci/offline.mjs <dir>` writes the worker of a build already in <dir> again (after a file
// in it changed), and `node .ci/offline.mjs <dir> --retire` the retiring one (the tests use both).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { transformSync } from 'esbuild';

export const WORKER = 'service-worker.js';
// Pictures for the README and for link previews, not shown by the page: not stored (290 KB).
export const LEFT_OUT = new Set(['assets/screenshot.png', 'assets/social-card.png']);

const template = (name) => readFileSync(new URL(`./offline/${name}`, import.meta.url), 'utf8');
const minify = (code) => transformSync(code, { loader: 'js', minify: true, logLevel: 'error' }).code;

/** Every file of the build in `dir` the worker stores, as paths relative to it ('/'-separated). */
export function filesOf(dir) {
  const out = [];
  const walk = (folder) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (name.startsWith('.')) continue;
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  // A model a reader downloads only when they ask for it (SmolLM2, 98 MB): the model's worker
  // stores it itself when it is asked for (.ci/offline/worker.js keeps that cache).
  return out.filter((f) => f !== WORKER && !LEFT_OUT.has(f) && !f.endsWith('.gguf'));
}

/** Writes the worker of the build in `dir`; returns its cache's build hash. */
export function writeWorker(dir) {
  const files = filesOf(dir).map((f) => [f, 'sha256-' + createHash('sha256').update(readFileSync(join(dir, f))).digest('base64')]);
  if (!files.some(([f]) => f === 'index.html')) throw new Error(`offline: no index.html in ${dir}`);
  const build = createHash('sha256').update(files.map((f) => f.join(' ')).join('\n')).digest('hex').slice(0, 16);
  const code = template('worker.js').replace("'__BUILD__'", JSON.stringify(build)).replace('__FILES__', JSON.stringify(files));
  writeFileSync(join(dir, WORKER), minify(code));
  return { build, count: files.length };
}

/** Writes the worker that removes a release build's worker and caches from the browser. */
export function writeRetire(dir) {
  writeFileSync(join(dir, WORKER), minify(template('retire.js')));
}

/** Appends the worker's registration to the boot script, renamed by its new content's hash. */
function register(dir) {
  const pagePath = join(dir, 'index.html');
  const html = readFileSync(pagePath, 'utf8');
  const boot = html.match(/<script type="module" src="\.\/(boot-[0-9a-f]+\.js)"><\/script>/)?.[1];
  if (!boot) throw new Error('offline: index.html loads no boot-<hash>.js (.ci/boot.mjs runs first)');
  const code = readFileSync(join(dir, boot), 'utf8').trimEnd() + '\n' + minify(template('register.js'));
  const name = 'boot-' + createHash('sha256').update(code).digest('hex').slice(0, 16) + '.js';
  writeFileSync(join(dir, boot), code);
  renameSync(join(dir, boot), join(dir, name));
  writeFileSync(pagePath, html.replace(`src="./${boot}"`, `src="./${name}"`));
}

const staging = process.env.TRUNK_STAGING_DIR;
if (staging) {
  const split = process.env.TRUNK_PROFILE === 'release' && /--cfg[= ]split\b/.test(process.env.RUSTFLAGS ?? '');
  if (split) {
    register(staging);
    const { build, count } = writeWorker(staging);
    console.log(`offline: ${WORKER} stores ${count} files as build ${build}`);
  } else {
    writeRetire(staging);
  }
} else if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [dir, flag] = process.argv.slice(2);
  if (!dir) throw new Error('usage: node .ci/offline.mjs <dir> [--retire]');
  if (flag === '--retire') writeRetire(dir);
  else {
    const { build, count } = writeWorker(dir);
    console.log(`offline: ${WORKER} stores ${count} files as build ${build}`);
  }
}
