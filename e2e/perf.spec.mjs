// Benchmark: main-thread work per slider update, measured with Chromium's own task clock
// (CDP Performance.getMetrics TaskDuration): the median of several rounds of slider steps,
// each followed by two animation frames. Printed beside the same measurement on a near-empty
// page holding one slider and one output, the floor any slider page pays. The budget is one
// 60 Hz frame per update up to d = 128 (two at d = 1024, 512 clock faces); the printed
// figures are the result, with whether they fit the frame. The assertion is a regression guard
// at 1.5 times that budget, so that a noisy run does not fail CI over a benchmark. Headless
// Chromium here composites in software, where every canvas costs more than on a GPU: these
// are upper bounds for a reader's browser.
import { test, expect, open } from './fixtures.mjs';

const STEPS = 60;
const ROUNDS = 5;
const FRAME_MS = 1000 / 60;
const EMPTY_PAGE = `<!doctype html><input id="m-slider" type="range" min="0" max="4096" value="5"><output>5</output>
<script>document.querySelector('#m-slider').addEventListener('input', (e) => {
  document.querySelector('output').textContent = e.target.value; });</script>`;

/** Median main-thread ms per step of `#m-slider`. */
async function msPerStep(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskSeconds = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const before = await taskSeconds();
    await page.evaluate(
      async ({ steps, offset }) => {
        const slider = document.querySelector('#m-slider');
        const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        for (let i = 0; i < steps; i++) {
          slider.value = String(100 + offset + i);
          slider.dispatchEvent(new Event('input', { bubbles: true }));
          await frame();
        }
      },
      { steps: STEPS, offset: round * STEPS },
    );
    rounds.push((((await taskSeconds()) - before) / STEPS) * 1000);
  }
  rounds.sort((a, b) => a - b);
  return rounds[Math.floor(ROUNDS / 2)];
}

for (const [label, path, frames] of [
  ['d=64 (default)', '/', 1],
  ['d=128, decay over 65536 tokens, heatmap 256×256', '/?dim=128&range=65536', 1],
  ['d=1024', '/?dim=1024', 2],
]) {
  test(`main-thread ms per slider update, ${label}`, async ({ page }) => {
    await page.setContent(EMPTY_PAGE);
    const empty = await msPerStep(page);
    await open(page, path);
    await page.waitForTimeout(300);
    const lab = await msPerStep(page);
    console.log(
      `perf: ${label}: ${lab.toFixed(2)} ms main-thread per slider update; ` +
        `a one-slider empty page: ${empty.toFixed(2)} ms; above it: ${(lab - empty).toFixed(2)} ms ` +
        `(target ${(frames * FRAME_MS).toFixed(1)} ms: ${lab < frames * FRAME_MS ? 'met' : 'MISSED'})`,
    );
    expect(lab).toBeLessThan(1.5 * frames * FRAME_MS);
  });
}
