import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '@pagewright/automation';

/**
 * End-to-end flows in real Chromium against the built SPA served by the built API (one origin),
 * with a fresh database and the maildev inbox; global-setup.ts starts that stack.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  globalSetup: './global-setup.ts',
  // Two cores run the API, Postgres, Redis and Chromium: one browser at a time keeps timings sane.
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  outputDir: '../../.pagewright/e2e-results',
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    // A failed test keeps its trace: every action with the page's DOM before and after it. The
    // trace's film strip (a screencast of the test's page all along) is left out: it took ~30 % of
    // a builder test's CPU, in Chromium's compositor, for every test that passed (issue 37).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    launchOptions: chromiumLaunchOptions(process.env.CHROMIUM_PATH),
  },
});
