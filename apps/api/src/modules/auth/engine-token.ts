import {
  createRemoteJWKSet,
  errors,
  importSPKI,
  jwtVerify,
  type CryptoKey,
  type JWTVerifyGetKey,
} from 'jose';
import { engineTokenClaimsSchema, type EngineTokenClaims } from '@pagewright/shared';
import { engineKeyAlgorithm, type ApiConfig } from '../../config.js';

/** Clock difference between the engine and this host that exp (and nbf, iat) forgive. */
export const ENGINE_TOKEN_CLOCK_TOLERANCE_SECONDS = 30;

/** Why an engine token was refused: logged, never shown, never with the token. */
export class EngineTokenRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'EngineTokenRefused';
  }
}

export interface VerifiedEngineToken {
  issuer: string;
  claims: EngineTokenClaims;
}

type EngineKey = JWTVerifyGetKey | CryptoKey | Uint8Array;

interface EngineKeySetting {
  algorithms: string[];
  key: () => Promise<EngineKey>;
}

/**
 * How the engine signs, from the one key setting configured: each kind allows only its own
 * algorithms, so an HS256 token made with a public key as its secret, or `alg: none`, never passes.
 */
function engineKeySetting(config: ApiConfig): EngineKeySetting | null {
  const secret = config.FENGINE_JWT_SECRET;
  if (secret !== undefined) {
    const key = new TextEncoder().encode(secret);
    return { algorithms: ['HS256'], key: async () => key };
  }
  const pem = config.FENGINE_JWT_PUBLIC_KEY;
  if (pem !== undefined) {
    // The config refuses any other key, so the algorithm is known here.
    const algorithm = engineKeyAlgorithm(pem) ?? 'RS256';
    const key = importSPKI(pem, algorithm);
    return { algorithms: [algorithm], key: () => key };
  }
  if (config.FENGINE_JWKS_URL !== undefined) {
    // jose caches the set, refetches it on an unknown key id (at most every 30 s) and times out.
    const keySet = createRemoteJWKSet(new URL(config.FENGINE_JWKS_URL), { timeoutDuration: 5000 });
    return { algorithms: ['RS256', 'ES256'], key: async () => keySet };
  }
  return null;
}

/** A sentence for the log saying what was wrong with the token (jose's error, named plainly). */
function refusalReason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    const claim = error.claim === 'iss' ? 'issuer' : error.claim === 'aud' ? 'audience' : error.claim;
    return error.reason === 'missing' ? `missing ${claim} claim` : `wrong ${claim} (${error.reason})`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'bad signature';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'algorithm not allowed';
  if (error instanceof errors.JWKSNoMatchingKey) return 'no key of the JWKS matches';
  if (error instanceof errors.JWKSTimeout) return 'the JWKS did not answer in time';
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return 'malformed token';
  if (error instanceof errors.JOSEError) return `refused (${error.code})`;
  return `the engine's keys could not be read (${error instanceof Error ? error.message : String(error)})`;
}

const isThreePartToken = (token: string) => {
  const parts = token.split('.');
  return parts.length === 3 && parts.every((part) => part.length > 0);
};

/**
 * Verifies JWTs the F-engine issues for remote-engine mode: signature with the configured key,
 * issuer, audience, a required expiry, then the claims Pagewright needs (sub, email, names).
 */
export function createEngineTokenVerifier(config: ApiConfig) {
  const keySetting = engineKeySetting(config);

  return {
    async verify(token: string): Promise<VerifiedEngineToken> {
      if (!keySetting) throw new EngineTokenRefused('remote-engine sign-in is not configured');
      if (!isThreePartToken(token)) throw new EngineTokenRefused('not a three-part token');
      const issuer = config.FENGINE_JWT_ISSUER ?? '';
      let payload: unknown;
      try {
        const key = await keySetting.key();
        const options = {
          issuer,
          audience: config.FENGINE_JWT_AUDIENCE ?? '',
          algorithms: keySetting.algorithms,
          clockTolerance: ENGINE_TOKEN_CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['exp', 'sub', 'email'],
        };
        payload = (
          typeof key === 'function'
            ? await jwtVerify(token, key, options)
            : await jwtVerify(token, key, options)
        ).payload;
      } catch (error) {
        throw new EngineTokenRefused(refusalReason(error));
      }
      const claims = engineTokenClaimsSchema.safeParse(payload);
      if (!claims.success)
        throw new EngineTokenRefused(
          `invalid claims: ${[...new Set(claims.error.issues.map((issue) => issue.path.join('.')))].join(', ')}`,
        );
      return { issuer, claims: claims.data };
    },
  };
}
export type EngineTokenVerifier = ReturnType<typeof createEngineTokenVerifier>;
