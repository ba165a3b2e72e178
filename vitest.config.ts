import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
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

/**
 * Integration files that start a stack of their own (API, worker and its Chromium, maildev, a
 * database): they kill its worker, Chromium or Redis, read every Redis key of its prefix, start more
 * API or worker processes, or need settings that would change what other files see. Why each one
 * does is in docs/testing.md.
 */
const OWN_STACK_FILES = [
  'builder',
  'builder-state',
  'fair-shares',
  'faults',
  'fengine-datasets',
  'messages',
  'messages-limits',
  'multi-process',
  'recognition-limits',
  'remote-browsers',
  'remote-engine',
  'runs',
  'schedule-recovery',
  'schedulers',
  'security',
].map((name) => `tests/integration/${name}.test.ts`);

/**
 * How many own-stack files run at once, after the other files: two keep a 2-core machine at the
 * suite's stack plus two more (one at a time made the suite's tail too long for its 20 minutes);
 * PW_TEST_OWN_STACK_WORKERS overrides it.
 */
const ownStackWorkers = Number(process.env.PW_TEST_OWN_STACK_WORKERS) || 2;

/**
 * react-router-dom's build for Node before 22 is CommonJS that requires an ES module, which a VM
 * context cannot load: the web project imports its ES build.
 */
const REACT_ROUTER_DOM_ESM = join(
  dirname(
    createRequire(join(import.meta.dirname, 'apps/web/package.json')).resolve(
      'react-router-dom/package.json',
    ),
  ),
  'dist/index.mjs',
);

/** Integration files wait on the API, the worker and Chromium of a busy machine. */
const INTEGRATION_TIMEOUTS = { testTimeout: 60_000, hookTimeout: 120_000 };

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
          // Files share their worker's imports (Playwright, Prisma, fastify) instead of loading them
          // again per file: 78 s → 53 s for the project on the 2-core machine (issue 37). They keep
          // no state between them: no module mocks, fake timers restored (lint: sharedWorkerState in eslint.config.js).
          isolate: false,
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
        resolve: { alias: { 'react-router-dom': REACT_ROUTER_DOM_ESM } },
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.tsx'],
          environment: 'jsdom',
          // Each file in a VM context of its own on a reused thread: as isolated as a fork per file,
          // without a new jsdom and the SPA's imports from scratch each time (114 s → 61 s for
          // the project on the 2-core machine, issue 37).
          pool: 'vmThreads',
          setupFiles: ['apps/web/src/test-support/vm-globals.ts'],
          // A safety net for a hung test, not a budget: a component test takes well under a second.
          testTimeout: 30_000,
        },
      },
      {
        // Against one shared stack (tests/support/global-setup.ts), several files at once.
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          exclude: OWN_STACK_FILES,
          globalSetup: ['tests/support/global-setup.ts'],
          environment: 'node',
          // Each file makes its own users, clients and sites; the Prisma client, supertest and the
          // support modules load once per worker: 186 s → 137 s for the project (issue 37). No module
          // mocks either (the same lint rule).
          isolate: false,
          ...INTEGRATION_TIMEOUTS,
        },
      },
      {
        // Each file on a stack of its own (startFileStack, startStack), one file at a time after the
        // other projects' files, so no more than one such stack runs beside the suite's.
        test: {
          name: 'integration-own-stack',
          include: OWN_STACK_FILES,
          // faults and security use the suite's stack too (the same one: global-setup.ts).
          globalSetup: ['tests/support/global-setup.ts'],
          maxWorkers: ownStackWorkers,
          sequence: { groupOrder: 1 },
          environment: 'node',
          ...INTEGRATION_TIMEOUTS,
        },
      },
    ],
  },
});
