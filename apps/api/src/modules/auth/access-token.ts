import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { ApiConfig } from '../../config.js';

export interface AccessTokenClaims {
  sub: string;
  username: string;
  /** Refresh-token family id: lets a password change keep this session and end the others. */
  fid: string;
}

/** Short-lived HS256 access tokens. */
export function createAccessTokens(config: Pick<ApiConfig, 'JWT_SECRET' | 'ACCESS_TOKEN_TTL_SECONDS'>) {
  // Built once: given a string, jsonwebtoken first tries (and fails) to parse it as a public key on
  // every call, which cost a fifth of the API's CPU on authenticated requests.
  const key = createSecretKey(Buffer.from(config.JWT_SECRET, 'utf8'));
  return {
    issue(claims: AccessTokenClaims): string {
      return jwt.sign({ username: claims.username, fid: claims.fid, typ: 'access' }, key, {
        algorithm: 'HS256',
        subject: claims.sub,
        expiresIn: config.ACCESS_TOKEN_TTL_SECONDS,
      });
    },
    verify(token: string): AccessTokenClaims | null {
      try {
        const payload = jwt.verify(token, key, { algorithms: ['HS256'] });
        if (typeof payload === 'string' || payload.typ !== 'access' || typeof payload.sub !== 'string')
          return null;
        return { sub: payload.sub, username: String(payload.username), fid: String(payload.fid) };
      } catch {
        return null;
      }
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;
