// A classroom without network (issue 39): after one visit the release build works offline, every
// chapter with the values it shows online, and a new deploy replaces the stored build as a whole.
// Each test serves its own copy of the build (so that it can stop the server, or deploy another
// build in its place) and lets the offline worker run, which playwright.config.mjs blocks elsewhere.
import { test, expect, readThrough } from './fixtures.mjs';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { port as suitePort } from './playwright.config.mjs';

test.use({ serviceWorkers: 'allow' });
test.describe.configure({ timeout: 180_000 });

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = resolve(here, process.env.E2E_DIST ?? '../dist');
const port = suitePort + 31;
const base = `http://127.0.0.1:${port}/`;
// Pictures for the README and link previews: the page does not show them, the worker leaves them.
const notStored = ['assets/screenshot.png', 'assets/social-card.png', 'service-worker.js'];

/** Every file of a build, relative to its folder. */
function filesOf(dir) {
  const out = [];
  const walk = (folder) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return out;
}

/** serve.mjs on `root` (read at every request: replacing its files deploys another build). */
async function serve(root) {
  const child = spawn('node', [join(here, 'serve.mjs'), root, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((ready, fail) => {
    child.stdout.on('data', (text) => String(text).includes('serving') && ready());
    child.on('exit', () => fail(new Error('the server stopped before serving')));
  });
  const exited = new Promise((done) => child.on('exit', done));
  return {
    stop: () => {
      child.kill();
      return exited;
    },
  };
}

/** A fresh folder holding a copy of `from`, and a function that deploys another build in it. */
function site(from) {
  const root = mkdtempSync(join(tmpdir(), 'rope-lab-offline-'));
  const dir = join(root, 'site');
  cpSync(from, dir, { recursive: true });
  return {
    root,
    dir,
    deploy(build) {
      for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
      cpSync(build, dir, { recursive: true });
    },
  };
}

/** Another build: `from` with a changed picture and a marker in index.html, its worker rewritten. */
function variant(root, from, name, { rewriteWorker = true, afterWorker } = {}) {
  const dir = join(root, name);
  cpSync(from, dir, { recursive: true });
  const svg = join(dir, 'assets', 'patches.svg');
  writeFileSync(svg, readFileSync(svg, 'utf8').replace('</svg>', `<!-- ${name} --></svg>`));
  const page = join(dir, 'index.html');
  writeFileSync(page, readFileSync(page, 'utf8').replace('<head>', `<head>\n    <meta name="test-build" content="${name}" />`));
  if (rewriteWorker) execFileSync('node', [join(here, '..', '.ci', 'offline.mjs'), dir]);
  afterWorker?.(dir);
  return dir;
}

/** Our caches in the page's origin: name -> the URLs stored. */
const stored = (page) => page.evaluate(async () => {
  const out = {};
  for (const name of await caches.keys()) out[name] = (await (await caches.open(name)).keys()).map((r) => r.url).sort();
  return out;
});

/** Waits until the worker controls the page and one cache holds exactly the files of `dir`. */
async function storedAll(page, dir, besides = []) {
  // A model a reader downloads only on asking (SmolLM2's .gguf) is not stored with the build.
  const expected = filesOf(dir).filter((f) => !notStored.includes(f) && !besides.includes(f) && !f.endsWith('.gguf')).map((f) => base + f).sort();
  expect(expected).toContain(`${base}index.html`);
  expect(expected.some((url) => /\/split-[0-9a-f]+\/split_beyond_\d+\.wasm$/.test(url)), 'the last part is in the list').toBe(true);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 60_000 }).toBe(true);
  await expect.poll(async () => Object.values(await stored(page)).filter((urls) => urls.includes(`${base}index.html`)), { timeout: 60_000 })
    .toEqual([expected]);
  const [name] = Object.entries(await stored(page)).find(([, urls]) => urls.includes(`${base}index.html`));
  return name;
}

/** Every readable value of the page, in document order, once every chapter is here. */
async function readouts(page) {
  await expect(page.locator('[data-widget]').first()).toBeAttached();
  await readThrough(page);
  await expect(page.getByTestId('score')).toHaveAttribute('data-value', /\d/);
  return page.locator('[data-testid][data-value]').evaluateAll((els) => els.map((e) => `${e.dataset.testid}=${e.dataset.value}`));
}

/** The SHA-256 of what the cache `name` holds for each of `urls`, read in the page. */
const hashesIn = (page, name, urls) => page.evaluate(async ([name, urls]) => {
  const cache = await caches.open(name);
  const out = {};
  for (const url of urls) {
    const bytes = await (await cache.match(url)).arrayBuffer();
    out[url] = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
  }
  return out;
}, [name, urls]);
const hashesOf = (dir, urls) => Object.fromEntries(urls.map((url) => [url, createHash('sha256').update(readFileSync(join(dir, url.slice(base.length)))).digest('hex')]));

test('after one visit every chapter works offline, with the values it shows online, a permalink too', async ({ page, context }) => {
  const copy = site(dist);
  const lesson = { title: 'Offline', steps: [{ view: '?dim=8&m=3&n=1#clocks', caption: 'Each plane is a clock.' }] };
  mkdirSync(join(copy.dir, 'lessons'));
  writeFileSync(join(copy.dir, 'lessons', 'mine.json'), JSON.stringify(lesson));
  const server = await serve(copy.dir);
  try {
    const permalink = `${base}?m=3&n=1&dim=8#clocks`;
    await page.goto(base);
    await storedAll(page, copy.dir, ['lessons/mine.json']);
    expect(await page.evaluate(() => fetch('lessons/mine.json').then((r) => r.json()))).toEqual(lesson);
    const online = await readouts(page);
    const chapters = await page.locator('[data-widget]').count();
    expect(chapters).toBeGreaterThan(10);
    expect(online.length).toBeGreaterThan(30);
    await page.goto(permalink);
    const onlinePermalink = await readouts(page);
    expect(onlinePermalink, 'the permalink shows other values').not.toEqual(online);

    // No network at all: the browser offline and the server gone.
    await context.setOffline(true);
    await server.stop();
    await page.goto(base);
    expect(await readouts(page)).toEqual(online);
    expect(await page.locator('[data-widget]').count()).toBe(chapters);
    await expect(page.locator('.widget-loading')).toHaveCount(0);
    // The chapters' pictures came from the cache too.
    const picture = page.locator('img.patch-picture');
    await picture.scrollIntoViewIfNeeded();
    await expect.poll(() => picture.evaluate((img) => img.complete && img.naturalWidth)).toBe(256);

    // A permalink with a query and a chapter: the same page, at its chapter, with its values.
    await page.goto(permalink);
    await expect(page.locator('#m-slider')).toHaveValue('3');
    await expect(page.locator('#n-slider')).toHaveValue('1');
    await expect.poll(() => page.locator('#clocks').evaluate((el) => Math.abs(el.getBoundingClientRect().top)), { timeout: 10_000 }).toBeLessThan(60);
    expect(await readouts(page)).toEqual(onlinePermalink);
    // And a reload of it.
    await page.reload();
    expect(await readouts(page)).toEqual(onlinePermalink);
    // A lesson file served beside the page (not part of the build) is there as last read online.
    expect(await page.evaluate(() => fetch('lessons/mine.json').then((r) => r.json()))).toEqual(lesson);
  } finally {
    await context.setOffline(false);
    await server.stop().catch(() => {});
    rmSync(copy.root, { recursive: true, force: true });
  }
});

test('a lesson file opened only on the first visit opens offline too', async ({ page, context }) => {
  // The page reads the file before the worker of a first visit controls it: it must be kept anyway.
  const copy = site(dist);
  const lesson = { title: 'Mine, offline', steps: [{ view: '?dim=8&m=3&n=1#clocks', caption: 'Each plane is a clock.' }, { view: '?m=5#clocks', caption: 'Move m.' }] };
  mkdirSync(join(copy.dir, 'lessons'));
  writeFileSync(join(copy.dir, 'lessons', 'mine.json'), JSON.stringify(lesson));
  const server = await serve(copy.dir);
  try {
    const link = `${base}?lesson=lessons/mine.json`;
    await page.goto(link);
    await expect(page.getByTestId('lesson-caption')).toHaveText('Each plane is a clock.');
    await storedAll(page, copy.dir, ['lessons/mine.json']);
    await expect.poll(async () => Object.values(await stored(page)).flat(), { timeout: 30_000 }).toContain(`${base}lessons/mine.json`);

    await context.setOffline(true);
    await server.stop();
    await page.goto(link);
    await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-value', '1/2');
    await expect(page.getByTestId('lesson-caption')).toHaveText('Each plane is a clock.');
    await expect(page.getByText('could not be read')).toHaveCount(0);
  } finally {
    await context.setOffline(false);
    await server.stop().catch(() => {});
    rmSync(copy.root, { recursive: true, force: true });
  }
});

test('a new deploy replaces the stored build as a whole, and a broken one replaces nothing', async ({ page, context }) => {
  const copy = site(dist);
  // A deploy with a file that is not the one its worker lists (a half-uploaded deploy).
  const broken = variant(copy.root, dist, 'broken', {
    afterWorker: (dir) => writeFileSync(join(dir, 'assets', 'patches.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>'),
  });
  const next = variant(copy.root, dist, 'next');
  const server = await serve(copy.dir);
  try {
    await page.goto(base);
    const first = await storedAll(page, copy.dir);
    expect(first).toMatch(/^rope-lab http:\/\/127\.0\.0\.1:\d+\/ [0-9a-f]{16}$/);

    // The broken deploy: its worker fails to install, the first build stays, whole.
    copy.deploy(broken);
    const state = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration.update();
      const worker = registration.installing ?? registration.waiting;
      while (worker?.state === 'installing') await new Promise((done) => worker.addEventListener('statechange', done, { once: true }));
      return worker?.state ?? 'none';
    });
    expect(state).toBe('redundant');
    expect(Object.keys(await stored(page))).toEqual([first]);

    // The next deploy: the page shows the stored build while the new one is stored beside it ...
    copy.deploy(next);
    await page.reload();
    await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state ?? 'none'), { timeout: 60_000 })
      .toBe('installed');
    await expect(page.locator('meta[name="test-build"]')).toHaveCount(0);
    const both = Object.keys(await stored(page));
    expect(both).toHaveLength(2);
    expect(both).toContain(first);
    const second = both.find((name) => name !== first);
    // ... and a reload shows it: the old build's cache is gone, the new one holds exactly its files.
    await page.reload();
    await expect(page.locator('meta[name="test-build"]')).toHaveAttribute('content', 'next', { timeout: 20_000 });
    await expect.poll(async () => Object.keys(await stored(page)), { timeout: 20_000 }).toEqual([second]);
    expect(await storedAll(page, next)).toBe(second);
    const urls = (await stored(page))[second];
    expect(await hashesIn(page, second, urls)).toEqual(hashesOf(next, urls));

    // Offline, the new build.
    await context.setOffline(true);
    await server.stop();
    await page.reload();
    await expect(page.locator('meta[name="test-build"]')).toHaveAttribute('content', 'next');
    await readouts(page);
  } finally {
    await context.setOffline(false);
    await server.stop().catch(() => {});
    rmSync(copy.root, { recursive: true, force: true });
  }
});

test('a development build served where the release build was retires its worker and caches', async ({ page }) => {
  const copy = site(dist);
  // As trunk serve builds it: the boot script registers no worker; service-worker.js retires one.
  const dev = variant(copy.root, dist, 'dev', {
    rewriteWorker: false,
    afterWorker: (dir) => {
      const boot = join(dir, readFileSync(join(dir, 'index.html'), 'utf8').match(/src="\.\/(boot-[0-9a-f]+\.js)"/)[1]);
      const lines = readFileSync(boot, 'utf8').split('\n');
      expect(lines.filter((line) => line.includes('serviceWorker'))).toHaveLength(1);
      writeFileSync(boot, lines.filter((line) => !line.includes('serviceWorker')).join('\n'));
      execFileSync('node', [join(here, '..', '.ci', 'offline.mjs'), dir, '--retire']);
    },
  });
  const server = await serve(copy.dir);
  try {
    await page.goto(base);
    await storedAll(page, copy.dir);
    copy.deploy(dev);
    // The stored build may show once more; the retiring worker then reloads the page from the server.
    await page.reload();
    await expect(page.locator('meta[name="test-build"]')).toHaveAttribute('content', 'dev', { timeout: 30_000 });
    await expect.poll(async () => Object.keys(await stored(page)), { timeout: 20_000 }).toEqual([]);
    await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), { timeout: 20_000 }).toBe(0);
    await readouts(page);
  } finally {
    await server.stop().catch(() => {});
    rmSync(copy.root, { recursive: true, force: true });
  }
});

test('the page is installable: its manifest, icons and theme colours', async ({ page }) => {
  const copy = site(dist);
  const server = await serve(copy.dir);
  try {
    await page.goto(base);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href, 'relative, for a sub-folder').not.toMatch(/^\/|:/);
    const manifest = JSON.parse(readFileSync(join(copy.dir, href), 'utf8'));
    expect(manifest).toMatchObject({ name: 'RoPE Lab', start_url: './', display: 'standalone' });
    // The theme colours are the page's background in each scheme (style/palette.css).
    const background = async (scheme) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.reload();
      // Once the app has set the theme (before it, the browser's own canvas colour shows).
      await page.locator(`html[data-theme="${scheme}"]`).waitFor({ state: 'attached' });
      return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    };
    const rgb = (hex) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
    for (const scheme of ['light', 'dark']) {
      const meta = await page.locator(`meta[name="theme-color"][media="(prefers-color-scheme: ${scheme})"]`).getAttribute('content');
      expect(rgb(meta), scheme).toBe(await background(scheme));
    }
    expect(rgb(manifest.theme_color)).toBe(await background('light'));
    expect(rgb(manifest.background_color)).toBe(await background('light'));
    // Each icon is a PNG of the size it claims, any and maskable, 192 and 512.
    for (const icon of manifest.icons) {
      const png = readFileSync(join(copy.dir, icon.src));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(icon.sizes);
    }
    expect(manifest.icons.map((i) => `${i.purpose} ${i.sizes}`).sort()).toEqual(['any 192x192', 'any 512x512', 'maskable 192x192', 'maskable 512x512']);
    // Chromium reads the manifest as installable (its own check, through the DevTools protocol).
    const cdp = await page.context().newCDPSession(page);
    await expect.poll(async () => (await cdp.send('Page.getAppManifest')).errors, { timeout: 10_000 }).toEqual([]);
    const { url } = await cdp.send('Page.getAppManifest');
    expect(url).toBe(`${base}manifest.webmanifest`);
  } finally {
    await server.stop();
    rmSync(copy.root, { recursive: true, force: true });
  }
});
