import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files run at once. Measured on the 2-core CI machine (docs/testing.md): the integration
 * files mostly wait on the API, the worker and Chromium, so one more file than cores keeps both
 * cores busy while the unit and component files (CPU-bound) fill the gaps. PW_TEST_MAX_WORKERS
 * overrides it (1 runs every file alone, for bisecting an interference).
 */
const maxWorkers = Number(process.env.PW_TEST_MAX_WORKERS) || availableParallelism() + 1;

/** Unit files that assert when Chromium paints (see the 'unit-alone' project). */
const PAINT_TIMING_FILES = ['packages/automation/src/page/frame-pictures.test.ts'];

export default defineConfig({
  test: {
    maxWorkers,
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/*/src/**/*.test.ts',
            'tests/architecture/**/*.test.ts',
          ],
          exclude: PAINT_TIMING_FILES,
          environment: 'node',
          // Several files drive real Chromium at once on a 2-core machine.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // What a step's picture shows depends on when Chromium's frames arrive, within a bound
        // learnt from the page (page-frames.ts): these files run alone, after the others, so the
        // suite's own files do not slow the frames down (docs/testing.md).
        test: {
          name: 'unit-alone',
          include: PAINT_TIMING_FILES,
          maxWorkers: 1,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Component tests of the SPA's dialogs and rules, in jsdom (flows run in real Chromium in e2e).
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.tsx'],
          environment: 'jsdom',
          // A safety net for a hung test, not a budget: a component test takes well under a second.
          testTimeout: 30_000,
        },
      },
      {
        // Against one shared stack (tests/support/global-setup.ts), several files at once; a file
        // that kills the worker or reads every Redis key starts a stack of its own (startFileStack).
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
