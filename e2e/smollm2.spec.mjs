// SmolLM2-135M in the trained-model chapter (issue 56): a current model downloaded only when the
// reader asks, kept in the browser, and run in a Web Worker. Its numbers are checked against
// tests/fixtures/smollm2.json, made by an independent numpy implementation in f64
// (tests/model/smollm2_reference.py) from the same GGUF file; the page computes in f32, within
// 1e-3 of it (the native tests hold the Rust to 1e-5; this is the browser's WebAssembly).
//
// The file is not in the repository: a build without it (dist/model.json has no `smollm2`) runs
// only the test of what the chapter then says.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect, value, leftInEnglish } from './fixtures.mjs';

const manifest = fileURLToPath(new URL('../dist/model.json', import.meta.url));
const hasSmol = existsSync(manifest) && Boolean(JSON.parse(readFileSync(manifest, 'utf8')).smollm2);
const reference = JSON.parse(readFileSync(fileURLToPath(new URL('../tests/fixtures/smollm2.json', import.meta.url)), 'utf8'));
const smolTest = hasSmol ? test : test.skip;
if (!hasSmol) console.log('smollm2.spec: the SmolLM2 tests did not run: dist/ was built without its file (run `make model`, then `make build`)');

const chapter = (page) => page.locator('[data-widget="model"]');
const json = async (page, testid) => JSON.parse(await page.getByTestId(testid).getAttribute('data-value'));
const load = (page) => chapter(page).getByRole('button', { name: /Load SmolLM2/ });

/** Opens the chapter alone with SmolLM2 chosen, loads it, and waits for the reading. */
async function openSmol(page, query = '') {
  await page.goto(`/?embed=model&model=smollm2-135m${query ? '&' + query : ''}`);
  // By its test id: its name is in the page's language (the first test reads it in English).
  await page.getByTestId('smollm2-load').click();
  await readingDone(page);
}

async function readingDone(page) {
  await expect(page.getByTestId('model-loss')).toHaveAttribute('data-value', /\d/, { timeout: 120_000 });
}

test.describe.configure({ timeout: 240_000 });

test('without the file, the chapter says how to add it', async ({ page }) => {
  test.skip(hasSmol, 'this build has SmolLM2');
  await page.goto('/?embed=model&model=smollm2-135m');
  await expect(page.getByTestId('model-status')).toContainText('make model');
});

// The reader's way in: the chapter's choice of model (the URL follows it, and back). Nothing of
// SmolLM2 is fetched before it is chosen; with the file in the build it is offered, without it
// the chapter says how to add it.
test('the choice of model switches the chapter and its address, and back', async ({ page }) => {
  const parts = [];
  page.on('request', (r) => { if (/smollm2|\.gguf$/.test(r.url())) parts.push(r.url()); });
  await page.goto('/?embed=model');
  await expect(chapter(page).locator('.model-heads')).toBeVisible();
  const smol = chapter(page).getByRole('radio', { name: /SmolLM2-135M/ });
  const stories = chapter(page).getByRole('radio', { name: /stories260K/ });
  await expect(stories).toBeChecked();
  expect(parts).toEqual([]);
  await smol.check();
  await expect(page).toHaveURL(/model=smollm2-135m/);
  await expect(smol).toBeChecked();
  if (hasSmol) await expect(load(page)).toContainText('98 MB');
  else await expect(page.getByTestId('model-status')).toContainText('make model');
  expect(parts.some((url) => url.endsWith('.gguf'))).toBe(false);
  await stories.check();
  await expect(page).not.toHaveURL(/model=/);
  await expect(stories).toBeChecked();
  await expect(chapter(page).getByTestId('smollm2')).toHaveCount(0);
  await expect(chapter(page).locator('.model-heads')).toBeVisible();
});

smolTest('opt in: the button names the model and its size, a progress bar, then the numbers are the reference\'s', async ({ page }) => {
  await page.goto('/?embed=model&model=smollm2-135m');
  await expect(load(page)).toContainText('98 MB');
  // Nothing is downloaded before the reader asks.
  const asked = [];
  page.on('request', (r) => { if (r.url().endsWith('.gguf')) asked.push(r.url()); });
  await page.waitForTimeout(500);
  expect(asked).toEqual([]);
  // The main thread's long tasks while the model loads and reads, printed.
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => window.longTasks.push(e.duration))).observe({ type: 'longtask', buffered: false });
  });
  await load(page).click();
  await expect(page.getByTestId('model-status')).toContainText(/Downloading SmolLM2-135M|Reading/);
  await readingDone(page);
  const p = reference.paragraph;
  expect(await value(page, 'model-tokens')).toBe(p.ids.length);
  expect(Math.abs((await value(page, 'model-loss')) - p.loss)).toBeLessThan(1e-3);
  // The reference's most likely next token after the paragraph is id 198, a new line (the native
  // tests compare ids; here its text).
  expect(p.next.ids[0]).toBe(198);
  await expect(page.getByTestId('model-next')).toHaveAttribute('data-value', '\n');
  const prev = await json(page, 'model-heads-prev');
  const first = await json(page, 'model-heads-first');
  expect(prev.length).toBe(30);
  p.heads_prev.forEach((row, l) => row.forEach((want, h) => expect(Math.abs(prev[l][h] - want), `prev ${l},${h}`).toBeLessThan(1e-3)));
  p.heads_first.forEach((row, l) => row.forEach((want, h) => expect(Math.abs(first[l][h] - want), `first ${l},${h}`).toBeLessThan(1e-3)));
  expect(await value(page, 'model-turning-planes')).toBe(reference.turning_planes);
  // The selected head (layer 1, head 3 by default): its plane shares.
  await expect(page.getByTestId('model-plane-share')).toHaveAttribute('data-value', /\d/, { timeout: 30_000 });
  const share = await json(page, 'model-plane-share');
  p.plane_share[1][3].forEach((want, i) => expect(Math.abs(share[i] - want), `plane ${i}`).toBeLessThan(1e-3));
  // The four group losses arrive one by one.
  await expect(page.getByTestId('model-plane-off-loss')).toHaveAttribute('data-value', /^[^,]+,[^,]+,[^,]+,[^,]+$/, { timeout: 120_000 });
  const groups = (await page.getByTestId('model-plane-off-loss').getAttribute('data-value')).split(',').map(Number);
  p.group_off_loss.forEach((want, i) => expect(Math.abs(groups[i] - want), `group ${i}`).toBeLessThan(1e-3));
  const longest = await page.evaluate(() => Math.max(0, ...window.longTasks));
  const ms = Number(await page.getByTestId('model-status').getAttribute('data-read-ms'));
  // Figures, not a timed pass or fail (the goal: no main-thread task of 50 ms or more).
  console.log(`smollm2.spec: ${p.ids.length} tokens read in the worker in ${ms.toFixed(0)} ms; the page's longest task meanwhile ${longest.toFixed(0)} ms (goal under 50)`);
});

smolTest('planes off, a head picked, the offset at 100,000', async ({ page }) => {
  await openSmol(page);
  const p = reference.paragraph;
  await chapter(page).getByRole('button', { name: 'fastest 4 off' }).click();
  await expect(page).toHaveURL(/off=0-3/);
  await readingDone(page);
  expect(Math.abs((await value(page, 'model-loss')) - p.off_loss['0-3'])).toBeLessThan(1e-3);
  // The most previous-token head, picked on the grid, has lost its way.
  await chapter(page).getByRole('button', { name: /^layer 16, head 0:/ }).click();
  await expect(page).toHaveURL(/layer=16/);
  expect(Math.abs((await value(page, 'model-head-prev')) - p.prev_16_0_off_0_3)).toBeLessThan(1e-3);
  await chapter(page).getByRole('button', { name: 'every plane on' }).click();
  await readingDone(page);
  expect(Math.abs((await value(page, 'model-head-prev')) - p.heads_prev[16][0])).toBeLessThan(1e-3);
  await chapter(page).getByRole('button', { name: '100,000' }).click();
  await expect(page).toHaveURL(/offset=100000/);
  await readingDone(page);
  expect(Math.abs((await value(page, 'model-loss')) - p.offset_loss)).toBeLessThan(1e-3);
  await expect(page.getByTestId('model-offset-drift')).toHaveAttribute('data-value', /\d/, { timeout: 60_000 });
  expect(await value(page, 'model-offset-drift')).toBeLessThan(1e-3);
});

smolTest('the check text continues as the README says, token by token', async ({ page }) => {
  await openSmol(page, `text=${encodeURIComponent(reference.check.text)}`);
  expect(await value(page, 'model-tokens')).toBe(reference.check.ids.length);
  expect(Math.abs((await value(page, 'model-loss')) - reference.check.loss)).toBeLessThan(1e-3);
  const started = Date.now();
  await chapter(page).getByRole('button', { name: 'Continue the text' }).click();
  const want = reference.check.greedy.text.slice(0, 60);
  await expect(page.getByTestId('model-continuation')).toHaveAttribute('data-value', new RegExp(`^${want.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), { timeout: 60_000 });
  await expect(chapter(page).getByRole('button', { name: 'Stop' })).toBeDisabled({ timeout: 60_000 });
  const tokens = Number(await page.getByTestId('model-continuation').getAttribute('data-tokens'));
  const seconds = (Date.now() - started) / 1000;
  console.log(`smollm2.spec: "Continue the text" wrote ${tokens} tokens in ${seconds.toFixed(2)} s: ${(tokens / seconds).toFixed(1)} tokens a second`);
  expect(tokens).toBe(40);
});

smolTest('kept for offline use: read again with the network gone for the file, then removed', async ({ page, context }) => {
  await openSmol(page);
  await expect(chapter(page).getByTestId('smollm2-remove')).toBeVisible();
  // A second visit reads at once from the stored copy, even when the file cannot be fetched.
  await context.route('**/*.gguf', (route) => route.abort());
  const again = await context.newPage();
  await again.goto('/?embed=model&model=smollm2-135m');
  await readingDone(again);
  expect(Math.abs((await value(again, 'model-loss')) - reference.paragraph.loss)).toBeLessThan(1e-3);
  await again.getByTestId('smollm2-remove').click();
  await expect(again.getByTestId('smollm2-remove')).toBeHidden();
  const third = await context.newPage();
  await third.goto('/?embed=model&model=smollm2-135m');
  await expect(load(third)).toBeVisible();
  await again.close();
  await third.close();
});

smolTest('a download can be cancelled, and a file that is not a model says so', async ({ page, context }) => {
  await page.goto('/?embed=model&model=smollm2-135m');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 4e6, uploadThroughput: 4e6 });
  await load(page).click();
  await expect(page.getByTestId('model-status')).toContainText(/Downloading SmolLM2-135M: [1-9]/, { timeout: 30_000 });
  await chapter(page).getByTestId('smollm2-cancel').click();
  await expect(load(page)).toBeEnabled();
  await expect(page.getByTestId('model-status')).toBeHidden();
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  // A file that is not a model (a server's error page served as the model): named, never stored.
  await context.route('**/*.gguf', (route) => route.fulfill({ status: 200, body: '<html>Not here</html>' }));
  await load(page).click();
  await expect(page.getByTestId('model-status')).toContainText('not a GGUF file');
  await expect(load(page)).toBeEnabled();
});

// Where the worker's time goes, kernel by kernel, at SmolLM2's shapes (printed by `make test` and
// `make bench`; figures, not a pass or fail): the page's own worker, driven by its protocol
// (crates/core/src/model/protocol.rs), on the reference paragraph twice over cut to 128 tokens.
smolTest('the worker\'s kernels, one by one, against what the machine allows', async ({ page }) => {
  await page.goto('/?embed=model&model=smollm2-135m');
  const timings = await page.evaluate(async (text) => {
    const manifest = await (await fetch('model.json')).json();
    const url = new URL(manifest.smollm2.file, document.baseURI).href;
    const worker = new Worker('./model_worker_loader.js');
    const answer = (kind) => new Promise((resolve, reject) => {
      worker.addEventListener('message', function on(e) {
        if (e.data.kind === kind) { worker.removeEventListener('message', on); resolve(e.data); }
        if (e.data.kind === 'error') reject(new Error(e.data.message));
      });
    });
    await answer('ready');
    worker.postMessage({ kind: 'load', id: 1, url, cache: 'rope-lab profile' });
    await answer('loaded');
    await caches.delete('rope-lab profile');
    worker.postMessage({ kind: 'profile', id: 2, text, maxTokens: 128 });
    const done = await answer('profile-done');
    worker.terminate();
    return done.what.map((what, i) => ({ what, ms: done.ms[i], gflops: done.gflops[i] }));
  }, `${reference.paragraph.text} ${reference.paragraph.text}`);
  expect(timings.length).toBeGreaterThan(5);
  for (const t of timings) {
    expect(Number.isFinite(t.ms) && t.ms >= 0).toBe(true);
    console.log(`smollm2.spec: profile: ${t.what}: ${t.ms.toFixed(1)} ms${t.gflops ? `, ${t.gflops.toFixed(1)} GFLOP/s` : ''}`);
  }
  console.log('smollm2.spec: profile: what the machine allows (issue 56): about 23 GFLOP/s for a batch of 128 tokens, 9 for one token');
});

// The two questions come from the model's reading: answered, each names what the readouts say
// (the count of heads over one half in model-heads-first, the largest of model-plane-off-loss),
// and the reference agrees.
/** Answers question `name` with its first choice. */
async function answer(page, name) {
  const group = page.getByTestId(`check-${name}`);
  await group.scrollIntoViewIfNeeded();
  await group.getByRole('radio').first().check();
  await group.locator('xpath=..').locator('.check-actions button').first().click();
  return group;
}

smolTest('questions from the model: the sinks and the planes the text needs', async ({ page }) => {
  await openSmol(page);
  const first = (await json(page, 'model-heads-first')).flat();
  const sinks = first.filter((v) => v > 0.5).length;
  expect(sinks).toBe(reference.paragraph.heads_first.flat().filter((v) => v > 0.5).length);
  await expect(await answer(page, 'smollm2-sinks')).toHaveAttribute('data-value', String(sinks));
  await expect(page.getByTestId('model-plane-off-loss')).toHaveAttribute('data-value', /^[^,]+,[^,]+,[^,]+,[^,]+$/, { timeout: 120_000 });
  const groups = (await page.getByTestId('model-plane-off-loss').getAttribute('data-value')).split(',').map(Number);
  const worst = groups.indexOf(Math.max(...groups));
  await expect(await answer(page, 'smollm2-groups')).toHaveAttribute('data-value', `${8 * worst}-${8 * worst + 7}`);
});

// The section in the page's other languages: every sentence, label and verdict, with the same
// numbers as in English (the model's own tokens stay as they are, `translate="no"`).
for (const lang of ['es', 'zh-CN', 'ja']) {
  smolTest(`lang=${lang}: SmolLM2's section in that language, the same numbers`, async ({ page }) => {
    await openSmol(page, `lang=${lang}`);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    expect(Math.abs((await value(page, 'model-loss')) - reference.paragraph.loss)).toBeLessThan(1e-3);
    await expect(page.getByTestId('model-plane-off-loss')).toHaveAttribute('data-value', /^[^,]+,[^,]+,[^,]+,[^,]+$/, { timeout: 120_000 });
    await answer(page, 'smollm2-sinks');
    await answer(page, 'smollm2-groups');
    await expect(page.getByTestId('model-plane-share')).toHaveAttribute('data-value', /\d/, { timeout: 30_000 });
    await expect.poll(() => leftInEnglish(page), { timeout: 10_000 }).toEqual([]);
  });
}

// Memory: the longest text the page reads (1,024 tokens; digits are a token each, so 1,100 digits
// fit the URL's 2,000 characters and are cut, with a notice), with the offset moved so that the
// worker holds two readings at once (the text and the text at offset 0). The issue's limit:
// 400 MB with a 1,000-token text.
smolTest('the worker\'s memory with the longest text the page reads', async ({ page }) => {
  test.setTimeout(300_000);
  const digits = Array.from({ length: 1100 }, (_, i) => String((i * 7) % 10)).join('');
  await openSmol(page, `offset=1000&text=${digits}`);
  expect(await value(page, 'model-tokens')).toBe(1024);
  await expect(page.getByText('The text is longer than 1024 tokens; the model reads its first 1024.')).toBeVisible();
  await expect(page.getByTestId('model-offset-drift')).toHaveAttribute('data-value', /\d/, { timeout: 280_000 });
  const bytes = Number(await page.getByTestId('model-status').getAttribute('data-worker-bytes'));
  console.log(`smollm2.spec: the worker's WebAssembly memory after reading 1,024 tokens twice (offset 1000 and 0): ${(bytes / 1e6).toFixed(0)} MB (limit 400 MB)`);
  expect(bytes).toBeGreaterThan(98e6);
  expect(bytes).toBeLessThanOrEqual(400e6);
});

// A teacher's slide: the attention map and the table of planes as PNGs, each with its caption.
smolTest('the attention map and the planes download as PNGs', async ({ page }) => {
  await openSmol(page);
  await expect(page.getByTestId('model-plane-share')).toHaveAttribute('data-value', /\d/, { timeout: 30_000 });
  for (const name of ['smollm2-attention', 'smollm2-planes']) {
    const bar = page.getByRole('group', { name: `export the ${name} figure` });
    await bar.scrollIntoViewIfNeeded();
    const [download] = await Promise.all([page.waitForEvent('download'), bar.getByRole('button', { name: 'Download PNG' }).click()]);
    expect(download.suggestedFilename()).toBe(`rope-lab-${name}.png`);
    const bytes = readFileSync(await download.path());
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // Wider than a button: the figure itself, at twice its size on screen.
    expect(bytes.readUInt32BE(16)).toBeGreaterThan(400);
  }
});
