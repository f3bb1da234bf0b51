// The release build end to end in headless Chromium: what a visitor, an embedding blog and a
// teacher's projector see. Expected numbers come from the formulas of the papers, not the app.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect, value, list, open, close, screenshotWholePage, injectAxe, openHost, WORKER_BLOCKED } from './fixtures.mjs';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

const READABLE = ['score', 'score-relative', 'score-unrotated', 'q-rot', 'k-rot', 'inv-freq', 'attention-factor', 'decay-bound'];

test('the lab loads with every readable value and no console error', async ({ page }) => {
  await open(page);
  await expect(page.getByRole('heading', { level: 1, name: 'RoPE Lab' })).toBeVisible();
  for (const id of READABLE) {
    await expect(page.getByTestId(id)).toHaveAttribute('data-value', /\d/);
  }
  await expect(page.getByTestId('notice')).toHaveCount(0);
  // Defaults: base 10000, d = 64: theta_i = 10000^(-2i/64) (RoFormer eq. 15).
  const invFreq = await list(page, 'inv-freq');
  expect(invFreq).toHaveLength(32);
  invFreq.forEach((theta, i) => expect(close(theta, 10000 ** (-2 * i / 64), 1e-12)).toBe(true));
  expect(await value(page, 'attention-factor')).toBe(1);
  // RoFormer bound at r = 0 is (d/2 + 1)/2.
  expect(await value(page, 'decay-bound')).toBe(16.5);
  expect(close(await value(page, 'score'), await value(page, 'score-relative'))).toBe(true);
  for (const id of ['q-rot', 'k-rot']) expect(await list(page, id)).toHaveLength(64);
  // The page never shows NaN or infinity.
  for (const text of await page.locator('output').allTextContents()) expect(text).not.toMatch(/NaN|Infinity|inf\b/);
});

test('each slider changes the values it should, by keyboard and by mouse', async ({ page }) => {
  await open(page);
  const score = () => value(page, 'score');
  const start = await score();

  const m = page.getByRole('slider', { name: /query position/i });
  await m.focus();
  await m.press('ArrowRight'); // m: 5 -> 6
  await expect.poll(score).not.toBe(start);
  expect(close(await score(), await value(page, 'score-relative'))).toBe(true);

  const n = page.getByRole('slider', { name: /key position/i });
  await n.focus();
  await n.press('ArrowRight'); // n: 2 -> 3, so n - m is -3 again
  await expect.poll(async () => close(await score(), start)).toBe(true);
  await expect(page).toHaveURL(/[?&]m=6\b/);
  await expect(page).toHaveURL(/[?&]n=3\b/);

  // base moves on a log scale: one arrow step multiplies it by 10^0.01.
  const base = page.getByRole('slider', { name: /base/i });
  const theta1 = (await list(page, 'inv-freq'))[1];
  await base.focus();
  await base.press('ArrowRight');
  await expect.poll(async () => (await list(page, 'inv-freq'))[1]).toBeLessThan(theta1);
  const urlBase = () => new URL(page.url()).searchParams.get('base');
  await expect.poll(urlBase).not.toBeNull();
  const newBase = Number(urlBase());
  expect(newBase / 10000).toBeGreaterThan(1.02);
  expect(newBase / 10000).toBeLessThan(1.025);

  const dimension = page.getByRole('slider', { name: /dimension/i });
  await dimension.focus();
  await dimension.press('ArrowRight'); // 64 -> 66
  await expect.poll(async () => (await list(page, 'q-rot')).length).toBe(66);
  expect(await list(page, 'inv-freq')).toHaveLength(33);

  // Dragging m with the mouse to the middle of its track lands near half of its range.
  const box = await m.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect.poll(async () => Number(new URL(page.url()).searchParams.get('m'))).toBeGreaterThan(1500);
  expect(close(await score(), await value(page, 'score-relative'), 1e-9)).toBe(true);
});

test('layout and scaling follow the formulas of their sources', async ({ page }) => {
  await open(page, '/?dim=8&base=10000');
  const plain = await list(page, 'inv-freq');
  const interleavedScore = await value(page, 'score');
  await page.getByLabel('layout').selectOption('half');
  await expect.poll(() => value(page, 'score')).not.toBe(interleavedScore);
  await expect(page).toHaveURL(/layout=half/);

  // Linear (position interpolation): every frequency divided by the factor.
  await page.getByLabel('scaling', { exact: true }).selectOption('linear');
  const factor = page.getByLabel('scaling factor');
  await factor.fill('4');
  await factor.press('Enter');
  await expect.poll(async () => (await list(page, 'inv-freq'))[1]).toBeCloseTo(plain[1] / 4, 12);

  // YaRN's default attention factor is 0.1 ln(s) + 1 (Peng et al. 2023), s = 8 when unset.
  await open(page, '/?scaling=yarn');
  await expect(page.getByTestId('attention-factor')).toHaveAttribute('data-value', /\d/);
  expect(close(await value(page, 'attention-factor'), 0.1 * Math.log(8) + 1, 1e-12)).toBe(true);
});

const BAD_URLS = [
  ['?base=abc', /base/],
  ['?base=-3', /base/],
  ['?dim=63', /odd/],
  ['?dim=100000', /dim/],
  ['?m=-5', /m -5/],
  ['?n=1e99', /n/],
  ['?q=1,2,3', /q has 3 numbers/],
  ['?k=1,NaN', /k/],
  ['?layout=diagonal', /layout/],
  ['?scaling=magic', /scaling/],
  ['?factor=0.1&scaling=linear', /factor/],
  ['?partial=0.3', /partial/],
  ['?low_freq=5&high_freq=2&scaling=llama3', /low_freq/],
  ['?embed=nope', /embed/],
  ['?theme=neon', /theme/],
  ['?base=NaN&dim=abc&m=inf&r=-1', /base/],
];

for (const [query, says] of BAD_URLS) {
  test(`a bad URL ${query} gives a notice, not an error`, async ({ page }) => {
    await open(page, `/${query}`);
    const notice = page.getByTestId('notice');
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(says);
    for (const id of READABLE) {
      const text = await page.getByTestId(id).getAttribute('data-value');
      for (const number of text.split(',')) expect(Number.isFinite(Number(number)), `${id}: ${number}`).toBe(true);
    }
    // The notice may quote what the URL said ("NaN"); computed outputs never show it.
    for (const text of await page.locator('output').allTextContents()) expect(text).not.toMatch(/NaN|Infinity|inf\b/);
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByTestId('notice')).toHaveCount(0);
  });
}

// The full page shows the widget registry in order; every id it shows must embed alone.
// The release build fetches a part of the chapters as the reader nears it: a first visit that
// reads the first chapter downloads only the page's frame (issue 9's 200 KB).
test('the chapters arrive as the reader nears them; a search or a jump fetches what it needs', async ({ page }) => {
  const fetched = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname.split('/').pop()));
  const parts = () => fetched.filter((f) => /^(split_|chunk_).*\.wasm$/.test(f));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await expect(page.getByTestId('attention-weights')).toHaveAttribute('data-value', /\d/);
  // The chapters not near the screen are placeholders with their titles, for the contents.
  const counting = page.locator('#counting');
  await expect(counting).toHaveClass(/widget-loading/);
  await expect(page.locator('#counting-title')).toHaveText('Counting positions');
  await page.waitForTimeout(1000);
  expect(parts(), 'parts fetched before the reader scrolled').toEqual([]);
  // Scrolled to within half a screen of it: its part (the opening chapters) arrives, not the later ones.
  await counting.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - window.innerHeight - 300));
  await expect(page.locator('[data-widget="counting"]')).toBeAttached();
  await expect(page.locator('[data-widget="add-or-rotate"]')).toBeAttached();
  await expect(page.locator('#heatmap')).toHaveClass(/widget-loading/);
  const opening = parts().length;
  expect(opening).toBeGreaterThan(0);
  await page.waitForTimeout(500);
  expect(parts().length, 'nothing more fetched while the reader stays').toBe(opening);
  // The keys of the browser's search fetch every part, so that it finds any chapter.
  await page.keyboard.press('Control+f');
  await expect(page.locator('.widget-loading')).toHaveCount(0);
  await expect(page.locator('[data-widget="precision"]')).toBeAttached();

  // A fresh visit: the focus entering the first chapter (Tab, a click) fetches the next one, so
  // that Tab moves on into it; a jump from the contents to a late chapter lands on it once it
  // has arrived.
  await page.goto('/?dim=16');
  await expect(page.getByTestId('attention-weights')).toHaveAttribute('data-value', /\d/);
  await expect(page.locator('#counting')).toHaveClass(/widget-loading/);
  await page.locator('[data-widget="order"]').getByRole('button').first().focus();
  await expect(page.locator('[data-widget="counting"]')).toBeAttached();
  await page.locator('nav.toc a[href="#scaling"]').click();
  await expect(page.locator('[data-widget="scaling"]')).toBeAttached();
  await expect.poll(() => page.locator('#scaling').evaluate((el) => Math.round(el.getBoundingClientRect().top)), { timeout: 5000 }).toBeLessThan(40);
  await page.waitForTimeout(1500);
  const top = await page.locator('#scaling').evaluate((el) => el.getBoundingClientRect().top);
  expect(Math.abs(top), 'the chapter stays where the jump put it while the parts above arrive').toBeLessThan(40);
});

// A handout printed before the reader has scrolled: printing fetches every part; the print
// itself cannot wait, so a chapter still on its way says on paper to print again.
test('printing fetches every part of the chapters', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('attention-weights')).toHaveAttribute('data-value', /\d/);
  await expect(page.locator('#scaling')).toHaveClass(/widget-loading/);
  await expect(page.locator('#scaling .print-only')).toBeHidden();
  await page.pdf();
  await expect(page.locator('.widget-loading')).toHaveCount(0);
  await expect(page.locator('[data-widget="scaling"]')).toBeAttached();
  // What a placeholder says on paper.
  await page.goto('/');
  await expect(page.getByTestId('attention-weights')).toHaveAttribute('data-value', /\d/);
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('#scaling .print-only')).toBeVisible();
  await expect(page.locator('#scaling .print-only')).toHaveText(/print again/);
  await page.emulateMedia({ media: 'screen' });
});

// Offline when a part is needed (a train, a flaky network): the chapter says so and offers to
// try again; the page around it keeps working (a failed fetch used to abort the whole module).
test('a part that cannot be fetched says so, and arrives when tried again', async ({ browser }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = [];
  page.on('console', (message) => { if ((message.type() === 'error' || message.type() === 'warning') && message.text() !== WORKER_BLOCKED) problems.push(message.text()); });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  let online = false;
  const failedOnline = [];
  page.on('requestfailed', (request) => { if (online) failedOnline.push(request.url()); });
  await page.route(/\/split-[^/]+\/(split_|chunk_)[^/]*\.wasm$/, (route) => route.abort('internetdisconnected'));
  await page.goto('/');
  await expect(page.getByTestId('attention-weights')).toHaveAttribute('data-value', /\d/);
  await page.locator('#counting').scrollIntoViewIfNeeded();
  const counting = page.locator('#counting');
  await expect(counting).toContainText('could not be downloaded');
  const again = counting.getByRole('button', { name: 'Try again' });
  await expect(again).toBeVisible();
  // The page still works: the first chapter answers.
  const weights = await page.getByTestId('attention-weights').getAttribute('data-value');
  await page.locator('[data-widget="order"]').getByRole('button', { name: /the\s*0/ }).click();
  await expect(page.getByTestId('attention-weights')).not.toHaveAttribute('data-value', weights);
  // Back online: tried again, the chapter arrives and works.
  await page.unroute(/\/split-[^/]+\/(split_|chunk_)[^/]*\.wasm$/);
  online = true;
  await again.click();
  await expect(page.locator('[data-widget="counting"]')).toBeAttached();
  await page.locator('#p-slider').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/p=6/);
  expect(failedOnline, 'downloads that failed once back online').toEqual([]);
  // Only the failed downloads were reported (the browser's and the loader's): no panic, nothing
  // uncaught.
  expect(problems.length).toBeGreaterThan(0);
  for (const problem of problems) expect(problem).toMatch(/^(TypeError: Failed to fetch|Failed to load resource: net::ERR_INTERNET_DISCONNECTED)/);
  await page.close();
});

test('every widget of the page embeds alone under its id', async ({ page }) => {
  await open(page);
  const ids = await page.locator('.widgets > [data-widget]').evaluateAll((els) => els.map((e) => e.dataset.widget));
  expect(ids).toEqual(expect.arrayContaining(['clocks', 'frequencies', 'decay', 'heatmap']));
  // The scores fold into the chapters on the full page (issue 45) and embed alone all the same.
  expect(ids).not.toContain('scores');
  ids.push('scores');
  for (const id of ids) {
    await page.goto(`/?embed=${id}&dim=16`);
    const widget = page.locator(`[data-widget="${id}"]`);
    await expect(widget).toBeVisible();
    await expect(widget.locator('[data-testid]').first()).toBeAttached();
    await expect(page.locator('[data-widget]')).toHaveCount(1);
    await expect(page.locator('h1, header, footer')).toHaveCount(0);
    await expect(page.getByTestId('notice')).toHaveCount(0);
  }
});

test('embed=scores shows the widget alone and tells the host its height', async ({ page }) => {
  await page.addInitScript(() => {
    window.ownMessages = [];
    addEventListener('message', (e) => window.ownMessages.push(e.data));
  });
  await page.goto('/?embed=scores&m=40&n=10');
  await expect(page.locator('[data-widget="scores"]')).toBeVisible();
  await expect(page.locator('h1, header, footer, [data-widget="decay"]')).toHaveCount(0);
  // Opened on its own (not in a frame), the widget has no host to tell: no message to itself.
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => window.ownMessages)).toEqual([]);

  // A host page with the widget in an iframe receives rope-lab:resize messages.
  await openHost(page, `
    <script>window.messages = []; addEventListener('message', (e) => messages.push(e.data));</script>
    <iframe src="/?embed=scores&dim=8" style="width:600px;height:400px"></iframe>`);
  await expect.poll(() => page.evaluate(() => window.messages.length)).toBeGreaterThan(0);
  const message = await page.evaluate(() => window.messages.at(-1));
  expect(message.type).toBe('rope-lab:resize');
  expect(message.widget).toBe('scores');
  expect(message.height).toBeGreaterThan(200);
  expect(await page.evaluate(() => window.messages.every((m) => m.height > 0))).toBe(true);
  // Opening the parameters makes the widget taller: a new message follows.
  const frame = page.frameLocator('iframe');
  await frame.getByText('Parameters').click();
  await expect.poll(() => page.evaluate(() => window.messages.at(-1).height)).toBeGreaterThan(message.height);
});

test('embed=decay shows the chart alone', async ({ page }) => {
  await page.goto('/?embed=decay&dim=128&r=100');
  await expect(page.getByTestId('decay-bound')).toHaveAttribute('data-value', /\d/);
  await expect(page.locator('[data-widget="decay"] canvas').first()).toBeVisible();
  await expect(page.locator('[data-widget="scores"], h1')).toHaveCount(0);
  expect(close(await value(page, 'decay-bound'), 10.227329948505133, 1e-9)).toBe(true);
});

test('the theme follows the system and the URL', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await open(page);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await open(page, '/?theme=light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page).toHaveURL(/theme=dark/);
  // The button now says what it would do next.
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});

for (const width of [1280, 390]) {
  for (const theme of ['light', 'dark']) {
    test(`screenshot at ${width}px, ${theme}: no sideways scrolling`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await open(page, `/?theme=${theme}&r=40`);
      await page.waitForTimeout(300); // the chart draws on the next animation frame
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
      await screenshotWholePage(page, `${screenshots}lab-${width}-${theme}.png`);
    });
  }
}

test('no serious or critical accessibility findings (axe-core)', async ({ page }) => {
  for (const path of ['/', '/?theme=dark', '/?embed=scores', '/?embed=clocks&theme=dark']) {
    await open(page, path);
    await injectAxe(page);
    const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    console.log(`axe ${path}: ${results.violations.length} findings (${results.violations.map((v) => `${v.id}/${v.impact}`).join(', ') || 'none'}), ${serious.length} serious or critical`);
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  }
});
