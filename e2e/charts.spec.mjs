// The chart widgets end to end: frequencies, decay and heatmap, their controls, exports,
// embeds and screenshots. Expected values come from the formulas, not from the app.
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect, value, open, close, screenshotOf, settledBox, scrollSettled } from './fixtures.mjs';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

/** Planes of d that complete a turn within `context` tokens: positions 0 to context − 1 reach
 * (context − 1)·θᵢ, so the wavelength 2π·base^(2i/d) is at most context − 1. */
const turning = (base, d, context) =>
  Array.from({ length: d / 2 }, (_, i) => 2 * Math.PI * base ** ((2 * i) / d)).filter((w) => w <= context - 1).length;

test('frequencies under partial rotary: θᵢ over the r dimensions that rotate (issue 45)', async ({ page }) => {
  // d = 96, partial 0.25 (GPT-NeoX-20B's head): r = 24, planes 0 to 11 turn with b^(−2i/24), 12 to 47 do not.
  await open(page, '/?dim=96&partial=0.25');
  const note = page.getByTestId('partial-rotary-note');
  await expect(note).toContainText('r = ⌊96·0.25⌋ = 24 of the d = 96 dimensions rotate');
  await expect(note).toContainText('θᵢ = b^(−2i/24) for planes 0 to 11, and θᵢ = 0 (no turn) for planes 12 to 47');
  expect(close(await value(page, 'slowest-wavelength'), 2 * Math.PI * 10000 ** (22 / 24), 1e-12)).toBe(true);
  await open(page, '/');
  await expect(page.getByTestId('partial-rotary-note')).toHaveCount(0);
});

test('frequencies: planes within the context follow the context slider, rows select planes', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('planes-turning')).toHaveAttribute('data-value', String(turning(10000, 64, 4096)));
  const slowest = Number(await page.getByTestId('slowest-wavelength').getAttribute('data-value'));
  expect(close(slowest, 2 * Math.PI * 10000 ** (62 / 64), 1e-12)).toBe(true);
  const context = page.getByLabel('context, exact');
  await context.fill('100000');
  await context.press('Enter');
  await expect(page.getByTestId('planes-turning')).toHaveAttribute('data-value', String(turning(10000, 64, 100000)));
  await expect(page).toHaveURL(/orig=100000/);
  await page.locator('.period-table').getByRole('button', { name: '7', exact: true }).click();
  await expect(page).toHaveURL(/plane=7\b/);
  // The rotation lab's formula (off screen here: its text waits until it is near the screen)
  // shows the plane once a reader gets there.
  // (Chapters still arriving above it may push it away again: scroll at every look.)
  await expect
    .poll(async () => {
      await page.locator('.plane-formula-title').scrollIntoViewIfNeeded();
      return page.locator('.plane-formula-title').textContent();
    })
    .toContain('Plane 7');
});

// Only the rows its scroll box shows follow a step; the others catch up when the box scrolls
// to them. The last row's wavelength, 2π·base^((d − 2)/d), after steps of base made with the
// box at its top, once the box is scrolled to its end.
test('frequencies: the far rows of the period table show the current base once scrolled to', async ({ page }) => {
  await open(page, '/?dim=128');
  const table = page.locator('[data-widget="frequencies"] .period-table');
  await table.scrollIntoViewIfNeeded();
  await page.locator('#base-slider').focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  const base = Number(await page.getByLabel('exact value of the base b').inputValue());
  expect(base).toBeGreaterThan(10000);
  await table.evaluate((el) => { el.scrollTop = el.scrollHeight; });
  const last = table.locator('tbody tr:not([hidden])').last();
  await expect(last.locator('th')).toHaveText('63');
  const expected = 2 * Math.PI * base ** (126 / 128);
  await expect.poll(async () => close(Number((await last.locator('td').nth(1).innerText()).replace('−', '-')), expected, 1e-4)).toBe(true);
});

test('decay: the paper figure, a long log-scale range and compared bases', async ({ page }) => {
  // RoFormer figure 2: d = 128, base 10000; the oracle's bound at r = 100.
  await open(page, '/?dim=128&r=100');
  expect(close(await value(page, 'decay-bound'), 10.227329948505133, 1e-9)).toBe(true);
  await page.getByLabel('distance range (tokens)').selectOption('65536');
  await page.getByLabel('log scale', { exact: true }).check();
  const compare = page.getByLabel('compare bases (comma-separated)');
  await compare.fill('500000, 1000000');
  await compare.press('Enter');
  await expect(page).toHaveURL(/range=65536/);
  await expect(page).toHaveURL(/log=1/);
  await expect(page).toHaveURL(/compare=500000(\.0)?,1000000/);
  // q = k at r is the mean of cos(r θᵢ): 1 at r = 0.
  await page.getByLabel('cursor distance r').fill('0');
  await expect.poll(() => value(page, 'decay-q-equals-k')).toBe(1);
  expect(await value(page, 'decay-bound')).toBe(32.5);
});

test('decay over a long linear range: samples while a slider moves, every distance once still', async ({ page }) => {
  // 513 samples of curves that turn every few tokens alias over 65,536 tokens; at rest the chart
  // is drawn from every distance, each column from its lowest to its highest value.
  await open(page, '/?dim=128&range=65536');
  const chart = page.locator('[data-widget="decay"] canvas.decay-chart').first();
  await scrollSettled(chart);
  await expect(chart).toHaveAttribute('data-detail', 'envelope');
  await expect(chart).toHaveAttribute('aria-label', /every distance: each column spans the lowest to the highest value/);
  await page.locator('#base-slider').evaluate((el) => el.focus({ preventScroll: true }));
  const seen = new Set();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press(i % 2 ? 'ArrowLeft' : 'ArrowRight');
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    seen.add(await chart.getAttribute('data-detail'));
  }
  expect([...seen]).toContain('samples');
  await expect(chart).toHaveAttribute('data-detail', 'envelope');
  // A log axis samples geometrically (no envelope); so does a range with a sample per token.
  await page.getByLabel('log scale', { exact: true }).check();
  await page.waitForTimeout(600);
  await expect(chart).toHaveAttribute('data-detail', 'samples');
  await page.getByLabel('log scale', { exact: true }).uncheck();
  await expect(chart).toHaveAttribute('data-detail', 'envelope');
  await page.getByLabel('distance range (tokens)').selectOption('256');
  await page.waitForTimeout(600);
  await expect(chart).toHaveAttribute('data-detail', 'samples');
});

test('heatmap: hover reads a cell, a click moves m and n, modes switch', async ({ page }) => {
  await open(page, '/?dim=16&m=300&n=200');
  const canvas = page.locator('.heatmap-canvas');
  const box = await settledBox(canvas);
  await page.mouse.move(box.x + 200, box.y + 150);
  await expect(page.getByTestId('heatmap-hover')).toContainText(/m = \d+, n = \d+, n − m = −?\d+: score/);
  const hovered = (await page.getByTestId('heatmap-hover').textContent()).match(/m = (\d+), n = (\d+)/);
  await page.mouse.click(box.x + 200, box.y + 150);
  await expect(page).toHaveURL(new RegExp(`m=${hovered[1]}\\b`));
  await expect(page).toHaveURL(new RegExp(`n=${hovered[2]}\\b`));
  // The ring of (m, n) goes where the click was (within the cell, about 2 px here).
  const ring = page.locator('.heatmap-marker:not(.heatmap-probe)');
  await expect.poll(async () => {
    const r = await ring.boundingBox();
    return Math.hypot(r.x + r.width / 2 - (box.x + 200), r.y + r.height / 2 - (box.y + 150));
  }).toBeLessThan(3);
  await page.getByLabel('sinusoidal encodings added').check();
  await expect(page).toHaveURL(/heatmap=sinusoidal/);
  await page.getByLabel('no position information').check();
  await expect(page).toHaveURL(/heatmap=unrotated/);
});

// The biases RoPE replaced, computed here from their papers and transformers, not from the app.

/** T5's bucket of r = n − m: transformers' _relative_position_bucket, bidirectional, 32 buckets,
 * max_distance 128. */
const t5Bucket = (r) => {
  const side = r > 0 ? 16 : 0;
  const d = Math.abs(r);
  if (d < 8) return side + d;
  return side + Math.min(15, 8 + Math.trunc((Math.log(d / 8) / Math.log(128 / 8)) * 8));
};

/** The lab's 32 T5 bucket biases for `seed`: SplitMix64 on the bias stream (3), Box-Muller
 * standard normals, times |q||k|/√d. */
const t5Biases = (seed, q, k) => {
  const mask = (1n << 64n) - 1n;
  let state = (BigInt(seed) ^ ((3n * 0xd1b54a32d192ed03n) & mask)) & mask;
  const next = () => {
    state = (state + 0x9e3779b97f4a7c15n) & mask;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    return z ^ (z >> 31n);
  };
  const unit = () => Number((next() >> 11n) + 1n) / 2 ** 53;
  const normal = () => {
    const radius = Math.sqrt(-2 * Math.log(unit()));
    return radius * Math.cos(2 * Math.PI * unit());
  };
  const norm = (v) => Math.hypot(...v);
  const scale = (norm(q) * norm(k)) / Math.sqrt(q.length);
  return Array.from({ length: 32 }, () => normal() * scale);
};

test('heatmap: t5 and alibi add their bias to q·k, and say what they show', async ({ page }) => {
  const q = [1, 2, 3, 4];
  const k = [0.5, -1, 2, 0.25];
  const plain = q.reduce((sum, x, i) => sum + x * k[i], 0);
  const reading = page.getByTestId('heatmap-hover');
  const note = page.locator('.heatmap-mode-note');
  /** Reads cells from the keyboard: each step's keys, then the cell's m, n, value and bias. */
  const readCells = async (steps) => {
    const map = page.locator('.heatmap-canvas');
    await map.scrollIntoViewIfNeeded();
    await map.focus();
    const cells = [];
    for (const keys of steps) {
      for (const key of keys) await page.keyboard.press(key);
      const before = cells.at(-1)?.n;
      if (before !== undefined) await expect(reading).not.toHaveAttribute('data-n', String(before));
      await expect(reading).toHaveAttribute('data-bias', /\d/);
      const [m, n, score, bias] = await Promise.all(['data-m', 'data-n', 'data-value', 'data-bias'].map((a) => reading.getAttribute(a)));
      cells.push({ m: Number(m), n: Number(n), score: Number(score), bias: Number(bias), text: await reading.textContent() });
    }
    return cells;
  };
  // From (40, 30): n − m = −11, then 85 and 101 (Shift moves 16), on both sides of T5's split.
  const steps = [['ArrowLeft'], Array(6).fill('Shift+ArrowRight'), ['Shift+ArrowRight']];

  await open(page, `/?dim=4&q=${q}&k=${k}&m=40&n=30&heatmap=t5`);
  await expect(page.getByLabel('T5 bucket bias added')).toBeChecked();
  await expect(note).toContainText('T5 learns one number per bucket; here they are drawn at random');
  await expect(note).toContainText('exact buckets up to distance 7, seven log-spaced ones (8–11, 12–15, 16–22, 23–31, 32–45, 46–63, 64–90), and one from 91 on');
  const biases = t5Biases(1, q, k);
  const t5 = await readCells(steps);
  expect(t5.map((c) => c.n - c.m)).toEqual([-11, 85, 101]);
  expect(t5.map((c) => t5Bucket(c.n - c.m))).toEqual([8, 30, 31]);
  for (const cell of t5) {
    const bias = biases[t5Bucket(cell.n - cell.m)];
    expect(close(cell.bias, bias, 1e-9), `bias at n − m = ${cell.n - cell.m}: ${cell.bias} vs ${bias}`).toBe(true);
    expect(close(cell.score, plain + bias, 1e-9), `score at n − m = ${cell.n - cell.m}`).toBe(true);
    expect(cell.text).toContain(`(bucket ${t5Bucket(cell.n - cell.m)})`);
  }

  await open(page, `/?dim=4&q=${q}&k=${k}&m=40&n=30&heatmap=alibi`);
  await expect(page.getByLabel('ALiBi bias added')).toBeChecked();
  await expect(note).toContainText('slope 1/16: head 4 of 8');
  await expect(note).toContainText('a model uses only the lower-left half (n ≤ m)');
  const alibi = await readCells(steps);
  for (const cell of alibi) {
    const bias = -Math.abs(cell.n - cell.m) / 16;
    expect(cell.bias).toBe(bias);
    expect(close(cell.score, plain + bias, 1e-12), `score at n − m = ${cell.n - cell.m}`).toBe(true);
  }
  await expect(page.locator('.heatmap-canvas')).toHaveAttribute('aria-label', /^Heatmap of the score plus ALiBi's linear bias, for m from 0 and n from 0/);
  // The radio buttons read in the story's order and switch the URL.
  const labels = await page.locator('[aria-label="heatmap shows"] label').allTextContents();
  expect(labels.map((l) => l.trim())).toEqual([
    'no position information', 'sinusoidal encodings added', 'T5 bucket bias added', 'ALiBi bias added', 'RoPE (rotated)',
  ]);
  await page.getByLabel('T5 bucket bias added').check();
  await expect(page).toHaveURL(/heatmap=t5/);
  await expect(note).toContainText('T5 learns one number per bucket');
});

// Issue 9: what nobody sees waits (the heatmap's whole window, a closed list's text) while the
// readable values and the description follow every step; in view, everything is current.
test('out of view, charts wait for the reader; readable values and descriptions do not', async ({ page }) => {
  await open(page, '/?dim=8&m=40&n=10');
  const heatmap = page.locator('[data-widget="heatmap"] .heatmap-canvas');
  await page.locator('#m-slider').focus();
  await page.keyboard.press('ArrowRight');
  await expect(heatmap).toHaveAttribute('aria-label', /purple negative, green positive\. At m = 41, n = 10: [−-]?[0-9]/);
  await heatmap.scrollIntoViewIfNeeded();
  await expect(heatmap).toHaveAttribute('aria-label', /purple negative down to −[0-9.e+-]+, green positive up to [0-9.e+-]+\. At m = 41, n = 10: /);
  // The score in the description is the readable score, whichever way it was computed.
  const score = await value(page, 'score');
  const described = Number((await heatmap.getAttribute('aria-label')).split(': ').at(-1).replace('−', '-'));
  expect(close(described, score, 5e-3)).toBe(true);

  // A closed list: its data-value follows d at once, its text once it is opened.
  await page.evaluate(() => scrollTo(0, 0));
  await page.locator('#dim-slider').focus();
  await page.keyboard.press('ArrowRight');
  const q = page.getByTestId('q-rot');
  await expect.poll(async () => (await q.getAttribute('data-value')).split(',').length).toBe(10);
  await page.getByText('The vectors: q rotated to m').click();
  // Seen: the click may leave the opened list just below the screen's band (the summary scrolled
  // to the bottom edge), where its text rightly waits.
  await q.scrollIntoViewIfNeeded();
  await expect.poll(async () => (await q.textContent()).split(', ').length).toBe(10);
});

test('pictures rebuilt with d or base wait out of view, and are current once seen', async ({ page }) => {
  await open(page, '/?dim=8&base=10000');
  const cells = page.locator('[data-widget="clocks"] .dim-cell');
  const dials = page.locator('[data-widget="pe-rotation"] .pe-dials');
  await scrollSettled(dials);
  const before = await dials.innerHTML();
  await scrollSettled(cells.first());
  await expect(cells).toHaveCount(8);
  await page.evaluate(() => scrollTo(0, 0));
  await page.waitForTimeout(200); // the observers report the strip and the dials gone
  await page.locator('#dim-slider').focus();
  await page.keyboard.press('ArrowRight');
  await page.locator('#base-slider').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#dim-slider')).toHaveValue('10');
  // Out of view: nothing rebuilt yet (the strip still has 8 cells).
  await expect(cells).toHaveCount(8);
  await scrollSettled(cells.first());
  await expect(cells).toHaveCount(10);
  await expect(page.locator('[data-widget="clocks"] .dim-cell.selected')).toHaveCount(2);
  await scrollSettled(dials);
  await expect.poll(() => dials.innerHTML()).not.toBe(before);
});

/** Scrolls to the top of the page (the chapters below out of view), presses `key` `times` on
 * the slider `selector` and waits until it reads `value`. */
async function pressFromTop(page, selector, key, times, value) {
  await page.evaluate(() => scrollTo(0, 0));
  await page.waitForTimeout(200); // the observers report what left the screen
  await page.locator(selector).focus();
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
  await expect(page.locator(selector)).toHaveValue(value);
}

test('pictures that follow m wait out of view; the numbers beside them do not', async ({ page }) => {
  await open(page, '/?m=40&n=10');
  const arrows = page.locator('[data-widget="add-or-rotate"] .pair-arrows');
  const mLabel = page.locator('[data-widget="precision"] .m-label');
  const added = page.getByTestId('norm-q-plus-pe');
  await scrollSettled(arrows);
  const drawn = await arrows.innerHTML();
  const norm = await added.getAttribute('data-value');
  await scrollSettled(mLabel);
  await expect(mLabel).toHaveText('m = 40');
  await pressFromTop(page, '#m-slider', 'ArrowRight', 3, '43');
  // The readable value follows at once; the pictures keep their last drawing.
  await expect(added).not.toHaveAttribute('data-value', norm);
  expect(await arrows.innerHTML()).toBe(drawn);
  await expect(mLabel).toHaveText('m = 40');
  await scrollSettled(arrows);
  await expect.poll(() => arrows.innerHTML()).not.toBe(drawn);
  await scrollSettled(mLabel);
  await expect(mLabel).toHaveText('m = 43');
});

// A readout's text (and a caption's, a table cell's) waits while it is off screen: text changing
// in a card just off screen, which the browser keeps rendered, cost every slider step layout and
// paint. Its data-value never waits; its text is current once seen, and when the page prints.
test('texts beside readable values wait out of view, and are current once seen or printed', async ({ page }) => {
  await open(page, '/?m=40&n=10');
  const added = page.getByTestId('norm-q-plus-pe');
  const cell = page.locator('[data-widget="add-or-rotate"] .compare-table td').first();
  const score = page.getByTestId('layout-score');
  await scrollSettled(added);
  const [text, cellText] = [await added.textContent(), await cell.textContent()];
  const norm = await added.getAttribute('data-value');
  await pressFromTop(page, '#m-slider', 'ArrowRight', 3, '43');
  await expect(added).not.toHaveAttribute('data-value', norm);
  await page.waitForTimeout(100);
  expect(await added.textContent()).toBe(text);
  expect(await cell.textContent()).toBe(cellText);
  await scrollSettled(added);
  await expect(added).not.toHaveText(text);
  // The text is the readable value, rounded.
  const shown = Number((await added.textContent()).replace('−', '-'));
  expect(close(shown, await value(page, 'norm-q-plus-pe'), 5e-3)).toBe(true);
  await expect(cell).not.toHaveText(cellText);

  // Printing: every text is brought up to date before the page is laid out on paper.
  const before = await score.textContent();
  await pressFromTop(page, '#m-slider', 'ArrowRight', 1, '44');
  await page.waitForTimeout(100);
  expect(await score.textContent()).toBe(before);
  await page.evaluate(() => dispatchEvent(new Event('beforeprint')));
  const printed = Number((await score.textContent()).replace('−', '-'));
  expect(close(printed, await value(page, 'layout-score'), 5e-3)).toBe(true);
  await page.evaluate(() => dispatchEvent(new Event('afterprint')));

  // The q and k fields: rewritten with d only near the screen, and at once when focused, so that
  // what a reader then types or selects is not replaced a frame later.
  const qField = page.locator('#q-field');
  await pressFromTop(page, '#dim-slider', 'ArrowRight', 1, '66');
  await expect(page.getByTestId('q-rot')).toHaveAttribute('data-value', /^([^,]+,){65}[^,]+$/);
  expect((await qField.inputValue()).split(',').length).toBe(64);
  await qField.focus();
  expect((await qField.inputValue()).split(',').length).toBe(66);
});

/** Decodes the PNG `bytes` in the page onto a canvas, left at `window.__png`. */
async function decodeInPage(page, bytes) {
  await page.evaluate(async (png) => {
    const picture = new Image();
    picture.src = `data:image/png;base64,${png}`;
    await picture.decode();
    const copy = document.createElement('canvas');
    [copy.width, copy.height] = [picture.width, picture.height];
    copy.getContext('2d').drawImage(picture, 0, 0);
    window.__png = copy;
  }, bytes.toString('base64'));
}

test('each chart exports its data as CSV and its picture as PNG', async ({ page }) => {
  await open(page, '/?dim=16');
  for (const name of ['frequencies', 'decay', 'heatmap']) {
    const widget = page.locator(`[data-widget="${name}"]`);
    const [csv] = await Promise.all([page.waitForEvent('download'), widget.getByRole('button', { name: 'Download CSV' }).first().click()]);
    expect(csv.suggestedFilename()).toBe(`rope-lab-${name}.csv`);
    const lines = readFileSync(await csv.path(), 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(8);
    for (const line of lines.slice(1, 5)) for (const cell of line.split(',')) expect(Number.isFinite(Number(cell))).toBe(true);
    const [png] = await Promise.all([page.waitForEvent('download'), widget.getByRole('button', { name: 'Download PNG' }).first().click()]);
    expect(png.suggestedFilename()).toBe(`rope-lab-${name}.png`);
    const bytes = readFileSync(await png.path());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bytes.length).toBeGreaterThan(2000);
    if (name === 'heatmap') {
      // The map is drawn in layers (frame, then the cells over it): the PNG holds both, the
      // cell at row 60, column 100 where the page shows it, in its colour (the PNG is the
      // figure with 14 CSS pixels of margin, at twice the CSS size: src/ui/figure_png.rs).
      await decodeInPage(page, bytes);
      const [got, shown] = await page.evaluate(() => {
        const copy = window.__png;
        const figure = document.querySelector('.heatmap-layers').getBoundingClientRect();
        const cells = document.querySelector('.heatmap-cells');
        const c = cells.getBoundingClientRect();
        const x = Math.floor((c.left - figure.left + 14 + (c.width * 100.5) / 256) * 2);
        const y = Math.floor((c.top - figure.top + 14 + (c.height * 60.5) / 256) * 2);
        const rgb = (data) => [...data.slice(0, 3)].join(',');
        return [rgb(copy.getContext('2d').getImageData(x, y, 1, 1).data), rgb(cells.getContext('2d').getImageData(100, 60, 1, 1).data)];
      });
      expect(got).toBe(shown);
      expect(shown).not.toBe('0,0,0');
    }
    if (name === 'decay') {
      // The chart is drawn in layers too (the frame on the canvas, the lines in an SVG over
      // it): the PNG holds the lines, the bound's green among them.
      await decodeInPage(page, bytes);
      const green = await page.evaluate(() => {
        const copy = window.__png;
        const data = copy.getContext('2d').getImageData(0, 0, copy.width, copy.height).data;
        let count = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i] === 0 && data[i + 1] === 158 && data[i + 2] === 115) count++;
        return count;
      });
      expect(green, "pixels of the bound's colour in the PNG").toBeGreaterThan(100);
    }
  }
});

for (const [width, label] of [[1280, 'desktop'], [390, 'phone']]) {
  for (const theme of ['light', 'dark']) {
    test(`chart screenshots, ${label}, ${theme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await open(page, `/?theme=${theme}&dim=128&m=300&n=200&r=100&range=65536&log=1&compare=500000,1000000`);
      await page.waitForTimeout(300);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
      for (const id of ['frequencies', 'decay', 'heatmap']) {
        await screenshotOf(page.locator(`[data-widget="${id}"]`), `${screenshots}${id}-${width}-${theme}.png`);
      }
    });
  }
}
