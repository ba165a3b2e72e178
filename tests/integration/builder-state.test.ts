import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createPrismaClient } from '@pagewright/db';
import { type LiveImageResponse } from '@pagewright/shared';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { fromRoot } from '../support/paths.js';

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
