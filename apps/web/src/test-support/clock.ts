import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * A fake clock for component tests that would otherwise wait on real time (polling, cooldowns).
 * setImmediate stays real: reading a Response body takes a few turns of the event loop. Move the
 * clock with `advance`, then query with getBy*. Undo with `vi.useRealTimers()` and
 * `vi.unstubAllGlobals()` after each test.
 */
export function installFakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  // After each user-event call testing-library waits on a zero-delay timer, and moves the clock for
  // it only when it sees Jest's: without this, user-event never returns (react-testing-library#1197).
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Moves the clock, then lets the calls it started answer and render. Settling moves the clock by a
 * few more milliseconds (fake timers run a zero-delay timer set during a tick 1 ms later), so a
 * test checks an interval CLOCK_MARGIN_MS before and after it is due.
 */
export const advance = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
    for (let turn = 0; turn < 5; turn++) {
      await nextTurn();
      await vi.advanceTimersByTimeAsync(1);
    }
  });

export const CLOCK_MARGIN_MS = 100;
