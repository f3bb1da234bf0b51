// Check yourself (issue 38): a question at the end of every chapter from "counting" on, that the
// reader answers before the page says. Each answer is computed from the state: the expected
// values here come from the page's own readouts or from independent arithmetic, never from the
// question's text.
import { test, expect, open, value } from './fixtures.mjs';

const checks = (page) => page.locator('[data-testid^="check-"]');

/** A question's radio group, answered with the choice at `index`, checked. */
async function answer(page, name, index = 0) {
  const group = page.getByTestId(`check-${name}`);
  await group.scrollIntoViewIfNeeded();
  await group.getByRole('radio').nth(index).check();
  await group.locator('xpath=..').getByRole('button', { name: 'Check', exact: true }).click();
  return group;
}

/** bf16 as stored: the float32 bits rounded to their top 16, ties to even. */
function bf16(x) {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer);
  const lower = u[0] & 0xffff;
  let upper = u[0] >>> 16;
  if (lower > 0x8000 || (lower === 0x8000 && (upper & 1))) upper += 1;
  u[0] = upper << 16;
  return f[0];
}

test('every chapter from counting on ends with a question: at least 12, each a named radio group', async ({ page }) => {
  await open(page);
  const names = await checks(page).evaluateAll((els) => els.map((e) => [e.dataset.testid, e.closest('[data-widget]').dataset.widget]));
  expect(names.length).toBeGreaterThanOrEqual(12);
  const chapters = await page.locator('[data-widget]').evaluateAll((els) => els.map((e) => e.dataset.widget));
  for (const chapter of chapters.slice(chapters.indexOf('counting'))) {
    expect(names.some(([, c]) => c === chapter), `a question in ${chapter}`).toBe(true);
  }
  expect(new Set(names.map(([n]) => n)).size).toBe(names.length);
  // Native radios in a group named by its question; nothing answered yet, so no data-value.
  // (Polled: the trained model's question has its choices once the model has read the text and
  // each plane's loss: in one full run on this 2-core machine that took over 5 s.)
  for (const group of await page.getByRole('radiogroup', { name: /Check yourself/ }).all()) {
    await expect.poll(() => group.getByRole('radio').count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  }
  expect(await page.getByRole('radiogroup', { name: /Check yourself/ }).count()).toBe(names.length);
  await expect(checks(page).and(page.locator('[data-value]'))).toHaveCount(0);
});

test('planes-turning: the answer is the readout, and follows the base', async ({ page }) => {
  await open(page, '/?base=10000&dim=64&orig=4096');
  const turning = await value(page, 'planes-turning');
  const group = page.getByTestId('check-planes-turning');
  const options = await group.getByRole('radio').evaluateAll((els) => els.map((e) => e.value));
  expect(options).toContain(String(turning));
  // A wrong pick: the page says so, names the right count and where to look.
  const wrong = options.findIndex((o) => o !== String(turning));
  await answer(page, 'planes-turning', wrong);
  await expect(group).toHaveAttribute('data-value', String(turning));
  const feedback = group.locator('xpath=..').getByRole('status');
  await expect(feedback).toContainText(`Not quite: ${turning}.`);
  await expect(feedback).toContainText('planes-turning readout');
  // A larger base slows the planes: fewer turn, and the answer follows the readout.
  await page.getByLabel('exact value of the base b').fill('1000000');
  await page.getByLabel('exact value of the base b').press('Enter');
  await expect.poll(() => value(page, 'planes-turning')).toBeLessThan(turning);
  // Another base, another answer: the reader's pick and the verdict were for the old question,
  // so both are gone (no "Not quite" about a question never answered) until they answer again.
  await expect(group).not.toHaveAttribute('data-value', /./);
  await expect(group.locator('xpath=..').locator('.check-feedback')).toBeEmpty();
  await expect(group.getByRole('radio').and(page.locator(':checked'))).toHaveCount(0);
  await expect(group.locator('xpath=..').getByRole('button', { name: 'Check', exact: true })).toBeDisabled();
  await group.locator('xpath=..').getByRole('button', { name: 'Show the answer' }).click();
  await expect(group).toHaveAttribute('data-value', String(await value(page, 'planes-turning')));
  await expect(feedback).toContainText(`The answer: ${await value(page, 'planes-turning')}.`);
});

test('answers computed from the state: bits, bf16, RoPE against added codes', async ({ page }) => {
  await open(page, '/?p=7&m=15962&format=bf16');
  // 7 → 8: the carry flips 0111 into 1000.
  await answer(page, 'bits-flip');
  await expect(page.getByTestId('check-bits-flip')).toHaveAttribute('data-value', String((7 ^ 8).toString(2).replace(/0/g, '').length));
  await answer(page, 'stored-position');
  await expect(page.getByTestId('check-stored-position')).toHaveAttribute('data-value', String(bf16(15962)));
  expect(bf16(15962)).toBe(15936);
  expect(await value(page, 'check-stored-position')).toBe(await value(page, 'position-in-format'));
  // Moving both tokens: RoPE's score stays; the added code's does not (its own table says by how much).
  await answer(page, 'shift-rope');
  await expect(page.getByTestId('check-shift-rope')).toHaveAttribute('data-value', 'stay');
  await answer(page, 'shift-added');
  await expect(page.getByTestId('check-shift-added')).toHaveAttribute('data-value', /^(rise|fall)$/);
  // The fastest plane under PI is divided by the factor; under YaRN it is not.
  await open(page, '/?scaling=linear&factor=4');
  await answer(page, 'fastest-plane');
  await expect(page.getByTestId('check-fastest-plane')).toHaveAttribute('data-value', 'yes');
  await open(page, '/?scaling=yarn&factor=4');
  await answer(page, 'fastest-plane');
  await expect(page.getByTestId('check-fastest-plane')).toHaveAttribute('data-value', 'no');
});

test('by keyboard alone: arrows pick, the Check button answers in a live region', async ({ page }) => {
  await open(page, '/?dim=64');
  const group = page.getByTestId('check-half-partner');
  await group.scrollIntoViewIfNeeded();
  await group.getByRole('radio').first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(group.getByRole('radio').nth(1)).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Check', exact: true }).and(page.locator(':focus'))).toHaveCount(1);
  await page.keyboard.press('Enter');
  // rotate_half pairs 0 with d/2.
  await expect(group).toHaveAttribute('data-value', '32');
  await expect(group.locator('xpath=..').getByRole('status')).toContainText(/Right\.|Not quite: dimension 32\./);
});

test('in an embed and in presenter mode; on paper with the answers at the end', async ({ page }) => {
  await page.goto('/?embed=frequencies&orig=4096');
  const group = page.getByTestId('check-planes-turning');
  await expect(group).toBeVisible();
  await group.locator('xpath=..').getByRole('button', { name: 'Show the answer' }).click();
  await expect(group).toHaveAttribute('data-value', String(await value(page, 'planes-turning')));

  await open(page, '/?present=1');
  const clocks = page.getByTestId('check-first-turn');
  await clocks.scrollIntoViewIfNeeded();
  await expect(clocks).toBeVisible();
  const size = await clocks.locator('legend').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  expect(size).toBeGreaterThanOrEqual(20);

  await open(page, '/?orig=4096');
  await page.emulateMedia({ media: 'print' });
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  const printed = page.locator('.printed-answers li');
  await expect(printed).toHaveCount(await checks(page).count());
  await expect(page.locator('.printed-answers')).toBeVisible();
  await expect(printed.filter({ hasText: 'How many of this head' })).toContainText(String(await value(page, 'planes-turning')));
  // The buttons and the verdicts are not printed.
  await expect(page.getByRole('button', { name: 'Show the answer' }).first()).toBeHidden();
});
