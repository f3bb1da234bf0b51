// End-to-end tests of the release build in Debian's Chromium (Playwright cannot download its
// own browser here). `make test` builds dist/ first.
import { defineConfig } from '@playwright/test';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// The port of the static server; set E2E_PORT if 4173 is taken on your machine.
export const port = Number(process.env.E2E_PORT ?? 4173);
// The build under test; E2E_DIST=<dir> compares another (a build from before a change).
const dist = process.env.E2E_DIST ?? '../dist';

export default defineConfig({
  testDir: '.',
  outputDir: './results',
  timeout: 60_000,
  workers: 1,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumArgs },
    // The release build's offline worker would store the whole page in the background of every
    // test (and serve it from its cache): only offline.spec.mjs lets it run.
    serviceWorkers: 'block',
  },
  webServer: {
    command: `node serve.mjs ${dist} ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
