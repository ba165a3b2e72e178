import type { Page } from 'playwright-core';
import { AutomationError } from './automation-error.js';
import { AUTOMATION_CODES } from './classify-error.js';

/** Said of a killed Chromium as of a page closed under the step: the page closes before the browser reports it is gone. */
export const BROWSER_CLOSED_MESSAGE = 'The browser closed while the step ran';

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
  let isLost = false;
  let reject: (error: AutomationError) => void = () => undefined;
  const lost = new Promise<never>((_, onLost) => {
    reject = onLost;
  });
  // Nobody may be racing it when the loss comes (between steps); that is not an unhandled failure.
  lost.catch(() => undefined);
  const onGone = () => {
    isLost = true;
    reject(new AutomationError(AUTOMATION_CODES.NO_SUCH_SESSION, BROWSER_CLOSED_MESSAGE));
  };
  browser?.on('disconnected', onGone);
  page.on('close', onGone);
  if (page.isClosed()) onGone();
  return {
    lost,
    error: (sequence) =>
      isLost
        ? new AutomationError(AUTOMATION_CODES.NO_SUCH_SESSION, BROWSER_CLOSED_MESSAGE, sequence)
        : undefined,
    stop() {
      browser?.off('disconnected', onGone);
      page.off('close', onGone);
    },
  };
}
