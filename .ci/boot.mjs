// trunk's first post_build step: a strict Content-Security-Policy (script-src 'self') forbids
// inline scripts, so the boot script trunk writes into index.html moves to its own file, named
// by its content's hash.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('boot: run me from trunk (TRUNK_STAGING_DIR is not set)');
const page = join(dir, 'index.html');
const html = readFileSync(page, 'utf8');
const inline = /<script type="module">([\s\S]*?)<\/script>/;
const found = html.match(inline);
if (!found) throw new Error('boot: no inline boot script in index.html');
const code = found[1].trim() + '\n';
const name = 'boot-' + createHash('sha256').update(code).digest('hex').slice(0, 16) + '.js';
writeFileSync(join(dir, name), code);
writeFileSync(page, html.replace(inline, () => `<script type="module" src="./${name}"></script>`));
if (/<script(?![^>]*\bsrc=)[^>]*>/.test(readFileSync(page, 'utf8'))) throw new Error('boot: an inline script is left');
