import type { TestProject } from 'vitest/node';
import { startStack, type TestStack } from './stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    redisKeyPrefix: string;
    mailUrl: string;
    databaseUrl: string;
  }
}

let stack: TestStack | undefined;

/** One real stack (fresh database, maildev, API over HTTP) for the whole integration run. */
export async function setup(project: TestProject) {
  stack = await startStack({ useBuild: process.env.PW_TEST_USE_BUILD === '1' });
  project.provide('apiUrl', stack.apiUrl);
  project.provide('redisKeyPrefix', stack.redisKeyPrefix);
  project.provide('mailUrl', stack.mailUrl);
  project.provide('databaseUrl', stack.databaseUrl);
}

export async function teardown() {
  await stack?.stop();
}
