import type { Page, Request } from 'playwright-core';

/** Requests whose answer changes what the page shows; images, fonts and beacons do not hold a step. */
const SETTLING_RESOURCE_TYPES = new Set(['document', 'xhr', 'fetch']);

export interface SettleBounds {
  /** The page is quiet once no request it started is in flight for this long. */
  quietMs: number;
  /** The longest a step waits for its requests (a long poll never ends). */
  networkMaxMs: number;
  /** The longest a step waits for the page a navigation it started to load. */
  loadMaxMs: number;
}

/** A click's save lands within a request or two; a stuck request costs at most 2 s of a run. */
export const DEFAULT_SETTLE_BOUNDS: SettleBounds = { quietMs: 100, networkMaxMs: 2_000, loadMaxMs: 10_000 };

export interface PageActivity {
  /** A step begins: only what happens from now on holds it. */
  begin(): void;
  /**
   * Waits until what the step caused has settled: the page a navigation it started has loaded,
   * and its requests have been answered and the network was quiet for a moment. Returns at once
   * when the step made no request. Never longer than the bounds, never throws.
   */
  settle(bounds?: SettleBounds): Promise<void>;
  stop(): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Watches a page's requests so that a step's picture shows the page after what the step caused
 * (issue 22: an insertor's last picture showed the form before its save landed).
 */
export function watchPageActivity(page: Page): PageActivity {
  const inFlight = new Set<Request>();
  let isStepActive = false;
  let hasActivity = false;
  let hasNavigation = false;
  let lastActivityAt = 0;

  const onRequest = (request: Request) => {
    if (!isStepActive || !SETTLING_RESOURCE_TYPES.has(request.resourceType())) return;
    hasActivity = true;
    // A page a navigation loads is awaited by its load event; only the page's own requests (a
    // save's fetch, the data an app asks for after load) are waited for one by one.
    if (request.isNavigationRequest()) {
      if (request.frame() === page.mainFrame()) hasNavigation = true;
      return;
    }
    inFlight.add(request);
    lastActivityAt = Date.now();
  };
  const onDone = (request: Request) => {
    if (inFlight.delete(request)) lastActivityAt = Date.now();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);

  return {
    begin() {
      inFlight.clear();
      isStepActive = true;
      hasActivity = false;
      hasNavigation = false;
      lastActivityAt = 0;
    },
    async settle(bounds = DEFAULT_SETTLE_BOUNDS) {
      try {
        if (!hasActivity || page.isClosed()) return;
        if (hasNavigation)
          await page.waitForLoadState('load', { timeout: bounds.loadMaxMs }).catch(() => undefined);
        // Only requests the page made (not a navigation's document) hold the step a moment more.
        if (lastActivityAt === 0) return;
        const deadline = Date.now() + bounds.networkMaxMs;
        while (Date.now() < deadline && !page.isClosed()) {
          const quietFor = Date.now() - lastActivityAt;
          if (inFlight.size === 0 && quietFor >= bounds.quietMs) return;
          await sleep(inFlight.size === 0 ? bounds.quietMs - quietFor : 25);
        }
      } finally {
        isStepActive = false;
        inFlight.clear();
      }
    },
    stop() {
      page.off('request', onRequest);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onDone);
    },
  };
}
