// Benchmark: main-thread work per slider update, measured with Chromium's own task clock
// (CDP Performance.getMetrics TaskDuration) and reported above an idle page doing the same
// number of animation frames. Prints its figures; the budget is generous so only a real
// regression fails it.
import { test, expect, open } from './fixtures.mjs';

const STEPS = 120;
const BUDGET_MS = 4;

for (const [label, path] of [
  ['d=64 (default)', '/'],
  ['d=128, decay range 82k tokens', '/?dim=128&r=65536'],
]) {
  test(`main-thread ms per slider update, ${label}`, async ({ page }) => {
    await open(page, path);
    await page.waitForTimeout(300);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const taskSeconds = async () =>
      (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;

    const run = (move) =>
      page.evaluate(
        async ({ steps, move }) => {
          const slider = document.querySelector('#m-slider');
          const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          for (let i = 0; i < steps; i++) {
            if (move) {
              slider.value = String(100 + i);
              slider.dispatchEvent(new Event('input', { bubbles: true }));
            }
            await frame();
          }
        },
        { steps: STEPS, move },
      );

    let before = await taskSeconds();
    await run(false);
    const idle = (await taskSeconds()) - before;
    before = await taskSeconds();
    await run(true);
    const busy = (await taskSeconds()) - before;
    const perUpdate = ((busy - idle) / STEPS) * 1000;
    console.log(
      `perf: ${label}: ${perUpdate.toFixed(3)} ms main-thread per slider update above idle ` +
        `(${((busy / STEPS) * 1000).toFixed(3)} ms with, ${((idle / STEPS) * 1000).toFixed(3)} ms without; budget ${BUDGET_MS} ms)`,
    );
    expect(perUpdate).toBeLessThan(BUDGET_MS);
  });
}
