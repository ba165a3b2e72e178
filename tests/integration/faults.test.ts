import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createPrismaClient, type Prisma } from '@pagewright/db';
import {
  HEALTH_REASONS,
  MESSAGES,
  RUN_MESSAGES,
  WORKER_STOPPED_ERROR_CODE,
  type HealthResponse,
  type RunDetail,
} from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createConfirmedUser } from '../support/accounts.js';
import { fromRoot } from '../support/paths.js';
import { freePort, waitFor } from '../support/ports.js';
import { startStack, type TestStack } from '../support/stack.js';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('executing an extractor whose draft was never saved (issue 10, faults 4)', () => {
  const apiUrl = inject('apiUrl');
  const db = createPrismaClient(inject('databaseUrl'));
  afterAll(() => db.$disconnect());

  it('is refused with 409 and a message saying to save it first, and starts no run', async () => {
    const user = await createConfirmedUser(apiUrl, inject('mailUrl'), 'faults-unsaved');
    // Creating an item opens its builder: a draft exists, but nothing is saved.
    const created = await request(apiUrl)
      .post('/api/extractor/start')
      .set(bearer(user.accessToken))
      .send({ name: 'Never saved', description: 'draft only' })
      .expect(201);
    const extractorId = (created.body as { id: string }).id;

    const refused = await request(apiUrl)
      .get(`/api/extractor/execute/${extractorId}`)
      .set(bearer(user.accessToken))
      .expect(409);
    expect(refused.body).toEqual({ message: MESSAGES['extractor.execute.no.actions'], code: 'CONFLICT' });
    expect(await db.run.count({ where: { extractorId } })).toBe(0);
    const extractor = await db.extractor.findUniqueOrThrow({ where: { id: extractorId } });
    expect(extractor.status).toBeNull();
  });
});

/**
 * A stack of its own, on a Redis of its own, whose killed worker is not replaced: the product as
 * it stands when a worker dies and nothing restarts it, then when Redis goes away. The shared
 * Redis (6379) and the suite's stack are never touched.
 */
describe('a killed worker, then a Redis gone, on a stack of their own (issue 10, faults 1 and 2)', () => {
  let redisServer: ChildProcess | undefined;
  let stack: TestStack | undefined;
  let db: ReturnType<typeof createPrismaClient>;
  let site: FixtureSite;
  let user: { id: string; username: string; password: string; accessToken: string };
  const api = () => request(stack!.apiUrl);
  const as = () => bearer(user.accessToken);

  let redisPort: number;
  const spawnRedis = (port: number) =>
    spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );

  beforeAll(async () => {
    redisPort = await freePort();
    redisServer = spawnRedis(redisPort);
    await waitFor(async () => {
      const probe = new Redis(redisPort, '127.0.0.1', { lazyConnect: true, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        return await probe.ping();
      } finally {
        probe.disconnect();
      }
    }, 'the private redis-server');
    stack = await startStack({
      useBuild: process.env.PW_TEST_USE_BUILD === '1',
      env: { REDIS_URL: `redis://127.0.0.1:${redisPort}` },
      replaceKilledWorker: false,
    });
    db = createPrismaClient(stack.databaseUrl);
    site = await startFixtureSite();
    const account = await createConfirmedUser(stack.apiUrl, stack.mailUrl, 'faults-private');
    const row = await db.user.findUniqueOrThrow({ where: { email: account.username.toLowerCase() } });
    user = { id: row.id, ...account };
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    redisServer?.kill('SIGKILL');
    await site?.close();
    await db?.$disconnect();
  });

  async function insertExtractor(
    name: string,
    actions: Omit<Prisma.ExtractorActionCreateManyInput, 'extractorId'>[],
  ) {
    const extractor = await db.extractor.create({
      data: { userId: user.id, name, description: name, extractorType: 'EXTRACTOR' },
    });
    await db.extractorAction.createMany({
      data: actions.map((action) => ({ ...action, extractorId: extractor.id })),
    });
    return extractor.id;
  }

  async function readRun(runId: string): Promise<RunDetail> {
    return (await api().get(`/api/extractor/run/${runId}`).set(as()).expect(200)).body as RunDetail;
  }

  async function health(): Promise<{ statusCode: number; body: HealthResponse }> {
    const answer = await api().get('/api/health');
    return { statusCode: answer.status, body: answer.body as HealthResponse };
  }

  it('reports the live worker in /api/health', async () => {
    expect(await health()).toMatchObject({
      statusCode: 200,
      body: { status: 'ok', checks: { database: 'ok', redis: 'ok', workers: 'ok' }, workers: 1, reasons: [] },
    });
  });

  it('ends ERROR within 60 s the run of a killed worker while no worker runs; the extractor executes again, waiting for a worker', async () => {
    const extractorId = await insertExtractor('Long wait', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
      { sequence: 20, type: 'WAIT', options: { number: 60 } },
      { sequence: 30, type: 'GET_TEXT', selectorValue: '#login-title' },
    ]);
    const started = await api().get(`/api/extractor/execute/${extractorId}`).set(as()).expect(200);
    expect(started.body).toEqual({ runId: expect.any(String), status: 'EXECUTING', waitingForWorker: false });
    const runId = (started.body as { runId: string }).runId;
    // NAVIGATE stored: the worker is inside the 60 s WAIT.
    await expect.poll(async () => (await readRun(runId)).steps.length, { timeout: 30_000 }).toBe(1);

    const killedAt = Date.now();
    stack!.worker.child.kill('SIGKILL');

    // Health says at once that no worker runs, and stays 200: the API itself still serves.
    await expect.poll(health, { timeout: 5_000 }).toMatchObject({
      statusCode: 200,
      body: {
        status: 'degraded',
        checks: { database: 'ok', redis: 'ok', workers: 'down' },
        workers: 0,
        reasons: [HEALTH_REASONS.noWorker],
      },
    });

    await expect
      .poll(async () => (await readRun(runId)).status, { timeout: 60_000, interval: 500 })
      .toBe('ERROR');
    const elapsedMs = Date.now() - killedAt;
    expect(elapsedMs).toBeLessThan(60_000);
    expect(await readRun(runId)).toMatchObject({
      status: 'ERROR',
      errorCode: WORKER_STOPPED_ERROR_CODE,
      errorMessage: RUN_MESSAGES.workerStopped,
      waitingForWorker: false,
    });
    const extractor = await db.extractor.findUniqueOrThrow({
      where: { id: extractorId },
      include: { errorMessages: true },
    });
    expect(extractor.status).toBe('ERROR');
    expect(extractor.errorMessages.map((e) => e.message)).toEqual([RUN_MESSAGES.workerStopped]);
    process.stdout.write(`faults 1: run of a killed worker ended ERROR ${elapsedMs} ms after the kill\n`);

    // No 409 "already executing": the run is queued, and the caller is told it waits for a worker.
    const again = await api().get(`/api/extractor/execute/${extractorId}`).set(as()).expect(200);
    expect(again.body).toEqual({ runId: expect.any(String), status: 'EXECUTING', waitingForWorker: true });
    expect(await readRun((again.body as { runId: string }).runId)).toMatchObject({
      status: 'EXECUTING',
      waitingForWorker: true,
    });
  }, 120_000);

  it('answers sign-in, builder start and execute 503 within 2 s once Redis is gone, leaving no run behind', async () => {
    const extractorId = await insertExtractor('Quick read', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
      { sequence: 20, type: 'GET_TEXT', selectorValue: '#login-title' },
    ]);
    redisServer!.kill('SIGKILL');
    await new Promise((resolve) => redisServer!.once('exit', resolve));
    const unavailable = { message: MESSAGES['error.service.unavailable'], code: 'SERVICE_UNAVAILABLE' };

    const timed = async (send: () => request.Test) => {
      const startedAt = Date.now();
      const answer = await send();
      return { status: answer.status, body: answer.body as unknown, ms: Date.now() - startedAt };
    };
    const signIn = await timed(() =>
      api().post('/api/auth').send({ username: user.username, password: user.password }),
    );
    const builderStart = await timed(() =>
      api().post('/api/extractor/start').set(as()).send({ name: 'While Redis is down', description: 'x' }),
    );
    const execute = await timed(() => api().get(`/api/extractor/execute/${extractorId}`).set(as()));
    process.stdout.write(
      `faults 2: with Redis down, sign-in ${signIn.ms} ms, builder start ${builderStart.ms} ms, execute ${execute.ms} ms\n`,
    );

    expect(signIn).toMatchObject({ status: 503, body: unavailable });
    expect(builderStart).toMatchObject({ status: 503, body: unavailable });
    expect(execute).toMatchObject({
      status: 503,
      body: { message: RUN_MESSAGES.queueUnavailable, code: 'SERVICE_UNAVAILABLE' },
    });
    for (const answer of [signIn, builderStart, execute]) expect(answer.ms).toBeLessThan(2_000);
    // Refused, not queued for later: no run, and the extractor keeps the status it had.
    expect(await db.run.count({ where: { extractorId } })).toBe(0);
    expect((await db.extractor.findUniqueOrThrow({ where: { id: extractorId } })).status).toBeNull();
    expect(await health()).toMatchObject({
      statusCode: 503,
      body: { status: 'degraded', checks: { redis: 'down' }, reasons: [HEALTH_REASONS.redis] },
    });

    // Failing fast does not mean staying down: Redis back on its port, sign-in works again.
    redisServer = spawnRedis(redisPort);
    await expect
      .poll(
        async () =>
          (await api().post('/api/auth').send({ username: user.username, password: user.password })).status,
        { timeout: 20_000, interval: 250 },
      )
      .toBe(200);
  }, 60_000);
});

interface SupervisorLine {
  level: number;
  time: number;
  msg: string;
  childPid?: number;
  exitCode?: number | null;
  signal?: string | null;
  restartInMs?: number;
}

/** scripts/supervise.mjs over `child` (a Node program), with its log lines as they come. */
function supervise(child: string, env: Record<string, string> = {}) {
  const supervisor = spawn(
    process.execPath,
    [fromRoot('scripts/supervise.mjs'), 'demo', '--', process.execPath, '-e', child],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: SupervisorLine[] = [];
  let rest = '';
  supervisor.stdout.on('data', (chunk: Buffer) => {
    const text = rest + chunk.toString('utf8');
    const complete = text.split('\n');
    rest = complete.pop() ?? '';
    for (const line of complete)
      if (line.includes('"service":"supervisor"')) lines.push(JSON.parse(line) as SupervisorLine);
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    supervisor.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const restarts = () => lines.filter((line) => line.restartInMs !== undefined);
  return { supervisor, lines, restarts, exited };
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('scripts/supervise.mjs, which ./pagewright start runs the API and the worker under (issue 10, faults 1)', () => {
  it('restarts a child that exits non-zero after 1 s, then 2 s, then 4 s, logging each exit', async () => {
    const { supervisor, lines, restarts, exited } = supervise('process.exit(3)');
    // 1 s + 2 s of backoff and three Node start-ups, each of which a busy machine makes slower.
    await expect.poll(() => restarts().length, { timeout: 40_000 }).toBe(3);
    expect(restarts()).toMatchObject([
      { level: 50, exitCode: 3, signal: null, restartInMs: 1000 },
      { level: 50, exitCode: 3, signal: null, restartInMs: 2000 },
      { level: 50, exitCode: 3, signal: null, restartInMs: 4000 },
    ]);
    // The backoff is kept: each restart comes that long after the exit before it.
    const starts = lines.filter((line) => line.msg === 'restarted demo');
    expect(starts).toHaveLength(2);
    expect(starts[0]!.time - restarts()[0]!.time).toBeGreaterThanOrEqual(1000);
    expect(starts[1]!.time - restarts()[1]!.time).toBeGreaterThanOrEqual(2000);

    // Stopped while it waits to restart: it exits at once.
    supervisor.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('caps the backoff and starts it again at the first step once a child stayed up', async () => {
    const counter = path.join(mkdtempSync(path.join(os.tmpdir(), 'supervise-')), 'runs');
    writeFileSync(counter, '0');
    // Runs 1-4 exit at once; run 5 stays up past SUPERVISE_STABLE_MS before it fails. "At once"
    // includes Node's start-up, over a second on a busy machine: the stable mark is 4 s.
    const child = `
      const fs = require('node:fs');
      const run = Number(fs.readFileSync(${JSON.stringify(counter)}, 'utf8')) + 1;
      fs.writeFileSync(${JSON.stringify(counter)}, String(run));
      setTimeout(() => process.exit(1), run === 5 ? 5000 : 0);
    `;
    const { supervisor, restarts, exited } = supervise(child, {
      SUPERVISE_BACKOFF_MS: '100',
      SUPERVISE_MAX_BACKOFF_MS: '400',
      SUPERVISE_STABLE_MS: '4000',
    });
    await expect.poll(() => restarts().length, { timeout: 45_000 }).toBeGreaterThanOrEqual(5);
    expect(
      restarts()
        .slice(0, 5)
        .map((line) => line.restartInMs),
    ).toEqual([100, 200, 400, 400, 100]);
    supervisor.kill('SIGTERM');
    expect((await exited).code).toBe(0);
  }, 60_000);

  it('restarts a killed child, and on SIGTERM stops the child and itself', async () => {
    const { supervisor, lines, restarts, exited } = supervise('setInterval(() => undefined, 1000)');
    const started = () => lines.filter((line) => line.childPid !== undefined && line.msg.includes('started'));
    await expect.poll(() => started().length, { timeout: 10_000 }).toBe(1);
    process.kill(started()[0]!.childPid!, 'SIGKILL');
    await expect.poll(() => restarts().length, { timeout: 10_000 }).toBe(1);
    expect(restarts()[0]).toMatchObject({ exitCode: null, signal: 'SIGKILL', restartInMs: 1000 });
    await expect.poll(() => started().length, { timeout: 10_000 }).toBe(2);
    const second = started()[1]!.childPid!;
    expect(isAlive(second)).toBe(true);

    supervisor.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(isAlive(second)).toBe(false);
    expect(lines.at(-1)?.msg).toBe('demo killed by SIGTERM after SIGTERM; supervisor stopping');
  }, 30_000);
});
