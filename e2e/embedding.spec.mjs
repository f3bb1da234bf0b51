// Served as careful hosts serve it (issue 12): every page of the suite comes with the strict
// Content-Security-Policy of e2e/serve.mjs, so any test fails on what the policy blocks. Here:
// the policy is really sent, the page has no inline script left, and a widget works inside a
// sandboxed iframe with the same values as on its own.
import { test, expect, value, open, openHost, readThrough } from './fixtures.mjs';
import { CSP } from './csp.mjs';
import { readFileSync } from 'node:fs';

test('the page runs under the strict policy, with no inline script', async ({ page }) => {
  const response = await page.goto('/?m=40&n=10');
  expect(response.headers()['content-security-policy']).toBe(CSP);
  await readThrough(page);
  await expect(page.getByTestId('score')).toHaveAttribute('data-value', /\d/);
  expect(await page.locator('script:not([src])').count()).toBe(0);
  // Nothing the policy blocks was tried: no violation reported while the page was used.
  const violations = await page.evaluate(() => new Promise((resolve) => {
    const seen = [];
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective}: ${e.blockedURI}`));
    document.querySelector('#m-slider').focus();
    setTimeout(() => resolve(seen), 300);
  }));
  await page.keyboard.press('ArrowRight');
  expect(violations).toEqual([]);
});

test('a widget in a sandboxed iframe shows the same state and values', async ({ page }) => {
  await open(page, '/?m=40&n=10&dim=16');
  const score = await value(page, 'score');
  await openHost(page, `<iframe sandbox="allow-scripts allow-same-origin" src="/?embed=scores&m=40&n=10&dim=16" title="RoPE Lab" width="640" height="600"></iframe>`);
  const frame = page.frameLocator('iframe');
  await expect(frame.getByTestId('score')).toHaveAttribute('data-value', /\d/);
  expect(Number(await frame.getByTestId('score').getAttribute('data-value'))).toBe(score);
  await expect(frame.locator('[data-widget]')).toHaveCount(1);
});

test('every embedded widget links back to the whole explainer at its chapter, in the same state', async ({ page, context }) => {
  await open(page, '/');
  const ids = await page.locator('[data-widget]').evaluateAll((els) => els.map((e) => e.dataset.widget));
  expect(ids.length).toBeGreaterThan(10);
  for (const id of ids) {
    await page.goto(`/?embed=${id}&dim=16&m=7&theme=dark`);
    const link = page.getByRole('link', { name: 'Open in RoPE Lab ↗' });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
    const href = new URL(await link.evaluate((a) => a.href));
    expect(href.pathname, id).toBe('/');
    expect(href.hash, id).toBe(`#${id}`);
    expect(Object.fromEntries(href.searchParams), id).toEqual({ dim: '16', m: '7', theme: 'dark' });
  }
  // It follows the state: a step of m in the embed is in the link.
  await page.goto('/?embed=scores&m=7');
  await page.locator('#m-slider').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('link', { name: 'Open in RoPE Lab ↗' })).toHaveAttribute('href', './?m=8#scores');
  // And opens the full page there, in a new tab.
  const [full] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Open in RoPE Lab ↗' }).click()]);
  await full.waitForLoadState();
  expect(full.url()).toMatch(/\/\?m=8#scores$/);
  await expect(full.locator('.site-header, header').first()).toBeVisible();
  // The scores view is embed only: its lists sit in the rotation lab, whose part the link fetches
  // at once (a reader who does not scroll is taken there).
  await expect(full.locator('#scores')).toBeInViewport({ timeout: 10_000 });
  await full.close();
});

test('a link to a chapter the embed does not hold opens the whole explainer there, in a new tab', async ({ page, context }) => {
  await page.goto('/?embed=frequencies&scaling=linear&factor=4');
  const link = page.getByRole('link', { name: 'Context extension' });
  await expect(link).toBeVisible();
  const [full] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await full.waitForLoadState();
  expect(new URL(full.url()).hash).toBe('#scaling');
  expect(Object.fromEntries(new URL(full.url()).searchParams)).toEqual({ scaling: 'linear', factor: '4' });
  await expect(full.locator('#scaling')).toBeInViewport({ timeout: 10_000 });
  await full.close();
  // The embed stays where it was; a link to what it holds still works in place.
  expect(new URL(page.url()).searchParams.get('embed')).toBe('frequencies');
});

test('compact=1: the rotation lab fits a 720 px column in at most 800 px, its figure and controls kept', async ({ page }) => {
  const heights = {};
  // One frame at a time, in view (the lab draws its faces when they come on screen).
  for (const [name, query] of [['full', ''], ['compact', '&compact=1']]) {
    await openHost(page, `<iframe src="/?embed=clocks${query}" title="${name}" width="720" height="400"></iframe>
      <script src="/assets/embed-resize.js"></script>`);
    const frame = page.frameLocator('iframe');
    await expect(frame.getByTestId('score')).toHaveAttribute('data-value', /\d/);
    // The host sized the frame to its widget (the resize script), once the faces are laid out
    // (before, the card holds a placeholder height).
    await expect.poll(async () => {
      const box = await page.locator('iframe').boundingBox();
      const [content, faces] = await frame.locator('body').evaluate((b) =>
        [b.scrollHeight, b.querySelector('.clock-layers').getBoundingClientRect().height]);
      return faces > 200 && Math.abs(box.height - content) <= 2;
    }, { message: `${name} frame sized to its widget` }).toBe(true);
    heights[name] = (await page.locator('iframe').boundingBox()).height;
  }
  expect(heights.compact, 'compact clocks embed, px').toBeLessThanOrEqual(800);
  expect(heights.full, 'the full embed keeps every panel').toBeGreaterThan(heights.compact + 800);
  const compact = page.frameLocator('iframe');
  // What stays: the faces, play and shift, the readouts, the parameters and the way back.
  for (const kept of ['.clock-layers', 'button.play', '[data-testid="score"]', '.embed-controls summary']) {
    await expect(compact.locator(kept).first(), kept).toBeVisible();
  }
  await expect(compact.getByRole('link', { name: 'Open in RoPE Lab ↗' })).toHaveAttribute('href', './#clocks');
  for (const hidden of ['.check', '.vector-editor', '.plane-detail', '.token-strip-box', '.export']) {
    await expect(compact.locator(hidden).first(), hidden).toBeHidden();
  }
  // A bad value is corrected with a notice, like every parameter's.
  await page.goto('/?embed=clocks&compact=yes');
  await expect(page.locator('html')).not.toHaveAttribute('data-compact', '');
  await expect(page.getByText(/compact/).first()).toBeVisible();
  // The embed dialog offers it.
  await open(page, '/?dim=8');
  await page.locator('[data-widget="clocks"]').getByRole('button', { name: /^Embed/ }).click();
  const dialog = page.getByRole('dialog', { name: /Embed/ });
  await expect(dialog.getByTestId('embed-snippet')).not.toHaveValue(/compact/);
  await dialog.getByRole('checkbox', { name: /compact/ }).check();
  await expect(dialog.getByTestId('embed-snippet')).toHaveValue(/\?dim=8&amp;embed=clocks&amp;compact=1"/);
});

// Issue 46: a compact embed of any widget fits about one screen of a blog's 720 px column, with
// its figure and main controls, and the host's frame grows once, not in steps while the widget's
// part, its model or its figures arrive (each step pushed the post's text down again).
// Every widget id the README lists, with what must stay in view; a new id fails here until
// it is given its own.
const COMPACT_KEEPS = {
  order: ['.word-buttons', '.weight-bars'],
  counting: ['.chapter-controls input[type="range"]', '.code-columns canvas'],
  'pe-rotation': ['.pe-dials', '.chapter-controls input[type="range"]'],
  'add-or-rotate': ['.pair-figure', '.compare-table'],
  heatmap: ['.heatmap-layers', '.chart-controls'],
  clocks: ['.clock-layers', 'button.play', '[data-testid="score"]'],
  scores: ['[data-testid="score"]'],
  layouts: ['.listing.current', '.readouts'],
  complex: ['.steps', '.stepper-controls'],
  frequencies: ['.frequency-chart', '.context-control'],
  decay: ['.decay-chart', '[data-testid="decay-bound"]'],
  model: ['[data-testid="model-text"]', '[data-testid="model-heads-prev"]'],
  scaling: ['#preset-select', '.wavelength-figure svg', '[data-testid="scaling-overshoot"]'],
  rope2d: ['.patch-picker', '.score-map'],
  precision: ['.precision-controls select', '.precision-figure'],
  verify: ['[data-testid="verify-test-input"]', '[data-testid="verify-paste"]'],
};

test('compact=1: every widget settles in a 720 px column at 900 px or less, growing the frame once', async ({ page }) => {
  test.setTimeout(120_000);
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf('| widget id |'));
  const ids = [...table.slice(0, table.indexOf('\n\n')).matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
  expect(ids.length).toBeGreaterThan(10);
  expect(ids.filter((id) => !COMPACT_KEEPS[id]), 'widgets without their kept parts').toEqual([]);
  // In the host only: every height its frame takes, at each animation frame, from the start.
  await page.addInitScript(() => {
    if (window.top !== window) return;
    window.__heights = [];
    const step = () => {
      const frame = document.querySelector('iframe');
      const h = frame && frame.getBoundingClientRect().height;
      if (h && window.__heights.at(-1) !== h) window.__heights.push(h);
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
  const report = {};
  for (const id of ids) {
    const query = id === 'scaling' ? '&preset=llama-3.1-8b' : '';
    await openHost(page, `<iframe src="/?embed=${id}&compact=1${query}" title="${id}" width="720" height="300"></iframe>
      <script src="/assets/embed-resize.js"></script>`);
    const frame = page.frameLocator('iframe');
    // Settled: the frame holds its whole widget and has not moved for a second and a half.
    let still = 0;
    await expect.poll(async () => {
      const [heights, content] = await Promise.all([
        page.evaluate(() => window.__heights.slice()),
        frame.locator('html').evaluate((el) => el.scrollHeight),
      ]);
      const sameAsBefore = report[id] && report[id].join() === heights.join();
      report[id] = heights;
      still = sameAsBefore && heights.length > 1 && Math.abs(heights.at(-1) - content) <= 2 ? still + 1 : 0;
      return still;
    }, { timeout: 20_000, intervals: [500], message: `${id}: the frame settles on its widget` }).toBeGreaterThanOrEqual(3);
    const heights = report[id];
    // The host's own height first (and its frame's default 2 px border, which the first message
    // takes away with the same step).
    expect(heights[0], `${id}: the host's own height first`).toBeLessThanOrEqual(304);
    expect(heights.at(-1), `${id}: compact embed in a 720 px column, px`).toBeLessThanOrEqual(900);
    expect(heights.length - 2, `${id}: changes after the first posted height (${heights.join(' → ')})`).toBeLessThanOrEqual(1);
    for (const kept of COMPACT_KEEPS[id]) {
      await expect(frame.locator(kept).first(), `${id}: ${kept}`).toBeVisible();
    }
  }
});

// "Copy link" sits at the top of the page, so it cannot say which chapter a reader was at: each
// chapter's Embed dialog also gives the whole page's link to that chapter, in this state.
test('the embed dialog links to its chapter of the whole page, in this state', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, '/?m=6&n=3');
  await page.locator('[data-widget="decay"]').getByRole('button', { name: /^Embed/ }).click();
  const dialog = page.getByRole('dialog', { name: /Embed/ });
  const link = dialog.getByTestId('chapter-link');
  await expect(link).toHaveText(/\/\?m=6&n=3#decay$/);
  await dialog.getByRole('button', { name: 'Copy the link' }).click();
  await expect(dialog.getByText('Copied.')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await link.textContent());
  // Opened, it lands at that chapter with that state.
  await page.goto(copied);
  await expect.poll(() => page.locator('#decay').evaluate((el) => Math.round(el.getBoundingClientRect().top)), { timeout: 5000 }).toBeLessThan(40);
  await expect(page.locator('#m-slider')).toHaveValue('6');
});
