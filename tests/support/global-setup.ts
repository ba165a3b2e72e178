import type { TestProject } from 'vitest/node';
import {
  SHARED_STACK_API_KEY_RATE_LIMIT_PER_MINUTE,
  SHARED_STACK_WEBHOOK_MAX_ATTEMPTS,
  startStack,
  type TestStack,
} from './stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    redisKeyPrefix: string;
    mailUrl: string;
    databaseUrl: string;
    /** The API's log, at info (every request): a file may prove what never reaches it. */
    apiLogFile: string;
  }
}

/**
 * Both integration projects (vitest.config.ts) name this file, and Vitest runs each project's
 * global setup, in its one main process but from separate module instances: the stack is kept on
 * globalThis so they share one, stopped when the last project tears down.
 */
const SHARED_STACK = Symbol.for('pagewright.test.sharedStack');
interface SharedStack {
  stack: Promise<TestStack>;
  projects: number;
}
const registry = globalThis as typeof globalThis & { [SHARED_STACK]?: SharedStack };

function startSharedStack(): Promise<TestStack> {
  return startStack({
    useBuild: process.env.PW_TEST_USE_BUILD === '1',
    env: {
      // Every request is logged, as in production: api-keys.test.ts proves no key reaches the log.
      LOG_LEVEL: 'info',
      API_KEY_RATE_LIMIT_PER_MINUTE: String(SHARED_STACK_API_KEY_RATE_LIMIT_PER_MINUTE),
      // Webhook receivers listen on this machine; a failing one is called again 200 ms, then 400 ms
      // later (the product waits a minute, then doubles, 12 times). Only webhooks.test.ts adds
      // endpoints, so no other file sees these.
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_FIRST_DELAY_MS: '200',
      WEBHOOK_MAX_ATTEMPTS: String(SHARED_STACK_WEBHOOK_MAX_ATTEMPTS),
    },
  });
}

/**
 * One real stack (fresh database, maildev, API over HTTP) for the whole integration run. Settings
 * one file needs live here when they change nothing for the others (docs/testing.md).
 */
export async function setup(project: TestProject) {
  const shared = (registry[SHARED_STACK] ??= { stack: startSharedStack(), projects: 0 });
  shared.projects += 1;
  const stack = await shared.stack;
  project.provide('apiUrl', stack.apiUrl);
  project.provide('redisKeyPrefix', stack.redisKeyPrefix);
  project.provide('mailUrl', stack.mailUrl);
  project.provide('databaseUrl', stack.databaseUrl);
  project.provide('apiLogFile', stack.apiLogFile);
}

export async function teardown() {
  const shared = registry[SHARED_STACK];
  if (!shared) return;
  shared.projects -= 1;
  if (shared.projects > 0) return;
  delete registry[SHARED_STACK];
  await (await shared.stack).stop();
}
