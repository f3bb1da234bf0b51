// The rotation lab end to end: dragging positions, shifting both, playing, embedding, and how
// it looks at desktop and phone widths in both themes.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect, value, open, close, screenshotOf, settledBox, m, n } from './fixtures.mjs';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

test('dragging q along the sentence moves m', async ({ page }) => {
  await open(page, '/?m=5&n=2');
  await settledBox(page.locator('[data-widget="clocks"] .token-strip'));
  const from = await page.locator('button[data-token="5"]').boundingBox();
  const to = await page.locator('button[data-token="8"]').boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect.poll(() => m(page)).toBe(8);
  expect(await n(page)).toBe(2);
  await expect(page.locator('button[data-token="8"]')).toHaveAccessibleName(/^the\s*, position\s*8\s*, query m/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a finger drags q from one row of the wrapped strip to the other, and the page stays', async ({ page }) => {
    await open(page, '/?m=1&n=2');
    const strip = page.locator('[data-widget="clocks"] .token-strip');
    await strip.evaluate((e) => e.scrollIntoView({ block: 'center' }));
    await settledBox(strip);
    // The long sentence wraps at 390 px: q ("upon", 1) sits on the first row, "attacks" (7)
    // just below it on the second. A drag straight down is what a vertical swipe looks like.
    const from = await page.locator('button[data-token="1"]').boundingBox();
    const to = await page.locator('button[data-token="7"]').boundingBox();
    expect(to.y, '"attacks" is on a lower row').toBeGreaterThan(from.y + from.height);
    expect(Math.abs(to.x + to.width / 2 - (from.x + from.width / 2)), 'straight below').toBeLessThan(from.width / 2);
    const top = await page.evaluate(() => window.scrollY);
    expect(top, 'the page can scroll both ways here').toBeGreaterThan(100);
    // Real touch input through the browser's input pipeline, as a finger sends it: the
    // browser decides from touch-action whether this is a scroll or the page's drag.
    const cdp = await page.context().newCDPSession(page);
    const touch = (type, x, y) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y, id: 1 }] });
    const [x0, y0] = [from.x + from.width / 2, from.y + from.height / 2];
    const [x1, y1] = [to.x + to.width / 2, to.y + to.height / 2];
    await touch('touchStart', x0, y0);
    for (let i = 1; i <= 12; i++) {
      await touch('touchMove', x0 + ((x1 - x0) * i) / 12, y0 + ((y1 - y0) * i) / 12);
      await page.waitForTimeout(16);
    }
    await touch('touchEnd');
    await expect.poll(() => m(page)).toBe(7);
    expect(await n(page)).toBe(2);
    await expect(page.locator('button.token.is-m .token-word')).toHaveText('attacks');
    expect(await page.evaluate(() => window.scrollY), 'the page did not scroll').toBe(top);
    // A swipe that starts on a token without a marker still scrolls the page.
    const plain = await page.locator('button[data-token="4"]').boundingBox();
    const [x2, y2] = [plain.x + plain.width / 2, plain.y + plain.height / 2];
    await touch('touchStart', x2, y2);
    for (let i = 1; i <= 12; i++) {
      await touch('touchMove', x2, y2 - 20 * i);
      await page.waitForTimeout(16);
    }
    await touch('touchEnd');
    await expect.poll(() => page.evaluate(() => window.scrollY), { message: 'a swipe scrolls' }).toBeGreaterThan(top + 50);
    expect(await m(page)).toBe(7);
  });
});

test('shift both, by button and by key, turns the hands but keeps the score to 1e-9', async ({ page }) => {
  await open(page, '/?m=9&n=6&dim=128');
  const score = await value(page, 'score');
  const share = await value(page, 'plane-contribution');
  await page.getByRole('button', { name: 'shift both right' }).click();
  await expect.poll(() => m(page)).toBe(10);
  await page.locator('body').press(']');
  await page.locator('body').press(']');
  await expect.poll(() => m(page)).toBe(12);
  expect(await n(page)).toBe(9);
  expect(close(await value(page, 'score'), score, 1e-9)).toBe(true);
  expect(close(await value(page, 'plane-contribution'), share, 1e-9)).toBe(true);
  await page.locator('body').press('[');
  await expect.poll(() => m(page)).toBe(11);
  expect(close(await value(page, 'score'), score, 1e-9)).toBe(true);
  // The keys are the page's: they work with focus on a slider, a menu or a checkbox too ...
  await page.getByRole('slider', { name: /dimension/i }).press(']');
  await expect.poll(() => m(page)).toBe(12);
  await page.getByLabel('layout').press(']');
  await expect.poll(() => m(page)).toBe(13);
  await page.getByRole('checkbox', { name: /log scale/ }).press('[');
  await expect.poll(() => m(page)).toBe(12);
  expect(await n(page)).toBe(9);
  // ... but not while typing in a text field.
  await page.getByLabel('m, exact').press(']');
  await page.getByLabel(/^q \(comma-separated/).press('[');
  await page.waitForTimeout(100);
  expect(await m(page)).toBe(12);
  expect(close(await value(page, 'score'), score, 1e-9)).toBe(true);
  // Moving m alone changes it.
  await page.getByRole('slider', { name: /query position/i }).press('ArrowRight');
  await expect.poll(async () => close(await value(page, 'score'), score, 1e-9)).toBe(false);
});

test('the two sentences put Dog and Cat 6 tokens apart and score them the same', async ({ page }) => {
  await open(page, '/?m=9&n=6');
  const score = await value(page, 'score');
  // Clicked once the cards above have taken their real height, so it lands on the button.
  const short = page.getByRole('button', { name: '“Dog attacks the Cat”' });
  await settledBox(short);
  await short.click();
  await expect.poll(() => m(page)).toBe(3);
  expect(await n(page)).toBe(0);
  expect(close(await value(page, 'score'), score, 1e-9)).toBe(true);
});

test('play animates m, and shifts both when asked, then pauses', async ({ page }) => {
  await open(page, '/?m=5&n=2');
  // In the lab: the trained model's chapter has a token "␣play" among its chips.
  const play = page.locator('[data-widget="clocks"]').getByRole('button', { name: /play/i });
  await page.getByLabel('speed, tokens per second').fill('10');
  await play.click();
  await expect(play).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => m(page), { timeout: 5000 }).toBeGreaterThan(8);
  await play.click();
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  const stopped = await m(page);
  await page.waitForTimeout(400);
  expect(await m(page)).toBe(stopped);

  const score = await value(page, 'score');
  await page.locator('.clock-toolbar select').selectOption('both');
  await play.click();
  await expect.poll(() => m(page), { timeout: 5000 }).toBeGreaterThan(stopped + 3);
  await play.click();
  expect((await m(page)) - (await n(page))).toBe(stopped - 2);
  expect(close(await value(page, 'score'), score, 1e-9)).toBe(true);
});

test('with reduced motion, play steps without tweening', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await open(page, '/?m=5&n=2');
  await page.getByLabel('speed, tokens per second').fill('10');
  await page.locator('[data-widget="clocks"]').getByRole('button', { name: /play/i }).click();
  await expect.poll(() => m(page), { timeout: 5000 }).toBeGreaterThan(8);
  await page.locator('[data-widget="clocks"]').getByRole('button', { name: /play/i }).click();
});

test('clicking a clock face selects its plane', async ({ page }) => {
  await open(page, '/?dim=16');
  await settledBox(page.locator('.clock-layers'));
  // Each row of faces is a canvas pair; the hands layer lies over the dials and takes the clicks.
  const rows = page.locator('.clock-hands');
  const box = await rows.first().boundingBox();
  const columns = Math.min(8, Math.max(1, Math.floor(box.width / 78)));
  const cell = Math.min(box.width / columns, 132);
  // The second face of the first row.
  await rows.first().click({ position: { x: cell * 1.5, y: cell / 2 } });
  await expect(page).toHaveURL(/plane=1\b/);
  await expect(page.locator('#plane-field')).toHaveValue('1');
  // The plane's detail follows once on screen (it is below the faces and their downloads).
  await page.locator('.plane-formula-title').scrollIntoViewIfNeeded();
  await expect(page.locator('.plane-formula-title')).toContainText('Plane 1');
  // The first face of the second row is plane `columns`.
  await expect(rows).toHaveCount(Math.ceil(8 / columns));
  if (columns < 8) {
    await rows.nth(1).click({ position: { x: cell / 2, y: cell / 2 } });
    await expect(page.locator('#plane-field')).toHaveValue(String(columns));
  }
});

test('q = k and one-hot vectors, and typed vectors are validated', async ({ page }) => {
  await open(page, '/?dim=8&m=4&n=1&plane=2');
  await page.getByRole('button', { name: 'One-hot on the selected plane' }).click();
  // One-hot q = k on plane 2: the score is cos((n − m)·θ₂), θ₂ = 10000^(−4/8) (RoFormer eq. 15).
  await expect.poll(async () => close(await value(page, 'score'), Math.cos(-3 * 10000 ** (-4 / 8)), 1e-12)).toBe(true);
  await page.getByRole('button', { name: 'k = q' }).click();
  await page.getByLabel(/^q \(comma-separated/).fill('1,2,3');
  await page.getByLabel(/^q \(comma-separated/).blur();
  // Said beside the q field, not at the top of the page.
  await expect(page.locator('.vector-fields .field-notice').first()).toContainText('q has 3 numbers');
});

test('embed=clocks shows the rotation lab alone', async ({ page }) => {
  await open(page, '/?embed=clocks&dim=16&m=9&n=6');
  await expect(page.locator('[data-widget="clocks"]')).toBeVisible();
  await expect(page.locator('h1, header, footer, [data-widget="decay"]')).toHaveCount(0);
  await expect(page.getByTestId('score')).toHaveCount(1);
});

test('a thousand dimensions draw as small multiples without errors', async ({ page }) => {
  await open(page, '/?dim=1024');
  await settledBox(page.locator('.clock-layers'));
  // 512 faces in rows: the rows together are tall, and the first one is drawn.
  const height = await page.locator('.clock-layers').evaluate((c) => c.getBoundingClientRect().height);
  expect(height).toBeGreaterThan(200);
  await expect.poll(() => page.locator('.clock-hands').first().evaluate((c) => c.height)).toBeGreaterThan(0);
});

for (const [width, label] of [[1280, 'desktop'], [390, 'phone']]) {
  for (const theme of ['light', 'dark']) {
    test(`rotation lab screenshot, ${label}, ${theme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await open(page, `/?theme=${theme}&m=9&n=6&dim=32`);
      await page.waitForTimeout(300);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
      await screenshotOf(page.locator('[data-widget="clocks"]'), `${screenshots}clocks-${width}-${theme}.png`);
    });
  }
}
