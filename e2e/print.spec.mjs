// Printed to PDF (issue 46): every figure of the page is on paper and inked, in both themes, even
// the ones the reader never scrolled to or that sit in a folded list (a chart draws only near the
// screen, so those printed blank). The figures are read back out of the PDF with poppler's
// pdfimages: each canvas is an image there, and a blank canvas is none, or one of a single colour.
import { test, expect } from './fixtures.mjs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test.describe.configure({ timeout: 120_000 });

/** A netpbm file (P4 bits, P5 grey, P6 colour) as { width, height, values per pixel, pixels }. */
function netpbm(bytes) {
  const header = [];
  let at = 0;
  while (header.length < (bytes[1] === 0x34 ? 3 : 4)) {
    while (/\s/.test(String.fromCharCode(bytes[at]))) at++;
    if (bytes[at] === 0x23) { while (bytes[at] !== 0x0a) at++; continue; }
    let token = '';
    while (!/\s/.test(String.fromCharCode(bytes[at]))) token += String.fromCharCode(bytes[at++]);
    header.push(token);
  }
  at++;
  const [kind, width, height] = [header[0], Number(header[1]), Number(header[2])];
  const channels = kind === 'P6' ? 3 : 1;
  const pixels = [];
  if (kind === 'P4') {
    const row = Math.ceil(width / 8);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels.push((bytes[at + y * row + (x >> 3)] >> (7 - (x & 7))) & 1);
  } else {
    for (let i = 0; i < width * height; i++) pixels.push(bytes.subarray(at + i * channels, at + (i + 1) * channels).join(','));
  }
  return { width, height, pixels };
}

/** The share of pixels that differ from the commonest one: 0 for an image of one colour. */
function inked({ pixels }) {
  const counts = new Map();
  for (const p of pixels) counts.set(p, (counts.get(p) ?? 0) + 1);
  return 1 - Math.max(...counts.values()) / pixels.length;
}

for (const theme of ['light', 'dark']) {
  test(`printed in the ${theme} theme, every figure is on paper and inked`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/?theme=${theme}&m=40&n=3`);
    await expect(page.getByTestId('attention-weights')).toHaveAttribute('data-value', /\d/);
    // The first print fetches every chapter's part (a chapter still on its way says on paper to
    // print again): the reader prints again once they are here, without scrolling to any.
    await page.pdf();
    await expect(page.locator('.widget-loading')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.locator('[data-widget="precision"]')).toBeAttached();
    expect(await page.evaluate(() => scrollY)).toBe(0);

    // The figures paper shows: every canvas laid out in print, folded lists opened as printing opens them.
    await page.emulateMedia({ media: 'print' });
    await page.evaluate(() => dispatchEvent(new Event('beforeprint')));
    const figures = await page.locator('canvas').evaluateAll((all) => all.filter((c) => {
      const box = c.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(c).visibility !== 'hidden';
    }).map((c) => c.className || c.closest('[data-widget]')?.dataset.widget));
    await page.evaluate(() => dispatchEvent(new Event('afterprint')));
    await page.emulateMedia({ media: null });
    // (The context-extension and precision charts are SVG: vectors, drawn whatever the screen.)
    expect(figures.length, figures.join(' ')).toBeGreaterThan(12);

    const dir = mkdtempSync(join(tmpdir(), 'rope-lab-print-'));
    try {
      writeFileSync(join(dir, 'page.pdf'), await page.pdf({ printBackground: true }));
      execFileSync('pdfimages', [join(dir, 'page.pdf'), join(dir, 'image')]);
      // The images listed with their kind: colour pictures and the alpha masks that go with them.
      const list = execFileSync('pdfimages', ['-list', join(dir, 'page.pdf')], { encoding: 'utf8' }).trim().split('\n').slice(2)
        .map((line) => line.trim().split(/\s+/));
      const files = readdirSync(dir).filter((f) => f.startsWith('image-')).sort();
      expect(files.length).toBe(list.length);
      const pictures = list.map(([pageNumber, , type, width, height], i) => ({ pageNumber, type, width, height, ...netpbm(readFileSync(join(dir, files[i]))) }));
      const colour = pictures.filter((p) => p.type === 'image');
      // One picture at least for each figure (a figure cut by a page break is two).
      expect(colour.length, `pictures in the PDF for ${figures.length} figures`).toBeGreaterThanOrEqual(figures.length);
      for (const [i, picture] of pictures.entries()) {
        const share = inked(picture);
        // A mask of a transparent layer (the clocks' hands over their dials) is mostly clear: inked
        // where the hands are. A picture of one colour is a blank canvas.
        expect(share, `picture ${i} (${picture.type} ${picture.width}×${picture.height}, page ${picture.pageNumber})`).toBeGreaterThan(0.001);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
