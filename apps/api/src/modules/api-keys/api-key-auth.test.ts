import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, hashToken } from '@pagewright/db';
import { createTestDatabase, dropTestDatabase } from '@pagewright/db/test-support';
import { MESSAGES, type ApiKeyScope } from '@pagewright/shared';
import { apiKeyAuthPlugin, createApiKeyRateLimiter, scopeAllows } from '../../plugins/api-key-auth.js';
import { errorsPlugin } from '../../plugins/errors.js';
import { createApiKeyRepository } from './api-keys.repository.js';
import { newApiKey } from './api-keys.service.js';

/**
 * The bearer check of /api/v1 (plugins/api-key-auth.ts) over this module's key store, wired as
 * app.ts wires them (here, as plugins import no module). Against this machine's PostgreSQL and
 * Redis, in a database and under a key prefix of their own.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let db: ReturnType<typeof createPrismaClient>;
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
const keyPrefix = `pagewright-unit:api-keys:${randomUUID()}:`;
const PER_MINUTE = 3;
let app: FastifyInstance;
let userId: string;

async function keyOf(scope: ApiKeyScope): Promise<string> {
  const key = newApiKey();
  await db.apiKey.create({
    data: { userId, name: scope, prefix: key.slice(0, 12), keyHash: hashToken(key), scope },
  });
  return key;
}

const call = (url: string, key: string) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

beforeAll(async () => {
  database = await createTestDatabase('pagewright_unit');
  db = createPrismaClient(database.url);
  const user = await db.user.create({
    data: {
      email: `api-key-unit-${randomUUID()}@example.com`,
      firstName: 'Key',
      lastName: 'Test',
      passwordHash: 'not-a-hash',
      passwordChangedAt: new Date(),
    },
  });
  userId = user.id;
  app = Fastify();
  await app.register(errorsPlugin);
  await app.register(apiKeyAuthPlugin, {
    keys: createApiKeyRepository(db),
    limiter: createApiKeyRateLimiter({ redis, keyPrefix, perMinute: PER_MINUTE }),
  });
  app.get('/read', { preHandler: app.requireApiKey('READ') }, (request) => request.apiKeyUser);
  app.get('/run', { preHandler: app.requireApiKey('RUN') }, (request) => request.apiKeyUser);
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  await db?.$disconnect();
  if (database) await dropTestDatabase(database.name);
});

describe('requireApiKey', () => {
  it('lets RUN keys do what READ keys do, not the other way round', () => {
    expect(scopeAllows('RUN', 'READ')).toBe(true);
    expect(scopeAllows('RUN', 'RUN')).toBe(true);
    expect(scopeAllows('READ', 'READ')).toBe(true);
    expect(scopeAllows('READ', 'RUN')).toBe(false);
  });

  it('refuses a READ key on a RUN route with 403, and sets the caller for a RUN key', async () => {
    const reader = await keyOf('READ');
    const refused = await call('/run', reader);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: MESSAGES['apikey.scope.run'], code: 'FORBIDDEN' });
    expect((await call('/read', reader)).statusCode).toBe(200);

    const runner = await keyOf('RUN');
    const allowed = await call('/run', runner);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toMatchObject({ userId, scope: 'RUN' });
  });

  it("refuses the keys of a disabled account with 403, as the account's sign-in is", async () => {
    const key = await keyOf('READ');
    await db.user.update({ where: { id: userId }, data: { enabled: false } });
    try {
      const refused = await call('/read', key);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: MESSAGES['login.error.disabled'], code: 'USER_DISABLED' });
    } finally {
      await db.user.update({ where: { id: userId }, data: { enabled: true } });
    }
  });

  it('counts calls per key in the minute and answers 429 with Retry-After past the limit', async () => {
    const key = await keyOf('READ');
    for (let index = 0; index < PER_MINUTE; index += 1) {
      const response = await call('/read', key);
      // A minute that turns mid-test starts a new window: the next call is the first of it.
      if (response.statusCode === 429) return;
      expect(response.statusCode).toBe(200);
    }
    const limited = await call('/read', key);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.json<{ code: string }>().code).toBe('RATE_LIMITED');
  });

  it('tells the seconds left in the window', async () => {
    const limiter = createApiKeyRateLimiter({ redis, keyPrefix, perMinute: 1 });
    const keyId = randomUUID();
    const windowStart = Math.floor(Date.now() / 60_000) * 60_000;
    expect(await limiter.retryAfterSeconds(keyId, windowStart + 15_000)).toBeNull();
    expect(await limiter.retryAfterSeconds(keyId, windowStart + 15_000)).toBe(45);
    expect(await limiter.retryAfterSeconds(keyId, windowStart + 60_000)).toBeNull();
  });
});
