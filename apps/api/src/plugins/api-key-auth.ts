import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { hashToken } from '@pagewright/db';
import { API_KEY_PREFIX, MESSAGES, formatMessage, type ApiKeyScope } from '@pagewright/shared';
import { AppError } from '../lib/app-error.js';
import { bearerToken } from './auth.js';

/** The caller of a /api/v1 route: the key's owner, the key, and what the key may do. */
export interface ApiKeyCaller {
  readonly userId: string;
  readonly keyId: string;
  readonly scope: ApiKeyScope;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The preHandler of every /api/v1 route: `Authorization: Bearer pw_…` with a key of at least
     * this scope (RUN includes READ). Sets `request.apiKeyUser`.
     */
    requireApiKey: (scope: ApiKeyScope) => (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    apiKeyUser: ApiKeyCaller;
  }
}

/** lastUsedAt is written at most this often per key (a busy key would write on every call). */
const LAST_USED_EVERY_MS = 60_000;
const WINDOW_MS = 60_000;

/** Whether a key of `held` scope may call a route that needs `needed`. */
export function scopeAllows(held: ApiKeyScope, needed: ApiKeyScope): boolean {
  return needed === 'READ' || held === 'RUN';
}

/**
 * Calls per key per minute, in fixed windows on the clock's minutes (one INCR per call; the
 * window's key lapses with it). Answers the seconds to wait when over, else null.
 */
export function createApiKeyRateLimiter(deps: { redis: Redis; keyPrefix: string; perMinute: number }) {
  const { redis, keyPrefix, perMinute } = deps;
  return {
    async retryAfterSeconds(keyId: string, now = Date.now()): Promise<number | null> {
      const window = Math.floor(now / WINDOW_MS);
      const counter = `${keyPrefix}apikey:rate:${keyId}:${window}`;
      const [[, count] = [null, 0]] =
        (await redis.multi().incr(counter).pexpire(counter, WINDOW_MS).exec()) ?? [];
      if (Number(count) <= perMinute) return null;
      return Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    },
  };
}
export type ApiKeyRateLimiter = ReturnType<typeof createApiKeyRateLimiter>;

/** A stored key as the bearer check reads it, with whether its owner may still sign in. */
interface StoredApiKey {
  id: string;
  userId: string;
  scope: ApiKeyScope;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  user: { enabled: boolean };
}

/**
 * Where the bearer check finds keys. The api-keys module's repository holds them; app.ts hands it
 * in, as plugins import no module.
 */
interface ApiKeyLookup {
  findByHash(keyHash: string): Promise<StoredApiKey | null>;
  touch(id: string, now: Date): Promise<unknown>;
}

interface ApiKeyAuthOptions {
  keys: ApiKeyLookup;
  limiter: ApiKeyRateLimiter;
}

/**
 * API-key authentication of the public API (issue 26). A key is looked up by its SHA-256 (one
 * indexed query per call); revoked, expired and unknown keys answer 401 each with its sentence, a
 * READ key on a RUN route 403, a key over its per-minute calls 429 with Retry-After. The session
 * auth (plugins/auth.ts) refuses these keys, so they open nothing outside /api/v1.
 */
export const apiKeyAuthPlugin = fp(async (app: FastifyInstance, { keys, limiter }: ApiKeyAuthOptions) => {
  async function callerOf(request: FastifyRequest): Promise<ApiKeyCaller> {
    const token = bearerToken(request);
    if (!token?.startsWith(API_KEY_PREFIX)) throw new AppError('UNAUTHORIZED', MESSAGES['apikey.missing']);
    const key = await keys.findByHash(hashToken(token));
    if (!key) throw new AppError('UNAUTHORIZED', MESSAGES['apikey.invalid']);
    if (key.revokedAt) throw new AppError('UNAUTHORIZED', MESSAGES['apikey.revoked']);
    const now = new Date();
    if (key.expiresAt && key.expiresAt <= now) throw new AppError('UNAUTHORIZED', MESSAGES['apikey.expired']);
    if (!key.user.enabled) throw new AppError('USER_DISABLED', MESSAGES['login.error.disabled']);
    if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_EVERY_MS)
      await keys.touch(key.id, now);
    return { userId: key.userId, keyId: key.id, scope: key.scope };
  }

  app.decorateRequest('apiKeyUser', null as unknown as ApiKeyCaller);
  app.decorate(
    'requireApiKey',
    (scope: ApiKeyScope) => async (request: FastifyRequest, reply: FastifyReply) => {
      const caller = await callerOf(request);
      if (!scopeAllows(caller.scope, scope)) throw new AppError('FORBIDDEN', MESSAGES['apikey.scope.run']);
      const retryAfter = await limiter.retryAfterSeconds(caller.keyId);
      if (retryAfter !== null) {
        reply.header('retry-after', String(retryAfter));
        throw new AppError('RATE_LIMITED', formatMessage('apikey.rate.limited', { seconds: retryAfter }));
      }
      request.apiKeyUser = caller;
    },
  );
});
