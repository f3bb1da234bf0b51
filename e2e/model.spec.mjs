// Inside a trained model (issue 44): stories260K reads the reader's text in the tab. The numbers
// are checked against tests/fixtures/model.json, made by an independent numpy implementation
// (tests/model/reference.py, f64) from the model's published files, and against llama2.c's
// documented sample; the reader's path (a story of their own, the heads that look back, a plane
// switched off, the offset at a million) is walked as a person would.
//
// The model's files are not in the repository: a build without them (dist/model.json says so)
// runs only the test of what the chapter then says, and the others say in one line why not.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect, value, screenshotOf } from './fixtures.mjs';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });
const manifest = fileURLToPath(new URL('../dist/model.json', import.meta.url));
const hasModel = existsSync(manifest) && !JSON.parse(readFileSync(manifest, 'utf8')).missing;
const reference = JSON.parse(readFileSync(fileURLToPath(new URL('../tests/fixtures/model.json', import.meta.url)), 'utf8'));
const modelTest = hasModel ? test : test.skip;
if (!hasModel) console.log('model.spec: the model tests did not run: dist/ was built without stories260K (run `make model`, then `make build`)');

const chapter = (page) => page.locator('[data-widget="model"]');
const heads = async (page) => JSON.parse(await page.getByTestId('model-heads-prev').getAttribute('data-value'));
const losses = async (page) => (await page.getByTestId('model-plane-off-loss').getAttribute('data-value')).split(',').map(Number);
const LLAMA2C_SAMPLE = 'Once upon a time, there was a little girl named Lily. She loved to play outside in the park.';

/** Opens the chapter alone, its model read. */
async function openModel(page, query = '') {
  await page.goto(`/?embed=model${query ? '&' + query : ''}`);
  await expect(page.getByTestId('model-loss')).toHaveAttribute('data-value', /\d/, { timeout: 20_000 });
  await expect(page.getByTestId('model-plane-off-loss')).toHaveAttribute('data-value', /\d/, { timeout: 20_000 });
}

modelTest('the numbers are the independent implementation\'s', async ({ page }) => {
  const text = reference.logits.text;
  await openModel(page, `text=${encodeURIComponent(text)}`);
  expect(await value(page, 'model-tokens')).toBe(reference.logits.ids.length);
  const loss = await value(page, 'model-loss');
  expect(Math.abs(loss - reference.loss.all) / reference.loss.all, `loss ${loss}`).toBeLessThan(0.005);
  const planeOff = await losses(page);
  // A plane off takes the model where it never trained; the packed weights' rounding shows more there.
  reference.loss.plane_off.forEach((want, i) => expect(Math.abs(planeOff[i] - want) / want, `plane ${i} off`).toBeLessThan(0.015));
  const grid = await heads(page);
  reference.prev_attention.forEach((row, l) => row.forEach((want, h) => expect(Math.abs(grid[l][h] - want), `layer ${l} head ${h}`).toBeLessThan(0.01)));
  expect(Math.abs((await value(page, 'model-head-prev')) - reference.prev_attention[1][3])).toBeLessThan(0.01);
  // Every token the reference's tokenizer made is a chip, at its position.
  await expect(chapter(page).locator('.model-chip:not([hidden])')).toHaveCount(reference.logits.ids.length);
});

modelTest('from BOS alone it predicts and writes llama2.c\'s documented sample', async ({ page }) => {
  await openModel(page, 'text=');
  expect(await value(page, 'model-tokens')).toBe(1);
  await expect(page.getByTestId('model-next')).toHaveAttribute('data-value', 'Once');
  const started = Date.now();
  await chapter(page).getByRole('button', { name: 'Continue the story' }).click();
  await expect(page.getByTestId('model-continuation')).toHaveAttribute('data-value', new RegExp(`^${LLAMA2C_SAMPLE.replace(/[.,]/g, '\\$&')}`), { timeout: 20_000 });
  await expect(chapter(page).getByRole('button', { name: 'Stop' })).toBeDisabled({ timeout: 20_000 });
  const seconds = (Date.now() - started) / 1000;
  const tokens = Number(await page.getByTestId('model-continuation').getAttribute('data-tokens'));
  expect(tokens).toBe(60);
  console.log(`model.spec: "Continue the story" wrote ${tokens} tokens in ${seconds.toFixed(2)} s (shown one by one): ${(tokens / seconds).toFixed(0)} tokens a second`);
  expect(tokens / seconds).toBeGreaterThan(50);
});

modelTest('a reader\'s story: the heads that look back, plane 0 switched off, the offset at a million', async ({ page }) => {
  await openModel(page);
  const story = 'Tom had a little red car. Tom liked to play with his car. One day, Tom saw a big box. Tom opened the box and found a toy dog.';
  await chapter(page).getByTestId('model-text').fill(story);
  await expect(page).toHaveURL(/text=Tom/);
  await expect(page.getByTestId('model-plane-off-loss')).toHaveAttribute('data-value', /\d/);
  const before = await value(page, 'model-loss');
  // The head that looks back most, picked on the grid.
  const grid = await heads(page);
  let best = [0, 0];
  grid.forEach((row, l) => row.forEach((v, h) => { if (v > grid[best[0]][best[1]]) best = [l, h]; }));
  const square = chapter(page).getByRole('button', { name: new RegExp(`^layer ${best[0]}, head ${best[1]}:`) });
  await square.click();
  await expect(square).toHaveAttribute('aria-pressed', 'true');
  const lookingBack = await value(page, 'model-head-prev');
  expect(lookingBack).toBeCloseTo(grid[best[0]][best[1]], 12);
  expect(lookingBack).toBeGreaterThan(0.5);
  // Plane 0 off: that head looks back less, the loss rises, and the table's first entry is it.
  const table = await losses(page);
  await chapter(page).getByTestId('model-plane-0').uncheck();
  await expect(page).toHaveURL(/off=0/);
  await expect.poll(() => value(page, 'model-loss')).toBeGreaterThan(before);
  expect(Math.abs((await value(page, 'model-loss')) - table[0]) / table[0]).toBeLessThan(1e-9);
  expect(await value(page, 'model-head-prev')).toBeLessThan(lookingBack);
  await chapter(page).getByTestId('model-plane-0').check();
  await expect.poll(() => value(page, 'model-loss')).toBe(before);
  // A million positions on: nothing changes beyond f32 rounding.
  const next = await page.getByTestId('model-next').getAttribute('data-value');
  await chapter(page).getByRole('button', { name: '1,000,000' }).click();
  await expect(page).toHaveURL(/offset=1000000/);
  await expect(page.getByTestId('model-offset-drift')).toHaveAttribute('data-value', /\d/);
  expect(Math.abs((await value(page, 'model-loss')) - before) / before).toBeLessThan(1e-4);
  expect(await value(page, 'model-offset-drift')).toBeLessThan(1e-3);
  expect(await page.getByTestId('model-next').getAttribute('data-value')).toBe(next);
  const shifted = await heads(page);
  shifted.forEach((row, l) => row.forEach((v, h) => expect(Math.abs(v - grid[l][h])).toBeLessThan(1e-4)));
  await screenshotOf(chapter(page), `${screenshots}model-1280-light.png`);
});

modelTest('"Continue the story" pressed while the table of losses is computed leaves the table to arrive', async ({ page }) => {
  await openModel(page);
  await page.getByTestId('model-plane-1').uncheck();
  await chapter(page).getByRole('button', { name: 'Continue the story' }).click();
  await expect(page.getByTestId('model-continuation')).toHaveAttribute('data-tokens', '60', { timeout: 20_000 });
  await expect(page.getByTestId('model-plane-off-loss')).toHaveAttribute('data-value', /^[\d.]+,[\d.]+,[\d.]+,[\d.]+$/);
  // Stop and go again: the continuation is the same greedy text.
  const first = await page.getByTestId('model-continuation').getAttribute('data-value');
  await chapter(page).getByRole('button', { name: 'Continue the story' }).click();
  await expect(page.getByTestId('model-continuation')).toHaveAttribute('data-tokens', '60', { timeout: 20_000 });
  expect(await page.getByTestId('model-continuation').getAttribute('data-value')).toBe(first);
});

modelTest('bad parameters: a notice each, the nearest valid value, the page unharmed', async ({ page }) => {
  await openModel(page, `layer=9&head=x&off=0,7&offset=-5&text=${'a'.repeat(2100)}`);
  const notices = page.getByTestId('notice');
  await expect(notices.first()).toBeVisible();
  const said = (await notices.allTextContents()).join(' ');
  for (const name of ['layer', 'head', 'off', 'offset', 'text']) expect(said, name).toContain(name);
  expect(await value(page, 'model-offset')).toBe(0);
  await expect(page.getByTestId('model-plane-0')).not.toBeChecked();
  await expect(page.getByTestId('model-plane-1')).toBeChecked();
  expect(await value(page, 'model-loss')).toBeGreaterThanOrEqual(0);
});

modelTest('phone, dark, presenter: the chapter reads and looks right', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await openModel(page);
  await screenshotOf(chapter(page), `${screenshots}model-390-dark.png`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openModel(page, 'present=1');
  await screenshotOf(chapter(page), `${screenshots}model-1280-present.png`);
});

test('without the model the chapter says in one line how to add it', async ({ page }) => {
  await page.route('**/model.json', (route) => route.fulfill({ contentType: 'application/json', body: '{"missing":true}' }));
  await page.goto('/?embed=model');
  await expect(page.getByTestId('model-status')).toContainText('make model');
  await expect(page.getByTestId('model-loss')).not.toHaveAttribute('data-value', /./);
});
