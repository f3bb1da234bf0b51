// Scrollbars that take room, as on Windows, most Linux desktops and Safari with scroll bars
// always shown (Playwright's Chromium hides them unless told): an embedded widget sized by the
// host's resize script must settle at one height, not flip between two as its own scrollbar
// comes and goes (issue 46), and raise no "ResizeObserver loop" error on the way.
import { readFileSync } from 'node:fs';
import { test, expect, openHost } from './fixtures.mjs';
import { chromiumArgs } from './playwright.config.mjs';

test.use({ launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumArgs, ignoreDefaultArgs: ['--hide-scrollbars'] } });

test.beforeEach(async ({ page }) => {
  // In every frame: errors the window sees (a ResizeObserver loop is one, never in the console).
  await page.addInitScript(() => {
    window.__errors = [];
    addEventListener('error', (e) => window.__errors.push(String(e.message)));
  });
});

/** The frame's heights over `ms`, sampled at every animation frame of the host. */
const heightsOver = (page, ms) => page.evaluate((ms) => new Promise((done) => {
  const frame = document.querySelector('iframe');
  const seen = new Set();
  const end = performance.now() + ms;
  const step = () => {
    seen.add(frame.getBoundingClientRect().height);
    if (performance.now() < end) requestAnimationFrame(step);
    else done([...seen]);
  };
  requestAnimationFrame(step);
}), ms);

test('the page itself shows scrollbars that take room here', async ({ page }) => {
  // Without this the test below would prove nothing.
  await page.setViewportSize({ width: 800, height: 400 });
  await page.goto('/?dim=8');
  expect(await page.evaluate(() => window.innerWidth - document.documentElement.clientWidth)).toBeGreaterThan(0);
});

for (const [widget, query, ready] of [
  ['clocks', '', '[data-testid="score"]'],
  ['clocks', '&compact=1', '[data-testid="score"]'],
  ['frequencies', '', '[data-testid="slowest-wavelength"]'],
  ['decay', '&compact=1', '[data-testid="decay-bound"]'],
]) {
  test(`embed=${widget}${query} settles at one height in a 720 px frame`, async ({ page }) => {
    await openHost(page, `<iframe src="/?embed=${widget}${query}" title="${widget}" width="720" height="300"></iframe>
      <script src="/assets/embed-resize.js"></script>`);
    const frame = page.frameLocator('iframe');
    await expect(frame.locator(ready).first()).toHaveAttribute('data-value', /\d/);
    // Let the widget draw and the host size it; then it must hold still.
    await expect.poll(async () => (await heightsOver(page, 600)).length, { timeout: 15_000, message: 'one height over 0.6 s' }).toBe(1);
    const [height] = await heightsOver(page, 1000);
    expect(height).toBeGreaterThan(300);
    const content = await frame.locator('html').evaluate((el) => el.scrollHeight);
    expect(Math.abs(height - content), 'the frame holds its whole widget').toBeLessThanOrEqual(2);
    expect(await frame.locator('html').evaluate(() => window.__errors)).toEqual([]);
    expect(await page.evaluate(() => window.__errors)).toEqual([]);
  });
}

// Every widget the README lists, whole and compact: each settles (the loop was found in four;
// a widget added later must not bring it back).
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const table = readme.slice(readme.indexOf('| widget id |'));
const ids = [...table.slice(0, table.indexOf('\n\n')).matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);

test('every widget, whole and compact, settles at one height in a 720 px frame with scrollbars', async ({ page }) => {
  test.setTimeout(240_000);
  expect(ids.length).toBeGreaterThan(10);
  for (const id of ids) {
    for (const query of ['', '&compact=1']) {
      await openHost(page, `<iframe src="/?embed=${id}${query}" title="${id}" width="720" height="300"></iframe>
        <script src="/assets/embed-resize.js"></script>`);
      const frame = page.frameLocator('iframe');
      await expect(frame.locator(`[data-widget="${id}"]:not(.widget-loading)`)).toBeVisible({ timeout: 15_000 });
      await expect
        .poll(async () => (await heightsOver(page, 600)).length, { timeout: 15_000, message: `${id}${query}: one height over 0.6 s` })
        .toBe(1);
      expect(await frame.locator('html').evaluate(() => window.__errors), `${id}${query}`).toEqual([]);
      expect(await page.evaluate(() => window.__errors), `${id}${query}`).toEqual([]);
    }
  }
});
