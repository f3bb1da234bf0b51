// Check your own RoPE (issue 47): the page gives a test input, the engineer pastes what their
// implementation returns, and the page names the mistake. The outputs pasted here are computed
// in this file by a RoPE of its own (written from RoFormer and transformers' rotate_half, not
// from the page's code), printed as numpy, torch and JSON print them.
import { test, expect, open, caughtUp } from './fixtures.mjs';

/** RoPE of `x` (rows) at `positions`: θᵢ = base^(−2i/d); pairs (2i, 2i+1) or (i, i + d/2). */
function rope({ x, positions, dim, base, layout }, { sign = 1, shift = 0, exponent = 2 } = {}) {
  const half = dim / 2;
  return x.map((row, r) => {
    const out = row.slice();
    for (let i = 0; i < half; i++) {
      const theta = base ** ((-exponent * i) / dim);
      const angle = (positions[r] + shift) * theta;
      const [c, s] = [Math.cos(angle), sign * Math.sin(angle)];
      const [a, b] = layout === 'half' ? [i, i + half] : [2 * i, 2 * i + 1];
      out[a] = row[a] * c - row[b] * s;
      out[b] = row[a] * s + row[b] * c;
    }
    return out;
  });
}

const f32 = (v) => Math.fround(v);
const numpyRepr = (rows) =>
  `array([${rows.map((r) => `[${r.map((v) => f32(v).toExponential(7)).join(', ')}]`).join(',\n       ')}], dtype=float32)`;
const torchRepr = (rows) =>
  `tensor([[${rows.map((r) => `[${r.map((v) => f32(v).toFixed(4)).join(', ')}]`).join(',\n         ')}]], device='cuda:0',\n       dtype=torch.float32)`;

async function testInput(page) {
  const input = page.getByTestId('verify-test-input');
  await input.scrollIntoViewIfNeeded();
  await caughtUp(page);
  return JSON.parse(await input.getAttribute('data-value'));
}

async function paste(page, text) {
  const box = page.getByTestId('verify-paste');
  await box.fill(text);
}

const verdict = (page) => page.getByTestId('verify-verdict');

test('a right answer, the other layout, another base and garbage, pasted as numpy, torch, JSON and text', async ({ page }) => {
  await open(page, '/?dim=16#verify');
  const input = await testInput(page);
  expect(input.dim).toBe(16);
  expect(input.x.length).toBe(input.positions.length);
  expect(input.x.every((row) => row.length === 16)).toBe(true);
  expect(input.positions).toContain(0);

  // Right, as numpy prints a float32 array: a match, with a small largest error.
  await paste(page, numpyRepr(rope(input)));
  await expect(verdict(page)).toHaveAttribute('data-value', 'match');
  const error = Number(await page.getByTestId('verify-max-error').getAttribute('data-value'));
  expect(error).toBeLessThan(1e-5);

  // The other layout, as torch prints a tensor with a batch axis, a device and a dtype.
  const other = input.layout === 'half' ? 'interleaved' : 'half';
  await paste(page, torchRepr(rope({ ...input, layout: other })));
  await expect(verdict(page)).toHaveAttribute('data-value', 'layout');
  await expect(verdict(page)).toContainText(/rotate_half|interleav/i);

  // Another base, as JSON: found, and "Use these settings" sets it; the paste then matches.
  await paste(page, JSON.stringify(rope({ ...input, base: 500000 })));
  await expect(verdict(page)).toHaveAttribute('data-value', 'base:500000');
  await page.getByRole('button', { name: 'Use these settings' }).click();
  await expect(page).toHaveURL(/base=500000/);
  await expect(verdict(page)).toHaveAttribute('data-value', 'match');

  // Garbage: it says what it read; nothing else on the page changes.
  const url = page.url();
  await paste(page, 'hello, world');
  await expect(verdict(page)).toHaveAttribute('data-value', 'unread');
  await expect(verdict(page)).toContainText(/not a number|expected/i);
  expect(page.url()).toBe(url);

  // The wrong shape: what was read and what was expected.
  await paste(page, JSON.stringify(rope(input).slice(1)));
  await expect(verdict(page)).toHaveAttribute('data-value', 'unread');
  await expect(verdict(page)).toContainText(String(input.positions.length));
});

test('positions shifted and the rotation the wrong way are named', async ({ page }) => {
  await open(page, '/?dim=32&base=10000#verify');
  const input = await testInput(page);
  await paste(page, JSON.stringify(rope(input, { shift: 1 })));
  await expect(verdict(page)).toHaveAttribute('data-value', 'offset:1');
  await paste(page, JSON.stringify(rope(input, { sign: -1 })));
  await expect(verdict(page)).toHaveAttribute('data-value', 'direction');
});

test('the chapter embeds alone', async ({ page }) => {
  await page.goto('/?embed=verify&dim=8');
  await expect(page.locator('[data-widget="verify"]')).toBeVisible();
  await expect(page.getByTestId('verify-paste')).toBeVisible();
  await expect(page.getByTestId('verify-test-input')).toHaveAttribute('data-value', /"dim":\s*8/);
});
