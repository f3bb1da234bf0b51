// Benchmark: main-thread work per slider step, as a person makes it, both ways: focus a slider
// and press an arrow key; or hold its thumb with the mouse and drag it, 2 px per pointer move
// (about 3 values of d, 25 positions of m, 0.05 of log10 base per move on the 162 px slider).
// Chromium's own task clock (CDP Performance.getMetrics TaskDuration) from just before each
// press or move to the second animation frame after it. Every slider (base, dimension,
// query position m, key position n), beside the same measurement on a page holding one
// labelled slider (the floor any slider page pays), measured before and after each scenario in
// the same run and averaged. Printed as a table: median and p95 per step, the median above the
// one-slider page's, and at the top of the page the p95 above it too (issue 9's two goals).
//
// `make test` runs a short version (PERF_STEPS, default 16 presses) whose assertion only guards
// against gross regressions (three frames), so that a noisy CI machine does not fail over a
// benchmark. `make bench` runs 60 presses and every scenario of issue 9 (BENCH=full).
// Headless Chromium here composites in software, where every canvas costs more than on a GPU.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test, expect, open, WORKER_BLOCKED } from './fixtures.mjs';
import { port } from './playwright.config.mjs';

const FULL = process.env.BENCH === 'full';
const STEPS = Number(process.env.PERF_STEPS ?? (FULL ? 60 : 16));
const FRAME_MS = 1000 / 60;
const ONE_SLIDER = `<!doctype html><label for="s">value</label>
<input id="s" type="range" min="0" max="4096" value="300"><output>300</output>
<script>document.querySelector('#s').addEventListener('input', (e) => {
  document.querySelector('output').textContent = e.target.value; });</script>`;

// The peer (`make bench` passes PEER_DIR when the static build of the richest interactive RoPE
// page is beside the repository): its RoPE tab's sliders, by accessible name.
const PEER_DIR = process.env.PEER_DIR ? resolve(process.env.PEER_DIR) : '';
const PEER_SLIDERS = ['Position m for relative demo', 'Position n for relative demo', 'Distance between tokens'];
const PEER_ROUNDS = Number(process.env.PEER_ROUNDS ?? 10);
const PEER_PRESSES = Number(process.env.PEER_PRESSES ?? 8);

const SLIDERS = [
  ['base', '#base-slider'],
  ['dimension', '#dim-slider'],
  ['query position m', '#m-slider'],
  ['key position n', '#n-slider'],
];

/** Main-thread ms of each of `steps` arrow-key presses on `selector` (or a locator), turning back every 8
 * presses so the value stays in range; the first run goes away from the nearer end, so that no
 * press is lost against a limit (d = 1024 is the dimension slider's maximum). */
async function msPerPress(page, selector, steps = STEPS) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskSeconds = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  // Focus without scrolling: the benchmark measures the page where the reader left it.
  const slider = typeof selector === 'string' ? page.locator(selector) : selector;
  const up = await slider.evaluate((el) => {
    el.focus({ preventScroll: true });
    return Number(el.value) - Number(el.min) <= Number(el.max) - Number(el.value);
  });
  const samples = [];
  for (let i = 0; i < steps; i++) {
    const before = await taskSeconds();
    await page.keyboard.press((Math.floor(i / 8) % 2 === 0) === up ? 'ArrowRight' : 'ArrowLeft');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    samples.push(((await taskSeconds()) - before) * 1000);
  }
  await cdp.detach();
  return { ...quantiles(samples), samples };
}

/** Main-thread ms over the 600 ms after a slider's last press: what follows once it rests
 * (RoPE Lab's sleeping chapters catch up 250 ms after the last step). */
async function msAtRest(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskSeconds = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const before = await taskSeconds();
  await page.waitForTimeout(600);
  const ms = ((await taskSeconds()) - before) * 1000;
  await cdp.detach();
  return ms;
}

/** The median and p95 of `samples`. */
function quantiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95) };
}

/** Main-thread ms of each of `steps` pointer moves of 2 px while dragging the thumb of the range
 * input `selector` (scrolled into view first if it is not: the panel is sticky, but at the very
 * top of the page its lower sliders start below the fold), turning back every 8 moves, the
 * first run away from the nearer end. */
async function msPerDrag(page, selector, steps = STEPS) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskSeconds = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const slider = page.locator(selector);
  await slider.scrollIntoViewIfNeeded();
  await page.waitForTimeout(200);
  // The thumb's centre: where the value sits between min and max, inside the thumb's half width.
  const { x, y, width, fraction, up } = await slider.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const fraction = (Number(el.value) - Number(el.min)) / (Number(el.max) - Number(el.min));
    return { x: box.x, y: box.y + box.height / 2, width: box.width, fraction, up: fraction <= 0.5 };
  });
  const thumb = 8;
  let at = x + thumb + fraction * (width - 2 * thumb);
  await page.mouse.move(at, y);
  await page.mouse.down();
  const before = await slider.inputValue();
  let moved = false;
  const samples = [];
  for (let i = 0; i < steps; i++) {
    const start = await taskSeconds();
    at += (Math.floor(i / 8) % 2 === 0) === up ? 2 : -2;
    await page.mouse.move(at, y);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    samples.push(((await taskSeconds()) - start) * 1000);
    // Read after the measurement, once: the drag really moves the value.
    if (i === 0) moved = (await slider.inputValue()) !== before;
  }
  await page.mouse.up();
  await cdp.detach();
  samples.sort((a, b) => a - b);
  const q = (p) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))];
  return { median: q(0.5), p95: q(0.95), moved };
}

async function floor(page) {
  // A blank document first: setContent keeps the current page's (strict) policy, which would
  // block the floor page's inline script.
  await page.goto('about:blank');
  await page.setContent(ONE_SLIDER);
  return { keys: await msPerPress(page, '#s'), drag: await msPerDrag(page, '#s') };
}

const fmt = (x) => x.toFixed(2).padStart(6);

/** The one-slider page measured before and after a scenario, averaged: this machine's speed
 * drifts within minutes, and a floor read once, before, moved every figure above it with it. */
const meanOf = (a, b) => ({ median: (a.median + b.median) / 2, p95: (a.p95 + b.p95) / 2 });

/** Measures every slider at `path`, after `prepare` (scrolling a chart into view), beside the
 * one-slider page before and after. `p95Goal`: issue 9's goal for the p95 above the one-slider
 * page's median (the top of the page), or null. */
async function scenario(page, label, path, prepare, budget, p95Goal) {
  const before = await floor(page);
  await open(page, path);
  if (prepare) await prepare(page);
  await page.waitForTimeout(400);
  const measured = [];
  for (const [name, selector] of SLIDERS) {
    measured.push({ name, how: 'keys', ...(await msPerPress(page, selector)) });
  }
  // Then by pointer, from where the keys left the page (the sliders are at most a screen away).
  for (const [name, selector] of SLIDERS) {
    const { median, p95, moved } = await msPerDrag(page, selector);
    expect(moved, `dragging ${name} moves it`).toBe(true);
    measured.push({ name: `${name} (drag)`, how: 'drag', median, p95 });
  }
  const after = await floor(page);
  const base = { keys: meanOf(before.keys, after.keys), drag: meanOf(before.drag, after.drag) };
  const rows = measured.map((r) => ({ ...r, above: r.median - base[r.how].median, p95Above: r.p95 - base[r.how].median }));
  for (const r of rows) {
    const p95 = p95Goal == null ? '' : `  p95 above ${fmt(r.p95Above)} ms (goal ${p95Goal} ms: ${r.p95Above <= p95Goal ? 'met' : 'MISSED'})`;
    console.log(
      `perf: ${label.padEnd(44)} ${r.name.padEnd(24)} median ${fmt(r.median)} ms  p95 ${fmt(r.p95)} ms  ` +
        `above one slider ${fmt(r.above)} ms (goal ${budget} ms: ${r.above <= budget ? 'met' : 'MISSED'})${p95}`,
    );
  }
  for (const how of ['keys', 'drag']) {
    const [b, a, m] = [before[how], after[how], base[how]];
    console.log(
      `perf: ${label.padEnd(44)} ${`one-slider page (${how})`.padEnd(24)} median ${fmt(m.median)} ms  p95 ${fmt(m.p95)} ms  ` +
        `(before ${fmt(b.median)}, after ${fmt(a.median)})`,
    );
  }
  return rows;
}

// The first match: the decay chapter has two canvases (the relative bound above, the absolute
// one below); the scenario watches the first.
const inView = (selector) => async (page) => {
  await page.locator(selector).first().evaluate((el) => el.scrollIntoView({ block: 'center' }));
};

// [label, path, what to scroll into view, goal above the one-slider page (issue 9) in ms,
//  goal for the p95 above it (or null), regression guard in frames, in the short run?]
const SCENARIOS = [
  ['d=128, top of the page', '/?dim=128&m=300&n=20', null, 2.5, 6, 3, true],
  ['d=128, decay chart in view', '/?dim=128&m=300&n=20', inView('[data-widget="decay"] canvas'), 4, null, 3, false],
  ['d=128, heatmap in view', '/?dim=128&m=300&n=20', inView('[data-widget="heatmap"] canvas'), 4, null, 3, true],
  ['d=128, decay over 65,536 tokens in view', '/?dim=128&m=300&n=20&range=65536', inView('[data-widget="decay"] canvas'), 12, null, 4, false],
  ['d=64, top of the page', '/?m=300&n=20', null, 2.5, 6, 3, false],
  // In another language every text a step rewrites is translated again (src/dom/translate.rs).
  ['d=64, top of the page, in Japanese', '/?m=300&n=20&lang=ja', null, 2.5, 6, 3, false],
  ['d=1024, top of the page', '/?dim=1024&m=300&n=20', null, 8, null, 6, true],
];

for (const [label, path, prepare, goal, p95Goal, guard, short] of SCENARIOS) {
  if (!FULL && !short) continue;
  test(`main-thread ms per slider step: ${label}`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    const rows = await scenario(page, label, path, prepare, goal, p95Goal);
    // A regression guard, not the goal.
    for (const r of rows) expect(r.median, r.name).toBeLessThan(guard * FRAME_MS);
  });
}

// Work that waits until a slider stops must not make the next key press wait either. Over
// 65,536 tokens the decay chart, once still, is drawn from every distance; gathered all at once
// that was one task of 50 to 75 ms (a "long task", which a press landing then waits behind).
// It is gathered a slice of distances per task: after each of four presses, from the press
// until the envelope is back, no main-thread task may take 50 ms or more.
test('decay chart over 65,536 tokens: the envelope at rest makes no long task', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await open(page, '/?dim=128&m=300&n=20&range=65536');
  const chart = page.locator('[data-widget="decay"] canvas.decay-chart').first();
  await inView('[data-widget="decay"] canvas')(page);
  await expect(chart).toHaveAttribute('data-detail', 'envelope', { timeout: 10_000 });
  await chart.evaluate((canvas) => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
    // When the envelope was last drawn.
    new MutationObserver(() => {
      if (canvas.dataset.detail === 'envelope') window.__envelopeAt = performance.now();
    }).observe(canvas, { attributes: true, attributeFilter: ['data-detail'] });
  });
  await page.locator('#base-slider').evaluate((el) => el.focus({ preventScroll: true }));
  const back = [];
  for (let i = 0; i < 4; i++) {
    const start = await page.evaluate(() => performance.now());
    await page.keyboard.press(i % 2 ? 'ArrowLeft' : 'ArrowRight');
    await expect(chart).toHaveAttribute('data-detail', 'samples');
    await expect(chart).toHaveAttribute('data-detail', 'envelope', { timeout: 10_000 });
    back.push(Math.round((await page.evaluate(() => window.__envelopeAt)) - start));
  }
  // The observer reports asynchronously: one more frame for the last entries.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const long = await page.evaluate(() => window.__longTasks);
  console.log(
    `perf: decay envelope over 65,536 tokens after a key press: envelope drawn ${back.join(', ')} ms after it (250 of them waiting for the slider to stay still); ` +
      `tasks of 50 ms or more: ${long.length ? long.map((d) => d.toFixed(0)).join(', ') + ' ms' : 'none'}`,
  );
  expect(long, 'main-thread tasks of 50 ms or more while the envelope is gathered').toEqual([]);
});

// The trained model (issue 44): reading 128 tokens (every layer, every head's attention kept)
// costs at most 50 ms of main thread, or no task is that long; a plane switch and a step of the
// offset re-run it at that cost, and the follow-up (the loss with each plane alone off) comes a
// pass per task; choosing a head re-runs nothing. Printed: main-thread ms from the press to the
// second frame after it, and every task of 50 ms or more until the table of losses is back.
test('the trained model: 128 tokens read, a plane switch and an offset step, main-thread ms', async ({ page }) => {
  const manifest = new URL('../dist/model.json', import.meta.url);
  test.skip(!existsSync(manifest) || JSON.parse(readFileSync(manifest, 'utf8')).missing, 'this build has no model (make model, then make build)');
  await page.setViewportSize({ width: 1280, height: 900 });
  const sentence = 'Once upon a time, there was a little girl named Lily. She loved to play with her ball in the park. ';
  await page.goto('/?embed=model');
  await expect(page.getByTestId('model-loss')).toHaveAttribute('data-value', /\d/, { timeout: 20_000 });
  // A text of exactly 128 tokens, BOS included: sentences, then words off the end.
  let words = sentence.repeat(6).trim().split(' ');
  const field = page.getByTestId('model-text');
  for (;;) {
    await field.fill(words.join(' '));
    await expect(page.getByTestId('model-plane-off-loss')).toHaveAttribute('data-value', /\d/);
    const tokens = Number(await page.getByTestId('model-tokens').getAttribute('data-value'));
    if (tokens <= 128) {
      expect(tokens).toBeGreaterThan(120);
      break;
    }
    words = words.slice(0, -1);
  }
  const tokens = Number(await page.getByTestId('model-tokens').getAttribute('data-value'));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskSeconds = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__longTasks.push(e.duration))).observe({ type: 'longtask' });
  });
  const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const reads = [];
  const measure = async (act) => {
    const before = await taskSeconds();
    await act();
    await frames();
    const read = ((await taskSeconds()) - before) * 1000;
    await expect(page.getByTestId('model-plane-off-loss')).toHaveAttribute('data-value', /\d/);
    reads.push(Number(await page.getByTestId('model-status').getAttribute('data-read-ms')));
    return read;
  };
  const switches = [];
  for (let i = 0; i < 4; i++) {
    const box = page.getByTestId(`model-plane-${i % 2}`);
    switches.push(await measure(() => box.click()));
  }
  const offset = page.locator('#model-offset');
  await offset.evaluate((el) => el.focus({ preventScroll: true }));
  await measure(() => page.keyboard.press('ArrowRight'));
  const steps = [];
  for (let i = 0; i < 6; i++) steps.push(await measure(() => page.keyboard.press(i % 2 ? 'ArrowLeft' : 'ArrowRight')));
  const heads = [];
  for (const [l, h] of [[2, 0], [3, 6], [1, 3]]) heads.push(await measure(() => page.getByRole('button', { name: new RegExp(`^layer ${l}, head ${h}:`) }).click()));
  await frames();
  const long = await page.evaluate(() => window.__longTasks);
  await cdp.detach();
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `perf: the trained model, ${tokens} tokens: the read itself (every layer, every head's attention kept) ${median(reads).toFixed(1)} ms (${reads.map((x) => x.toFixed(0)).join(', ')}); main-thread ms from a press to the second frame: plane switch ${median(switches).toFixed(1)} (${switches.map((x) => x.toFixed(0)).join(', ')}), ` +
      `offset step ${median(steps).toFixed(1)} (${steps.map((x) => x.toFixed(0)).join(', ')}), choosing a head ${median(heads).toFixed(1)}; ` +
      `tasks of 50 ms or more: ${long.length ? long.map((d) => d.toFixed(0)).join(', ') + ' ms' : 'none'}`,
  );
  // Issue 44's goal for the read itself; the rest (the page following it, and the loss with each
  // plane off, a pass per task afterwards) is printed above.
  expect(median(reads)).toBeLessThan(50);
});

// A first visit: from navigation to the first chapter's first control (a button, field or
// slider inside a chapter), in a fresh browser context each time (no cache), five visits; the
// median printed. And what the visit downloads before the reader scrolls: every response's body,
// gzipped (as budget.mjs counts; the test server sends it uncompressed). Issue 9's goals: the
// first control within 300 ms on localhost; a first visit of at most 200 KB.
test('navigation to the first interactive widget, and what a first visit downloads', async ({ browser }) => {
  test.setTimeout(120_000);
  const firsts = [];
  let downloaded;
  for (let visit = 0; visit < 5; visit++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = [];
    page.on('console', (message) => {
      if ((message.type() === 'error' || message.type() === 'warning') && message.text() !== WORKER_BLOCKED) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const bodies = [];
    page.on('response', (response) => bodies.push(response.body().then((body) => [response.url(), gzipSync(body, { level: 9 }).length], () => [response.url(), 0])));
    await page.addInitScript(() => {
      const marks = {};
      window.__visit = marks;
      new MutationObserver((_, observer) => {
        if (document.querySelector('[data-widget] :is(button, input, select)')) {
          marks.first = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/');
    await page.waitForFunction(() => window.__visit.first !== undefined, null, { timeout: 30_000 });
    firsts.push(await page.evaluate(() => window.__visit.first));
    // Whatever the page fetches by itself, without the reader scrolling.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1000);
    const files = await Promise.all(bodies);
    downloaded = { files: files.map(([url]) => new URL(url).pathname.split('/').pop() || 'index.html'), bytes: files.reduce((sum, [, n]) => sum + n, 0) };
    // Only the page's frame: no part of the chapters (split-*/split_*.wasm, chunk_*.wasm).
    expect(downloaded.files.filter((f) => /^(split_|chunk_).*\.wasm$/.test(f)), 'parts fetched before the reader scrolled').toEqual([]);
    expect(problems, 'console errors and warnings').toEqual([]);
    await context.close();
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const kb = downloaded.bytes / 1024;
  console.log(
    `perf: first visit: first interactive widget ${median(firsts).toFixed(0)} ms after navigation ` +
      `(goal 300 ms: ${median(firsts) <= 300 ? 'met' : 'MISSED'}; visits: ${firsts.map((x) => x.toFixed(0)).join(', ')} ms); ` +
      `downloads ${downloaded.files.length} files, ${kb.toFixed(1)} KB gzipped before the reader scrolls ` +
      `(goal 200 KB: ${kb <= 200 ? 'met' : 'MISSED'}): ${downloaded.files.join(' ')}`,
  );
  // Regression guards, not the goals (budget.mjs holds the bytes to its budget).
  expect(median(firsts)).toBeLessThan(3000);
  expect(kb).toBeLessThan(260);
});

// RoPE Lab beside the peer, in the same run: rounds interleaved (the one-slider page, RoPE Lab
// with every chapter present at the top of the page at d = 128, the peer's RoPE tab; the order
// turned around every other round), the same
// arrow-key presses on every slider, the samples of all rounds pooled. Each page's net cost per
// step is its median above the one-slider page's; the ratios are RoPE Lab's net over the peer's.
// Goals (issue 48): m and n no costlier than the peer's position sliders (m against its m, n
// against its n); base and dimension, which move every chapter at once, at most 1.2 times the
// peer's cheaper slider. RoPE Lab's chapters far from the screen sleep through a slider's steps
// and catch up once it rests (src/lab.rs, `Sleeper`): what that costs, once per pause, is
// measured too (the main thread's time over the 600 ms after the last press, on both pages).
test('main-thread ms per slider step beside the peer', async ({ browser }) => {
  test.skip(!FULL || !PEER_DIR || !existsSync(PEER_DIR), 'make bench, with the peer build beside the repository');
  test.setTimeout(900_000);
  const peerPort = port + 1;
  const server = spawn('node', ['serve.mjs', PEER_DIR, String(peerPort)], { env: { ...process.env, NO_CSP: '1' }, stdio: 'ignore' });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    // The peer asks a CDN for MathJax, which this machine cannot reach: refused at once, as
    // offline, rather than left to time out.
    await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    for (let i = 0; i < 50; i++) {
      const up = await fetch(`http://127.0.0.1:${peerPort}/`).then((r) => r.ok, () => false);
      if (up) break;
      await page.waitForTimeout(100);
    }
    const pool = new Map();
    const add = (name, samples) => pool.set(name, [...(pool.get(name) ?? []), ...samples]);
    // The presses of one slider, which must have moved it (ending 4 steps from where it began),
    // then the main thread's time while it rests.
    const press = async (name, slider) => {
      const before = await slider.inputValue();
      add(name, (await msPerPress(page, slider, PEER_PRESSES)).samples);
      expect(await slider.inputValue(), `${name} moved`).not.toBe(before);
      add(`${name} (rest)`, [await msAtRest(page)]);
    };
    // Each page once a round, in an order that turns around every other round (the machine's
    // speed drifts within a round too), after two unmeasured presses (the first presses after a
    // page loads pay for its warming up, alike on every page).
    const pages = [
      async () => {
        await page.goto('about:blank');
        await page.setContent(ONE_SLIDER);
        await msPerPress(page, '#s', 2);
        await press('one-slider page', page.locator('#s'));
      },
      async () => {
        await open(page, '/?dim=128&m=300&n=20');
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.waitForTimeout(300);
        await msPerPress(page, SLIDERS[0][1], 2);
        for (const [name, selector] of SLIDERS) await press(`RoPE Lab: ${name}`, page.locator(selector));
      },
      async () => {
        await page.goto(`http://127.0.0.1:${peerPort}/`);
        await page.getByRole('button', { name: 'RoPE', exact: true }).click();
        await expect(page.getByLabel(PEER_SLIDERS[0])).toBeVisible();
        await page.waitForTimeout(300);
        await msPerPress(page, page.getByLabel(PEER_SLIDERS[0]), 2);
        for (const name of PEER_SLIDERS) await press(`peer: ${name}`, page.getByLabel(name));
      },
    ];
    for (let round = 0; round < PEER_ROUNDS; round++) {
      for (const measure of round % 2 ? [...pages].reverse() : pages) await measure();
    }
    await context.close();

    const floor = quantiles(pool.get('one-slider page')).median;
    const net = (name) => quantiles(pool.get(name)).median - floor;
    // m against the peer's query position, n against its key position; base and dimension
    // against its cheaper slider.
    const peerAgainst = {
      'RoPE Lab: query position m': [net(`peer: ${PEER_SLIDERS[0]}`), 1, "the peer's position m"],
      'RoPE Lab: key position n': [net(`peer: ${PEER_SLIDERS[1]}`), 1, "the peer's position n"],
    };
    const peerCheaper = [Math.min(...PEER_SLIDERS.map((name) => net(`peer: ${name}`))), 1.2, "the peer's cheaper slider"];
    console.log(`perf: beside the peer: ${PEER_ROUNDS} rounds of ${PEER_PRESSES} presses per slider, interleaved; one-slider page ${fmt(floor)} ms a press`);
    for (const [name, samples] of pool) {
      if (name === 'one-slider page' || name.endsWith(' (rest)')) continue;
      const { median, p95 } = quantiles(samples);
      let verdict = '';
      if (name.startsWith('RoPE Lab')) {
        const [against, goal, what] = peerAgainst[name] ?? peerCheaper;
        const ratio = net(name) / against;
        verdict = `  ${ratio.toFixed(2)}x ${what} (goal ${goal}x: ${ratio <= goal ? 'met' : 'MISSED'})`;
      }
      console.log(`perf: ${name.padEnd(42)} median ${fmt(median)} ms  p95 ${fmt(p95)} ms  net ${fmt(net(name))} ms${verdict}`);
    }
    for (const [name, samples] of pool) {
      if (!name.endsWith(' (rest)') || name.startsWith('one-slider')) continue;
      console.log(`perf: ${name.padEnd(42)} median ${fmt(quantiles(samples).median)} ms once the slider rests (600 ms after its last press; the one-slider page's ${fmt(quantiles(pool.get('one-slider page (rest)')).median)} ms)`);
    }
  } finally {
    server.kill();
  }
});
