import { getSession, hasSessionFlag } from '../lib/session';
import { FIRST_LOAD_EXEMPT_FRAGMENTS, PATHS, isAccountPath } from '../lib/paths';
import { isUnknownPath } from './router';

/**
 * A tab opened without having signed in (no session flag) and without "remember me" starts by
 * logging out, so tokens left by an earlier browser session are not reused (spec §2, entry
 * redirects). Runs once, before the router reads the address.
 *
 * The account screens (login, sign-up, forgot password, welcome) need no session, so a link to
 * them keeps working: they stay where they are, passing through /logout only when an old session
 * is still stored, and come back afterwards. An unknown path shows the not-found screen.
 */
export function applyFirstLoadRule(): void {
  const { pathname, search } = window.location;
  const session = getSession();
  if (hasSessionFlag() || session.rememberMeUser !== null) return;
  if (pathname === PATHS.logout) return;
  if (FIRST_LOAD_EXEMPT_FRAGMENTS.some((fragment) => pathname.includes(fragment))) return;
  if (isUnknownPath(pathname)) return;

  if (isAccountPath(pathname)) {
    const hasStoredSession = session.accessToken !== null || session.refreshToken !== null;
    if (hasStoredSession) {
      const next = encodeURIComponent(`${pathname}${search}`);
      window.history.replaceState(null, '', `${PATHS.logout}?next=${next}`);
    }
    return;
  }
  window.history.replaceState(null, '', PATHS.logout);
}
