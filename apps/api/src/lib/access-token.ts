import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { ApiConfig } from '../config.js';

export interface AccessTokenClaims {
  sub: string;
  username: string;
  /** Refresh-token family id: lets a password change keep this session and end the others. */
  fid: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Tokens whose signature was checked, remembered per process (a few hundred bytes each). */
const VERIFIED_TOKENS_MAX = 10_000;

interface VerifiedToken {
  claims: AccessTokenClaims;
  /** The token's `exp`, in ms. */
  expiresAt: number;
}

/** Short-lived HS256 access tokens. */
export function createAccessTokens(config: Pick<ApiConfig, 'JWT_SECRET' | 'ACCESS_TOKEN_TTL_SECONDS'>) {
  // Built once: given a string, jsonwebtoken first tries (and fails) to parse it as a public key on
  // every call, which cost a fifth of the API's CPU on authenticated requests.
  const key = createSecretKey(Buffer.from(config.JWT_SECRET, 'utf8'));
  /**
   * Every request of a tab presents the same token until it is refreshed: the exact string, once
   * its signature and claims were checked, is good until its `exp` (only its expiry is read again).
   * Checking it with jsonwebtoken was a quarter of the CPU of GET /user/ (issue 27).
   */
  const verified = new Map<string, VerifiedToken>();

  function remember(token: string, entry: VerifiedToken): void {
    if (verified.size >= VERIFIED_TOKENS_MAX) {
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
    verified.set(token, entry);
  }

  return {
    issue(claims: AccessTokenClaims): string {
      return jwt.sign({ username: claims.username, fid: claims.fid, typ: 'access' }, key, {
        algorithm: 'HS256',
        subject: claims.sub,
        expiresIn: config.ACCESS_TOKEN_TTL_SECONDS,
      });
    },
    /**
     * The claims of a genuine access token, else null. A token without `exp` is refused (jsonwebtoken
     * would accept it forever). `allowExpired` is for logout only: a tab left open past the token's
     * life may still end its own session.
     */
    verify(
      token: string,
      { allowExpired = false }: { allowExpired?: boolean } = {},
    ): AccessTokenClaims | null {
      const known = verified.get(token);
      if (known) {
        if (known.expiresAt > Date.now()) return known.claims;
        verified.delete(token);
        return allowExpired ? known.claims : null;
      }
      try {
        const payload = jwt.verify(token, key, { algorithms: ['HS256'], ignoreExpiration: allowExpired });
        if (typeof payload === 'string' || payload.typ !== 'access' || typeof payload.exp !== 'number')
          return null;
        const { sub, fid } = payload;
        // Both are read back as uuid columns: anything else is not a token this API issued.
        if (typeof sub !== 'string' || !UUID.test(sub) || typeof fid !== 'string' || !UUID.test(fid))
          return null;
        const claims = { sub, username: String(payload.username), fid };
        const expiresAt = payload.exp * 1000;
        if (expiresAt > Date.now()) remember(token, { claims, expiresAt });
        return claims;
      } catch {
        return null;
      }
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;
