// Served as careful hosts serve it (issue 12): every page of the suite comes with the strict
// Content-Security-Policy of e2e/serve.mjs, so any test fails on what the policy blocks. Here:
// the policy is really sent, the page has no inline script left, and a widget works inside a
// sandboxed iframe with the same values as on its own.
import { test, expect, value, open, openHost, readThrough } from './fixtures.mjs';
import { CSP } from './csp.mjs';

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
