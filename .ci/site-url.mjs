// trunk's last post_build step: link cards (Mastodon, Slack, LinkedIn, X) do not resolve a
// relative og:image against the page, so a deploy that knows its address says it:
//   SITE_URL=https://example.org/rope-lab/ make build
// makes og:image absolute and adds og:url. Without SITE_URL (or with it empty) index.html keeps
// its relative paths and can be copied to any folder. A SITE_URL that is not an http(s) address
// ending in / fails the build: a wrong card address would otherwise go unnoticed until shared.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error('site-url: run me from trunk (TRUNK_STAGING_DIR is not set)');
const site = process.env.SITE_URL ?? '';
if (site === '') process.exit(0);

function fail(why) {
  console.error(`site-url: SITE_URL=${JSON.stringify(site)} ${why}; e.g. SITE_URL=https://example.org/rope-lab/`);
  process.exit(1);
}
let base;
try {
  base = new URL(site);
} catch {
  fail('is not an absolute address');
}
if (base.protocol !== 'https:' && base.protocol !== 'http:') fail('must start with https:// or http://');
if (base.search || base.hash || base.username || base.password) fail('must be a plain folder address (no ?query, #fragment or user name)');
if (!site.endsWith('/')) fail('must end with / (the folder that holds index.html)');

const attr = (s) => s.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
const page = join(staging, 'index.html');
let html = readFileSync(page, 'utf8');
const image = /(<meta property="og:image" content=")([^"]*)(")/;
const found = html.match(image);
if (!found) throw new Error('site-url: index.html has no og:image to make absolute');
html = html.replace(image, (_, open, path, close) => open + attr(new URL(path, base).href) + close);
html = html.replace(/<meta property="og:url"[^>]*>\s*/, '');
html = html.replace(/<meta property="og:image"[^>]*>/, (tag) => `${tag}\n    <meta property="og:url" content="${attr(base.href)}" />`);
writeFileSync(page, html);
console.log(`site-url: og:image and og:url under ${base.href}`);
