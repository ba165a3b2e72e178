import type { Browser, Page } from 'playwright-core';
import { AutomationError } from './automation-error.js';
import { AUTOMATION_CODES, isTargetClosedError } from './classify-error.js';

/** Said of a killed Chromium as of a page closed under the step: the page closes before the browser reports it is gone. */
export const BROWSER_CLOSED_MESSAGE = 'The browser closed while the step ran';

const lossMessages = new WeakMap<Browser, string>();
/** Browsers given up on purpose (a host that stopped answering): lost before Playwright says so. */
const givenUp = new WeakSet<Browser>();

/**
 * What a step that lost this browser says instead of BROWSER_CLOSED_MESSAGE: a browser on another
 * machine names its host, so that the run tells which one went away.
 */
export function describeBrowserLoss(browser: Browser, message: string): void {
  lossMessages.set(browser, message);
}

/**
 * The loss of the browser a context was in, as a step would report it, or undefined while that
 * browser is still there: for work done outside a step (opening the page) when the browser goes.
 */
export function browserLossOf(browser: Browser | null): AutomationError | undefined {
  if (!browser || (browser.isConnected() && !givenUp.has(browser))) return undefined;
  return new AutomationError(
    AUTOMATION_CODES.NO_SUCH_SESSION,
    lossMessages.get(browser) ?? BROWSER_CLOSED_MESSAGE,
  );
}

/** How long a "Target closed" error waits for its browser to report the loss. */
const LOSS_REPORT_WAIT_MS = 1_000;

/**
 * browserLossOf for an error already thrown: when Playwright loses a browser host's connection it
 * closes the pages and contexts at once (their calls reject) but reports the browser disconnected
 * a tick later, so an error caught in between would otherwise be told as Playwright's bare
 * "Target page, context or browser has been closed" instead of naming the host.
 */
export async function browserLossBehind(
  browser: Browser | null,
  error: unknown,
): Promise<AutomationError | undefined> {
  const known = browserLossOf(browser);
  if (known || !browser || !isTargetClosedError(error)) return known;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      browser.off('disconnected', done);
      resolve();
    };
    const timer = setTimeout(done, LOSS_REPORT_WAIT_MS);
    browser.once('disconnected', done);
  });
  return browserLossOf(browser);
}

/** Marks a browser lost before closing its connection (closing a stalled one takes a while to report). */
export function giveUpBrowser(browser: Browser): void {
  givenUp.add(browser);
}

export interface BrowserLoss {
  /** Rejects with the loss as soon as the page or its browser goes away. */
  readonly lost: Promise<never>;
  /** The loss, once it happened: the step's error whatever the step itself threw. */
  error(sequence?: number): AutomationError | undefined;
  stop(): void;
}

/**
 * Watches a page for the end of its browser. Without it a step outlives a killed Chromium: a
 * locator keeps retrying until its timeout and reports No Such Element, a WAIT sleeps on.
 */
export function watchBrowserLoss(page: Page): BrowserLoss {
  const browser = page.context().browser();
  const message = (browser && lossMessages.get(browser)) ?? BROWSER_CLOSED_MESSAGE;
  let isLost = false;
  let reject: (error: AutomationError) => void = () => undefined;
  const lost = new Promise<never>((_, onLost) => {
    reject = onLost;
  });
  // Nobody may be racing it when the loss comes (between steps); that is not an unhandled failure.
  lost.catch(() => undefined);
  const onGone = () => {
    isLost = true;
    reject(new AutomationError(AUTOMATION_CODES.NO_SUCH_SESSION, message));
  };
  browser?.on('disconnected', onGone);
  page.on('close', onGone);
  if (page.isClosed()) onGone();
  return {
    lost,
    error: (sequence) =>
      isLost ? new AutomationError(AUTOMATION_CODES.NO_SUCH_SESSION, message, sequence) : undefined,
    stop() {
      browser?.off('disconnected', onGone);
      page.off('close', onGone);
    },
  };
}
