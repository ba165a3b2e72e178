import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createPrismaClient } from '@pagewright/db';
import { type LiveImageResponse } from '@pagewright/shared';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { fromRoot } from '../support/paths.js';
import { keysWithoutExpiry } from '../support/redis-keys.js';
import { currentWorkerPid } from '../support/stack.js';

/**
 * The builder's own state under concurrency and faults (issue 10, "The builder's own state"):
 * one live page per builder, bounded connections, locks, drafts that no longer parse, creating
 * an item and opening its builder as one step.
 */

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const redisKeyPrefix = inject('redisKeyPrefix');
const db = createPrismaClient(inject('databaseUrl'));
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const api = () => request(apiUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const EXTRACTOR = { extractorType: 'EXTRACTOR' } as const;

const signUp = (label: string): Promise<SignedInUser> => createSignedInUser(db, apiUrl, mailUrl, label);

async function startBuilder(user: SignedInUser, name: string): Promise<string> {
  const created = await api()
    .post('/api/extractor/start')
    .set(bearer(user.token))
    .send({ name, description: `${name} flow`, extractorType: 'EXTRACTOR' })
    .expect(201);
  return (created.body as { id: string }).id;
}

/** Every live session the stack's workers have opened, from their logs ("live session opened"). */
function openedSessionIds(): string[] {
  const logDir = fromRoot('.pagewright', process.env.PW_TEST_LOG_DIRECTORY ?? 'test-logs');
  return readdirSync(logDir)
    .filter((name) => name === 'worker.log' || name.startsWith('worker-'))
    .flatMap((name) => readFileSync(path.join(logDir, name), 'utf8').split('\n'))
    .filter((line) => line.includes('"live session opened"'))
    .map((line) => (JSON.parse(line) as { sessionId: string }).sessionId);
}

/**
 * The API's channels to session queues, counted in Redis: BullMQ names the blocking connection of
 * each one's QueueEvents `<prefix>bull:<base64 queue name>:qe`, and only the API listens to them.
 */
async function sessionChannelConnections(): Promise<string[]> {
  const namePrefix = `${redisKeyPrefix}bull:`;
  return ((await redis.client('LIST')) as string)
    .split('\n')
    .map((line) => /(?:^| )name=(\S*)/u.exec(line)?.[1] ?? '')
    .filter((name) => name.startsWith(namePrefix) && name.endsWith(':qe'))
    .map((name) => Buffer.from(name.slice(namePrefix.length, -':qe'.length), 'base64').toString())
    .filter((queue) => queue.startsWith('pagewright-session-'));
}

beforeAll(() => {
  expect(redisKeyPrefix).toMatch(/^pagewright-test:/u);
});

afterAll(async () => {
  redis.disconnect();
  await db.$disconnect();
});

describe('one live page per builder', () => {
  it('opens one page when the screen asks for the page areas and its picture at once', async () => {
    const user = await signUp('state-live');
    for (let round = 1; round <= 4; round += 1) {
      await startBuilder(user, `Race ${round}`);
      const before = new Set(openedSessionIds());
      const [areas, picture] = await Promise.all([
        api().get('/api/extractor/normalized/current').query(EXTRACTOR).set(bearer(user.token)),
        api().get('/api/extractor/getImageNavigator').query(EXTRACTOR).set(bearer(user.token)),
      ]);
      expect(areas.status, JSON.stringify(areas.body)).toBe(200);
      expect(picture.status, JSON.stringify(picture.body)).toBe(200);
      const { sessionId } = picture.body as LiveImageResponse;
      // The builder keeps the page both calls used.
      const again = await api()
        .get('/api/extractor/getImageNavigator')
        .query(EXTRACTOR)
        .set(bearer(user.token))
        .expect(200);
      expect((again.body as LiveImageResponse).sessionId).toBe(sessionId);
      const opened = () => openedSessionIds().filter((id) => !before.has(id));
      await expect.poll(opened).toContain(sessionId);
      expect(opened(), `round ${round}`).toEqual([sessionId]);
    }
  });
});

describe('connections to workers', () => {
  it('closes the channel of a worker that died, so worker restarts do not pile up connections', async () => {
    const user = await signUp('state-restarts');
    await startBuilder(user, 'Restarts');
    const areas = () =>
      api().get('/api/extractor/normalized/current').query(EXTRACTOR).set(bearer(user.token));
    expect((await areas()).status).toBe(200);
    const firstWorkerChannels = await sessionChannelConnections();
    expect(firstWorkerChannels).toHaveLength(2);

    for (let restart = 1; restart <= 3; restart += 1) {
      process.kill(await currentWorkerPid(), 'SIGKILL');
      // The page was on the killed worker: 409 SESSION_LOST once, then a page on the replacement.
      await expect.poll(async () => (await areas()).status, { timeout: 120_000, interval: 500 }).toBe(200);
      // The open queue's channel and the replacement's: none left for the workers that died.
      await expect.poll(async () => (await sessionChannelConnections()).length, { timeout: 15_000 }).toBe(2);
    }
    // What the API wrote into the dead workers' queues lapses with them (the living worker gives
    // its own queue's new keys their lease on its next heartbeat).
    const lastingQueueKeys = async () =>
      (await keysWithoutExpiry(redis, redisKeyPrefix)).filter((key) =>
        key.startsWith('bull:pagewright-session-'),
      );
    await expect.poll(lastingQueueKeys, { timeout: 15_000 }).toEqual([]);
  }, 480_000);
});
