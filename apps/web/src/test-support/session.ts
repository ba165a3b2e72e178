import { clearSession, storeLogin } from '../lib/session';

/** Signs the tab in as Ann, afresh (the session store the screens read). */
export function signInAsAnn(): void {
  clearSession();
  storeLogin({
    accessToken: 'token-of-ann',
    refreshToken: 'refresh-of-ann',
    username: 'ann@example.com',
    tempPasswordSet: false,
    enabled: true,
    daysToExpire: 90,
    viewerEmail: null,
  });
}

/** A 200 JSON answer for a stubbed fetch. */
export const jsonResponse = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
