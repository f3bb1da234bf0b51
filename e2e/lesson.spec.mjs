// Lessons (issue 39): the built-in lesson walked with a clicker's PageDown to its end and PageUp
// back, each step's point on screen at 1280x720 in presenter mode with its caption; step=k opens
// what stepping to k shows; Escape leaves with the view; a teacher's lesson file, a broken one
// and one that is not there; "Add this view to a lesson"; the printed handout. The lesson part
// is fetched only when a lesson is asked for.
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect, m, n, WORKER_BLOCKED, caughtUp } from './fixtures.mjs';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

// The lesson table, read from the teachers' guide (what a teacher is told each step shows).
const guide = readFileSync(fileURLToPath(new URL('../docs/lessons.md', import.meta.url)), 'utf8');
const STEPS = [...guide.matchAll(/^\| (\d+) \| [^|]+ \| \[`\?lesson=intro&present=1&step=\d+`\]\([^)]*\) \| `([^`]+)` \| (.+) \|$/gm)]
  .map(([, k, view, point]) => ({ k: Number(k), view, chapter: view.split('#')[1], point }));

// Where each chapter makes its point: what a step on it must show whole, above the lesson bar.
const POINT = {
  order: '.outputs-table',
  counting: '.code-columns',
  'pe-rotation': '.pe-dials',
  'add-or-rotate': '.add-rotate-grid',
  heatmap: '.heatmap-layers',
  clocks: '.clock-layers',
  frequencies: 'canvas.chart',
  decay: '.decay-plot',
  // The heads of the model shown; SmolLM2's section while it is not loaded (the offer to load it).
  model: ':is(.model-heads, .smollm2:not(:has(.model-heads)))',
  layouts: '.listings',
  scaling: '.wavelength-figure',
  // An anchor inside context extension: its two methods side by side (step 14's point, which
  // lay a long chapter below its heading).
  'scaling-compare': '.compare-figure',
  rope2d: '.patch-figures',
  precision: '[data-testid=position-in-format]',
};

/** Whether two readings agree on every value both have (a chapter not yet arrived has none). */
function agree(a, b) {
  return Object.keys(a).every((key) => a[key] === undefined || b[key] === undefined || a[key] === b[key]);
}

/** The values a step's view sets, as the page shows them once it has rested: the chapters far
 * from the screen (the rotation lab's scores, the frequencies) catch up 250 ms after the state
 * last changed (src/lab.rs, `Sleeper`). */
async function settled(page) {
  await caughtUp(page);
  let before = await shown(page);
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(300);
    const now = await shown(page);
    if (JSON.stringify(now) === JSON.stringify(before)) return now;
    before = now;
  }
  return before;
}

/** The values a step's view sets, as the page shows them. */
async function shown(page) {
  return page.evaluate(() => {
    const out = { query: location.search, hash: location.hash };
    for (const id of ['score', 'inv-freq', 'q-rot', 'k-rot', 'attention-factor']) {
      out[id] = document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-value');
    }
    for (const id of ['m-slider', 'n-slider', 'base-slider', 'dim-slider']) out[id] = document.getElementById(id)?.value;
    return out;
  });
}

/** Waits until the point of `chapter` sits whole above the lesson bar (or, taller than the room,
 * starts on screen), with the caption on screen too. */
async function expectPointOnScreen(page, chapter) {
  const section = { 'scaling-compare': 'scaling' }[chapter] ?? chapter;
  const point = page.locator(`[id="${section}"] ${POINT[chapter]}`).first();
  await expect(point).toBeVisible();
  await expect
    .poll(async () => {
      const [box, bar, height] = await Promise.all([
        point.boundingBox(),
        page.locator('.lesson-bar').boundingBox(),
        page.evaluate(() => innerHeight),
      ]);
      if (!box || !bar) return 'not laid out';
      const room = bar.y;
      if (bar.y + bar.height > height + 1) return `bar below the screen (${bar.y} + ${bar.height})`;
      if (box.height <= room) return box.y >= -1 && box.y + box.height <= room + 1 ? 'ok' : `at ${box.y}..${box.y + box.height} of ${room}`;
      return box.y >= -1 && box.y < room / 3 ? 'ok' : `tall, top at ${box.y}`;
    }, { message: `${chapter}'s point above the lesson bar`, timeout: 6000 })
    .toBe('ok');
}

test('docs/lessons.md lists the seventeen steps of the built-in lesson', () => {
  expect(STEPS.map((s) => s.k)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
  for (const step of STEPS) expect(POINT[step.chapter], step.view).toBeTruthy();
});

test('a clicker walks the built-in lesson to its end and back; each step shows its point; step=k opens the same view', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const lessonPart = [];
  page.on('request', (r) => r.url().includes('split_lesson') && lessonPart.push(r.url()));
  await page.goto('/?lesson=intro&present=1');
  const stepTag = page.getByTestId('lesson-step');
  await expect(stepTag).toHaveAttribute('data-value', '1/17');
  expect(lessonPart.length).toBe(1);
  const forward = [];
  for (const step of STEPS) {
    if (step.k > 1) await page.keyboard.press('PageDown');
    await expect(stepTag).toHaveAttribute('data-value', `${step.k}/17`);
    await expect(page.getByTestId('lesson-caption')).not.toBeEmpty();
    await expect(page).toHaveURL(new RegExp(`lesson=intro&step=${step.k}#${step.chapter}$`));
    await expectPointOnScreen(page, step.chapter);
    // The view's own settings are in effect (m and n where the view sets them).
    const params = new URLSearchParams(step.view.split('#')[0]);
    if (params.has('m')) expect(await m(page)).toBe(Number(params.get('m')));
    if (params.has('n')) expect(await n(page)).toBe(Number(params.get('n')));
    forward.push(await settled(page));
  }
  // Past the end, nothing moves.
  await page.keyboard.press('PageDown');
  await expect(stepTag).toHaveAttribute('data-value', '17/17');
  await expect(page.locator('.lesson-next')).toBeDisabled();
  // And it says so: the last step's button reads as the end, and looks pressed out.
  await expect(page.locator('.lesson-next')).toHaveText('The end');
  expect(Number(await page.locator('.lesson-next').evaluate((b) => getComputedStyle(b).opacity))).toBeLessThan(0.6);
  // Back to the start: each step exactly as it was.
  for (let k = 16; k >= 1; k--) {
    await page.keyboard.press('PageUp');
    await expect(stepTag).toHaveAttribute('data-value', `${k}/17`);
    await expect.poll(async () => agree(await shown(page), forward[k - 1])).toBe(true);
    expect((await shown(page)).query).toBe(forward[k - 1].query);
  }
  await expect(page.locator('.lesson-back')).toBeDisabled();
  // The on-screen buttons step too.
  await page.locator('.lesson-next').click();
  await expect(stepTag).toHaveAttribute('data-value', '2/17');
  await page.locator('.lesson-back').click();
  await expect(stepTag).toHaveAttribute('data-value', '1/17');
  // step=k opens what stepping to k showed (a sample: the two clocks steps, scaling, precision,
  // SmolLM2).
  for (const k of [8, 9, 12, 14, 16, 17]) {
    await page.goto(`/?lesson=intro&present=1&step=${k}`);
    await expect(stepTag).toHaveAttribute('data-value', `${k}/17`);
    await expectPointOnScreen(page, STEPS[k - 1].chapter);
    await expect.poll(async () => agree(await shown(page), forward[k - 1])).toBe(true);
    expect((await shown(page)).query).toBe(forward[k - 1].query);
  }
});

test('lesson mode at 1280x720 and 1920x1080, light and dark', async ({ page }) => {
  test.setTimeout(120_000);
  for (const [width, height] of [[1280, 720], [1920, 1080]]) {
    for (const theme of ['light', 'dark']) {
      await page.setViewportSize({ width, height });
      for (const k of [1, 7, 8, 11]) {
        await page.goto(`/?lesson=intro&present=1&theme=${theme}&step=${k}`);
        await expectPointOnScreen(page, STEPS[k - 1].chapter);
        await page.waitForTimeout(300);
        await page.screenshot({ path: `${screenshots}lesson-${width}x${height}-${theme}-step${k}.png` });
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      expect(overflow, 'horizontal overflow').toBeLessThanOrEqual(0);
    }
  }
});

test('Escape leaves the lesson and keeps the view; the other keys work as before', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?lesson=intro&step=8');
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-value', '8/17');
  // ] moves both tokens during a lesson, as anywhere.
  await page.keyboard.press(']');
  await expect.poll(() => m(page)).toBe(4);
  await page.keyboard.press('Escape');
  await expect(page.locator('.lesson-bar')).toHaveCount(0);
  await expect(page).toHaveURL(/\?dim=8&m=4(&n=2)?#clocks$/);
  expect(await m(page)).toBe(4);
  expect(await n(page)).toBe(2);
  await expect(page.locator('#parameters')).toBeVisible();
  // PageDown scrolls the page again.
  const before = await page.evaluate(() => scrollY);
  await page.keyboard.press('PageDown');
  await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(before);
});

test('a normal visit does not fetch the lesson part', async ({ page }) => {
  const lessonPart = [];
  page.on('request', (r) => r.url().includes('split_lesson') && lessonPart.push(r.url()));
  await page.goto('/');
  await expect(page.getByTestId('dog-output-gap')).toHaveAttribute('data-value', /\d/);
  await page.waitForTimeout(1500);
  expect(lessonPart).toEqual([]);
});

test("a teacher's lesson file plays; a broken one and a missing one say what is wrong and the page works", async ({ page, browser }) => {
  const lesson = {
    title: 'Two clocks',
    steps: [
      { view: '?dim=8&m=3&n=1#clocks', caption: 'First: m = 3, n = 1.' },
      { view: '?dim=8&m=13&n=11#clocks', caption: 'Both moved by 10.' },
      { view: '?base=500000#frequencies', caption: 'Llama 3 base.' },
    ],
  };
  await page.route('**/lessons/mine.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(lesson) }));
  await page.route('**/lessons/broken.json', (route) =>
    route.fulfill({ contentType: 'application/json', body: JSON.stringify({ title: 'x', steps: [lesson.steps[0], { view: '#decay' }] }) }));
  await page.goto('/?lesson=lessons/mine.json&step=2');
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-value', '2/3');
  await expect(page.getByTestId('lesson-caption')).toHaveText('Both moved by 10.');
  expect(await m(page)).toBe(13);
  await page.keyboard.press('PageDown');
  await expect(page.getByTestId('lesson-caption')).toHaveText('Llama 3 base.');
  await expect(page).toHaveURL(/\?base=500000&lesson=lessons%2Fmine.json&step=3#frequencies$/);

  await page.goto('/?lesson=lessons/broken.json&m=5');
  const notice = page.getByTestId('notice');
  await expect(notice).toContainText('step 2');
  await expect(notice).toContainText('"caption" is missing');
  await expect(page.locator('.lesson-bar')).toHaveCount(0);
  expect(await m(page)).toBe(5);
  await expect(page.getByTestId('dog-output-gap')).toHaveAttribute('data-value', /\d/);
  // While the notice stands the address still asks for the lesson: mend the file, reload, and it plays.
  await expect(page).toHaveURL(/[?&]lesson=lessons%2Fbroken\.json/);
  await page.unroute('**/lessons/broken.json');
  await page.route('**/lessons/broken.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(lesson) }));
  await page.reload();
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-value', '1/3');
  await expect(page.getByTestId('notice')).toHaveCount(0);
  // Closing a failed lesson's notice lets the address go.
  await page.unroute('**/lessons/broken.json');
  await page.route('**/lessons/broken.json', (route) => route.fulfill({ contentType: 'application/json', body: '{' }));
  await page.goto('/?lesson=lessons/broken.json&m=5');
  await expect(page.getByTestId('notice')).toContainText('not a lesson');
  await expect(page).toHaveURL(/lesson=/);
  await page.getByTestId('notice').getByRole('button', { name: 'Dismiss' }).click();
  await expect(page).not.toHaveURL(/lesson=/);
  expect(await m(page)).toBe(5);

  // A file that is not there: the browser itself reports the 404, and nothing else is wrong.
  const other = await browser.newPage();
  const problems = [];
  other.on('console', (message) => ['error', 'warning'].includes(message.type()) && !message.text().startsWith(WORKER_BLOCKED) && problems.push(message.text()));
  other.on('pageerror', (error) => problems.push(error.message));
  await other.goto(new URL('/?lesson=lessons/none.json', page.url()).href);
  await expect(other.getByTestId('notice')).toContainText('404');
  await expect(other.locator('.lesson-bar')).toHaveCount(0);
  expect(problems).toEqual(['Failed to load resource: the server responded with a status of 404 (Not Found)']);
  await other.close();

  await page.goto('/?lesson=https://example.org/x.json');
  await expect(page.getByTestId('notice')).toContainText('relative');
  await expect(page.locator('.lesson-bar')).toHaveCount(0);
});

test('"Add this view" takes the chapter the teacher worked in, even from the header, and the step\'s chapter can be changed', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?dim=8');
  // Set up the rotation lab, then scroll back up to the header (it is not sticky) to make a lesson.
  await page.locator('#clocks').scrollIntoViewIfNeeded();
  const lab = page.locator('[data-widget="clocks"]:not(.widget-loading)');
  await lab.getByRole('button', { name: 'shift both right' }).click();
  await page.evaluate(() => scrollTo(0, 0));
  await page.getByRole('button', { name: 'Make a lesson' }).click();
  const editor = page.getByTestId('lesson-editor');
  await editor.getByRole('button', { name: 'Add this view to a lesson' }).click();
  await expect(editor.locator('.lesson-editor-view')).toHaveText([/#clocks$/]);
  const chapter = editor.getByLabel('Chapter of step 1');
  await expect(chapter).toHaveValue('clocks');
  await chapter.selectOption('frequencies');
  await expect(editor.locator('.lesson-editor-view')).toHaveText([/#frequencies$/]);
  await chapter.selectOption('');
  await expect(editor.locator('.lesson-editor-view')).not.toHaveText([/#/]);
  // In presenter mode the editor keeps its desk size: the chapter being set up stays in view.
  await page.keyboard.press('Escape');
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveAttribute('data-present', '');
  const box = await editor.boundingBox();
  expect(box.width * box.height, `${box.width} × ${box.height}`).toBeLessThan(0.2 * 1280 * 720);
  await editor.getByRole('button', { name: 'Clear' }).click();
});

test('"Make a lesson": "Add this view to a lesson" collects views into a lesson file that plays', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/?dim=8&m=3&n=1');
  await page.getByRole('button', { name: 'Make a lesson' }).click();
  const editor = page.getByTestId('lesson-editor');
  await expect(editor).toBeVisible();
  const add = editor.getByRole('button', { name: 'Add this view to a lesson' });
  const goTo = async (id) => {
    await page.evaluate((id) => document.getElementById(id).scrollIntoView(), id);
    await expect(page.locator(`[id="${id}"]:not(.widget-loading)`)).toBeAttached();
    await page.evaluate((id) => document.getElementById(id).scrollIntoView(), id);
  };
  await goTo('clocks');
  await add.click();
  await expect(editor.locator('.lesson-editor-view')).toHaveText(['?dim=8&m=3&n=1#clocks']);
  await editor.getByLabel('Caption of step 1').fill('Clocks at m = 3');
  await editor.getByLabel('Caption of step 1').blur();
  await goTo('decay');
  await add.click();
  await expect(editor.locator('.lesson-editor-view')).toHaveText(['?dim=8&m=3&n=1#clocks', '?dim=8&m=3&n=1#decay']);
  // Steps can change places, captions with them; the first cannot go up, the last not down.
  await expect(editor.getByRole('button', { name: 'Move step 1 up' })).toBeDisabled();
  await expect(editor.getByRole('button', { name: 'Move step 2 down' })).toBeDisabled();
  await editor.getByRole('button', { name: 'Move step 2 up' }).click();
  await expect(editor.locator('.lesson-editor-view')).toHaveText(['?dim=8&m=3&n=1#decay', '?dim=8&m=3&n=1#clocks']);
  await expect(editor.getByLabel('Caption of step 2')).toHaveValue('Clocks at m = 3');
  await editor.getByRole('button', { name: 'Move step 1 down' }).click();
  await expect(editor.locator('.lesson-editor-view')).toHaveText(['?dim=8&m=3&n=1#clocks', '?dim=8&m=3&n=1#decay']);
  const download = page.waitForEvent('download');
  await editor.getByRole('button', { name: 'Download the lesson file' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('mine.json');
  const saved = JSON.parse(readFileSync(await file.path(), 'utf8'));
  const decayTitle = await page.locator('#decay-title').textContent();
  expect(saved.steps).toEqual([
    { view: '?dim=8&m=3&n=1#clocks', caption: 'Clocks at m = 3' },
    { view: '?dim=8&m=3&n=1#decay', caption: decayTitle },
  ]);
  await expect(editor.locator('.lesson-editor-link')).toContainText('?lesson=lessons%2Fmine.json');
  // Kept across a reload; played at once.
  await page.reload();
  await page.getByRole('button', { name: 'Make a lesson' }).click();
  await expect(page.getByTestId('lesson-editor').locator('.lesson-editor-view')).toHaveCount(2);
  await page.getByTestId('lesson-editor').getByRole('button', { name: 'Play it' }).click();
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-value', '1/2');
  await expect(page.getByTestId('lesson-caption')).toHaveText('Clocks at m = 3');
  await page.keyboard.press('PageDown');
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-value', '2/2');
  await expectPointOnScreen(page, 'decay');
});

test('a lesson prints as a handout: every step with its caption, its figure and its link', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?lesson=intro&step=3');
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-value', '3/17');
  await page.evaluate(() => { window.print = () => { window.printed = true; }; });
  await page.getByRole('button', { name: 'Print handout' }).click();
  await expect.poll(() => page.evaluate(() => window.printed === true), { timeout: 90_000 }).toBe(true);
  // Back where the teacher was.
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-value', '3/17');
  const entries = page.locator('.lesson-handout .handout-step');
  await expect(entries).toHaveCount(17);
  for (const [i, step] of STEPS.entries()) {
    await expect(entries.nth(i).locator('h2')).toContainText(`Step ${i + 1}.`);
    await expect(entries.nth(i).locator('.handout-link')).toHaveText(new RegExp(`${step.view.replace(/[?.*+^$()|[\]\\]/g, '\\$&')}$`));
  }
  // Canvas figures come as pictures of what they showed (the heatmap, the clocks, decay).
  for (const i of [6, 7, 10]) {
    const picture = entries.nth(i).locator('img.handout-picture').first();
    await expect(picture).toHaveAttribute('src', /^data:image\/png;base64,/);
  }
  // No copy keeps an id or a test id of the page's.
  expect(await page.locator('.lesson-handout [id], .lesson-handout [data-testid]').count()).toBe(0);
  await page.emulateMedia({ media: 'print' });
  await page.evaluate(() => document.documentElement.setAttribute('data-handout', ''));
  await page.screenshot({ path: `${screenshots}lesson-handout-print.png`, fullPage: false });
  await expect(page.locator('#main')).toBeHidden();
  await expect(entries.first()).toBeVisible();
  // The heatmap's cells sit over its frame's plot square, as on screen, not below it.
  const heatmap = entries.nth(6);
  const [frame, cells] = await Promise.all(['img.heatmap-canvas', 'img.heatmap-cells'].map((s) => heatmap.locator(s).boundingBox()));
  expect(cells.y, 'the cells inside the frame, top').toBeGreaterThan(frame.y);
  expect(cells.y + cells.height, 'bottom').toBeLessThan(frame.y + frame.height);
  expect(cells.x + cells.width, 'right').toBeLessThan(frame.x + frame.width);
});
