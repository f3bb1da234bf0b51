// Shared by the end-to-end specs: a page that fails its test on any console error or warning
// or uncaught exception, and helpers to read the contract's readable values.
import { test as base, expect } from '@playwright/test';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);

// The test harness's own word when it keeps the page's offline worker out (playwright.config.mjs).
export const WORKER_BLOCKED = 'Service Worker registration blocked by Playwright';

export const test = base.extend({
  page: async ({ page }, use) => {
    const problems = [];
    page.on('console', (message) => {
      // Chromium warns about an iframe that a host page sandboxes with allow-scripts and
      // allow-same-origin (what the README and issue 12 ask embedders to support): the host's
      // choice, not the app's, so that one warning is not counted.
      if (message.text().startsWith('An iframe which has both allow-scripts and allow-same-origin')) return;
      if (message.text() === WORKER_BLOCKED) return;
      if (message.type() === 'error' || message.type() === 'warning') {
        problems.push(`${message.type()}: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
    await use(page);
    expect(problems, 'console errors and warnings').toEqual([]);
  },
});

export { expect };

/** Waits until the chapters far from the screen have caught up with the state: they sleep through
 * a change and follow it 250 ms after the last one (src/lab.rs, `Sleeper`), and the page's root
 * carries `data-behind` until then. */
export async function caughtUp(page) {
  await page.locator('html:not([data-behind])').waitFor({ state: 'attached' });
}

/** The full-precision value of a readable number (`data-value`), once the page has caught up. */
export async function value(page, testid) {
  await caughtUp(page);
  const text = await page.getByTestId(testid).getAttribute('data-value');
  return Number(text);
}

/** A readable list as numbers, once the page has caught up. */
export async function list(page, testid) {
  await caughtUp(page);
  const text = await page.getByTestId(testid).getAttribute('data-value');
  return text.split(',').map(Number);
}

/** Opens `path` and waits until a chapter shows, then scrolls through the
 * page as a reader does until every chapter has arrived (the release build fetches a part of the
 * chapters when the reader nears it; one not yet here is a `.widget-loading` placeholder), and
 * back to where the page was. */
export async function open(page, path = '/') {
  await page.goto(path);
  await expect(page.locator('[data-widget]').first()).toBeAttached();
  await readThrough(page);
  await expect(page.getByTestId('score')).toHaveAttribute('data-value', /\d/);
}

/** Scrolls to each chapter still on its way until none is left, then back to where it was. */
export async function readThrough(page) {
  const waiting = page.locator('.widget-loading');
  if ((await waiting.count()) === 0) return;
  const from = await page.evaluate(() => window.scrollY);
  for (let i = 0; i < 30 && (await waiting.count()) > 0; i++) {
    // In the page, at once: a locator would wait for a placeholder that has just arrived.
    await page.evaluate(() => document.querySelector('.widget-loading')?.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(100);
  }
  await expect(waiting).toHaveCount(0);
  await page.evaluate((y) => window.scrollTo(0, y), from);
}

/** The query position m and key position n, as their sliders hold them. */
export const m = (page) => page.locator('#m-slider').inputValue().then(Number);
export const n = (page) => page.locator('#n-slider').inputValue().then(Number);

/** The box of an element scrolled into view, once the cards above it have taken their real
 * height (cards out of view are sized by content-visibility until they come into view). */
export async function settledBox(locator) {
  await locator.scrollIntoViewIfNeeded();
  await locator.page().waitForTimeout(300);
  return locator.boundingBox();
}

/** Scrolls `locator` into view until it stays there: the cards above it take their real
 * height as they are first drawn (content-visibility), which can push it back out of view. */
export async function scrollSettled(locator) {
  const page = locator.page();
  const { height } = page.viewportSize();
  for (let i = 0; i < 10; i++) {
    await locator.scrollIntoViewIfNeeded();
    await page.waitForTimeout(150);
    const box = await locator.boundingBox();
    if (box && box.y >= 0 && box.y + box.height <= height) return;
  }
}

/** |a - b| <= rel * max(|b|, 1). */
export function close(a, b, rel = 1e-9) {
  return Math.abs(a - b) <= rel * Math.max(Math.abs(b), 1);
}

/** A screenshot of the whole page as a reader scrolling through it sees each part: the
 * viewport grows to the page's height first, so that every card is laid out and every chart
 * (drawn only in view) is drawn. */
export async function screenshotWholePage(page, path) {
  const { width, height: original } = page.viewportSize();
  // The body's own height: scrollHeight would report the viewport once it is the taller.
  const contentHeight = () => page.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
  for (let i = 0; i < 3; i++) {
    await page.setViewportSize({ width, height: Math.max(original, await contentHeight()) });
    await page.waitForTimeout(500);
  }
  await page.screenshot({ path, fullPage: true });
  await page.setViewportSize({ width, height: original });
}

/** A screenshot of one element, once all of it is in view and drawn: the viewport grows to
 * the element's height first, since charts below the fold draw only once they come into view. */
export async function screenshotOf(locator, path) {
  const page = locator.page();
  const { width, height: original } = page.viewportSize();
  await locator.scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  const box = await locator.boundingBox();
  if (box && box.height > original) await page.setViewportSize({ width, height: Math.ceil(box.height) + 40 });
  await locator.scrollIntoViewIfNeeded();
  await page.waitForTimeout(500);
  await locator.screenshot({ path });
  await page.setViewportSize({ width, height: original });
}

/** Opens a host page with `body` (an embedder's page: no policy of its own) at /host.html on
 * the test server's origin, as a blog on the same site would embed RoPE Lab. */
export async function openHost(page, body, { csp = null } = {}) {
  const headers = csp ? { 'content-security-policy': csp } : {};
  await page.route('**/host.html', (route) => route.fulfill({ contentType: 'text/html', headers, body: `<!doctype html>${body}` }));
  await page.goto('/host.html');
}

/** Loads axe-core into the page. Evaluated through the debugger rather than added as a script
 * tag, which the page's Content-Security-Policy (no inline scripts) would block. */
export async function injectAxe(page) {
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
}

/** axe-core's serious and critical findings on the page as it is, one line each. */
export async function seriousAxeFindings(page) {
  await injectAxe(page);
  const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`);
}

// What is never translated (issue 49's list): formulas, code, the reader's own text, the trained
// model's words and whatever the page marks `translate="no"` (names, keys, the address to print).
const KEPT = 'code, pre, kbd, math, textarea, script, style, noscript, [translate=no]';

/** The sentences and names the page left in English, as their templates (numbers as {0}…): each
 * one a text the language's catalogue lacks. */
export async function leftInEnglish(page) {
  return page.evaluate((kept) => {
    const left = new Set();
    const words = /[A-Za-z]{2}/;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest(kept) || !words.test(node.data)) continue;
      if (!node.ropeLabFound) left.add(node.ropeLabMissing ?? node.data.trim());
    }
    for (const element of document.querySelectorAll('[aria-label], [aria-valuetext], [title], [placeholder], [alt]')) {
      if (element.closest('[translate=no]')) continue;
      for (const name of ['aria-label', 'aria-valuetext', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name);
        // Words, not code (a JSON example as a placeholder).
        if (value === null || !words.test(value) || /^\s*[[{]/.test(value)) continue;
        if (!element[`ropeLabFound-${name}`]) left.add(element[`ropeLabMissing-${name}`] ?? value.trim());
      }
    }
    if (!document.querySelector('title').firstChild?.ropeLabFound) left.add(document.title);
    // What the charts drew on their canvases (src/dom/translate.rs notes each miss).
    for (const text of window.ropeLabUnsaid ?? []) left.add(text);
    return [...left].sort();
  }, KEPT);
}
