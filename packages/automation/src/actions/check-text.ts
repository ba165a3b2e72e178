import type { Frame, Locator } from 'playwright-core';
import { AUTOMATION_CODES } from '../flow/classify-error.js';
import { type ActionContext, type ActionOutcome, fail, sleep } from './action-context.js';

const POLL_MS = 200;
/** What the failure quotes of a long expected text. */
const QUOTED_MAX = 120;

/** The first visible element of any frame whose text contains `text` (case and spaces ignored). */
async function visibleText(frames: readonly Frame[], text: string): Promise<Locator | undefined> {
  for (const frame of frames) {
    // getByText pierces open shadow roots; the last match is the innermost (a flash message's <p>).
    const matches = frame.getByText(text);
    const count = await matches.count().catch(() => 0);
    for (let index = count - 1; index >= 0; index -= 1) {
      const match = matches.nth(index);
      if (await match.isVisible().catch(() => false)) return match;
    }
  }
  return undefined;
}

/**
 * CHECK_TEXT (issue 22, beyond the spec's menu): the page must show the expected text ("Item has
 * been updated.") within the timeout, in any frame, or the run fails. An insertor's save that did
 * not land never reports SUCCESS.
 */
export async function checkText(context: ActionContext): Promise<ActionOutcome> {
  const expected = context.action.options?.text?.trim();
  if (!expected)
    fail(AUTOMATION_CODES.INVALID_ARGUMENT, 'CHECK_TEXT needs the expected text in options.text');
  const timeoutMs = context.action.options?.timeoutMs ?? context.limits.waitUntilTimeoutMs;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const element = await visibleText(context.page.frames(), expected);
    if (element) return { value: { kind: 'text', value: expected }, element };
    if (Date.now() >= deadline) break;
    await sleep(POLL_MS);
  }
  const quoted = expected.length > QUOTED_MAX ? `${expected.slice(0, QUOTED_MAX - 1)}…` : expected;
  fail(
    AUTOMATION_CODES.NO_SUCH_ELEMENT,
    `The page did not show '${quoted}' within ${Math.round(timeoutMs / 1000)} s`,
  );
}
