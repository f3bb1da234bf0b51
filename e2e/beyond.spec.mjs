// Issue 13's two chapters, walked as a reader does: RoPE for images (pick patches by click and
// by keyboard, shift both, the wrong way's collision) and precision (m as bf16, fp16, f32 and
// f64 store it, the angle error, the fixes, the chart). Every number is recomputed here from
// the definitions, independently of the app: 2D RoPE by rotating q and k at their own patches,
// bf16 by rounding float32 bits. Screenshots at 390 and 1280 px, light and dark.
import { fileURLToPath } from 'node:url';
import { test, expect, open, value, close, screenshotOf, seriousAxeFindings } from './fixtures.mjs';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
const chapter = (page, id) => page.locator(`[data-widget="${id}"]`);
const param = (page, name) => new URL(page.url()).searchParams.get(name);

// ---- RoPE for images, from the definition ----

/** q rotated at patch (x, y): plane i of the first ⌈P/2⌉ by x·θₐ, the rest by y·θₐ, where each
 * axis's A planes have θₐ = b^(−a/A); interleaved pairs (2i, 2i+1). */
function rotate2d(v, [x, y], base) {
  const planes = v.length / 2;
  const xPlanes = Math.ceil(planes / 2);
  const out = [];
  for (let i = 0; i < planes; i++) {
    const [axis, j, count] = i < xPlanes ? [x, i, xPlanes] : [y, i - xPlanes, planes - xPlanes];
    const angle = axis * Math.pow(base, -j / count);
    const [a, b] = [v[2 * i], v[2 * i + 1]];
    out.push(a * Math.cos(angle) - b * Math.sin(angle), a * Math.sin(angle) + b * Math.cos(angle));
  }
  return out;
}

/** The wrong way: every plane i turned by (x + y)·θᵢ, θᵢ = b^(−2i/d). */
function rotateMixed(v, [x, y], base) {
  const out = [];
  for (let i = 0; i < v.length / 2; i++) {
    const angle = (x + y) * Math.pow(base, (-2 * i) / v.length);
    const [a, b] = [v[2 * i], v[2 * i + 1]];
    out.push(a * Math.cos(angle) - b * Math.sin(angle), a * Math.sin(angle) + b * Math.cos(angle));
  }
  return out;
}

const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
const Q = [0.5, -1.2, 0.8, 0.3, -0.7, 1.1, 0.9, -0.4];
const K = [1.0, 0.2, -0.6, 0.9, 0.4, -1.3, 0.7, 0.5];
const BASE = 100;
const IMAGE_URL = `/?embed=rope2d&dim=8&base=${BASE}&q=${Q.join(',')}&k=${K.join(',')}`;

/** (qx, qy, kx, ky) from the URL, which leaves out the defaults (2, 5) and (5, 3). */
async function patches(page) {
  const defaults = { qx: 2, qy: 5, kx: 5, ky: 3 };
  return Object.entries(defaults).map(([name, d]) => Number(param(page, name) ?? d));
}

async function expectScores(page, [qx, qy, kx, ky]) {
  const axial = dot(rotate2d(Q, [qx, qy], BASE), rotate2d(K, [kx, ky], BASE));
  const mixed = dot(rotateMixed(Q, [qx, qy], BASE), rotateMixed(K, [kx, ky], BASE));
  await expect.poll(() => value(page, 'rope2d-score')).toBeCloseTo(axial, 9);
  expect(close(await value(page, 'rope2d-mixed-score'), mixed, 1e-9)).toBe(true);
}

test('2D RoPE scores are the definition\'s, for the URL\'s patches and for patches picked by click and keyboard', async ({ page }) => {
  await page.goto(`${IMAGE_URL}&qx=1&qy=2&kx=4&ky=6`);
  const card = chapter(page, 'rope2d');
  await expect(card.locator('img.patch-picture')).toHaveJSProperty('complete', true);
  expect(await card.locator('img.patch-picture').evaluate((img) => img.naturalWidth)).toBeGreaterThan(0);
  await expectScores(page, [1, 2, 4, 6]);

  // A click picks the key patch...
  await card.getByRole('button', { name: 'column 6, row 1', exact: true }).click();
  await expect.poll(() => param(page, 'kx')).toBe('6');
  expect(param(page, 'ky')).toBe('1');
  await expectScores(page, [1, 2, 6, 1]);
  // ... or, with "query patch" chosen, the query patch.
  await card.getByLabel('query patch').check();
  await card.getByRole('button', { name: 'column 0, row 7', exact: true }).click();
  await expect.poll(() => param(page, 'qy')).toBe('7');
  await expectScores(page, [0, 7, 6, 1]);

  // The keyboard: one tab stop on the grid (the picked patch), arrows move, Enter picks.
  await card.getByLabel('key patch').check();
  const stop = card.locator('.patch[tabindex="0"]');
  await expect(stop).toHaveCount(1);
  await expect(stop).toHaveAccessibleName('column 6, row 1, key');
  await stop.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect.poll(() => patches(page)).toEqual([0, 7, 5, 2]);
  await expectScores(page, [0, 7, 5, 2]);
});

test('shifting both patches leaves the axial score exactly as it was; the wrong way collides on anti-diagonals', async ({ page }) => {
  await page.goto(`${IMAGE_URL}&qx=2&qy=3&kx=5&ky=1`);
  const card = chapter(page, 'rope2d');
  const before = await page.getByTestId('rope2d-score').getAttribute('data-value');
  await card.getByRole('button', { name: 'shift both patches down' }).click();
  await expect.poll(() => param(page, 'qy')).toBe('4');
  await expect.poll(() => param(page, 'ky')).toBe('2');
  expect(await patches(page)).toEqual([2, 4, 5, 2]);
  // To the last digit: the score is a function of the offset alone.
  await expect(page.getByTestId('rope2d-score')).toHaveAttribute('data-value', before);
  await card.getByRole('button', { name: 'shift both patches right' }).click();
  await card.getByRole('button', { name: 'shift both patches right' }).click();
  await expect.poll(() => param(page, 'kx')).toBe('7');
  await expect(page.getByTestId('rope2d-score')).toHaveAttribute('data-value', before);
  // k reached the last column: one more step right would leave the grid.
  await expect(card.getByRole('button', { name: 'shift both patches right' })).toBeDisabled();

  // k′ = one step along k's anti-diagonal: the same x + y, another offset.
  const [kx, ky] = (await patches(page)).slice(2);
  // The readouts' hints follow once on screen (below the picture and the maps' downloads).
  await page.getByTestId('rope2d-partner-score').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('rope2d-partner-score').locator('xpath=..')).toContainText(`k′ at column ${kx - 1}, row ${ky + 1}`);
  const mixed = await value(page, 'rope2d-mixed-score');
  expect(close(await value(page, 'rope2d-partner-mixed-score'), mixed, 1e-9)).toBe(true);
  expect(Math.abs((await value(page, 'rope2d-partner-score')) - (await value(page, 'rope2d-score')))).toBeGreaterThan(1e-3);
  const [qx, qy] = (await patches(page)).slice(0, 2);
  const partner = dot(rotate2d(Q, [qx, qy], BASE), rotate2d(K, [kx - 1, ky + 1], BASE));
  expect(close(await value(page, 'rope2d-partner-score'), partner, 1e-9)).toBe(true);

  // The maps: 64 cells each, coloured, with q, k and k′ outlined.
  await card.locator('.patch-maps').scrollIntoViewIfNeeded();
  for (const map of await card.locator('.score-map svg').all()) {
    await expect(map.locator('rect[fill^="rgb"]')).toHaveCount(64);
    await expect(map.locator('.map-mark')).toHaveCount(3);
  }
});

test('arrow keys on the picture move between patches, not the page\'s positions', async ({ page }) => {
  await page.goto('/?m=7#rope2d');
  const card = chapter(page, 'rope2d');
  await card.locator('.patch[tabindex="0"]').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  expect(await page.locator('#m-slider').inputValue()).toBe('7');
  await expect(card.locator('.patch:focus')).toHaveAccessibleName('column 7, row 3');
});

// ---- Precision, from the definition ----

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** x rounded to bfloat16 (via float32's bits, round to nearest, ties to even). */
function bf16(x) {
  f32[0] = x;
  const bits = u32[0];
  u32[0] = ((bits + 0x7fff + ((bits >>> 16) & 1)) & 0xffff0000) >>> 0;
  return f32[0];
}
const gap = (a, b) => {
  const d = (((a - b) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
  return Math.min(d, 2 * Math.PI - d);
};

test('positions as each format stores them: bf16 keeps every 64th integer near 16,000, fp16 overflows', async ({ page }) => {
  const cases = [
    ['bf16', 15962, '15936.0'],
    ['bf16', 15968, '16000.0'], // a tie: to the even significand
    ['bf16', 256, '256.0'],
    ['bf16', 257, '256.0'], // a tie, to even
    ['fp16', 65519, '65504.0'],
    ['fp16', 65520, 'inf'],
    ['f64', 1234567, '1234567.0'],
  ];
  for (const [format, m, stored] of cases) {
    await page.goto(`/?embed=precision&format=${format}&m=${m}`);
    await expect(page.getByTestId('position-in-format')).toHaveAttribute('data-value', stored);
  }
  await page.goto('/?embed=precision&m=15962');
  expect(await value(page, 'collapsed-run')).toBe(63); // 15,905 to 15,967
  await page.goto('/?embed=precision&format=fp16&m=70000');
  await expect(page.getByTestId('position-in-format')).toContainText('∞');
  await expect(page.getByTestId('collapsed-run')).not.toHaveAttribute('data-value', /./);
});

test('the largest angle error is the definition\'s, and the fixes shrink it', async ({ page }) => {
  const m = 15962;
  await page.goto(`/?embed=precision&dim=8&m=${m}`);
  let expected = 0;
  for (let i = 0; i < 4; i++) {
    const theta = Math.pow(10000, (-2 * i) / 8);
    expected = Math.max(expected, gap(bf16(bf16(m) * bf16(theta)), m * theta));
  }
  expect(close(await value(page, 'max-angle-error'), expected, 1e-6)).toBe(true);
  expect(expected).toBeGreaterThan(1); // the fastest plane is lost

  const rows = page.getByTestId('precision-fixes').locator('tbody tr');
  await expect(rows).toHaveCount(5);
  const error = async (row) => Number(await rows.nth(row).locator('td[data-value]').getAttribute('data-value'));
  expect(await error(0)).toBe(await value(page, 'max-angle-error'));
  expect(await error(3)).toBe(0); // f64 is the reference
  expect(await error(2)).toBeLessThan(1e-3); // angles in f32
  expect(await error(4)).toBeLessThan(0.01); // f32 tables cast to bf16
  expect(await value(page, 'precision-score-error')).toBeGreaterThan(0);
});

test('the format menu, the jumps and the chart', async ({ page }) => {
  await page.goto('/?embed=precision');
  const card = chapter(page, 'precision');
  await card.getByLabel('number format').selectOption('fp16');
  await expect.poll(() => param(page, 'format')).toBe('fp16');
  await card.getByRole('button', { name: 'm = 65,520' }).click();
  await expect(page.getByTestId('position-in-format')).toHaveAttribute('data-value', 'inf');
  expect(await value(page, 'max-angle-error')).toBeCloseTo(Math.PI, 12);
  await card.getByRole('button', { name: 'm = 1,000,000' }).click();
  await expect.poll(() => param(page, 'm')).toBe('1000000');
  await card.getByLabel('number format').selectOption('f32');
  await expect(page.getByTestId('position-in-format')).toHaveAttribute('data-value', '1000000.0');

  const chart = card.locator('svg.by-position');
  await chart.scrollIntoViewIfNeeded();
  await expect(chart.locator('polyline.curve')).toHaveCount(5);
  await expect(chart.locator('polyline.curve.chosen')).toHaveClass(/f32/);
  for (const line of await chart.locator('polyline.curve').all()) {
    expect((await line.getAttribute('points')).split(' ').length).toBeGreaterThan(100);
  }
  await expect(chart).toHaveAttribute('aria-label', /fp16 throughout: 3\.14e0 rad/);
});

test('bad patches and formats in the URL are corrected with a notice', async ({ page }) => {
  await page.goto('/?embed=rope2d&qx=99&ky=-3&format=bf32');
  const notices = page.getByTestId('notice');
  await expect(notices.first()).toBeVisible();
  await expect(page.locator('[data-testid="notice"]', { hasText: 'qx' })).toHaveCount(1);
  await expect(page.locator('[data-testid="notice"]', { hasText: 'format' })).toHaveCount(1);
  await expect(chapter(page, 'rope2d').getByRole('button', { name: 'column 7, row 5, query', exact: true })).toBeVisible();
  await expect(page.getByTestId('rope2d-score')).toHaveAttribute('data-value', /\d/);
});

test('both chapters embed alone and have no serious accessibility finding', async ({ page }) => {
  for (const id of ['rope2d', 'precision']) {
    for (const theme of ['light', 'dark']) {
      await page.goto(`/?embed=${id}&theme=${theme}`);
      await expect(page.locator('[data-widget]')).toHaveCount(1);
      expect(await seriousAxeFindings(page), `${id} ${theme}`).toEqual([]);
    }
  }
});

for (const width of [1280, 390]) {
  for (const theme of ['light', 'dark']) {
    test(`screenshots of both chapters at ${width} px, ${theme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      // No #rope2d: a deep link keeps its target at the top for a while, and would scroll the
      // page under the screenshot of the chapter below it.
      await open(page, `/?theme=${theme}&m=15962`);
      for (const id of ['rope2d', 'precision']) {
        await screenshotOf(chapter(page, id), `${screenshots}${id}-${width}-${theme}.png`);
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
    });
  }
}
