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
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions(process.env.CHROMIUM_PATH),
  },
});
