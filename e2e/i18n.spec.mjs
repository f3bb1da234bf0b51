// The page in Chinese, Spanish and Japanese (issue 49): `lang=` or the switch in the header
// (named "Language" in every language), the browser's preference on a first visit, the words
// fetched per language and put in place where the page stands (src/dom/translate.rs), texts
// the page writes later translated too, the state and the reader's place kept through a
// switch, `<html lang>`, and every data-value the same in every language.
import { test as bare } from '@playwright/test';
import { test, expect, open, caughtUp, screenshotWholePage, leftInEnglish, WORKER_BLOCKED } from './fixtures.mjs';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

// What each language's page says in its header and contents (its catalogue, src/i18n/locales).
const SAYS = {
  en: { chapters: 'Chapters', first: 'Attention cannot see order', m: 'query position m', right: /^Right\. / },
  es: { chapters: 'Capítulos', first: 'La atención no ve el orden', m: 'posición de la consulta m', right: /^Correcto\. / },
  'zh-CN': { chapters: '章节', first: '注意力看不见顺序', m: '查询的位置 m', right: /^正确。/ },
  ja: { chapters: '章', first: 'アテンションには順序が見えない', m: 'クエリの位置 m', right: /^正解です。/ },
};

/** Every readable value on the page (testid → data-value), once every chapter has caught up. */
async function readings(page) {
  await caughtUp(page);
  return page.evaluate(() =>
    Object.fromEntries([...document.querySelectorAll('[data-testid][data-value]')].map((e) => [e.dataset.testid, e.dataset.value])),
  );
}

/** Scrolls through the whole page a screen at a time, so that every chart draws (a chart out of
 * view draws nothing), then back to the top. */
async function scrollThrough(page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const screen = page.viewportSize().height;
  for (let y = 0; y < height; y += screen * 0.8) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(120);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** Every text of the page, but for the announcements a screen reader hears once the score
 * settles (they come 0.7 s after a change, whenever that is). */
const pageText = (page) =>
  page.locator('main').evaluate((main) => {
    const copy = main.cloneNode(true);
    for (const said of copy.querySelectorAll('.visually-hidden[aria-live]')) said.remove();
    return copy.textContent;
  });

const switcher = (page) => page.getByRole('combobox', { name: /Language/ });

async function inLanguage(page, lang) {
  const says = SAYS[lang];
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await expect(page.locator('.toc-title')).toHaveText(says.chapters);
  await expect(page.locator('#order-title')).toHaveText(says.first);
  await expect(page.locator('label[for="m-slider"]')).toHaveText(says.m);
  await expect(switcher(page)).toHaveValue(lang);
}

for (const lang of ['es', 'zh-CN', 'ja']) {
  test(`lang=${lang}: the page in that language, the same values as in English`, async ({ page }) => {
    await open(page, '/?m=7&n=3&dim=16');
    const english = await readings(page);
    expect(Object.keys(english).length, 'the readable values of every chapter').toBeGreaterThan(30);
    await open(page, `/?m=7&n=3&dim=16&lang=${lang}`);
    await inLanguage(page, lang);
    expect(await readings(page)).toEqual(english);
    await scrollThrough(page);
    // Nothing of what is translated so far is left in English (each line: a text the catalogue lacks).
    expect(await leftInEnglish(page)).toEqual([]);
    // The switch is named "Language" in every language, and in the page's own too.
    await expect(switcher(page)).toHaveAccessibleName(new RegExp(`Language`));
    // Sliders work in it, and what the page writes afterwards is translated too: the
    // dimension's note and the slider's spoken value.
    await page.locator('#m-slider').focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.locator('#m-slider')).toHaveValue('8');
    await page.locator('#dim-slider').focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.locator('#dim-slider')).toHaveValue('18');
    expect(await leftInEnglish(page)).toEqual([]);
    await expect(page.locator('#parameters .control-note').nth(1)).toContainText('9');
    // Punctuation the language writes its own way, beside a name kept as it is.
    if (lang !== 'es') await expect(page.locator('#parameters .control-note').first()).toContainText('rope_theta。');
    // A question answered, wrong then right: its verdict and why in the language too.
    const question = page.getByTestId('check-shift-rope');
    await question.scrollIntoViewIfNeeded();
    const box = question.locator('xpath=..');
    const feedback = box.locator('.check-feedback');
    await question.locator('input[type=radio]').first().check();
    await box.locator('.check-actions button').first().click();
    await expect(feedback).not.toBeEmpty();
    await expect(question).toHaveAttribute('data-value', /./);
    const right = await question.getAttribute('data-value');
    await question.locator(`input[value="${right}"]`).check();
    await box.locator('.check-actions button').first().click();
    await expect(feedback).toHaveText(SAYS[lang].right);
    expect(await leftInEnglish(page)).toEqual([]);
    // Every step of the complex-numbers walk-through, and its position announced.
    await page.locator('[data-widget="complex"] .stepper-controls button').nth(2).click();
    await expect(page.locator('[data-widget="complex"] .stepper-position')).toContainText('5');
    expect(await leftInEnglish(page)).toEqual([]);
    // The shortcuts dialog.
    await page.locator('body').press('?');
    await expect(page.locator('#shortcuts-dialog')).toBeVisible();
    expect(await leftInEnglish(page)).toEqual([]);
  });
}

/** What the page cuts off: elements whose text is wider than they are (a label, a button, a
 * table cell, a readout), and the page wider than the screen. */
async function cutOff(page) {
  return page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('button, label, summary, th, td, .readout, .control, .toc a, h1, h2, h3, .explain, figcaption, .notice')) {
      if (el.closest('[hidden], .visually-hidden') || el.getClientRects().length === 0) continue;
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible') {
        out.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}" ${el.scrollWidth}>${el.clientWidth}`);
      }
    }
    const over = document.documentElement.scrollWidth - window.innerWidth;
    if (over > 0) out.push(`the page, ${over} px wider than the screen`);
    return out;
  });
}

// CJK text in the system's fonts (nothing downloaded), lines broken where the languages break
// them: nothing cut off or wider than a phone, nor in presenter mode's large type. Screenshots
// of each language at 1280 and 390 px, light and dark (e2e/screenshots/lang-*).
for (const lang of ['es', 'zh-CN', 'ja']) {
  test(`lang=${lang} fits a phone and presenter mode, in the system's fonts`, async ({ page }) => {
    test.setTimeout(180_000);
    const fonts = [];
    page.on('request', (r) => { if (r.resourceType() === 'font' || /\.(woff2?|ttf|otf)(\?|$)/.test(r.url())) fonts.push(r.url()); });
    for (const [width, height] of [[390, 844], [1280, 720]]) {
      for (const theme of ['light', 'dark']) {
        await page.setViewportSize({ width, height });
        await open(page, `/?lang=${lang}&theme=${theme}&dim=16&m=7&n=3`);
        await inLanguage(page, lang);
        await scrollThrough(page);
        expect(await cutOff(page), `${width} px, ${theme}`).toEqual([]);
        await screenshotWholePage(page, `${screenshots}lang-${lang}-${width}-${theme}.png`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    await open(page, `/?lang=${lang}&present=1&dim=16#clocks`);
    await inLanguage(page, lang);
    await scrollThrough(page);
    expect(await cutOff(page), 'presenter mode').toEqual([]);
    await page.evaluate(() => document.getElementById('clocks').scrollIntoView());
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${screenshots}lang-${lang}-present.png` });
    expect(fonts, 'fonts downloaded').toEqual([]);
  });
}

test('the take-aways in Japanese: every PNG and GIF draws its words in it', async ({ page }) => {
  test.setTimeout(240_000);
  // A context extension chosen, so that its figures say which.
  await open(page, '/?dim=16&m=7&n=3&scaling=yarn&factor=4&lang=ja');
  await inLanguage(page, 'ja');
  // What the page draws on a canvas, line by line.
  await page.evaluate(() => {
    window.drawnLines = [];
    const fill = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
      window.drawnLines.push(String(text));
      return fill.call(this, text, ...rest);
    };
  });
  const japanese = /[\u3040-\u30ff\u4e00-\u9fff]/;
  const captions = async () => (await page.evaluate(() => window.drawnLines.splice(0))).filter((t) => t.startsWith('RoPE Lab · '));
  // Every figure's PNG (the first button of each group: its name is in Japanese too).
  const groups = page.locator('[data-widget] .export[data-figure]');
  const count = await groups.count();
  expect(count, 'figures with a PNG button').toBeGreaterThan(10);
  for (let i = 0; i < count; i++) {
    const group = groups.nth(i);
    await group.evaluate((g) => {
      g.closest('details')?.setAttribute('open', '');
      g.closest('[data-widget]').scrollIntoView({ block: 'start' });
    });
    await group.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    const [download] = await Promise.all([page.waitForEvent('download'), group.locator('button').first().click()]);
    const name = download.suggestedFilename();
    const [caption, ...more] = await captions();
    expect(more, `${name}: one caption`).toEqual([]);
    expect(caption, `${name}: its caption in Japanese`).toMatch(japanese);
  }
  // The three animated GIFs: their captions in Japanese, frame by frame.
  for (const name of ['clocks', 'frequencies', 'decay']) {
    const group = page.locator(`[data-widget="${name}"] .export:not([data-figure])`);
    await group.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 90_000 }), group.locator('button').first().click()]);
    expect(download.suggestedFilename()).toBe(`rope-lab-${name}.gif`);
    const drawn = await captions();
    expect(drawn.length, `${name}: a caption per frame`).toBeGreaterThan(10);
    for (const caption of drawn) expect(caption, `${name}: its caption in Japanese`).toMatch(japanese);
  }
  // No part of a caption, legend or axis left in English.
  expect(await leftInEnglish(page)).toEqual([]);
});

test('the built-in lesson in Spanish, and a lesson file that gives its captions in several languages', async ({ page }) => {
  await page.goto('/?lesson=intro&lang=es');
  const caption = page.getByTestId('lesson-caption');
  await expect(caption).toContainText('atención');
  await page.locator('.lesson-next').click();
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-value', /^2\//);
  expect(await leftInEnglish(page)).toEqual([]);
  // A teacher's file: English and Spanish captions, and one step in Spanish only.
  const lesson = {
    title: 'Mine',
    steps: [
      { view: '?m=3#clocks', caption: { en: 'Each plane is a clock.', es: 'Cada plano es un reloj, a mi manera.' } },
      { view: '#decay', caption: { es: 'Solo en español.' } },
    ],
  };
  await page.route('**/lessons/mine.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(lesson) }));
  for (const [lang, first, second] of [
    ['es', 'Cada plano es un reloj, a mi manera.', 'Solo en español.'],
    ['ja', 'Each plane is a clock.', 'Solo en español.'],
    ['en', 'Each plane is a clock.', 'Solo en español.'],
  ]) {
    await page.goto(`/?lesson=lessons/mine.json&lang=${lang}`);
    await expect(caption).toHaveText(first);
    // As the teacher wrote it, marked with its language when it is not the page's English.
    expect(await caption.getAttribute('lang')).toBe(lang === 'es' ? 'es' : null);
    await page.locator('.lesson-next').click();
    await expect(caption).toHaveText(second);
    await expect(caption).toHaveAttribute('lang', 'es');
  }
});

test('the switch keeps m, n and the place on the page, writes lang= and sets <html lang>', async ({ page }) => {
  await open(page, '/?m=12&n=5');
  await inLanguage(page, 'en');
  await caughtUp(page);
  const englishPanel = await page.locator('#parameters').innerText();
  const englishPage = await pageText(page);
  const heading = page.locator('#frequencies-title');
  await heading.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, -100));
  const before = await heading.evaluate((e) => e.getBoundingClientRect().top);
  await switcher(page).selectOption('es');
  await inLanguage(page, 'es');
  await expect(page).toHaveURL(/[?&]lang=es(&|$)/);
  await expect(page.locator('#m-slider')).toHaveValue('12');
  await expect(page.locator('#n-slider')).toHaveValue('5');
  await expect(heading).toHaveText('Frecuencias y longitudes de onda');
  // The frequencies chapter stays where the reader had it (within a few pixels of the heading's
  // own height change).
  await expect.poll(() => heading.evaluate((e) => e.getBoundingClientRect().top)).toBeGreaterThan(before - 40);
  expect(await heading.evaluate((e) => e.getBoundingClientRect().top)).toBeLessThan(before + 40);
  // And back, through Japanese, to the very English it started from.
  await switcher(page).selectOption('ja');
  await inLanguage(page, 'ja');
  await switcher(page).selectOption('en');
  await inLanguage(page, 'en');
  await expect(page).toHaveURL(/[?&]lang=en(&|$)/);
  expect(await page.locator('#parameters').innerText()).toBe(englishPanel);
  // Every text of the page back as it was, values included, each in its own node again.
  await caughtUp(page);
  expect(await pageText(page)).toBe(englishPage);
});

test.describe('a first visit in Spanish', () => {
  test.use({ locale: 'es-MX' });
  test('the browser preference picks Spanish, and the address stays as it was', async ({ page }) => {
    await open(page, '/?m=3');
    await inLanguage(page, 'es');
    await page.waitForTimeout(600);
    expect(new URL(page.url()).searchParams.get('lang')).toBeNull();
  });
  test('lang=en in the address wins over the browser', async ({ page }) => {
    await open(page, '/?lang=en');
    await inLanguage(page, 'en');
  });
});

test('an unknown lang= says so and the page stays in English', async ({ page }) => {
  await open(page, '/?lang=fr');
  await expect(page.getByTestId('notice')).toContainText('lang');
  await inLanguage(page, 'en');
});

test('an embed takes lang= too', async ({ page }) => {
  await page.goto('/?embed=clocks&lang=ja&m=4');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.locator('.embed-controls > summary')).toHaveText('パラメータ');
  await expect(page.locator('.embed-home')).toHaveText('RoPE Lab で開く ↗');
  await expect(page.locator('#m-slider')).toHaveValue('4');
});

bare('a language whose words cannot be fetched leaves the page in English, and says so', async ({ page }) => {
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (m) => {
    // The browser's own line about the failed request is expected; nothing else.
    const expected = m.text().startsWith('Failed to load resource') || m.text() === WORKER_BLOCKED;
    if ((m.type() === 'error' || m.type() === 'warning') && !expected) problems.push(m.text());
  });
  await page.route('**/locales/*.txt', (route) => route.abort());
  await page.goto('/?lang=ja&m=6');
  await expect(page.getByTestId('notice')).toContainText('日本語');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('.toc-title')).toHaveText('Chapters');
  await expect(page.locator('#m-slider')).toHaveValue('6');
  expect(problems).toEqual([]);
});
