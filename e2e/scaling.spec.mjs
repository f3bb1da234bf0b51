// The context-extension chapter (issue 11): every preset loads and shows its model's numbers,
// pasted configs (whole, a rope block alone, with fields that cannot be used, invalid JSON) do
// what they say, the Python export follows, and screenshots at desktop and phone widths, light
// and dark. Expected numbers are computed here from the published formulas.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect, value, list, open, close, screenshotOf, scrollSettled, seriousAxeFindings } from './fixtures.mjs';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });
const chapter = (page) => page.locator('[data-widget="scaling"]');
const plain = (base, rotary, planes) =>
  Array.from({ length: planes }, (_, i) => (2 * i < rotary ? base ** (-(2 * i) / rotary) : 0));

// [id, base, head dim, rotating dims, attention factor]
const PRESETS = [
  ['llama-2-7b', 10000, 128, 128, 1],
  ['llama-3.1-8b', 500000, 128, 128, 1],
  ['mistral-7b-v0.1', 10000, 128, 128, 1],
  ['qwen2.5-7b', 1000000, 128, 128, 1],
  ['gemma-2-9b', 10000, 256, 256, 1],
  ['gpt-neox-20b', 10000, 96, 24, 1],
  ['phi-3-mini-128k', 10000, 96, 96, Math.sqrt(1 + Math.log(32) / Math.log(4096))],
  ['deepseek-v3', 10000, 64, 64, 1],
];

test('every preset loads from the URL, and the URL keeps its plain parameters', async ({ page }) => {
  test.setTimeout(180_000);
  for (const [id, base, dim, rotary, attention] of PRESETS) {
    await open(page, `/?preset=${id}`);
    expect(await page.locator('#dim-slider').inputValue(), id).toBe(String(dim));
    const inv = await list(page, 'inv-freq');
    expect(inv.length, id).toBe(dim / 2);
    expect(close(await value(page, 'attention-factor'), attention, 1e-12), `${id} attention factor`).toBe(true);
    // The fastest plane is never scaled; unscaled presets match θᵢ = base^(−2i/d) everywhere.
    if (id !== 'phi-3-mini-128k') expect(close(inv[0], 1, 1e-12), id).toBe(true);
    if (['llama-2-7b', 'mistral-7b-v0.1', 'qwen2.5-7b', 'gemma-2-9b', 'gpt-neox-20b'].includes(id)) {
      plain(base, rotary, dim / 2).forEach((want, i) => expect(close(inv[i], want, 1e-9), `${id} plane ${i}`).toBe(true));
    }
    await expect(page).toHaveURL(new RegExp(`preset=${id.replace('.', '\\.')}`));
    await expect(page.getByLabel('model preset')).toHaveValue(id);
  }
});

test('Llama 3.1 from the menu: its llama3 rule, its overshoot, and every value still editable', async ({ page }) => {
  await open(page, '/');
  await page.getByLabel('model preset').selectOption('llama-3.1-8b');
  await expect(page).toHaveURL(/preset=llama-3\.1-8b/);
  await expect(page).toHaveURL(/base=500000/);
  const inv = await list(page, 'inv-freq');
  const want = plain(500000, 128, 64).map((f) => {
    const wavelength = (2 * Math.PI) / f;
    if (wavelength < 8192 / 4) return f;
    if (wavelength > 8192 / 1) return f / 8;
    const smooth = (8192 / wavelength - 1) / (4 - 1);
    return ((1 - smooth) * f) / 8 + smooth * f;
  });
  want.forEach((w, i) => expect(close(inv[i], w, 1e-12), `llama3 plane ${i}`).toBe(true));
  // Overshoot beyond training, positions 0 to L − 1 (the frequencies chapter's rule): a slow plane
  // reached (8192 − 1)·θᵢ in training and (131072 − 1)·θᵢ without scaling, about 16×; the divided
  // planes reach (131072 − 1)·θᵢ/8, about 2×.
  expect(close(await value(page, 'scaling-overshoot-plain'), 131071 / 8191, 1e-12)).toBe(true);
  expect(close(await value(page, 'scaling-overshoot'), 131071 / (8 * 8191), 1e-9)).toBe(true);
  // The text a person reads follows the state while it can be seen (see src/ui/readout.rs).
  await page.getByTestId('scaling-overshoot').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('scaling-overshoot')).toContainText('about 2×');
  // Plane by plane: the planes marked beyond training are the ones the readout counts.
  await chapter(page).scrollIntoViewIfNeeded();
  await chapter(page).getByText("Each plane's largest angle").click();
  const rows = page.getByTestId('scaling-plane-angles').locator('tbody tr');
  await expect(rows).toHaveCount(64);
  const counted = Number((await page.getByTestId('scaling-overshoot').textContent()).match(/\((\d+) of 64 planes\)/)[1]);
  await expect(rows.and(page.locator('.unseen'))).toHaveCount(counted);
  expect(counted).toBeGreaterThan(0);
  // Every value stays editable: a field of the chapter changes the state and the URL. (Cards
  // out of view are not laid out: scroll to the chapter as a reader would.)
  await chapter(page).scrollIntoViewIfNeeded();
  await page.locator('#scaling-factor').fill('16');
  await page.locator('#scaling-factor').press('Enter');
  await expect(page).toHaveURL(/factor=16/);
  // 16 × 8191 = 131056 < 131071: the divided planes still go a hair (less than a position) beyond.
  await expect.poll(async () => close(await value(page, 'scaling-overshoot'), 131071 / (16 * 8191), 1e-9)).toBe(true);
});

test('the walk-through loads Llama 3.1 and reads its bands and overshoot from the state (issue 45)', async ({ page }) => {
  await page.goto('/?embed=scaling');
  const load = page.getByTestId('scaling-walkthrough-load');
  await load.click();
  await expect(page).toHaveURL(/preset=llama-3\.1-8b/);
  await expect(load).toBeHidden();
  // Llama 3.1's rule on 2π·500000^(2i/128): under 8192 / 4 tokens kept, over 8192 / 1 divided.
  const wavelength = Array.from({ length: 64 }, (_, i) => 2 * Math.PI * 500000 ** ((2 * i) / 128));
  const kept = wavelength.filter((w) => w < 2048).length;
  const divided = wavelength.filter((w) => w > 8192).length;
  const text = page.getByTestId('scaling-walkthrough');
  await expect(text).toContainText(`planes 0–${kept - 1} have it above high_freq_factor = 4`);
  await expect(text).toContainText(`planes ${64 - divided}–63 have it below low_freq_factor = 1`);
  await expect(text).toContainText(`planes ${kept}–${63 - divided} between are blended`);
  // Positions 0 to 8191 in training; a divided plane stays within them up to position 8 × 8191,
  // and the target ends at position 131071: (131072 − 1) / (8 · 8191) ≈ 2.0002, about 2×.
  await expect(text).toContainText(`factor × (orig − 1) = ${(8 * 8191).toLocaleString('en-US')};`);
  await expect(text).toContainText(`ends at position 131,071, about ${(131071 / (8 * 8191)).toFixed(2).replace(/\.?0+$/, '')}× that`);
  // A factor of 17 reaches past the target (17 × 8191 ≥ 131071): the sentences follow the state.
  await page.locator('#scaling-factor').fill('17');
  await page.locator('#scaling-factor').press('Enter');
  await expect(text).toContainText(`factor × (orig − 1) = ${(17 * 8191).toLocaleString('en-US')};`);
  await expect(text).toContainText('ends at position 131,071, within that');
  await expect(load).toBeVisible();
});

test('pasting a config: whole, a rope block, fields it cannot use, invalid JSON', async ({ page }) => {
  await open(page, '/?m=3&n=1');
  await chapter(page).scrollIntoViewIfNeeded();
  const box = page.getByLabel('model config');
  const apply = page.getByRole('button', { name: 'apply config' });
  const report = page.getByTestId('config-report');

  // A whole config (GPT-NeoX names): base, head dim from hidden_size / heads, rotary_pct.
  await box.fill('{"hidden_size": 2048, "num_attention_heads": 16, "rotary_emb_base": 50000, "rotary_pct": 0.5, "max_position_embeddings": 4096}');
  await apply.click();
  await expect(report).toContainText('hidden_size / num_attention_heads = 2048 / 16 = 128');
  expect(await page.locator('#dim-slider').inputValue()).toBe('128');
  const inv = await list(page, 'inv-freq');
  plain(50000, 64, 64).forEach((w, i) => expect(close(inv[i], w, 1e-9), `plane ${i}`).toBe(true));
  await expect(page).toHaveURL(/layout=half/);

  // A rope block alone changes only the scaling: YaRN, factor 4 from 32768 (Qwen2.5's recipe).
  await box.fill('{"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}');
  await apply.click();
  await expect(page.getByLabel('scaling', { exact: true })).toHaveValue('yarn');
  expect(await page.locator('#dim-slider').inputValue()).toBe('128');
  expect(close(await value(page, 'attention-factor'), 0.1 * Math.log(4) + 1, 1e-12)).toBe(true);

  // A value it corrects is said after what was read, as its own sentence.
  await box.fill('{"rope_theta": -3, "head_dim": 64}');
  await apply.click();
  await expect(report).toContainText("Read: rope_theta = -3; head_dim = 64; no rope_interleave: transformers' rotate_half, dimension i with i + d/2. base -3");

  // What it cannot use is named, with why.
  await box.fill('{"rope_theta": 1000000, "head_dim": 128, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}}');
  await apply.click();
  await expect(report).toContainText('"mrope" is not a method');
  await expect(report).toContainText('mrope_section');
  await expect(page.getByLabel('scaling', { exact: true })).toHaveValue('none');

  // Invalid JSON changes nothing and says where it broke.
  await expect(page).toHaveURL(/base=1000000/);
  const url = page.url();
  await box.fill('{\n  "rope_theta": 10000,\n  "head_dim": 64,\n}');
  await apply.click();
  await expect(report).toContainText('line 4, column 1');
  await expect(report).toContainText('trailing commas');
  expect(page.url()).toBe(url);
});

test('the Python export follows the settings', async ({ page }) => {
  await open(page, '/?preset=deepseek-v3');
  const python = page.getByTestId('python-export');
  await expect(python).toContainText('"rope_type": "yarn"');
  await expect(python).toContainText('"factor": 40.0');
  await expect(python).toContainText('"mscale_all_dim": 1.0');
  await expect(python).toContainText('ROPE_INIT_FUNCTIONS["yarn"]');
  await page.getByLabel('model preset').selectOption('llama-2-7b');
  await expect(python).toContainText('"rope_type": "default"');
  await expect(python).toContainText('inv_freq = 1.0 / (base **');
});

// The mean of cos(Δθᵢ) over the planes: the q = k score per unit |q|² at distance Δ.
async function embedded(page, query) {
  await page.goto(`/?embed=scaling&${query}`);
  await expect(page.getByTestId('scaling-compare-gap')).toHaveAttribute('data-value', /\d/);
}
const meanCos = (theta, delta) => theta.reduce((sum, t) => sum + Math.cos(delta * t), 0) / theta.length;

test('without a method nothing is compared: the gap is 0 and A at distance 1 is the original', async ({ page }) => {
  await embedded(page, 'dim=128&base=10000');
  expect(await value(page, 'scaling-compare-gap')).toBe(0);
  const near = await value(page, 'scaling-near-score');
  expect(close(near, meanCos(plain(10000, 128, 64), 1), 1e-12), `${near}`).toBe(true);
  await expect(page.locator('.compare-chart')).toHaveAttribute('aria-label', /the largest difference between \w+ and the original frequencies is 0\./);
  // A method that changes θᵢ makes a difference, read off the curves.
  await page.getByLabel('rope_type (method A)').selectOption('linear');
  await expect.poll(async () => value(page, 'scaling-compare-gap')).toBeGreaterThan(0.01);
});

test('two methods side by side: A and B from the chapter, their curves computed as published', async ({ page }) => {
  await embedded(page, 'orig=4096&factor=8&scaling=linear&scaling_b=ntk');
  // A is PI: every θᵢ divided by 8, so at distance 1 the q = k score is the mean of cos(θᵢ/8).
  const theta = plain(10000, 64, 32);
  const near = await value(page, 'scaling-near-score');
  expect(close(near, meanCos(theta.map((t) => t / 8), 1), 1e-12), `${near}`).toBe(true);
  // Its difference with B (NTK keeps the fastest plane) is far from 0 somewhere.
  expect(await value(page, 'scaling-compare-gap')).toBeGreaterThan(0.05);
  // Picking A and B in the chapter: the URL and the page-wide method follow.
  await page.getByLabel('rope_type (method A)').selectOption('yarn');
  await expect(page).toHaveURL(/scaling=yarn/);
  await page.getByLabel('compare with (method B)').selectOption('llama3');
  await expect(page).toHaveURL(/scaling_b=llama3/);
  // YaRN keeps the planes that turn more than beta_fast times within orig, so up close it
  // follows the original far more closely than PI does.
  await expect.poll(async () => value(page, 'scaling-near-score')).toBeLessThan(near);
  // B's own fields show beside A's: low_freq_factor is Llama 3's.
  await expect(page.locator('#scaling-low-freq')).toBeVisible();
  await page.getByLabel('compare with (method B)').selectOption('');
  await expect(page).not.toHaveURL(/scaling_b=/);
  await expect(page.locator('#scaling-low-freq')).toBeHidden();
  // With plain RoPE as A, B = ntk still shows the factor field, which both read.
  await embedded(page, 'scaling_b=ntk');
  await expect(page.locator('#scaling-factor')).toBeVisible();
  await page.locator('#scaling-factor').fill('4');
  await page.locator('#scaling-factor').press('Enter');
  await expect(page).toHaveURL(/factor=4/);
  await expect.poll(async () => value(page, 'scaling-compare-gap')).toBeGreaterThan(0.01);
  // A B that cannot use A's partial rotary fraction (19.2 dimensions) says so, and draws nothing.
  await embedded(page, 'scaling=proportional&partial=0.3&factor=2&scaling_b=linear');
  await expect(page.getByText('Method B cannot use this partial rotary fraction')).toBeVisible();
  await expect(page.locator('.compare-chart .curve.b')).toHaveCount(0);
  await embedded(page, 'scaling=proportional&partial=0.5&factor=2&scaling_b=linear');
  await expect(page.getByText('Method B cannot use this partial rotary fraction')).toBeHidden();
  await expect(page.locator('.compare-chart .curve.b')).toHaveCount(1);
});

test('the wavelength chart draws a column, a ring and a dot per plane as d and the factor move', async ({ page }) => {
  await open(page, '/?dim=16&orig=4096&factor=4&scaling=linear');
  const chart = page.locator('.wavelength-chart:not(.compare-chart)');
  await scrollSettled(chart);
  // Each kind of mark is one path: a subpath (M) per plane; a ring's or dot's starts at its left
  // edge, at the height of its wavelength.
  const heights = async (selector) => [...((await chart.locator(selector).getAttribute('d')) ?? '').matchAll(/M([-\d.]+),([-\d.]+)/g)].map((m) => Number(m[2]));
  const marks = async (selector) => (await heights(selector)).length;
  const gaps = async () => {
    const [before, after] = [await heights('path.before'), await heights('path.after')];
    return before.map((b, i) => b - after[i]);
  };
  await expect.poll(() => marks('path.band.interpolated')).toBe(8);
  expect(await marks('path.band.kept')).toBe(0);
  expect(await marks('path.after')).toBe(8);
  // PI lengthens every wavelength 4 times: each dot sits the same height above its ring, and the
  // rings climb from plane to plane (the wavelengths grow).
  const pi = await gaps();
  pi.forEach((gap) => expect(Math.abs(gap - pi[0]), `${pi}`).toBeLessThan(0.11));
  expect(pi[0]).toBeGreaterThan(5);
  const rings = await heights('path.before');
  rings.slice(1).forEach((y, i) => expect(y, `${rings}`).toBeLessThan(rings[i]));
  // A step of d from the panel: one column, ring and dot more.
  await page.locator('#dim-slider').evaluate((el) => el.focus({ preventScroll: true }));
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/dim=18\b/);
  await expect.poll(() => marks('path.band.interpolated')).toBe(9);
  expect(await marks('path.before')).toBe(9);
  expect(await marks('path.after')).toBe(9);
  // Factor 1: nothing to stretch, so every dot is on its ring.
  await page.locator('#scaling-factor').fill('1');
  await page.locator('#scaling-factor').press('Enter');
  await expect.poll(async () => Math.max(...(await gaps()).map(Math.abs))).toBeLessThan(0.11);
});

test('xPos: the switch overlays its decay, with the values the paper and torchscale give', async ({ page }) => {
  await embedded(page, '');
  await page.getByLabel('xPos: add its decay').check();
  await expect(page).toHaveURL(/xpos=1/);
  await page.locator('#scale-base').fill('256');
  await page.locator('#scale-base').press('Enter');
  await expect(page).toHaveURL(/scale_base=256/);
  // The decay chart's readout at r: the mean over planes of ζᵢ^(r/scale_base)·cos(rθᵢ), with
  // torchscale's ζ = (arange(0, d, 2) + 0.4·d) / (1.4·d).
  await open(page, '/?xpos=1&scale_base=256&r=300&range=1024');
  const theta = plain(10000, 64, 32);
  const zeta = theta.map((_, i) => (2 * i + 0.4 * 64) / (1.4 * 64));
  const want = theta.reduce((sum, t, i) => sum + zeta[i] ** (300 / 256) * Math.cos(300 * t), 0) / 32;
  expect(close(await value(page, 'decay-xpos'), want, 1e-12)).toBe(true);
  // Unchecking on the decay chart takes it off everywhere.
  const decay = page.locator('[data-widget="decay"]');
  await decay.scrollIntoViewIfNeeded();
  await decay.getByLabel(/overlay xPos/).uncheck();
  await expect(page).not.toHaveURL(/xpos=/);
  await expect(page.getByTestId('decay-xpos')).toHaveCount(0);
});

test('the decay chart and the heatmap with the original θᵢ beside the scaled ones', async ({ page }) => {
  // Plain RoPE's score at m = 40, n = 3 ...
  await open(page, '/?m=40&n=3');
  const plainScore = await value(page, 'score');
  // ... is what the heatmap reads at (40, 3) with PI in effect but "original θᵢ" checked.
  await open(page, '/?m=40&n=3&scaling=linear&factor=8');
  expect(await value(page, 'score')).not.toBeCloseTo(plainScore, 6);
  // The decay chart draws the original θᵢ's bound beside the scaled one.
  await expect(page.locator('[data-widget="decay"]')).toContainText('relative bound, original θᵢ before context extension');
  const heatmap = page.locator('[data-widget="heatmap"]');
  await heatmap.scrollIntoViewIfNeeded();
  const original = heatmap.getByLabel(/original θᵢ, without context extension/);
  await original.check();
  await expect(page).toHaveURL(/unscaled=1/);
  const canvas = heatmap.locator('canvas.heatmap-canvas');
  await canvas.focus();
  await canvas.press('ArrowRight');
  await canvas.press('ArrowLeft');
  const hover = page.getByTestId('heatmap-hover');
  await expect(hover).toHaveAttribute('data-m', '40');
  await expect(hover).toHaveAttribute('data-n', '3');
  expect(close(Number(await hover.getAttribute('data-value')), plainScore, 1e-12)).toBe(true);
  // Without scaling the switch has nothing to compare and is not shown.
  await open(page, '/');
  await expect(page.locator('[data-widget="heatmap"]').getByLabel(/original θᵢ/)).toBeHidden();
  await expect(page.locator('[data-widget="decay"]')).not.toContainText('original θᵢ before context extension');
});

test('the chapter embeds alone with no serious accessibility finding', async ({ page }) => {
  for (const theme of ['light', 'dark']) {
    await page.goto(`/?embed=scaling&preset=phi-3-mini-128k&theme=${theme}`);
    await expect(page.locator('[data-widget]')).toHaveCount(1);
    await expect(page.getByTestId('scaling-overshoot')).toHaveAttribute('data-value', /\d/);
    expect(await seriousAxeFindings(page), theme).toEqual([]);
  }
});

for (const width of [1280, 390]) {
  for (const theme of ['light', 'dark']) {
    test(`screenshot of the chapter at ${width} px, ${theme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await open(page, `/?theme=${theme}&preset=llama-3.1-8b&scaling_b=linear&xpos=1`);
      await screenshotOf(chapter(page), `${screenshots}scaling-${width}-${theme}.png`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
    });
  }
}
