// What new users tripped over (issue 8), each as a test: notices that contradicted the page,
// sentences that lost q, heatmap clicks one cell off, small targets and swipes that moved
// sliders on phones, clipped content, keyboard gaps, signs and numbers, and a wavelength hint
// that contradicted itself. Expected values come from the formulas, not from the app.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect, value, open, close, screenshotWholePage, m, n, settledBox } from './fixtures.mjs';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });


test('a field says what is in effect beside it, marks itself invalid, and stops once it no longer applies', async ({ page }) => {
  await open(page, '/?base=500000&dim=128');
  const score = await value(page, 'score');
  const base = page.getByLabel('exact value of the base b');
  await base.fill('');
  await base.press('Tab');
  const d = page.getByLabel('d, exact');
  await d.fill('');
  await d.press('Tab');
  // Beside each field, not at the top of the page: what stays in effect.
  const baseNote = page.locator(`#${await base.getAttribute('aria-describedby')}`);
  const dNote = page.locator(`#${await d.getAttribute('aria-describedby')}`);
  await expect(baseNote).toHaveText("base '' is not a finite number; keeping 500000");
  await expect(dNote).toHaveText("dim '' is not a finite number; keeping 128");
  await expect(base).toHaveAttribute('aria-invalid', 'true');
  await expect(base).toHaveValue('500000');
  await expect(d).toHaveValue('128');
  await expect(page.getByTestId('notice')).toHaveCount(0);
  expect(await value(page, 'score')).toBe(score);
  // A second edit of the same field replaces its message; a valid one clears it.
  await d.fill('63');
  await d.press('Tab');
  await expect(dNote).toHaveText('dim 63 is odd (RoPE rotates pairs of dimensions); using 64');
  await expect(page.locator('.field-notice:not(:empty)')).toHaveCount(2);
  // Moving the base slider changes the value the base message spoke of: it goes.
  await page.getByRole('slider', { name: /base/ }).press('ArrowRight');
  await expect(baseNote).toBeEmpty();
  await expect(base).toHaveAttribute('aria-invalid', 'false');

  // A vector of the wrong length: said beside the field, which keeps what was typed.
  const q = page.getByLabel(/^q \(comma-separated/);
  await q.fill('1,2,3');
  await q.press('Tab');
  const qNote = page.locator(`#${await q.getAttribute('aria-describedby')}`);
  await expect(qNote).toContainText('q has 3 numbers but dim is 64');
  await expect(q).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'k = q' }).click();
  await expect(qNote).toBeEmpty();
});

test('switching sentences keeps both tokens on their words and the score, any number of times', async ({ page }) => {
  await open(page);
  await page.locator('[data-widget="clocks"]').scrollIntoViewIfNeeded();
  const short = page.getByRole('button', { name: '“Dog attacks the Cat”' });
  const long = page.getByRole('button', { name: '“Once upon a time, a Dog attacks the Cat”' });
  // From the default page (q and k on the two "a"s of the prefix) dropping it cannot keep them.
  await expect(short).toBeDisabled();
  await expect(page.locator('#sentence-note')).toContainText('Put both on “Dog attacks the Cat”');
  // q on Cat, k on Dog.
  await page.locator('button[data-token="9"]').click();
  await page.getByLabel('key n').check();
  await page.locator('button[data-token="6"]').click();
  const score = await value(page, 'score');
  for (let round = 0; round < 3; round++) {
    await short.click();
    await expect.poll(() => m(page)).toBe(3);
    expect(await n(page)).toBe(0);
    await expect(page.locator('button.token.is-m .token-word')).toHaveText('Cat');
    await expect(page.locator('button.token.is-n .token-word')).toHaveText('Dog');
    expect(close(await value(page, 'score'), score, 1e-9)).toBe(true);
    await long.click();
    await expect.poll(() => m(page)).toBe(9);
    expect(await n(page)).toBe(6);
    expect(close(await value(page, 'score'), score, 1e-9)).toBe(true);
  }
});

test('a heatmap click moves m and n to the cell the hover read, and the reading stays', async ({ page }) => {
  await open(page, '/?m=78&n=100');
  const map = page.locator('.heatmap-canvas');
  const box = await settledBox(map);
  const reading = page.getByTestId('heatmap-hover');
  // Six points, some on fractional pixels, across the map.
  for (const [fx, fy] of [[0.31, 0.27], [0.5037, 0.5011], [0.7, 0.2], [0.123, 0.8], [0.66, 0.66], [0.4441, 0.0913]]) {
    await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy);
    await expect(reading).toHaveAttribute('data-m', /\d/);
    const [rm, rn, rscore] = await Promise.all(['data-m', 'data-n', 'data-value'].map((a) => reading.getAttribute(a)));
    await page.mouse.down();
    await page.mouse.up();
    await expect.poll(() => m(page)).toBe(Number(rm));
    expect(await n(page)).toBe(Number(rn));
    expect(close(await value(page, 'score'), Number(rscore), 1e-12)).toBe(true);
    await expect(reading).toHaveAttribute('data-m', rm);
  }
});

test('positions and distances read exactly, even at ten million', async ({ page }) => {
  await open(page, '/?m=10000000&n=258');
  const map = page.locator('.heatmap-canvas');
  await map.scrollIntoViewIfNeeded();
  await map.focus();
  await page.keyboard.press('ArrowLeft');
  const reading = page.getByTestId('heatmap-hover');
  await expect(reading).toContainText('m = 10,000,000, n = 257, n − m = −9,999,743');
  await expect(page.locator('.plane-numbers')).toContainText('(n − m)·θᵢ = (258 − 10,000,000)');
});

test('the heatmap and the clock faces work from the keyboard', async ({ page }) => {
  await open(page, '/?m=40&n=30');
  const map = page.locator('.heatmap-canvas');
  await map.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('heatmap-hover')).toHaveAttribute('data-n', '32');
  await page.keyboard.press('Enter');
  await expect.poll(() => m(page)).toBe(41);
  expect(await n(page)).toBe(32);

  const faces = page.locator('.clock-layers');
  await faces.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/plane=2\b/);
  // The plane's formula, below the faces: its text is current once it is near the screen.
  const title = page.locator('.plane-formula-title');
  await title.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  await expect(title).toContainText('Plane 2');
  await page.keyboard.press('Home');
  await expect(title).toContainText('Plane 0');
});

test('the period table is one tab stop, walked with the arrow keys', async ({ page }) => {
  await open(page);
  const table = page.locator('.period-table tbody');
  await expect(table.locator('button[tabindex="0"]')).toHaveCount(1);
  await table.locator('button[data-plane="0"]').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page).toHaveURL(/plane=2\b/);
  await expect(table.locator('button[data-plane="2"]')).toBeFocused();
  await expect(table.locator('button[tabindex="0"]')).toHaveAttribute('data-plane', '2');
  await page.keyboard.press('End');
  await expect(table.locator('button[data-plane="31"]')).toBeFocused();
  // A step of d adds a row and keeps one tab stop, on the selected plane.
  await page.locator('#dim-slider').evaluate((el) => el.focus({ preventScroll: true }));
  await page.keyboard.press('ArrowRight');
  await expect(table.locator('tr:not([hidden])')).toHaveCount(33);
  await expect(table.locator('button[tabindex="0"]')).toHaveCount(1);
  await expect(table.locator('button[tabindex="0"]')).toHaveAttribute('data-plane', '31');
  await expect(table.locator('tr.selected')).toHaveCount(1);
});

test('focus is visible and stays in place: tokens, and a dismissed notice', async ({ page }) => {
  await open(page, '/?theme=neon');
  await page.getByRole('button', { name: 'Dismiss' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('notice')).toHaveCount(0);
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  // A focused token is outlined dashed, unlike the solid blue outline of the query's token.
  const token = page.locator('button[data-token="3"]');
  await token.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const outline = await token.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).toBe('dashed');
});

test('one sign convention (n − m), and a theme button that says what it does', async ({ page }) => {
  await open(page);
  await expect(page.locator('.plane-numbers')).toContainText('(n − m)·θᵢ = (2 − 5) × 1 = −3 rad');
  await expect(page.locator('[data-widget="clocks"] .explain').nth(1)).toContainText('n − m = −3');
  await expect(page.getByRole('button', { name: 'Switch to dark theme' })).toBeVisible();
});

test('the slowest wavelength says what holds, with and without scaling', async ({ page }) => {
  await open(page);
  const slowest = page.getByTestId('slowest-wavelength');
  const hint = page.locator('.readout', { has: slowest }).locator('.readout-hint');
  // 2π·10000^(62/64): 75% of 2π·10000.
  expect(close(await value(page, 'slowest-wavelength'), 2 * Math.PI * 10000 ** (62 / 64), 1e-12)).toBe(true);
  await expect(hint).toContainText('75% of 2π·b');
  for (const query of ['/?scaling=yarn', '/?scaling=llama3', '/?scaling=linear&factor=4']) {
    await open(page, query);
    const wavelength = await value(page, 'slowest-wavelength');
    expect(wavelength).toBeGreaterThan(2 * Math.PI * 10000 ** (62 / 64));
    await expect(hint).toContainText('lengthens it');
    await expect(hint).toContainText('plain RoPE: 47117');
    await expect(hint).not.toContainText('ceiling');
  }
  // p-RoPE keeps 16 of 32 planes: even times 8 its slowest plane turns far faster than plain RoPE's.
  await open(page, '/?scaling=proportional&partial=0.5&factor=8');
  expect(close(await value(page, 'slowest-wavelength'), 8 * 2 * Math.PI * 10000 ** (30 / 64), 1e-9)).toBe(true);
  // Both steps: dropping planes 16 to 31 (47117 -> 471 tokens), then the factor (x 8).
  await expect(hint).toContainText('p-RoPE keeps 16 of 32 planes, so the slowest wavelength falls from 47117');
  await expect(hint).toContainText('the factor 8 then lengthens it to 3769');
  await expect(hint).toContainText(`${(10000 ** (32 / 64) / 8).toFixed(1)}× shorter than plain RoPE's`);
});

test.describe('on a phone with touch', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });

  test('every control is at least 44 px both ways', async ({ page }) => {
    await open(page);
    const small = await page.evaluate(() => {
      const out = [];
      for (const el of document.querySelectorAll('button, select, textarea, summary, input, [tabindex="0"]')) {
        const target = el.matches('input[type=radio], input[type=checkbox]') ? el.closest('label') ?? el : el;
        const r = target.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || (el.closest('details:not([open])') && !el.matches('summary'))) continue;
        if (r.width < 44 || r.height < 44) out.push(`${el.tagName} ${el.getAttribute('aria-label') ?? el.textContent.trim().slice(0, 20)} ${Math.round(r.width)}x${Math.round(r.height)}`);
      }
      return out;
    });
    expect(small).toEqual([]);
  });

  test('a touch screen is offered no keys: no key hints, no sheet of shortcuts', async ({ page }) => {
    await open(page, '/?dim=8');
    await expect(page.getByRole('button', { name: /^Shortcuts/ })).toBeHidden();
    await expect(page.getByRole('button', { name: /^Presenter mode/ })).toBeVisible();
    await page.locator('#clocks').scrollIntoViewIfNeeded();
    await expect(page.locator('[data-widget="clocks"] .clock-toolbar')).toBeVisible();
    await expect(page.locator('[data-widget="clocks"]').getByText('keys [ and ]')).toBeHidden();
    expect(await page.locator('.key-hint').evaluateAll((all) => all.filter((e) => e.getBoundingClientRect().width > 0).length)).toBe(0);
  });

  test('the bottom bar goes to any chapter, and pauses the lab while it plays', async ({ page }) => {
    await open(page, '/?dim=8');
    await page.evaluate(() => document.getElementById('add-or-rotate').scrollIntoView());
    const bar = page.getByRole('navigation', { name: 'Quick controls' });
    await expect(bar).toBeVisible();
    const menu = bar.getByRole('combobox', { name: 'Go to a chapter' });
    await menu.focus();
    await expect(menu.locator('option[value="precision"]')).toHaveCount(1);
    await menu.selectOption('precision');
    await expect(page).toHaveURL(/#precision$/);
    await expect(page.locator('#precision')).toBeInViewport({ timeout: 10_000 });
    // Play the lab, then read on elsewhere: the bar offers a pause, and it stops the lab.
    await page.locator('#clocks').scrollIntoViewIfNeeded();
    const play = page.locator('[data-widget="clocks"] button.play');
    await play.click();
    await expect(play).toHaveAttribute('aria-pressed', 'true');
    await page.evaluate(() => document.getElementById('frequencies').scrollIntoView());
    await bar.getByRole('button', { name: 'pause the rotation lab' }).click();
    await expect(play).toHaveAttribute('aria-pressed', 'false');
    await expect(bar.getByRole('button', { name: 'pause the rotation lab' })).toHaveCount(0);
  });

  test('a vertical swipe that starts on a slider scrolls the page and leaves the slider', async ({ page, context }) => {
    await open(page, '/?m=21');
    // On a phone the parameters start folded: the reader unfolds them first.
    await expect(page.locator('#parameters details')).not.toHaveAttribute('open', '');
    await page.locator('#parameters summary').click();
    const slider = page.locator('#m-slider');
    await slider.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 100));
    const cdp = await context.newCDPSession(page);
    const swipe = async (dx, dy) => {
      const box = await slider.boundingBox();
      const [x, y] = [box.x + box.width * 0.7, box.y + box.height / 2];
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
      for (let i = 1; i <= 10; i++) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x + (dx * i) / 10, y: y + (dy * i) / 10 }] });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await page.waitForTimeout(400);
    };
    const before = await page.evaluate(() => window.scrollY);
    await swipe(8, -250);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(before + 100);
    expect(await m(page)).toBe(21);
    await page.waitForTimeout(400); // the address bar follows the state after it settles
    expect(new URL(page.url()).searchParams.get('m')).toBe('21');
    // A sideways drag still moves it.
    await slider.scrollIntoViewIfNeeded();
    await swipe(-60, 2);
    expect(await m(page)).not.toBe(21);
  });

  test('a tap on the heatmap reads the cell; a second tap on it moves m and n there', async ({ page }) => {
    await open(page, '/?m=78&n=100');
    const map = page.locator('.heatmap-canvas');
    const box = await settledBox(map);
    const [x, y] = [box.x + box.width * 0.6, box.y + box.height * 0.3];
    await page.touchscreen.tap(x, y);
    const reading = page.getByTestId('heatmap-hover');
    await expect(reading).toHaveAttribute('data-m', /\d/);
    expect(await m(page)).toBe(78);
    const target = [Number(await reading.getAttribute('data-m')), Number(await reading.getAttribute('data-n'))];
    await page.touchscreen.tap(x, y);
    await expect.poll(() => m(page)).toBe(target[0]);
    expect(await n(page)).toBe(target[1]);
  });

  for (const theme of ['light', 'dark']) {
    test(`screenshot of the whole page on a touch phone, ${theme}`, async ({ page }) => {
      await open(page, `/?theme=${theme}&base=500000&m=300&n=20`);
      await page.waitForTimeout(300);
      await screenshotWholePage(page, `${screenshots}touch-390-${theme}.png`);
    });
  }

  test('no key hints on a touch screen, and the bottom bar keeps every button on screen at long positions', async ({ page }) => {
    await open(page, '/?m=1234567&n=7654321');
    // The header's buttons name no key a phone does not have.
    await expect(page.getByRole('button', { name: 'Reset', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Presenter mode', exact: true })).toBeVisible();
    // The bar shows from "Add or rotate?" on; there, m and n of seven digits leave its link and
    // buttons inside the screen.
    await page.evaluate(() => document.getElementById('add-or-rotate').scrollIntoView());
    const bar = page.getByRole('navigation', { name: 'Quick controls' });
    await expect(bar).toBeVisible();
    const outside = await bar.locator('a, button').evaluateAll((els) =>
      els.filter((e) => { const r = e.getBoundingClientRect(); return r.left < 0 || r.right > innerWidth; }).map((e) => e.getAttribute('aria-label')));
    expect(outside).toEqual([]);
    await bar.getByRole('link', { name: 'Parameters' }).click();
    await expect(page.locator('#parameters details')).toHaveAttribute('open', '');
  });

  test('nothing is cut off: tables, formulas, fields and vectors fit', async ({ page }) => {
    await open(page, '/?base=1000000000&m=10000000');
    const clipped = await page.evaluate(() => {
      const out = [];
      for (const el of document.querySelectorAll('.period-table, .math, .number-field, th, td, .readout')) {
        if (el.scrollWidth > el.clientWidth + 1) out.push(`${el.className || el.tagName} ${el.scrollWidth}>${el.clientWidth}`);
      }
      return out;
    });
    expect(clipped).toEqual([]);
    await expect(page.getByLabel('exact value of the base b')).toHaveValue('1000000000');
    // The q box shows whole lines: below its top padding, what it shows (it clips at its
    // padding box) is a whole number of lines.
    const lines = await page.getByLabel(/^q \(comma-separated/).evaluate((el) => {
      const style = getComputedStyle(el);
      return (el.clientHeight - parseFloat(style.paddingTop)) / parseFloat(style.lineHeight);
    });
    expect(Math.abs(lines - Math.round(lines))).toBeLessThan(0.05);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
