import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import request from 'supertest';
import WebSocket from 'ws';
import { createPrismaClient, type Prisma } from '@pagewright/db';
import {
  BUILDER_MESSAGES,
  RUN_MESSAGES,
  WORKER_STOPPED_ERROR_CODE,
  type HealthResponse,
  type LiveEvent,
  type RunDetail,
} from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import {
  OTHER_GOOD_PASSWORD,
  createConfirmedUser,
  createSignedInUser,
  type SignedInUser,
} from '../support/accounts.js';
import { waitForRun as waitForRunOf } from '../support/runs-api.js';
import { startExtractorBuilder } from '../support/builder-api.js';
import type { RunningProcess } from '../support/processes.js';
import { startStack, type RunningApi, type TestStack } from '../support/stack.js';

/**
 * Several processes on one Redis and one Postgres (issue 11): two API processes and two workers of
 * a stack of their own (the suite's stack is never touched; its killed worker is not replaced).
 * Runs spread over both workers, a builder session driven through one API streams its frames to a
 * socket on the other, and a worker killed mid-run loses its runs and its live page while the
 * other one keeps serving.
 */

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const EXTRACTOR = { extractorType: 'EXTRACTOR' } as const;
/** Two at a time per worker, whatever the default: the kill test fills both workers exactly. */
const RUN_CONCURRENCY = 2;

interface WorkerProcess {
  name: string;
  process: RunningProcess;
  /** The id its session queue is named after (`pagewright-session-{workerId}`). */
  workerId: string;
}

let stack: TestStack;
let api1: string;
let api2: RunningApi;
let workers: WorkerProcess[];
let db: ReturnType<typeof createPrismaClient>;
let site: FixtureSite;
let user: SignedInUser;
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

/** The JSON lines of a process's log (pino), skipping anything else. */
function logEntries(logFile: string): Record<string, unknown>[] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

/** The workers whose log says they started that run. */
function workersThatRan(runId: string): string[] {
  return workers
    .filter((worker) =>
      logEntries(worker.process.logFile).some((e) => e.msg === 'run started' && e.runId === runId),
    )
    .map((worker) => worker.name);
}

function describeWorker(name: string, running: RunningProcess): WorkerProcess {
  const ready = logEntries(running.logFile).find((e) => e.msg === 'worker ready');
  if (typeof ready?.workerId !== 'string') throw new Error(`no workerId in ${running.logFile}`);
  return { name, process: running, workerId: ready.workerId };
}

async function insertExtractor(name: string, waitSeconds: number): Promise<string> {
  const actions: Omit<Prisma.ExtractorActionCreateManyInput, 'extractorId'>[] = [
    { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
    { sequence: 20, type: 'WAIT', options: { number: waitSeconds } },
    { sequence: 30, type: 'GET_TEXT', label: 'Title', selectorValue: '#login-title' },
  ];
  const extractor = await db.extractor.create({
    data: { userId: user.id, name, description: name, extractorType: 'EXTRACTOR' },
  });
  await db.extractorAction.createMany({
    data: actions.map((action) => ({ ...action, extractorId: extractor.id })),
  });
  return extractor.id;
}

async function execute(apiUrl: string, extractorId: string): Promise<string> {
  const answer = await request(apiUrl)
    .get(`/api/extractor/execute/${extractorId}`)
    .set(bearer(user.token))
    .expect(200);
  return (answer.body as { runId: string }).runId;
}

const waitForRun = (
  apiUrl: string,
  runId: string,
  until?: (run: RunDetail) => boolean,
  timeoutMs?: number,
): Promise<RunDetail> => waitForRunOf(apiUrl, user.token, runId, until, timeoutMs);

async function screenshot(apiUrl: string, runId: string, sequence: number): Promise<Buffer> {
  const answer = await request(apiUrl)
    .get(`/api/extractor/run/${runId}/step/${sequence}/screenshot`)
    .query({ kind: 'page' })
    .set(bearer(user.token))
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done(null, Buffer.concat(chunks)));
    })
    .expect(200)
    .expect('content-type', 'image/jpeg');
  return answer.body as Buffer;
}

/** A live-events socket on one API process, collecting what arrives. */
function connect(apiUrl: string) {
  const socket = new WebSocket(
    `${apiUrl.replace(/^http/, 'ws')}/api/ws?accessToken=${encodeURIComponent(user.token)}`,
  );
  const received: LiveEvent[] = [];
  socket.on('message', (data) => received.push(JSON.parse(data.toString()) as LiveEvent));
  const waitFor = <T extends LiveEvent>(
    predicate: (event: LiveEvent) => event is T,
    timeoutMs = 15_000,
  ): Promise<T> =>
    vi.waitFor(
      () => {
        const found = received.find(predicate);
        if (!found)
          throw new Error(`no matching event; got ${received.map((event) => event.type).join(', ')}`);
        return found;
      },
      { timeout: timeoutMs, interval: 25 },
    );
  return { socket, received, waitFor };
}

async function health(apiUrl: string): Promise<HealthResponse> {
  return (await request(apiUrl).get('/api/health')).body as HealthResponse;
}

beforeAll(async () => {
  site = await startFixtureSite();
  stack = await startStack({
    useBuild: process.env.PW_TEST_USE_BUILD === '1',
    replaceKilledWorker: false,
    env: { WORKER_RUN_CONCURRENCY: String(RUN_CONCURRENCY) },
  });
  api1 = stack.apiUrl;
  const [secondApi, secondWorker] = await Promise.all([stack.startApi(), stack.startWorker()]);
  api2 = secondApi;
  workers = [describeWorker('worker-1', stack.worker), describeWorker('worker-2', secondWorker)];
  db = createPrismaClient(stack.databaseUrl);
  user = await createSignedInUser(db, api1, stack.mailUrl, 'multi-process');
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await site?.close();
  await db?.$disconnect();
  redis.disconnect();
});

describe('two API processes and two workers on one Redis and one Postgres (issue 11)', () => {
  it('sees both workers from both API processes, and a token of one is good on the other', async () => {
    for (const apiUrl of [api1, api2.url]) expect(await health(apiUrl)).toMatchObject({ workers: 2 });
    await request(api2.url).get('/api/user/').set(bearer(user.token)).expect(200);
  });

  it('ends a session on both API processes at once, however warm their session caches (issue 27)', async () => {
    const account = await createConfirmedUser(api1, stack.mailUrl, 'multi-process-cache');
    const other = (
      await request(api2.url)
        .post('/api/auth')
        .send({ username: account.username, password: account.password })
        .expect(200)
    ).body as { accessToken: string; refreshToken: string };
    const currentUser = (apiUrl: string, token: string) =>
      request(apiUrl).get('/api/user/').set(bearer(token));
    const warm = async (token: string) => {
      for (let i = 0; i < 3; i++)
        for (const apiUrl of [api1, api2.url]) await currentUser(apiUrl, token).expect(200);
    };

    // Logout through API 1: API 2 refuses the token on the next request.
    await warm(account.accessToken);
    await request(api1)
      .post('/api/user/logout')
      .set(bearer(account.accessToken))
      .send({ refreshToken: account.refreshToken })
      .expect(200);
    await currentUser(api2.url, account.accessToken).expect(401);
    await currentUser(api1, account.accessToken).expect(401);

    // A password change through API 2 ends the other sessions on API 1 too.
    const third = (
      await request(api1)
        .post('/api/auth')
        .send({ username: account.username, password: account.password })
        .expect(200)
    ).body as { accessToken: string };
    await warm(other.accessToken);
    await warm(third.accessToken);
    await request(api2.url)
      .put('/api/user/password')
      .set(bearer(other.accessToken))
      .send({ password: OTHER_GOOD_PASSWORD })
      .expect(200);
    await currentUser(api1, third.accessToken).expect(401);
    await currentUser(api2.url, third.accessToken).expect(401);

    // An operator's SQL reaches both through the database's notification.
    await warm(other.accessToken);
    await db.user.update({ where: { email: account.username.toLowerCase() }, data: { enabled: false } });
    await currentUser(api1, other.accessToken).expect(403);
    await currentUser(api2.url, other.accessToken).expect(403);
  });

  it('spreads runs over both workers; every step picture reads the same through either API', async () => {
    const extractorIds = await Promise.all(
      Array.from({ length: 6 }, (_, index) => insertExtractor(`Spread ${index + 1}`, 2)),
    );
    // Half the executions go through each API process.
    const runIds = await Promise.all(
      extractorIds.map((id, index) => execute(index % 2 === 0 ? api1 : api2.url, id)),
    );
    const runs = await Promise.all(
      runIds.map((runId, index) => waitForRun(index % 2 === 0 ? api2.url : api1, runId)),
    );
    for (const run of runs) {
      expect(run.status, JSON.stringify(run)).toBe('SUCCESS');
      expect(run.steps.map((step) => step.hasPageScreenshot)).toEqual([true, true, true]);
    }

    const ranOn = runIds.map((runId) => workersThatRan(runId));
    for (const names of ranOn) expect(names).toHaveLength(1);
    const perWorker = workers.map((worker) => ranOn.filter(([name]) => name === worker.name).length);
    process.stdout.write(`multi-process: 6 runs spread ${perWorker.join(' + ')} over two workers\n`);
    expect(Math.min(...perWorker)).toBeGreaterThan(0);

    // Pictures a worker stored are served by any API process, byte for byte.
    for (const worker of workers) {
      const runId = runIds[ranOn.findIndex(([name]) => name === worker.name)]!;
      const [viaApi1, viaApi2] = await Promise.all([
        screenshot(api1, runId, 30),
        screenshot(api2.url, runId, 30),
      ]);
      expect(viaApi1.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      expect(viaApi1.equals(viaApi2)).toBe(true);
    }
  });

  it('drives a builder session through API 2 while its frames arrive on a socket of API 1', async () => {
    const live = connect(api1);
    await live.waitFor((event): event is Extract<LiveEvent, { type: 'ready' }> => event.type === 'ready');
    try {
      await startExtractorBuilder(api2.url, user.token, 'Across processes');
      await request(api2.url)
        .post('/api/extractor/')
        .query(EXTRACTOR)
        .set(bearer(user.token))
        .send({ type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` })
        .expect(200);

      const frame = await live.waitFor(
        (event): event is Extract<LiveEvent, { type: 'frame' }> => event.type === 'frame',
      );
      expect(frame.data.length).toBeGreaterThan(100);
      const builder = await redis.hgetall(`${stack.redisKeyPrefix}builder:${user.id}:EXTRACTOR`);
      expect(frame.sessionId).toBe(builder.liveSessionId);
      expect(workers.map((worker) => worker.workerId)).toContain(builder.liveWorkerId);

      // The next command, through API 1, reaches the same page on the same worker.
      const title = await request(api1)
        .post('/api/extractor/')
        .query(EXTRACTOR)
        .set(bearer(user.token))
        .send({ type: 'GET_TEXT', label: 'Title', target: { selectorValue: '#login-title' } })
        .expect(200);
      expect(title.body).toMatchObject({ value: { kind: 'text', value: 'Sign in' } });
    } finally {
      live.socket.close();
    }
  });

  it('ends the runs of a killed worker ERROR and its live page SESSION_LOST, while the other worker keeps serving', async () => {
    // The builder's page (previous test) is on this worker: it is the one killed.
    const { liveWorkerId } = await redis.hgetall(`${stack.redisKeyPrefix}builder:${user.id}:EXTRACTOR`);
    const doomed = workers.find((worker) => worker.workerId === liveWorkerId);
    const survivor = workers.find((worker) => worker !== doomed);
    if (!doomed || !survivor) throw new Error(`the builder page is on no known worker (${liveWorkerId})`);

    // Four long runs fill both workers exactly (two at a time each): two run on the doomed one.
    const extractorIds = await Promise.all(
      Array.from({ length: 2 * RUN_CONCURRENCY }, (_, index) => insertExtractor(`Long ${index + 1}`, 15)),
    );
    const runIds = await Promise.all(extractorIds.map((id) => execute(api1, id)));
    // NAVIGATE stored for each: all four are inside their WAIT.
    await Promise.all(
      runIds.map((runId) => waitForRun(api2.url, runId, (run) => run.steps.length >= 1, 30_000)),
    );
    const doomedRuns = runIds.filter((runId) => workersThatRan(runId)[0] === doomed.name);
    const survivingRuns = runIds.filter((runId) => workersThatRan(runId)[0] === survivor.name);
    expect([doomedRuns.length, survivingRuns.length]).toEqual([RUN_CONCURRENCY, RUN_CONCURRENCY]);

    const killedAt = Date.now();
    doomed.process.child.kill('SIGKILL');

    // The live page was on the dead worker: 409 SESSION_LOST once, then a fresh page elsewhere.
    const lost = await request(api2.url)
      .post('/api/extractor/normalized')
      .query(EXTRACTOR)
      .set(bearer(user.token));
    expect(lost.status, JSON.stringify(lost.body)).toBe(409);
    expect(lost.body).toEqual({ code: 'SESSION_LOST', message: BUILDER_MESSAGES.sessionLost });
    const lostInMs = Date.now() - killedAt;
    await request(api1)
      .post('/api/extractor/normalized')
      .query(EXTRACTOR)
      .set(bearer(user.token))
      .expect(200);
    const reopened = await redis.hgetall(`${stack.redisKeyPrefix}builder:${user.id}:EXTRACTOR`);
    expect(reopened.liveWorkerId).toBe(survivor.workerId);

    // Both API processes see one worker left.
    for (const apiUrl of [api1, api2.url])
      await expect.poll(async () => (await health(apiUrl)).workers, { timeout: 10_000 }).toBe(1);

    // The survivor finishes its own runs and takes a new one; the dead worker's runs end ERROR once.
    const freshRunId = await execute(api2.url, await insertExtractor('After the kill', 0));
    const [doomedEnded, survivingEnded, fresh] = await Promise.all([
      Promise.all(doomedRuns.map((runId) => waitForRun(api1, runId, undefined, 75_000))),
      Promise.all(survivingRuns.map((runId) => waitForRun(api1, runId))),
      waitForRun(api2.url, freshRunId),
    ]);
    const endedInMs = Date.now() - killedAt;
    for (const run of doomedEnded)
      expect(run).toMatchObject({
        status: 'ERROR',
        errorCode: WORKER_STOPPED_ERROR_CODE,
        errorMessage: RUN_MESSAGES.workerStopped,
      });
    for (const run of survivingEnded) expect(run.status, JSON.stringify(run)).toBe('SUCCESS');
    expect(fresh.status, JSON.stringify(fresh)).toBe('SUCCESS');
    expect(workersThatRan(freshRunId)).toEqual([survivor.name]);
    // Two API sweeps and the survivor's stalled check may all see a dead run: it ends once.
    const errors = await db.extractorErrorMessage.findMany({
      where: { runId: { in: doomedRuns } },
      select: { runId: true },
    });
    expect(errors.map((error) => error.runId).sort()).toEqual([...doomedRuns].sort());
    process.stdout.write(
      `multi-process: after the kill, SESSION_LOST in ${lostInMs} ms; dead runs ERROR within ${endedInMs} ms\n`,
    );
  }, 120_000);
});
