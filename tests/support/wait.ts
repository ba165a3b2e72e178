/**
 * Waiting in tests (issue 37): for a condition, never for a fixed time. A test waits for what
 * proves that the thing it needs has happened (a row, a key, an answer, an event), polled here when
 * nothing says when; a timeout is a safety net that ends a wait which would never end, not a pause.
 * Vitest's vi.waitFor / expect.poll and Playwright's expect.poll / locator waits do the same.
 *
 * The one file of the tests that waits on setTimeout (eslint.config.js refuses sleeps elsewhere).
 */

export interface WaitOptions {
  /** The safety net: how long before the wait fails (default 30 s). */
  timeoutMs?: number;
  /** How often the condition is looked at (default 150 ms). */
  intervalMs?: number;
  /** What is waited for, said when the wait fails. */
  message?: string;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Looks at `condition` until it answers something other than undefined or false, and returns that.
 * A condition that throws is looked at again; its last error is said if the wait fails.
 */
export async function waitUntil<T>(
  condition: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 30_000, intervalMs = 150, message = 'a condition' }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline)
      throw new Error(`Timed out waiting for ${message}${lastError ? `: ${String(lastError)}` : ''}`);
    await pause(intervalMs);
  }
}

/**
 * The check that something does NOT happen, for when nothing positive marks the moment it would
 * have (when something does, wait for that instead and look once): watches `happened` for `forMs`
 * and fails as soon as it holds. The caller says why `forMs` is long enough.
 */
export async function expectNothingWithin(
  forMs: number,
  happened: () => boolean | Promise<boolean>,
  what: string,
  intervalMs = 100,
): Promise<void> {
  const end = Date.now() + forMs;
  for (;;) {
    if (await happened()) throw new Error(`${what} (within ${forMs} ms)`);
    const left = end - Date.now();
    if (left <= 0) return;
    await pause(Math.min(intervalMs, left));
  }
}

/**
 * What `promise` settles with, or `fallback` once `timeoutMs` has passed: the safety net of a wait
 * for an event, so that a test whose event never comes fails saying what it got instead of hanging.
 */
export async function resultWithin<T, F>(
  promise: Promise<T>,
  timeoutMs: number,
  fallback: F,
): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), timeoutMs);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
