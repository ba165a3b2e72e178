import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { ApiConfig } from '../../config.js';

export interface AccessTokenClaims {
  sub: string;
  username: string;
  /** Refresh-token family id: lets a password change keep this session and end the others. */
  fid: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
    /**
     * The claims of a genuine access token, else null. A token without `exp` is refused (jsonwebtoken
     * would accept it forever). `allowExpired` is for logout only: a tab left open past the token's
     * life may still end its own session.
     */
    verify(
      token: string,
      { allowExpired = false }: { allowExpired?: boolean } = {},
    ): AccessTokenClaims | null {
      try {
        const payload = jwt.verify(token, key, { algorithms: ['HS256'], ignoreExpiration: allowExpired });
        if (typeof payload === 'string' || payload.typ !== 'access' || typeof payload.exp !== 'number')
          return null;
        const { sub, fid } = payload;
        // Both are read back as uuid columns: anything else is not a token this API issued.
        if (typeof sub !== 'string' || !UUID.test(sub) || typeof fid !== 'string' || !UUID.test(fid))
          return null;
        return { sub, username: String(payload.username), fid };
      } catch {
        return null;
      }
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;
