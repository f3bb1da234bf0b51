// The page in Chinese, Spanish and Japanese (issue 49): `lang=` or the switch in the header
// (named "Language" in every language), the browser's preference on a first visit, the words
// fetched per language and put in place where the page stands (src/dom/translate.rs), texts
// the page writes later translated too, the state and the reader's place kept through a
// switch, `<html lang>`, and every data-value the same in every language.
import { test as bare } from '@playwright/test';
import { test, expect, open, caughtUp, WORKER_BLOCKED } from './fixtures.mjs';

// What each language's page says in its header and contents (its catalogue, src/i18n/locales).
const SAYS = {
  en: { chapters: 'Chapters', first: 'Attention cannot see order', m: 'query position m' },
  es: { chapters: 'Capítulos', first: 'La atención no ve el orden', m: 'posición de la consulta m' },
  'zh-CN': { chapters: '章节', first: '注意力看不见顺序', m: '查询的位置 m' },
  ja: { chapters: '章', first: 'アテンションには順序が見えない', m: 'クエリの位置 m' },
};

/** Every readable value on the page (testid → data-value), once every chapter has caught up. */
async function readings(page) {
  await caughtUp(page);
  return page.evaluate(() =>
    Object.fromEntries([...document.querySelectorAll('[data-testid][data-value]')].map((e) => [e.dataset.testid, e.dataset.value])),
  );
}

// What is translated so far: the header, the parameters, the contents, the chapters' titles,
// the introduction, the footer and the notices' button. (The chapters' own text, the dialogs
// and the notices' messages follow.)
const TRANSLATED = '.site-header, .skip-link, #parameters, .toc, .widget-head h2, .site-footer, .intro, .notice-dismiss';

/** The texts and names within TRANSLATED that the page left in English, trimmed. */
async function leftInEnglish(page) {
  return page.evaluate((scope) => {
    const left = new Set();
    const words = /\p{L}/u;
    for (const root of document.querySelectorAll(scope)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement.closest('code, pre, math, textarea, dialog, [translate=no]') || !words.test(node.data)) continue;
        if (!node.ropeLabFound) left.add(node.data.trim());
      }
      for (const element of [root, ...root.querySelectorAll('[aria-label], [aria-valuetext], [title], [placeholder], [alt]')]) {
        if (element.closest('dialog, [translate=no]')) continue;
        for (const name of ['aria-label', 'aria-valuetext', 'title', 'placeholder', 'alt']) {
          const value = element.getAttribute(name);
          if (value === null || !words.test(value)) continue;
          if (!element[`ropeLabFound-${name}`]) left.add(value.trim());
        }
      }
    }
    return [...left].sort();
  }, TRANSLATED);
}

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
  });
}

test('the switch keeps m, n and the place on the page, writes lang= and sets <html lang>', async ({ page }) => {
  await open(page, '/?m=12&n=5');
  await inLanguage(page, 'en');
  const englishPanel = await page.locator('#parameters').innerText();
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
