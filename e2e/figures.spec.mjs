// Issue 39: every figure downloads as a PNG that holds its legend and one line saying what it
// shows (src/ui/figure_png.rs draws what the page shows of the figure onto one canvas).
import { test, expect, open } from './fixtures.mjs';
import { readFileSync } from 'node:fs';

// Every figure of the page: [chapter, file name (rope-lab-<name>.png), a legend text the PNG
// must hold, the figure's own elements]. A figure added without a PNG fails the count below.
const FIGURES = [
  ['counting', 'counting', 'binary'],
  ['pe-rotation', 'pe-rotation', 'PE(p + Δ)'],
  ['heatmap', 'heatmap', null],
  ['clocks', 'clocks', "q's hand"],
  ['clocks', 'clock-shares', null],
  ['frequencies', 'frequencies', 'context'],
  ['decay', 'decay', 'relative bound'],
  ['decay', 'decay-absolute', 'absolute bound'],
  ['model', 'model-attention', 'attention weight'],
  ['scaling', 'scaling', 'after (in effect)'],
  ['scaling', 'scaling-compare', 'difference'],
  ['rope2d', 'rope2d', 'purple negative'],
  ['precision', 'precision', 'the position rounded alone'],
];

/** The PNG's width and height from its IHDR chunk, after checking its signature. */
function pngSize(bytes) {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.subarray(12, 16).toString()).toBe('IHDR');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

/** Decodes `bytes` in the page and counts, in each of `areas` (PNG pixels), the pixels that
 * differ clearly from the top-left corner's (the background). */
async function inkIn(page, bytes, areas) {
  return page.evaluate(async ([png, areas]) => {
    const picture = new Image();
    picture.src = `data:image/png;base64,${png}`;
    await picture.decode();
    const copy = document.createElement('canvas');
    [copy.width, copy.height] = [picture.width, picture.height];
    const context = copy.getContext('2d', { willReadFrequently: true });
    context.drawImage(picture, 0, 0);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return areas.map((a) => {
      const data = context.getImageData(Math.floor(a.x), Math.floor(a.y), Math.max(1, Math.floor(a.width)), Math.max(1, Math.floor(a.height))).data;
      let count = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) > 60) count++;
      }
      return count;
    });
  }, [bytes.toString('base64'), areas]);
}

test('every figure downloads as a PNG with its legend and a caption line', async ({ page }) => {
  await open(page, '/?dim=16&m=7&n=3');
  // The PNG groups (the GIF buttons beside three of them are groups of their own).
  const groups = page.locator('[data-widget] .export[data-figure]');
  expect(await groups.count(), 'figures with a PNG button').toBe(FIGURES.length);
  for (const [chapter, name, legend] of FIGURES) {
    const group = page.locator(`[data-widget="${chapter}"] .export[aria-label="export the ${name} figure"]`);
    const button = group.getByRole('button', { name: 'Download PNG' });
    // A figure folded away (decay's bound on |score|) is opened first.
    await group.evaluate((g) => g.closest('details')?.setAttribute('open', ''));
    // The figure sits above its buttons: bring it on screen, so that its charts are drawn.
    await page.evaluate((id) => document.getElementById(id).scrollIntoView({ block: 'start' }), chapter);
    await button.scrollIntoViewIfNeeded();
    await page.waitForTimeout(400);
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe(`rope-lab-${name}.png`);
    const bytes = readFileSync(await download.path());
    const [width, height] = pngSize(bytes);
    // The PNG is the figure's elements (the group's data-figure) as laid out, 14 CSS pixels of
    // margin and a 30-pixel caption line, at twice the CSS size (the test's pixel ratio is 1).
    const box = await page.locator(`[data-widget="${chapter}"]`).evaluate((card, [selector, legend]) => {
      const rects = [...card.querySelectorAll(selector)].map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0);
      const left = Math.min(...rects.map((r) => r.left));
      const top = Math.min(...rects.map((r) => r.top));
      const union = { left, top, width: Math.max(...rects.map((r) => r.right)) - left, height: Math.max(...rects.map((r) => r.bottom)) - top };
      // Where the legend's text is: the deepest element holding it.
      let at = null;
      if (legend) {
        const holders = [...card.querySelectorAll(selector)].flatMap((e) => [e, ...e.querySelectorAll('*')]).filter((e) => e.textContent.includes(legend));
        const deepest = holders[holders.length - 1];
        const r = deepest?.getBoundingClientRect();
        at = r && { x: r.left - left, y: r.top - top, width: r.width, height: r.height };
      }
      return { union, at };
    }, [await group.getAttribute('data-figure'), legend]);
    expect(width, `${name}: width`).toBe(Math.ceil((box.union.width + 28) * 2));
    expect(height, `${name}: height`).toBe(Math.ceil((box.union.height + 58) * 2));
    const ink = await inkIn(page, bytes, [
      // The caption line: the bottom 30 CSS pixels.
      { x: 0, y: height - 60, width, height: 60 },
      // The figure.
      { x: 0, y: 0, width, height: height - 60 },
      // The legend, where the page shows it.
      ...(box.at ? [{ x: (box.at.x + 14) * 2, y: (box.at.y + 14) * 2, width: box.at.width * 2, height: box.at.height * 2 }] : []),
    ]);
    expect(ink[0], `${name}: the caption line's ink`).toBeGreaterThan(300);
    expect(ink[1], `${name}: the figure's ink`).toBeGreaterThan(3000);
    if (legend) {
      expect(box.at, `${name}: the legend "${legend}" is part of the figure`).not.toBeNull();
      expect(ink[2], `${name}: the legend's ink`).toBeGreaterThan(50);
    }
  }
});
