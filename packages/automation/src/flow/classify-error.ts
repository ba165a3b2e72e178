import { AutomationError } from './automation-error.js';

/** Automation codes used by the engine (100000 + WebDriver status, shared/notes/error-codes.md). */
export const AUTOMATION_CODES = {
  NO_SUCH_SESSION: 100006,
  NO_SUCH_ELEMENT: 100007,
  ELEMENT_NOT_VISIBLE: 100011,
  INVALID_ELEMENT_STATE: 100012,
  UNKNOWN_ERROR: 100013,
  JAVASCRIPT_ERROR: 100017,
  TIMEOUT: 100021,
  UNEXPECTED_ALERT_OPEN: 100026,
  NO_ALERT_OPEN: 100027,
  SCRIPT_TIMEOUT: 100028,
  INVALID_SELECTOR: 100032,
  INVALID_XPATH_SELECTOR: 100051,
  INVALID_ARGUMENT: 100061,
  UNABLE_TO_CAPTURE_SCREEN: 100063,
  ELEMENT_CLICK_INTERCEPTED: 100064,
} as const;

// eslint-disable-next-line no-control-regex -- Playwright colours its call logs with ANSI escapes.
const ANSI_ESCAPE = /\u001b\[[0-9;]*m/gu;

/** The message without terminal colour codes; otherwise exactly what Playwright or the page said. */
export function plainMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(ANSI_ESCAPE, '');
}

const TARGET_CLOSED =
  /Target page, context or browser has been closed|Browser has been closed|Target closed/u;

/** Whether Playwright said the page, context or browser it worked in is gone. */
export function isTargetClosedError(error: unknown): boolean {
  return TARGET_CLOSED.test(plainMessage(error));
}

function codeFor(error: unknown, message: string): number {
  const C = AUTOMATION_CODES;
  const isTimeout = error instanceof Error && error.name === 'TimeoutError';
  const api = /^(\w+)\.(\w+):/u.exec(message);
  const callName = api ? `${api[1]}.${api[2]}` : '';

  if (TARGET_CLOSED.test(message)) return C.NO_SUCH_SESSION;
  if (error instanceof Error && error.name === 'NavigationRefusedError') return C.INVALID_ARGUMENT;
  if (/strict mode violation/u.test(message)) return C.INVALID_SELECTOR;
  if (/is not a valid XPath expression|XPath/u.test(message) && /SyntaxError|not a valid/u.test(message)) {
    return C.INVALID_XPATH_SELECTOR;
  }
  if (
    /while parsing (css )?selector|Unknown engine|Unexpected token .* selector|is not a valid selector/u.test(
      message,
    )
  ) {
    return C.INVALID_SELECTOR;
  }
  if (/dialog/iu.test(message) && /unexpected|opened|blocked/iu.test(message)) return C.UNEXPECTED_ALERT_OPEN;
  if (/net::ERR_/u.test(message)) return C.UNKNOWN_ERROR;
  if (/intercepts pointer events/u.test(message)) return C.ELEMENT_CLICK_INTERCEPTED;
  if (/element is not visible|Element is not visible/u.test(message)) return C.ELEMENT_NOT_VISIBLE;
  if (
    /element is not (enabled|editable)|Element is not an <input>|not editable|is disabled|Element is not a <select>/u.test(
      message,
    )
  ) {
    return C.INVALID_ELEMENT_STATE;
  }
  if (/screenshot/u.test(callName) && !isTimeout) return C.UNABLE_TO_CAPTURE_SCREEN;
  if (/^(page|frame|locator|elementHandle|jsHandle)\.(evaluate|evaluateAll|evaluateHandle)/u.test(message)) {
    return isTimeout ? C.SCRIPT_TIMEOUT : C.JAVASCRIPT_ERROR;
  }
  if (isTimeout || /Timeout \d+ms exceeded/u.test(message)) {
    // A locator call that timed out before the locator ever resolved found no element.
    const isLocatorCall = /waiting for (locator|getBy|css=|xpath=)/u.test(message);
    if (isLocatorCall && !/locator resolved to/u.test(message)) return C.NO_SUCH_ELEMENT;
    if (/screenshot/u.test(callName)) return C.UNABLE_TO_CAPTURE_SCREEN;
    return C.TIMEOUT;
  }
  return C.UNKNOWN_ERROR;
}

/** Where Playwright's call log starts ("Call log:", or a "==== logs ====" banner of launch errors). */
const CALL_LOG = /\n\s*(?:Call log:|=+ logs =+)/u;
const STACK_FRAME = /^\s+at /u;

/**
 * A timeout says why the element could not be acted on: the last state Playwright's call log
 * reported ("Timeout 10000ms exceeded (element is not enabled)").
 */
function withWaitReason(shown: string, message: string): string {
  if (!/Timeout \d+ms exceeded/u.test(shown)) return shown;
  const reasons = [...message.matchAll(/element is not (?:enabled|visible|stable|editable)/gu)];
  const reason = reasons.at(-1)?.[0];
  return reason ? `${shown.replace(/\.$/u, '')} (${reason})` : shown;
}

/** Playwright's method name in front of its message ("locator.fill: Error: "): not the operator's words. */
const API_CALL_PREFIX =
  /^(?:page|frame|locator|elementHandle|jsHandle|browserContext|mouse|keyboard)\.\w+: (?:Error: )?/u;

/**
 * What the operator reads of a failure: its message without Playwright's method name, call log
 * and stack frames (page scripts' errors carry theirs in the message). Those are for the worker's log.
 */
export function userMessage(message: string): string {
  const [head = message] = message.split(CALL_LOG);
  const kept = head
    .split('\n')
    .filter((line) => !STACK_FRAME.test(line))
    .join('\n')
    .trim()
    .replace(API_CALL_PREFIX, '');
  return kept || message.trim();
}

/**
 * Maps any failure of a step (Playwright, the page's JavaScript, the engine itself) to an
 * AutomationError with the closest automation code, keeping the original message (colour codes,
 * call log and stack frames removed; the whole text stays in `details` for the log). An
 * AutomationError passes through, taking the step's sequence when it has none.
 */
export function classifyError(error: unknown, sequence?: number): AutomationError {
  if (error instanceof AutomationError) {
    return error.sequence === undefined && sequence !== undefined
      ? new AutomationError(error.code, error.originalMessage, sequence, error.details)
      : error;
  }
  const message = plainMessage(error);
  const stack = error instanceof Error && error.stack ? error.stack.replace(ANSI_ESCAPE, '') : undefined;
  const details = stack?.includes(message) ? stack : [message, stack].filter(Boolean).join('\n');
  return new AutomationError(
    codeFor(error, message),
    withWaitReason(userMessage(message), message),
    sequence,
    details,
  );
}
