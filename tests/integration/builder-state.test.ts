import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createPrismaClient } from '@pagewright/db';
import { BUILDER_MESSAGES, type AddActionInput, type LiveImageResponse } from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { fromRoot } from '../support/paths.js';
import { startExtractorBuilder } from '../support/builder-api.js';
import { keysWithoutExpiry } from '../support/redis-keys.js';
import { currentWorkerPid, startFileStack } from '../support/stack.js';

/**
 * The builder's own state under concurrency and faults (issue 10, "The builder's own state"):
 * one live page per builder, bounded connections, locks, drafts that no longer parse, creating
 * an item and opening its builder as one step.
 */

// Tests here kill the worker and count its connections: a stack of this file's own.
const stack = await startFileStack();
const apiUrl = stack.apiUrl;
const mailUrl = stack.mailUrl;
const redisKeyPrefix = stack.redisKeyPrefix;
const db = createPrismaClient(stack.databaseUrl);
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const api = () => request(apiUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const EXTRACTOR = { extractorType: 'EXTRACTOR' } as const;

const signUp = (label: string): Promise<SignedInUser> => createSignedInUser(db, apiUrl, mailUrl, label);

const startBuilder = (user: SignedInUser, name: string): Promise<string> =>
  startExtractorBuilder(apiUrl, user.token, name);

async function added(user: SignedInUser, body: AddActionInput): Promise<number> {
  const answer = await api().post('/api/extractor/').query(EXTRACTOR).set(bearer(user.token)).send(body);
  expect(answer.status, `${body.type}: ${JSON.stringify(answer.body)}`).toBe(200);
  return (answer.body as { action: { sequence: number } }).action.sequence;
}

/** Where the stack's API and workers log. */
const logDirectory = () => fromRoot('.pagewright', process.env.PW_TEST_LOG_DIRECTORY ?? 'test-logs');

/** Lines the stack's workers logged with this message. */
function workerLogLines(message: string): Record<string, unknown>[] {
  const logDir = logDirectory();
  return readdirSync(logDir)
    .filter((name) => name === 'worker.log' || name.startsWith('worker-'))
    .flatMap((name) => readFileSync(path.join(logDir, name), 'utf8').split('\n'))
    .filter((line) => line.includes(`"msg":"${message}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Every live session the stack's workers have opened, from their logs ("live session opened"). */
function openedSessionIds(): string[] {
  const logDir = logDirectory();
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

let site: FixtureSite;

beforeAll(async () => {
  expect(redisKeyPrefix).toMatch(/^pagewright-test:/u);
  site = await startFixtureSite();
});

afterAll(async () => {
  await site?.close();
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
    // The open queue's channel and the current worker's, plus any of a worker an earlier test of
    // this file killed that has not idled out yet: restarts must not add to it.
    const channelsAtStart = (await sessionChannelConnections()).length;
    expect(channelsAtStart).toBeGreaterThanOrEqual(2);

    for (let restart = 1; restart <= 3; restart += 1) {
      process.kill(await currentWorkerPid(), 'SIGKILL');
      // The page was on the killed worker: 409 SESSION_LOST once, then a page on the replacement.
      await expect.poll(async () => (await areas()).status, { timeout: 120_000, interval: 500 }).toBe(200);
      // The replacement's channel is new; the dead worker's is closed (else one more per restart).
      await expect
        .poll(async () => (await sessionChannelConnections()).length, { timeout: 15_000 })
        .toBeLessThanOrEqual(channelsAtStart);
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

describe('the builder lock during a validation', () => {
  it('stops a validation whose request went away, and frees the builder within seconds', async () => {
    const user = await signUp('state-validate-abort');
    const extractorId = await startBuilder(user, 'Abandoned validation');
    await added(user, { type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` });
    // A minute-long WAIT, set by a change (changes are not executed on the page).
    const wait = await added(user, { type: 'WAIT', textValue: '0' });
    await api()
      .post('/api/extractor/action')
      .query(EXTRACTOR)
      .set(bearer(user.token))
      .send({ sequence: wait, textValue: '60' })
      .expect(200);

    const client = new AbortController();
    const validation = await fetch(`${apiUrl}/api/extractor/validate?extractorType=EXTRACTOR`, {
      headers: bearer(user.token),
      signal: client.signal,
    });
    expect(validation.status).toBe(200);
    // Read the progress lines until the WAIT starts, then go away (a closed tab).
    const reader = validation.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('|WAIT')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the validation ended before its WAIT: ${text}`);
      text += value;
    }
    client.abort();
    const abortedAt = Date.now();

    // A call that needs the builder's lock gets it (it waits up to 10 s for it, else 409).
    const change = await api()
      .post('/api/extractor/action')
      .query(EXTRACTOR)
      .set(bearer(user.token))
      .send({ sequence: wait, textValue: '1' });
    const freedInMs = Date.now() - abortedAt;
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    expect(freedInMs).toBeLessThan(8_000);

    // The validation run says it was stopped, and its worker was told to stop it.
    const run = await db.run.findFirst({
      where: { extractorId, trigger: 'VALIDATION' },
      orderBy: { createdAt: 'desc' },
    });
    expect(run).toMatchObject({ status: 'STOPPED', errorMessage: BUILDER_MESSAGES.validationCancelled });
    await expect.poll(() => workerLogLines('validation stopped').length).toBeGreaterThan(0);
    console.info(`builder lock freed ${freedInMs} ms after the validation's request closed`);
  }, 120_000);
});

describe('a stored draft that no longer reads', () => {
  it('is set aside and refused with a message, not taken for "no builder"', async () => {
    const user = await signUp('state-unreadable');
    const extractorId = await startBuilder(user, 'Unreadable draft');
    // A draft of a shape this version does not know (as after a deploy), with a secret in it,
    // stored the way drafts were before the record became a hash.
    const key = `${redisKeyPrefix}builder:${user.id}:EXTRACTOR`;
    const raw = JSON.stringify({
      extractorId,
      extractorType: 'EXTRACTOR',
      steps: [{ kind: 'navigate', url: 'https://example.com', password: 'SECRET-CANARY' }],
      openedAt: new Date().toISOString(),
    });
    await redis.del(key);
    await redis.set(key, raw, 'EX', 3600);

    const refused = await api().get('/api/extractor/current').query(EXTRACTOR).set(bearer(user.token));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CONFLICT', message: BUILDER_MESSAGES.draftUnreadable });
    const quarantineKey = `${redisKeyPrefix}builder-quarantine:${user.id}:EXTRACTOR`;
    expect(await redis.get(quarantineKey)).toBe(raw);
    expect(await redis.ttl(quarantineKey)).toBeGreaterThan(6 * 24 * 3600);
    // The API log names the builder, not what its draft holds.
    const logged = () =>
      readFileSync(path.join(logDirectory(), 'api.log'), 'utf8')
        .split('\n')
        .filter((line) => line.includes('a stored builder draft does not read'));
    await expect.poll(() => logged().length).toBe(1);
    const [line] = logged();
    expect(line).toContain(user.id);
    expect(line).toContain(extractorId);
    expect(line).not.toContain('SECRET-CANARY');

    // The item itself is intact: opening it again starts from its saved flow.
    await api().get(`/api/extractor/edit/${extractorId}`).set(bearer(user.token)).expect(200);
    await api().get('/api/extractor/current').query(EXTRACTOR).set(bearer(user.token)).expect(200);
  });
});

describe('creating an item and opening its builder', () => {
  it('is one step: an item whose builder cannot open is not left behind', async () => {
    const user = await signUp('state-start');
    // Another request holds the caller's builder past the 10 s an opening waits for it.
    const lockKey = `${redisKeyPrefix}builder-lock:${user.id}:EXTRACTOR`;
    await redis.set(lockKey, 'another-request', 'PX', 30_000);
    const start = () =>
      api()
        .post('/api/extractor/start')
        .set(bearer(user.token))
        .send({ name: 'Half started', description: 'never opened', extractorType: 'EXTRACTOR' });

    const refused = await start();
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CONFLICT', message: BUILDER_MESSAGES.busy });
    expect(await db.extractor.count({ where: { userId: user.id } })).toBe(0);

    // Once the builder is free the same name is free too.
    await redis.del(lockKey);
    const started = await start();
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(await db.extractor.count({ where: { userId: user.id } })).toBe(1);
  });
});
