// Part of .ci/split.mjs (issue 48: the first visit's bytes). wasm-bindgen names every import of
// the page's frame `__wbg_<name>_<16 hex digits>`, once in the module's import section and once
// in the glue's import object, under the module name `./rope-lab-<hash>_bg.js`: 281 names whose
// hashes gzip cannot shrink (8 KB of a first visit). This renames them `a`, `b`, … `ba`, … and
// the module `m`, in both files alike. It also drops the exports no code calls: the three
// ReadableStream classes leptos' server functions bring along (the page has no server), so that
// wasm-opt removes their code. Parts import nothing from the glue (only the loader's table and
// memory), so they need no change.
import { readFileSync, writeFileSync } from 'node:fs';

/** Reads a LEB128 unsigned integer at `at`: [value, next offset]. */
function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

/** A LEB128 unsigned integer's bytes. */
function toLeb(value) {
  const out = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return Buffer.from(out);
}

const name = (text) => Buffer.concat([toLeb(Buffer.byteLength(text)), Buffer.from(text)]);

/** The n-th short name: a … z, A … Z, then ba, bb, … (never a JS keyword: all are 1 or 2 letters
 * and none of do, if, in is reached before 52 + 52 × 52 names). */
function shortName(n) {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let text = '';
  do {
    text = letters[n % 52] + text;
    n = Math.floor(n / 52);
  } while (n);
  return text;
}

/** Rewrites the import section (id 2) and the export section (id 7) of `wasm`. */
function rewrite(wasm, glueModule, dropExport) {
  const renamed = new Map();
  const out = [wasm.subarray(0, 8)];
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, start] = leb(wasm, at + 1);
    const end = start + size;
    if (id === 2 || id === 7) {
      let [count, p] = leb(wasm, start);
      const entries = [];
      let kept = 0;
      for (let i = 0; i < count; i++) {
        if (id === 2) {
          const from = p;
          let length;
          [length, p] = leb(wasm, p);
          const module = wasm.subarray(p, p + length).toString();
          p += length;
          [length, p] = leb(wasm, p);
          const field = wasm.subarray(p, p + length).toString();
          p += length;
          const descriptor = p;
          const kind = wasm[p++];
          if (kind === 0) [, p] = leb(wasm, p);
          else if (kind === 1 || kind === 2) {
            if (kind === 1) p++;
            const flags = wasm[p++];
            [, p] = leb(wasm, p);
            if (flags & 1) [, p] = leb(wasm, p);
          } else if (kind === 3) p += 2;
          else if (kind === 4) [, p] = leb(wasm, p + 1);
          else throw new Error(`short-imports: import kind ${kind} unknown`);
          if (module === glueModule) {
            if (!renamed.has(field)) renamed.set(field, shortName(renamed.size));
            entries.push(Buffer.concat([name('m'), name(renamed.get(field)), wasm.subarray(descriptor, p)]));
          } else {
            entries.push(wasm.subarray(from, p));
          }
          kept++;
        } else {
          const from = p;
          let length;
          [length, p] = leb(wasm, p);
          const field = wasm.subarray(p, p + length).toString();
          p += length + 1;
          [, p] = leb(wasm, p);
          if (dropExport.test(field)) continue;
          entries.push(wasm.subarray(from, p));
          kept++;
        }
      }
      const body = Buffer.concat([toLeb(kept), ...entries]);
      out.push(Buffer.from([id]), toLeb(body.length), body);
    } else {
      out.push(wasm.subarray(at, end));
    }
    at = end;
  }
  return { wasm: Buffer.concat(out), renamed };
}

/** Shortens the imports of the bound module `wasmPath` and its glue `gluePath` (`name`: the
 * files' name without extension), in place. Returns how many were renamed. */
export function shortenImports(wasmPath, gluePath, name) {
  const glueModule = `./${name}_bg.js`;
  // Exports of leptos' server-function streams (`IntoUnderlyingByteSource` and its kin).
  const dropExport = /^(__wbg_)?intounderlying/;
  const { wasm, renamed } = rewrite(readFileSync(wasmPath), glueModule, dropExport);
  let glue = readFileSync(gluePath, 'utf8');
  const key = JSON.stringify(glueModule);
  if (glue.split(key).length !== 2) throw new Error(`short-imports: the glue names ${key} other than once`);
  glue = glue.replace(key, '"m"');
  for (const [field, short] of renamed) {
    // The import object's keys (`__wbg_log_0123456789abcdef: function(…`), not other mentions.
    const keyOf = new RegExp(`(?<![\\w$])${field.replace(/\$/g, '\\$')}(?=\\s*:)`, 'g');
    const found = glue.match(keyOf)?.length ?? 0;
    if (found !== 1) throw new Error(`short-imports: the glue has ${found} keys ${field}`);
    glue = glue.replace(keyOf, short);
  }
  writeFileSync(wasmPath, wasm);
  writeFileSync(gluePath, glue);
  return renamed.size;
}
