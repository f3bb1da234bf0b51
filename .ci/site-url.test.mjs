// Checks .ci/site-url.mjs (run by `make test`): the build step is run, as trunk runs it, on a
// copy of index.html with and without SITE_URL, and on addresses it must refuse.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./site-url.mjs', import.meta.url));
const source = readFileSync(fileURLToPath(new URL('../index.html', import.meta.url)), 'utf8');
const metas = (html, property) =>
  [...html.matchAll(new RegExp(`<meta property="${property}" content="([^"]*)" />`, 'g'))].map((m) => m[1]);

function run(html, siteUrl) {
  const dir = mkdtempSync(join(tmpdir(), 'site-url-'));
  try {
    writeFileSync(join(dir, 'index.html'), html);
    const env = { ...process.env, TRUNK_STAGING_DIR: dir };
    delete env.SITE_URL;
    if (siteUrl !== undefined) env.SITE_URL = siteUrl;
    const result = spawnSync(process.execPath, [script], { env, encoding: 'utf8' });
    return { status: result.status, stderr: result.stderr, html: readFileSync(join(dir, 'index.html'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The page as committed: a relative card image, no og:url.
assert.deepEqual(metas(source, 'og:image'), ['assets/social-card.png']);
assert.deepEqual(metas(source, 'og:url'), []);

// Without SITE_URL, or with it empty, nothing changes.
for (const unset of [undefined, '']) {
  const out = run(source, unset);
  assert.equal(out.status, 0, out.stderr);
  assert.equal(out.html, source, `SITE_URL=${unset}: index.html must stay as it is`);
}

// docs/deploying.md's example: the address it builds with and the card image it says it writes.
const guide = readFileSync(fileURLToPath(new URL('../docs/deploying.md', import.meta.url)), 'utf8');
const example = guide.match(/^SITE_URL=(\S+) make build$/m)?.[1];
const promised = guide.match(/writes `og:image` as\s+`([^`]+)`/)?.[1];
assert.ok(example && promised, "docs/deploying.md's SITE_URL example and the og:image it promises");
assert.deepEqual(metas(run(source, example).html, 'og:image'), [promised], 'docs/deploying.md: the card image it promises');

// With it: the card's image and the page's address, absolute; nothing else changes.
for (const [site, image] of [
  ['https://example.org/rope-lab/', 'https://example.org/rope-lab/assets/social-card.png'],
  ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/assets/social-card.png'],
  ['https://example.org/a b/', 'https://example.org/a%20b/assets/social-card.png'],
]) {
  const out = run(source, site);
  assert.equal(out.status, 0, out.stderr);
  assert.deepEqual(metas(out.html, 'og:image'), [image], site);
  assert.deepEqual(metas(out.html, 'og:url'), [new URL(site).href], site);
  const rest = (html) => html.split('\n').filter((line) => !/og:(image|url)/.test(line)).join('\n');
  assert.equal(rest(out.html), rest(source), `${site}: only og:image and og:url may change`);
  // A second run (a rebuild on the same staging copy) leaves one of each, the same.
  const again = run(out.html, site);
  assert.equal(again.html, out.html, `${site}: running twice must change nothing more`);
}

// Addresses that would make a broken card fail the build, with a message naming SITE_URL.
for (const bad of [
  'https://example.org/rope-lab',
  'example.org/rope-lab/',
  '/rope-lab/',
  'ftp://example.org/rope-lab/',
  'javascript:alert(1)/',
  'https://example.org/rope-lab/?v=1/',
  'https://example.org/rope-lab/#top/',
]) {
  const out = run(source, bad);
  assert.notEqual(out.status, 0, `SITE_URL=${bad} must fail the build`);
  assert.match(out.stderr, /SITE_URL=/, bad);
  assert.equal(out.html, source, `SITE_URL=${bad}: index.html must be left alone`);
}

console.log("site-url: relative without SITE_URL, absolute with it (docs/deploying.md's example too), bad addresses refused");
