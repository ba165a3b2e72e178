import type { Page, Request } from 'playwright-core';
import {
  type NavigationPolicy,
  NavigationRefusedError,
  assertNavigationAllowed,
} from './navigation-guard.js';

function isOfMainFrame(page: Page, request: Request): boolean {
  try {
    return request.frame() === page.mainFrame();
  } catch {
    // A service worker's request has no frame; it is not a navigation of the page.
    return false;
  }
}

export interface NavigationWatch {
  /**
   * The first refusal among the page's own navigations since the last call (waiting for the
   * checks still running), or undefined; the watch then starts over.
   */
  takeRefusal(): Promise<NavigationRefusedError | undefined>;
  stop(): void;
}

/**
 * Judges every top-level navigation of a page by the policy, redirect hops included. The route
 * guard sees only the first request of a redirect chain, and the egress proxy answers a refused
 * hop with an error page the browser shows as a loaded page: without this, a NAVIGATE that is
 * redirected to a refused address, or a click that leads there, would count as a success.
 */
export function watchNavigations(page: Page, policy: NavigationPolicy): NavigationWatch {
  let checks: Promise<NavigationRefusedError | undefined>[] = [];
  const onRequest = (request: Request) => {
    if (!request.isNavigationRequest() || !isOfMainFrame(page, request)) return;
    checks.push(
      assertNavigationAllowed(request.url(), policy).then(
        () => undefined,
        (error: unknown) => (error instanceof NavigationRefusedError ? error : undefined),
      ),
    );
  };
  page.on('request', onRequest);
  return {
    async takeRefusal() {
      const pending = checks;
      checks = [];
      return (await Promise.all(pending)).find((refusal) => refusal !== undefined);
    },
    stop() {
      page.off('request', onRequest);
    },
  };
}
