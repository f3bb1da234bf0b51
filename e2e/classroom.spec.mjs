// For classrooms and blogs (issue 12): presenter mode, the keyboard everywhere, the embed
// dialog whose code works when pasted into a page, copy link and reset, charts a screen reader
// can read, and the printed handout. Every page here is served with the strict policy.
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, expect, value, open, openHost, seriousAxeFindings, m, n } from './fixtures.mjs';
import { CSP } from './csp.mjs';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

test('presenter mode: from the URL and the key P, large type, legible at projector sizes', async ({ page }) => {
  for (const [width, height] of [[1280, 720], [1920, 1080]]) {
    for (const theme of ['light', 'dark']) {
      await page.setViewportSize({ width, height });
      await open(page, `/?present=1&theme=${theme}&dim=16#clocks`);
      await expect(page.locator('html')).toHaveAttribute('data-present', '');
      const size = await page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize));
      expect(size, 'body text in px').toBeGreaterThanOrEqual(21);
      await page.waitForTimeout(600);
      await page.screenshot({ path: `${screenshots}present-${width}x${height}-${theme}.png` });
      expect(await seriousAxeFindings(page), `${width}x${height} ${theme}`).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
    }
  }
  // P switches it off and on again, and the URL follows.
  await page.locator('body').press('p');
  await expect(page.locator('html')).not.toHaveAttribute('data-present', '');
  await expect(page).not.toHaveURL(/present=/);
  await page.locator('body').press('P');
  await expect(page).toHaveURL(/present=1/);
});

// The larger type of presenter mode moves everything: what the reader was reading stays where
// it was on the screen, both ways.
test('pressing P keeps the reading position', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, '/?dim=16#clocks');
  const prose = page.locator('[data-widget="layouts"] p').first();
  const top = () => prose.evaluate((el) => el.getBoundingClientRect().top);
  // Its first line a third down the screen, where a reader's eyes are (again until the
  // chapters above have their height).
  await expect
    .poll(async () => {
      await prose.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 240));
      await page.waitForTimeout(200);
      return Math.abs((await top()) - 240);
    })
    .toBeLessThan(2);
  for (const key of ['P', 'p']) {
    const before = await top();
    expect(before).toBeGreaterThan(0);
    await page.locator('body').press(key);
    await page.waitForTimeout(400);
    expect(Math.abs((await top()) - before), `after ${key}`).toBeLessThan(60);
  }
});

test('the keyboard: space plays, arrows step m (shift: n), [ ] shift both, R resets, ? lists them all', async ({ page }) => {
  await open(page, '/?m=40&n=10&dim=8');
  const body = page.locator('body');
  await body.press('ArrowRight');
  await expect.poll(() => m(page)).toBe(41);
  await body.press('Shift+ArrowLeft');
  await expect.poll(() => n(page)).toBe(9);
  const score = await value(page, 'score');
  await body.press(']');
  await expect.poll(() => m(page)).toBe(42);
  expect(await n(page)).toBe(10);
  expect(Math.abs((await value(page, 'score')) - score)).toBeLessThan(1e-9);
  // Space plays and pauses the rotation lab while it is on screen; elsewhere it scrolls.
  const play = page.locator('[data-widget="clocks"] button.play');
  await page.evaluate(() => window.scrollTo(0, 0));
  const top = await page.evaluate(() => window.scrollY);
  await body.press(' ');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(top);
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  expect(await m(page)).toBe(42);
  await play.scrollIntoViewIfNeeded();
  await body.press(' ');
  await expect(play).toHaveAttribute('aria-pressed', 'true');
  await body.press(' ');
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  // Never inside a text field: typing r and p in q's field changes nothing but the field.
  const q = page.getByLabel(/^q \(comma-separated/);
  await q.focus();
  await q.press('r');
  await q.press('p');
  await q.press('ArrowLeft');
  expect(await m(page)).toBe(42);
  await expect(page.locator('html')).not.toHaveAttribute('data-present', '');
  // ? opens the sheet, Escape closes it (outside the field: keys typed there stay there).
  await page.evaluate(() => document.activeElement.blur());
  await body.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await expect(sheet.locator('dt')).toHaveCount(10);
  await expect(sheet).toContainText('Page Down, Page Up');
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  // A key the moment the sheet closes is the page's again: the dialog's close event comes a task
  // later, and a key pressed before it (on a busy machine, Escape then R) was lost.
  await body.press('?');
  await expect(sheet).toBeVisible();
  // ? the moment it closes opens it again, and it stays open once that close event has come
  // (it used to shut the sheet again: pressing Escape then ? quickly, as this test did, was flaky).
  await page.evaluate(() => new Promise((resolve) => {
    const dialog = document.querySelector('#shortcuts-dialog');
    dialog.addEventListener('close', () => setTimeout(resolve, 0), { once: true });
    dialog.close();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: '?' }));
  }));
  await expect(sheet).toBeVisible();
  await page.evaluate(() => {
    document.querySelector('#shortcuts-dialog').close();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
  });
  await expect.poll(() => m(page)).toBe(43);
  // R: every setting back to its default.
  await body.press('r');
  await expect.poll(() => m(page)).toBe(5);
  await expect(page).toHaveURL(/\/(#.*)?$/);
});

test('keyboard only: Tab reaches every control, each with a visible focus ring', async ({ page }) => {
  test.setTimeout(180_000);
  await open(page, '/?scaling=yarn');
  // Tab stops: enabled, shown, not taken out of the order (tabindex −1: the period table's rows
  // are one stop moved through with the arrow keys), one radio button per group (the checked one,
  // or the first while none is), and nothing
  // folded away in a closed <details>.
  const controls = await page.evaluate(() => {
    window.tabbable = (e) => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0
      && !e.closest('[hidden], dialog, .reach-bar')
      && !(e.closest('details:not([open])') && e.tagName !== 'SUMMARY')
      && !(e.type === 'radio' && !e.checked && (document.querySelector(`input[name="${e.name}"]:checked`)
        || document.querySelector(`input[name="${e.name}"]`) !== e));
    return [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')].filter(window.tabbable).length;
  });
  const reached = new Set();
  const problems = [];
  // Tab until the focus comes back round to the first control (charts and lists below the
  // fold fill in as they come into view, so the stops are counted again at the end).
  let first = null;
  for (let i = 0; i < 3 * controls + 60; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const e = document.activeElement;
      if (!e || e === document.body) return null;
      if (!e.dataset.walk) e.dataset.walk = String(Math.random());
      const style = getComputedStyle(e);
      const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
      const box = e.getBoundingClientRect();
      const inView = box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth;
      // Named as a person would find it: id, label, or the text of the label around it.
      const name = e.id || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 30) || e.closest('label')?.textContent.trim().slice(0, 40) || '';
      const where = inView ? '' : ` (box ${Math.round(box.top)} to ${Math.round(box.bottom)}, viewport ${innerHeight}, in ${e.closest('[data-widget]')?.dataset.widget ?? 'page'})`;
      return { id: e.dataset.walk, what: `${e.tagName}${e.type ? `[${e.type}]` : ''} ${name}${where}`, ring, inView, skip: !!e.closest('.reach-bar') };
    });
    if (!info || info.skip) continue;
    if (info.id === first) break;
    if (process.env.WALK_DEBUG) console.log(info.what);
    first ??= info.id;
    reached.add(info.id);
    if (!info.ring) problems.push(`no focus ring: ${info.what}`);
    if (!info.inView) problems.push(`not scrolled into view: ${info.what}`);
  }
  console.log(`keyboard walk: ${reached.size} of ${controls} controls reached by Tab`);
  const missed = await page.evaluate(() => {
    return [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
      .filter((e) => window.tabbable(e) && !e.dataset.walk)
      .map((e) => `${e.tagName}#${e.id}.${e.className} ${(e.getAttribute('aria-label') || e.textContent).trim().slice(0, 40)}`);
  });
  expect(problems).toEqual([]);
  expect(missed, 'controls Tab never reached').toEqual([]);
  expect(reached.size).toBeGreaterThanOrEqual(controls);
});

test('the embed dialog: its code, pasted into a page, shows the same widget in the same state', async ({ page }) => {
  await open(page, '/?m=40&n=10&dim=16&base=500000');
  const score = await value(page, 'score');
  const clocks = page.locator('[data-widget="clocks"]');
  await clocks.getByRole('button', { name: /^Embed/ }).click();
  const dialog = page.getByRole('dialog', { name: /Embed/ });
  await expect(dialog).toBeVisible();
  const snippet = await dialog.getByTestId('embed-snippet').inputValue();
  expect(snippet).toContain('embed=clocks');
  expect(snippet).toContain('m=40');
  // The live preview shows the widget alone.
  const preview = dialog.frameLocator('iframe.embed-preview');
  await expect(preview.getByTestId('score')).toHaveAttribute('data-value', String(score));
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Pasted into a host page that sets the same strict policy: the same widget, the same
  // number, sized to its content by the script file (no inline script or style needed).
  expect(snippet).not.toContain('style=');
  expect(snippet).toMatch(/<script src="[^"]+\/assets\/embed-resize\.js"><\/script>/);
  await openHost(page, `<h1>My post</h1>${snippet}`, { csp: CSP });
  const frame = page.frameLocator('iframe');
  await expect(frame.getByTestId('score')).toHaveAttribute('data-value', String(score));
  await expect(frame.locator('[data-widget]')).toHaveCount(1);
  // The frame keeps the host's 480 px (484 with its border) until the widget is whole and
  // still, then grows once to its content.
  await expect
    .poll(async () => {
      const height = (await page.locator('iframe').boundingBox()).height;
      const content = await frame.locator('body').evaluate((b) => b.scrollHeight);
      return Math.abs(height - content);
    })
    .toBeLessThanOrEqual(2);
});

test('copy link and reset', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await open(page, '/?m=40&dim=8&theme=dark');
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.locator('.page-tools [role="status"]')).toHaveText('Copied.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  // The same view as the address bar's (the state's own order of parameters).
  const params = (url) => [...new URL(url).searchParams].sort().join('&');
  expect(params(copied)).toBe(params(page.url()));
  expect(new URL(copied).pathname).toBe(new URL(page.url()).pathname);
  expect(copied).toContain('m=40');
  // The address bar waits until the state has been still for a moment; the copied link is the
  // state's at once.
  await page.locator('#m-slider').focus();
  await page.keyboard.press('ArrowRight');
  await page.getByRole('button', { name: 'Copy link' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/[?&]m=41\b/);
  await expect(page).toHaveURL(/[?&]m=41\b/);
  await page.getByRole('button', { name: 'Reset (R)' }).click();
  await expect.poll(() => m(page)).toBe(5);
  expect(await page.locator('#dim-slider').inputValue()).toBe('64');
  // The theme is how the page is shown, not a setting of the lesson: it stays.
  await expect(page).toHaveURL(/\?theme=dark$/);
});

test('charts say what they show, with their numbers, as the state changes', async ({ page }) => {
  await open(page, '/?dim=8&m=40&n=10');
  const frequencies = page.locator('[data-widget="frequencies"] canvas');
  await expect(frequencies).toHaveAttribute('aria-label', /of each of 4 planes/);
  await page.locator('#dim-slider').focus();
  await page.keyboard.press('ArrowRight');
  await expect(frequencies).toHaveAttribute('aria-label', /of each of 5 planes/);
  const bars = page.locator('[data-widget="clocks"] canvas.bars-canvas');
  await expect(bars).toHaveAttribute('aria-label', /They add up to the score -?[0-9.]+|They add up to the score −[0-9.]+/);
  const before = await bars.getAttribute('aria-label');
  await expect(page.locator('[data-widget="heatmap"] .heatmap-canvas')).toHaveAttribute('aria-label', /At m = 40, n = 10: /);
  await page.evaluate(() => document.activeElement.blur());
  await page.locator('body').press('ArrowRight');
  await expect(page.locator('[data-widget="heatmap"] .heatmap-canvas')).toHaveAttribute('aria-label', /At m = 41, n = 10: /);
  await expect(bars).not.toHaveAttribute('aria-label', before);
  await expect(page.locator('[data-widget="decay"] canvas').first()).toHaveAttribute('aria-label', /At r = 0: bound /);
});

test('printed, the page is a handout: figures and text, no controls, the address of this view', async ({ page }) => {
  await open(page, '/?m=40&n=10&dim=16');
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.print-url')).toBeVisible();
  await expect(page.locator('.print-url')).toContainText('m=40');
  await expect(page.locator('#m-slider')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Copy link' })).toBeHidden();
  await expect(page.locator('[data-widget="decay"] canvas').first()).toBeVisible();
  await page.screenshot({ path: `${screenshots}print.png`, fullPage: true });
  // Labels of controls go with their controls; from the dark theme, paper stays white.
  await expect(page.getByText('original θᵢ, without context extension', { exact: false })).toBeHidden();
  await open(page, '/?theme=dark');
  await page.emulateMedia({ media: 'print' });
  const card = await page.locator('[data-widget="order"]').evaluate((e) => getComputedStyle(e).backgroundColor);
  expect(card).toBe('rgb(255, 255, 255)');
});

test("docs/embedding.md's host page: two widgets, each frame sized to its widget", async ({ page }) => {
  const guide = readFileSync(fileURLToPath(new URL('../docs/embedding.md', import.meta.url)), 'utf8');
  const block = guide.split('A complete host page')[1].split('```html')[1].split('```')[0];
  const html = block.replaceAll('https://your.host/rope-lab/', '/').replace('<!doctype html>', '');
  await openHost(page, html);
  const frames = page.locator('iframe');
  await expect(frames).toHaveCount(2);
  for (const [i, widget] of [[0, 'clocks'], [1, 'heatmap']]) {
    const frame = page.frameLocator('iframe').nth(i);
    await expect(frame.locator(`[data-widget="${widget}"]`)).toBeVisible();
    await expect.poll(async () => {
      const height = (await frames.nth(i).boundingBox()).height;
      const content = await frame.locator('body').evaluate((b) => b.scrollHeight);
      return Math.abs(height - content);
    }, { message: `${widget} frame takes its widget's height` }).toBeLessThanOrEqual(2);
  }
});

test("docs/hugo-jekyll.md's shortcode and include write the README's embed code", async () => {
  const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
  const guide = readFileSync(fileURLToPath(new URL('../docs/hugo-jekyll.md', import.meta.url)), 'utf8');
  const plain = readme.split('## Embedding a widget')[1].split('```html')[1].split('```')[0];
  const hugo = guide.split('layouts/shortcodes/rope-lab.html')[1].split('```go-html-template')[1].split('```')[0];
  const jekyll = guide.split('_includes/rope-lab.html')[1].split('```liquid')[1].split('```')[0];
  // An element's attributes; template code ({{ … }}, {% … %}) reads as "…".
  const attributes = (code, element) => {
    code = code.replace(/\{\{.*?\}\}|\{%.*?%\}/g, '…');
    const tag = code.match(new RegExp(`<${element}\\s((?:[^>"]|"[^"]*")*)>`));
    expect(tag, `a <${element}> in ${code}`).not.toBeNull();
    return Object.fromEntries([...tag[1].matchAll(/([a-z-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
  };
  const frame = attributes(plain, 'iframe');
  const script = attributes(plain, 'script');
  const site = script.src.replace('assets/embed-resize.js', '');
  expect(frame.src.startsWith(`${site}?embed=`), frame.src).toBe(true);
  for (const [name, code, siteVariable, id, query] of [
    ['Hugo', hugo, /\$site := "([^"]*)"/, '.Get "id"', '.Get "query"'],
    ['Jekyll', jekyll, /assign rope_lab = "([^"]*)"/, 'include.id', 'include.query'],
  ]) {
    // The same host, the same attributes with the same fixed values, the widget and its state
    // from the parameters, and the one script that sizes the frames.
    expect(code.match(siteVariable)?.[1], `${name}: the site`).toBe(site);
    const own = attributes(code, 'iframe');
    expect(Object.keys(own).sort(), `${name}: iframe attributes`).toEqual(Object.keys(frame).sort());
    for (const fixed of ['width', 'height', 'loading']) expect(own[fixed], `${name}: ${fixed}`).toBe(frame[fixed]);
    expect(own.title, `${name}: title`).toBe('RoPE Lab: …');
    expect(code, `${name}: ?embed= and the id`).toContain('?embed=');
    for (const part of [id, query]) expect(code, `${name}: uses ${part}`).toContain(part);
    const withSite = code.replaceAll(/\{\{ *(\$site|rope_lab) *\}\}/g, site);
    expect(withSite.match(/<script\b/g), `${name}: one script tag`).toHaveLength(1);
    expect(attributes(withSite, 'script').src, `${name}: the resize script`).toBe(script.src);
    expect(code, `${name}: no inline script or style`).not.toMatch(/<script>|style=/);
  }
});
