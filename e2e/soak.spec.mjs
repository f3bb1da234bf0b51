// Soak: thousands of random user actions on the release build, as a restless reader would make
// them: every slider by keys, garbage typed into every field, every button and choice, themes,
// resizing between phone and desktop, the heatmap and the clock faces clicked, shortcuts, and
// switching to embeds and back. After each action every readable value must be finite and no
// console error may appear (fixtures.mjs fails the test on any). Over a long stretch without
// page loads, the JS heap and the WebAssembly memory must stay flat after warm-up.
//
// `make test` runs SOAK_ACTIONS=300; `make soak` runs 5,000. The run is seeded (SOAK_SEED, the
// default prints) so that a failure can be replayed.
import { test, expect, open } from './fixtures.mjs';

const ACTIONS = Number(process.env.SOAK_ACTIONS ?? 300);
const SEED = Number(process.env.SOAK_SEED ?? 20261122);
// Bounds after warm-up: growth of the JS heap (after a forced collection) and of the wasm memory.
// A long run's warm-up (875 actions in `make soak`) has visited the largest states (d = 1,024
// with the kept lists and charts in view), so what grows after it is a leak: 4 MB. The kept
// lists' leak took +4.8 MB over 5,000 actions (seed 20261122), within the 16 MB bound of then;
// fixed, the same run grows 13.7 -> 14.3 MB. The 300 actions of `make test` warm up for 52 and
// then meet those states for the first time (6.3 -> 13.3 MB on 2026-11-25): their bound stays
// 16 MB, and the swing test below checks the kept lists in CI (1 MB).
const HEAP_GROWTH_BYTES = 8 * 1024 * 1024;
const WASM_GROWTH_BYTES = (ACTIONS >= 2000 ? 4 : 16) * 1024 * 1024;

/** mulberry32: a tiny seeded generator. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GARBAGE = ['', '-1', '0', '1e308', '-1e308', 'NaN', 'abc', '0.5', '1,2,3', '999999999999', '1e-320', '%', '2', '63', '10000000', '7,x', ' 4 '];
const KEYS = ['ArrowRight', 'ArrowLeft', 'ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End'];
const QUERIES = ['', '?dim=8&m=3&n=1', '?base=1e9&dim=1024', '?scaling=yarn&factor=64', '?m=1e20&n=-4&q=1,NaN', '?dim=2&partial=0.3&scaling=longrope&seq=99999', '?theme=dark&range=1048576&log=1&compare=2,3,4,5', '?heatmap=sinusoidal&m=9999999'];

// One readable value is infinite by contract (CONTRACT.md): m as fp16 stores it past 65,519 is
// `inf`, the precision chapter's point; the soak's 5,000 actions type such positions.
async function everyValueIsFinite(page) {
  const bad = await page.evaluate(() => {
    // A question's answer may be words ("stay", "yes"), and bf16 may store a position as
    // infinity; nothing else may be anything but a finite number.
    const allow = (testid, item) => (testid === 'position-in-format' && item === 'inf')
      || (testid?.startsWith('check-') && /^[a-z][a-z ]*$/.test(item));
    const out = [];
    for (const el of document.querySelectorAll('[data-value]')) {
      // The trained model's words are text; its grid of heads is a JSON array of arrays.
      if (['model-next', 'model-continuation'].includes(el.dataset.testid)) continue;
      let text = el.getAttribute('data-value');
      if (el.dataset.testid === 'model-heads-prev') text = JSON.parse(text).flat().join(',');
      // The test input to check a RoPE against is JSON: every number in it finite.
      if (el.dataset.testid === 'verify-test-input') {
        const numbers = [];
        const walk = (v) => (Array.isArray(v) ? v.forEach(walk) : v && typeof v === 'object' ? Object.values(v).forEach(walk) : typeof v === 'number' && numbers.push(v));
        walk(JSON.parse(text));
        text = numbers.join(',');
      }
      // A verdict is a word, with what was found ("offset:1", "layout+base:500000"), never NaN or inf.
      if (el.dataset.testid === 'verify-verdict') {
        if (!/^[a-z0-9:.+-]+$/.test(text) || /nan|inf/.test(text)) out.push(`verify-verdict: ${text}`);
        continue;
      }
      for (const item of text.split(',')) {
        if (item !== '' && !Number.isFinite(Number(item)) && !allow(el.dataset.testid, item)) out.push(`${el.dataset.testid}: ${item}`);
      }
    }
    for (const el of document.querySelectorAll('output')) if (/NaN|Infinity|\binf\b/.test(el.textContent)) out.push(`text: ${el.textContent}`);
    return out;
  });
  expect(bad).toEqual([]);
}

async function memory(page, cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const wasm = await page.evaluate(() => window.__wasm?.memory?.buffer?.byteLength ?? 0);
  return { heap: usedSize, wasm };
}

/** One random action; `navigate` allows page loads (embeds, URLs). */
async function act(page, random, navigate) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const kind = Math.floor(random() * (navigate ? 11 : 10));
  // A dialog (embed code, shortcuts) is modal: a person closes it before using the page again,
  // with Escape or its Close button.
  if (await page.locator('dialog[open]').count()) {
    if (random() < 0.5) await page.keyboard.press('Escape');
    else await page.locator('dialog[open] .dialog-close').click({ timeout: 2000 }).catch(() => page.keyboard.press('Escape'));
    return 'closed a dialog';
  }
  // The elements matching `selector` that a person can see (one round trip, not one each).
  const visible = async (selector) => {
    const indices = await page.evaluate((selector) => {
      const all = [...document.querySelectorAll(selector)];
      return all.flatMap((el, i) => {
        const r = el.getBoundingClientRect();
        const hidden = r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden' || el.closest('details:not([open]) > :not(summary)');
        return hidden ? [] : [i];
      });
    }, selector);
    return indices.map((i) => page.locator(selector).nth(i));
  };
  switch (kind) {
    case 0:
    case 1: {
      const sliders = await visible('input[type=range]');
      if (!sliders.length) return 'no slider';
      const slider = pick(sliders);
      await slider.focus();
      const key = pick(KEYS);
      for (let i = 0, n = 1 + Math.floor(random() * 4); i < n; i++) await page.keyboard.press(key);
      return `slider ${key}`;
    }
    case 2: {
      const fields = await visible('input[type=number], input[type=text], textarea');
      if (!fields.length) return 'no field';
      const field = pick(fields);
      const text = pick(GARBAGE);
      // As a person types: select what is there, type over it, leave the field.
      await field.focus();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(text);
      await page.keyboard.press('Tab');
      return `typed ${JSON.stringify(text)}`;
    }
    case 3: {
      const buttons = (await visible('button:not([disabled])')).filter(() => true);
      if (!buttons.length) return 'no button';
      const button = pick(buttons);
      const name = (await button.textContent()).trim().slice(0, 20);
      if (/Download/.test(name)) return 'skip download';
      await button.click({ timeout: 2000 }).catch(() => {});
      return `button ${name}`;
    }
    case 4: {
      const selects = await visible('select');
      if (!selects.length) return 'no select';
      const select = pick(selects);
      const options = await select.locator('option').evaluateAll((o) => o.map((x) => x.value));
      await select.selectOption(pick(options));
      return 'select';
    }
    case 5: {
      const boxes = await visible('input[type=radio], input[type=checkbox]');
      if (!boxes.length) return 'no box';
      await pick(boxes).click({ timeout: 2000 }).catch(() => {});
      return 'radio/checkbox';
    }
    case 6: {
      await page.setViewportSize(random() < 0.5 ? { width: 390, height: 844 } : { width: 1280, height: 900 });
      return 'resize';
    }
    case 7: {
      const canvases = await visible('.heatmap-canvas, .clock-hands');
      if (!canvases.length) return 'no canvas';
      const canvas = pick(canvases);
      const box = await canvas.boundingBox();
      if (!box) return 'canvas off';
      await canvas.click({ position: { x: random() * box.width, y: random() * box.height }, timeout: 2000 }).catch(() => {});
      return 'canvas click';
    }
    case 8: {
      // The page's keys (presenter mode, reset, the sheet, play, m and n), as the focus is.
      await page.keyboard.press(pick(['[', ']', '[', ']', 'Tab', 'p', 'r', '?', ' ', 'ArrowRight', 'Shift+ArrowLeft']));
      return 'shortcut';
    }
    case 9: {
      await page.mouse.wheel(0, (random() - 0.3) * 3000);
      return 'scroll';
    }
    default: {
      const ids = ['clocks', 'frequencies', 'decay', 'heatmap', 'scores'];
      const url = random() < 0.5 ? `/?embed=${pick(ids)}` : `/${pick(QUERIES)}`;
      await page.goto(url);
      await expect(page.locator('[data-widget]').first()).toBeAttached();
      return `goto ${url}`;
    }
  }
}

test('thousands of random actions: no error, every value finite, memory flat', async ({ page }) => {
  test.setTimeout(Math.max(120_000, ACTIONS * 400));
  console.log(`soak: ${ACTIONS} actions, seed ${SEED}`);
  await page.addInitScript(() => addEventListener('TrunkApplicationStarted', (e) => { window.__wasm = e.detail.wasm; }));
  const random = rng(SEED);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');

  // A long stretch without page loads, whose memory is measured after warm-up ...
  await open(page, '/?dim=128');
  const stretch = Math.floor(ACTIONS * 0.7);
  const warmUp = Math.floor(stretch * 0.25);
  let start;
  for (let i = 0; i < stretch; i++) {
    const what = await act(page, random, false);
    await everyValueIsFinite(page).catch((e) => { throw new Error(`after action ${i} (${what}): ${e.message}`); });
    if (i === warmUp) start = await memory(page, cdp);
    if (i > warmUp && (i - warmUp) % Math.max(1, Math.floor((stretch - warmUp) / 5)) === 0) {
      const now = await memory(page, cdp);
      console.log(`soak: after ${i} actions: JS heap ${(now.heap / 1e6).toFixed(1)} MB, wasm memory ${(now.wasm / 1e6).toFixed(1)} MB`);
    }
  }
  const end = await memory(page, cdp);
  console.log(
    `soak: JS heap ${(start.heap / 1e6).toFixed(1)} -> ${(end.heap / 1e6).toFixed(1)} MB (bound +${HEAP_GROWTH_BYTES / 1e6} MB), ` +
      `wasm memory ${(start.wasm / 1e6).toFixed(1)} -> ${(end.wasm / 1e6).toFixed(1)} MB (bound +${WASM_GROWTH_BYTES / 1e6} MB), ` +
      `over ${stretch - warmUp} actions after ${warmUp} of warm-up`,
  );
  expect(start.wasm, 'the wasm memory was found').toBeGreaterThan(0);
  expect(end.heap - start.heap).toBeLessThan(HEAP_GROWTH_BYTES);
  expect(end.wasm - start.wasm).toBeLessThan(WASM_GROWTH_BYTES);

  // ... then the rest with page loads too: embeds, hostile URLs.
  for (let i = stretch; i < ACTIONS; i++) {
    const what = await act(page, random, true);
    await everyValueIsFinite(page).catch((e) => { throw new Error(`after action ${i} (${what}): ${e.message}`); });
  }
});

// Lists kept across steps (the period table's rows, the sinusoid dials, the dimension strip)
// must not grow the memory when d swings between its ends again and again with them in view.
// Rows removed by Leptos' `For` leaked (the period table: 6.9 -> 17 MB over 40 such rounds):
// since 2026-11-25 they are hidden instead. Growth bound after two rounds of warm-up: 1 MB over
// ten rounds each (the leak took about 2.5 MB over ten).
const SWING_ROUNDS = 10;
const SWING_GROWTH_BYTES = 1024 * 1024;

test('swinging d between its ends with each kept list in view leaves the memory flat', async ({ page }) => {
  test.setTimeout(120_000);
  await page.addInitScript(() => addEventListener('TrunkApplicationStarted', (e) => { window.__wasm = e.detail.wasm; }));
  await open(page, '/?dim=128');
  const wasm = () => page.evaluate(() => window.__wasm?.memory?.buffer?.byteLength ?? 0);
  const frames = () => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const dim = page.locator('#dim-slider');
  for (const [name, selector] of [['period table', '.period-table'], ['sinusoid dials', '.pe-dials'], ['dimension strip', '.dim-strip']]) {
    await page.locator(selector).first().scrollIntoViewIfNeeded();
    await dim.evaluate((el) => el.focus({ preventScroll: true }));
    const swing = async (rounds) => {
      for (let r = 0; r < rounds; r++) {
        for (const key of ['End', 'Home']) { await page.keyboard.press(key); await frames(); }
      }
    };
    await swing(2);
    const start = await wasm();
    await swing(SWING_ROUNDS);
    const end = await wasm();
    console.log(`swing, ${name} in view: wasm memory ${(start / 1e6).toFixed(1)} -> ${(end / 1e6).toFixed(1)} MB over ${SWING_ROUNDS} rounds (bound +${SWING_GROWTH_BYTES / 1e6} MB)`);
    expect(start, 'the wasm memory was found').toBeGreaterThan(0);
    expect(end - start, `${name}: wasm memory growth`).toBeLessThan(SWING_GROWTH_BYTES);
    // The list shows d's planes again: the table's visible rows follow d down as well as up.
    if (name === 'period table') await expect(page.locator('.period-table tbody tr:not([hidden])')).toHaveCount(Number(await dim.inputValue()) / 2);
  }
});
