import type { CDPSession, Page } from 'playwright-core';

// One DevTools session per page, opened on first use and gone with the page.
const sessions = new WeakMap<Page, Promise<CDPSession>>();

/**
 * The page's own DevTools session (step pictures, stopping runaway scripts). Open it before the
 * page may be busy: attaching needs the page's main thread, which a runaway script holds.
 */
export function cdpSessionOf(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page);
    session.catch(() => sessions.delete(page));
    sessions.set(page, session);
  }
  return session;
}

/**
 * Forget a page's session after a call on it failed: a cross-process navigation or a crashed
 * renderer detaches it, and a cached dead session would fail every later call.
 */
export function forgetCdpSession(page: Page): void {
  const session = sessions.get(page);
  sessions.delete(page);
  void session?.then((s) => s.detach()).catch(() => undefined);
}
