import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createPrismaClient, createSecretBox, type Prisma } from '@pagewright/db';
import { MESSAGES, RUN_MESSAGES, type RunDetail } from '@pagewright/shared';
import { FIXTURE_PASSWORD, startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { waitForRun as waitForRunOf } from '../support/runs-api.js';
import { fromRoot } from '../support/paths.js';
import { keysWithoutExpiry } from '../support/redis-keys.js';
import { STACK_WORKER_LOG, currentWorkerPid, startFileStack } from '../support/stack.js';

// Tests here kill the worker and read every Redis key: a stack of this file's own.
const stack = await startFileStack();
const apiUrl = stack.apiUrl;
const redisKeyPrefix = stack.redisKeyPrefix;
const mailUrl = stack.mailUrl;
const db = createPrismaClient(stack.databaseUrl);
const api = () => request(apiUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

const encryptionKey = process.env.PW_TEST_ENCRYPTION_KEY;
if (!encryptionKey) throw new Error('PW_TEST_ENCRYPTION_KEY is not set: start the stack first');
const secrets = createSecretBox(encryptionKey);

type ActionRow = Omit<Prisma.ExtractorActionCreateWithoutExtractorInput, 'id'> & { secret?: string };

type User = SignedInUser;

let site: FixtureSite;
let owner: User;
let stranger: User;

const signUp = (label: string): Promise<User> => createSignedInUser(db, apiUrl, mailUrl, label);

/** Arranges a saved extractor through Prisma (the builder calls that save flows come later). */
async function insertExtractor(user: User, name: string, actions: ActionRow[]): Promise<string> {
  const extractor = await db.extractor.create({
    data: { userId: user.id, name, description: name, extractorType: 'EXTRACTOR' },
  });
  for (const { secret, ...action } of actions) {
    const created = await db.extractorAction.create({
      data: { ...action, extractor: { connect: { id: extractor.id } } },
    });
    if (secret !== undefined) {
      // Sealed the way stored action secrets are: bound to the owner and the action row.
      const sealed = secrets.seal(secret, `user:${user.id}/action:${created.id}`);
      await db.extractorAction.update({
        where: { id: created.id },
        data: {
          secretCiphertext: new Uint8Array(sealed.ciphertext),
          secretIv: new Uint8Array(sealed.iv),
          secretAuthTag: new Uint8Array(sealed.authTag),
        },
      });
    }
  }
  return extractor.id;
}

async function execute(user: User, extractorId: string): Promise<string> {
  const answer = await api().get(`/api/extractor/execute/${extractorId}`).set(bearer(user.token)).expect(200);
  // Whether a worker is live here depends on the test before (a killed worker's replacement may
  // still be starting); faults.test.ts checks the flag itself.
  expect(answer.body).toEqual({
    runId: expect.any(String),
    status: 'EXECUTING',
    waitingForWorker: expect.any(Boolean),
  });
  return (answer.body as { runId: string }).runId;
}

const waitForRun = (
  user: User,
  runId: string,
  until?: (run: RunDetail) => boolean,
  timeoutMs?: number,
): Promise<RunDetail> => waitForRunOf(apiUrl, user.token, runId, until, timeoutMs);

function loginActions(
  page: string,
  selectors: { username: string; password: string; submit: string },
): ActionRow[] {
  return [
    { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/${page}` },
    {
      sequence: 20,
      type: 'TYPE_TEXT',
      selectorValue: selectors.username,
      fallbackLocators: [{ kind: 'testId', value: 'login-username' }],
      textValue: 'ops-user',
    },
    {
      sequence: 30,
      type: 'TYPE_PASSWORD',
      selectorValue: selectors.password,
      fallbackLocators: [{ kind: 'testId', value: 'login-password' }],
      secret: FIXTURE_PASSWORD,
    },
    {
      sequence: 40,
      type: 'CLICK',
      selectorValue: selectors.submit,
      fallbackLocators: [{ kind: 'testId', value: 'login-submit' }],
    },
    { sequence: 50, type: 'GET_TEXT', label: 'Welcome', selectorValue: '#welcome' },
  ];
}

/** A WebSocket endpoint that completes the handshake, on a loopback address of its own. */
async function startWebSocketEndpoint(host: string): Promise<{ port: number; close: () => void }> {
  const server = http.createServer((_request, response) => response.end('internal'));
  server.on('upgrade', (upgrade, socket) => {
    const accept = createHash('sha1')
      .update(`${String(upgrade.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64');
    socket.end(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

const loginIds = { username: '#username', password: '#password', submit: '#login-submit' };

beforeAll(async () => {
  site = await startFixtureSite();
  [owner, stranger] = await Promise.all([signUp('runs-owner'), signUp('runs-stranger')]);
});

afterAll(async () => {
  await site?.close();
  await db.$disconnect();
});

describe('running an extractor (GET /extractor/execute/:id) in the worker', () => {
  let loginAndTableRun: string;

  it('logs in, reads a paged typed table and keeps a PDF; every step can be inspected', async () => {
    const extractorId = await insertExtractor(owner, 'Statements', [
      ...loginActions('login.html', loginIds),
      { sequence: 60, type: 'NAVIGATE', textValue: `${site.url}/pages/table.html` },
      {
        sequence: 70,
        type: 'GET_TABLE',
        options: { table: { nextPageSelector: '#next-page', maxPages: 2 } },
        getTable: {
          create: {
            name: 'Statements',
            tableSelector: '#statements',
            rowSelector: '#statement-rows tr',
            columns: {
              create: [
                { sequence: 1, label: 'Name', selector: 'td:nth-child(1)', type: 'TEXT' },
                {
                  sequence: 2,
                  label: 'Amount',
                  selector: 'td:nth-child(2)',
                  type: 'NUMBER',
                  options: { numberMask: { beforePositive: '$', beforeNegative: '-' } },
                },
                {
                  sequence: 3,
                  label: 'Date',
                  selector: 'td:nth-child(3)',
                  type: 'DATETIME',
                  options: { dateMask: { mask: 'MM/dd/yyyy', gmt: 'Etc/GMT0' } },
                },
                { sequence: 4, label: 'Statement', selector: 'td:nth-child(4) a', type: 'FILE' },
              ],
            },
          },
        },
      },
      { sequence: 80, type: 'GET_FILE', selectorValue: '#statement-rows tr:first-child a' },
    ]);
    const runId = await execute(owner, extractorId);
    loginAndTableRun = runId;
    const run = await waitForRun(owner, runId);
    expect(run, JSON.stringify(run.steps.map((s) => s.errorMessage))).toMatchObject({
      status: 'SUCCESS',
      trigger: 'MANUAL',
      errorMessage: null,
    });
    expect(run.steps.map((s) => [s.sequence, s.actionType])).toEqual([
      [10, 'NAVIGATE'],
      [20, 'TYPE_TEXT'],
      [30, 'TYPE_PASSWORD'],
      [40, 'CLICK'],
      [50, 'GET_TEXT'],
      [60, 'NAVIGATE'],
      [70, 'GET_TABLE'],
      [80, 'GET_FILE'],
    ]);
    const step = (sequence: number) => run.steps.find((s) => s.sequence === sequence)!;
    expect(step(50)).toMatchObject({ label: 'Welcome', value: { kind: 'text', value: 'Welcome, ops-user' } });
    expect(step(50).pageUrl).toBe(`${site.url}/welcome`);

    const table = step(70).value;
    expect(table?.kind).toBe('table');
    if (table?.kind !== 'table') return;
    expect(table.columns).toEqual([
      { label: 'Name', type: 'TEXT' },
      { label: 'Amount', type: 'NUMBER' },
      { label: 'Date', type: 'DATETIME' },
      { label: 'Statement', type: 'FILE' },
    ]);
    expect(table.rows).toHaveLength(10);
    expect(table.rows[0]).toEqual([
      'Alice Martin',
      1234.5,
      '2025-03-14T00:00:00.000Z',
      `${site.url}/files/statement-1.pdf`,
    ]);
    expect(table.rows[1]?.slice(0, 3)).toEqual(['Bruno Costa', -20, '2025-03-15T00:00:00.000Z']);
    expect(table.rows[9]?.slice(0, 3)).toEqual(['Jonas Berg', 2222.22, '2025-04-05T00:00:00.000Z']);
    // Every FILE cell keeps its own file, across both pages of the table.
    expect(step(70).tableFiles).toEqual(
      Array.from({ length: 10 }, (_, row) => ({ row, column: 3, fileName: `statement-${row + 1}.pdf` })),
    );
    const cellFile = await api()
      .get(`/api/extractor/run/${runId}/step/70/file`)
      .query({ row: 9, column: 3 })
      .set(bearer(owner.token))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(cellFile.headers['content-disposition']).toContain('statement-10.pdf');
    expect((cellFile.body as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await api()
      .get(`/api/extractor/run/${runId}/step/70/file`)
      .query({ row: 9 })
      .set(bearer(owner.token))
      .expect(400);

    expect(step(80)).toMatchObject({
      fileName: 'statement-6.pdf',
      value: { kind: 'file', fileName: 'statement-6.pdf', mimeType: 'application/pdf' },
    });
    const file = await api()
      .get(`/api/extractor/run/${runId}/step/80/file`)
      .set(bearer(owner.token))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toContain('statement-6.pdf');
    expect((file.body as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    expect(run.steps.every((s) => s.hasPageScreenshot)).toBe(true);
    expect(step(20).hasElementScreenshot).toBe(true);
    for (const [sequence, kind] of [
      [10, 'page'],
      [20, 'element'],
    ] as const) {
      const shot = await api()
        .get(`/api/extractor/run/${runId}/step/${sequence}/screenshot`)
        .query({ kind })
        .set(bearer(owner.token))
        .expect(200);
      expect(shot.headers['content-type']).toBe('image/jpeg');
      expect([...(shot.body as Buffer).subarray(0, 2)]).toEqual([0xff, 0xd8]);
    }

    // The typed password is nowhere in what a run shows.
    expect(JSON.stringify(run)).not.toContain(FIXTURE_PASSWORD);
    const extractor = await db.extractor.findUniqueOrThrow({ where: { id: extractorId } });
    expect(extractor.status).toBe('SUCCESS');
    expect(extractor.lastRunAt).not.toBeNull();
  });

  it('still finds elements recorded on login.html when their ids changed (fallback locators)', async () => {
    const extractorId = await insertExtractor(
      owner,
      'Changed ids',
      loginActions('changed-ids.html', loginIds),
    );
    const run = await waitForRun(owner, await execute(owner, extractorId));
    expect(run.status).toBe('SUCCESS');
    expect(run.steps.find((s) => s.sequence === 50)?.value).toEqual({
      kind: 'text',
      value: 'Welcome, ops-user',
    });
  });

  it('ends ERROR on RAISE_ERROR with its message in the run and in the extractor’s errors', async () => {
    const message = 'The statement portal is closed today';
    const extractorId = await insertExtractor(owner, 'Raises', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
      { sequence: 20, type: 'RAISE_ERROR', textValue: message },
      { sequence: 30, type: 'GET_TEXT', selectorValue: '#login-title' },
    ]);
    const run = await waitForRun(owner, await execute(owner, extractorId));
    expect(run).toMatchObject({
      status: 'ERROR',
      errorCode: 100013,
      errorMessage: message,
      errorSequence: 20,
    });
    expect(run.steps.map((s) => s.sequence)).toEqual([10, 20]);
    expect(run.steps[1]?.errorMessage).toBe(message);
    const list = await api().get('/api/extractor').set(bearer(owner.token)).expect(200);
    const listed = (list.body as { id: string; status: string; errorMessage: string | null }[]).find(
      (e) => e.id === extractorId,
    );
    expect(listed).toMatchObject({ status: 'ERROR', errorMessage: message });
  });

  it('fails a run whose submit asked confirm() that no step answers, with the page’s question, never SUCCESS', async () => {
    const extractorId = await insertExtractor(owner, 'Places an order', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/order.html` },
      { sequence: 20, type: 'CLICK', selectorValue: '#place-order' },
      { sequence: 30, type: 'GET_TEXT', selectorValue: '#order-result' },
    ]);
    const run = await waitForRun(owner, await execute(owner, extractorId));
    expect(run).toMatchObject({
      status: 'ERROR',
      errorCode: 100026,
      errorSequence: 20,
      errorMessage: "The page asked: 'Place order?' — no answer was recorded",
    });
    expect(run.steps.map((s) => [s.sequence, s.errorMessage])).toEqual([
      [10, null],
      [20, "The page asked: 'Place order?' — no answer was recorded"],
    ]);
  });

  it('keeps a flow inside the navigation policy: no metadata address, no WebSocket to a refused host', async () => {
    // 127.0.0.2 is loopback too, but not one of the test stack's allowed hosts. A WebSocket is not
    // seen by the route guard; the worker's egress proxy refuses it where the connection is made.
    const refusedHost = await startWebSocketEndpoint('127.0.0.2');
    const allowedHost = await startWebSocketEndpoint('127.0.0.1');
    const opens = (url: string) => `return await new Promise((resolve) => {
        const socket = new WebSocket(${JSON.stringify(url)});
        socket.onopen = () => resolve('open');
        socket.onerror = () => resolve('refused');
      });`;
    try {
      const extractorId = await insertExtractor(owner, 'Stays inside', [
        { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
        {
          sequence: 20,
          type: 'SCRIPT',
          label: 'Refused host',
          options: { script: { script: opens(`ws://127.0.0.2:${refusedHost.port}/`), returnType: 'TEXT' } },
        },
        {
          sequence: 30,
          type: 'SCRIPT',
          label: 'Allowed host',
          options: { script: { script: opens(`ws://127.0.0.1:${allowedHost.port}/`), returnType: 'TEXT' } },
        },
        { sequence: 40, type: 'NAVIGATE', textValue: 'http://169.254.169.254/latest/meta-data/' },
      ]);
      const run = await waitForRun(owner, await execute(owner, extractorId));
      const value = (sequence: number) => run.steps.find((step) => step.sequence === sequence)?.value;
      expect(value(20)).toEqual({ kind: 'text', value: 'refused' });
      expect(value(30)).toEqual({ kind: 'text', value: 'open' });
      expect(run).toMatchObject({ status: 'ERROR', errorSequence: 40 });
      expect(run.errorMessage).toContain('169.254.169.254');
    } finally {
      refusedHost.close();
      allowedHost.close();
    }
  });

  it('keeps runs to their owner: another user gets 404 executing or reading them', async () => {
    const extractorId = (await db.run.findUniqueOrThrow({ where: { id: loginAndTableRun } })).extractorId;
    const notFound = { message: MESSAGES['error.not.found'], code: 'NOT_FOUND' };
    const as = bearer(stranger.token);
    expect((await api().get(`/api/extractor/execute/${extractorId}`).set(as).expect(404)).body).toEqual(
      notFound,
    );
    expect((await api().get(`/api/extractor/run/${loginAndTableRun}`).set(as).expect(404)).body).toEqual(
      notFound,
    );
    await api().get(`/api/extractor/run/${loginAndTableRun}/step/10/screenshot`).set(as).expect(404);
    await api().get(`/api/extractor/run/${loginAndTableRun}/step/80/file`).set(as).expect(404);
    await api().get(`/api/extractor/execute/${extractorId}`).expect(401);
  });

  it('says which step a fallback found, and makes that locator the step’s own for its owner only', async () => {
    const extractorId = await insertExtractor(owner, 'Ids changed', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/changed-ids.html` },
      {
        sequence: 20,
        type: 'TYPE_TEXT',
        selectorValue: '#username',
        textValue: 'ada',
        fallbackLocators: [{ kind: 'testId', value: 'login-username' }],
      },
    ]);
    const runId = await execute(owner, extractorId);
    const run = await waitForRun(owner, runId);
    expect(run.status).toBe('SUCCESS');
    expect(run.steps.find((step) => step.sequence === 10)?.locatedBy).toBeNull();
    expect(run.steps.find((step) => step.sequence === 20)?.locatedBy).toEqual({
      fallback: { kind: 'testId', value: 'login-username' },
      selectorValue: '#u-4c2',
      xpathValue: expect.any(String),
    });
    const adopt = (user: User, sequence: number) =>
      api().post(`/api/extractor/run/${runId}/step/${sequence}/locator`).set(bearer(user.token));
    await adopt(stranger, 20).expect(404);
    expect((await adopt(owner, 10).expect(409)).body.message).toBe(RUN_MESSAGES.noLocatorToAdopt);
    expect((await adopt(owner, 20).expect(200)).body.message).toBe(
      'From now on this step looks for its element at #u-4c2.',
    );
    const action = await db.extractorAction.findFirstOrThrow({ where: { extractorId, sequence: 20 } });
    expect(action).toMatchObject({ selectorType: 'CSS', selectorValue: '#u-4c2' });
    const again = await waitForRun(owner, await execute(owner, extractorId));
    expect(again.steps.find((step) => step.sequence === 20)?.locatedBy).toBeNull();
  });

  it('refuses Execute while one of the extractor’s asks waits for an answer', async () => {
    const extractorId = await insertExtractor(owner, 'Asks', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
      { sequence: 20, type: 'ASK_CODE', selectorValue: '#username', textValue: 'Code?' },
    ]);
    const run = await db.run.create({
      data: { extractorId, userId: owner.id, status: 'STOPPED', trigger: 'MANUAL', finishedAt: new Date() },
    });
    await db.pendingAsk.create({
      data: {
        runId: run.id,
        userId: owner.id,
        actionType: 'ASK_CODE',
        questionText: 'Code?',
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    const refused = await api()
      .get(`/api/extractor/execute/${extractorId}`)
      .set(bearer(owner.token))
      .expect(409);
    expect(refused.body).toEqual({ message: 'a pending ask needs an answer', code: 'CONFLICT' });
  });

  it('ends a run ERROR within a minute when its worker is killed mid-run', async () => {
    const extractorId = await insertExtractor(owner, 'Long wait', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
      { sequence: 20, type: 'WAIT', options: { number: 60 } },
      { sequence: 30, type: 'GET_TEXT', selectorValue: '#login-title' },
    ]);
    const runId = await execute(owner, extractorId);
    const refused = await api()
      .get(`/api/extractor/execute/${extractorId}`)
      .set(bearer(owner.token))
      .expect(409);
    expect(refused.body).toEqual({ message: RUN_MESSAGES.alreadyExecuting, code: 'CONFLICT' });
    // NAVIGATE stored: the worker is now inside the 60 s WAIT.
    await waitForRun(owner, runId, (run) => run.steps.length === 1, 30_000);

    const workerPid = await currentWorkerPid();
    const killedAt = Date.now();
    // The stack starts another worker when this one dies; that one must end the orphaned run.
    process.kill(workerPid, 'SIGKILL');

    const run = await waitForRun(owner, runId, (r) => r.status !== 'EXECUTING', 60_000);
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    expect(run).toMatchObject({ status: 'ERROR', errorMessage: RUN_MESSAGES.workerStopped });
    const extractor = await db.extractor.findUniqueOrThrow({
      where: { id: extractorId },
      include: { errorMessages: true },
    });
    expect(extractor.status).toBe('ERROR');
    expect(extractor.errorMessages.map((e) => e.message)).toEqual([RUN_MESSAGES.workerStopped]);
  }, 90_000);

  it('ends ERROR saying the queue lost it, not that a worker stopped, a run whose job Redis no longer has', async () => {
    const extractorId = await insertExtractor(owner, 'Lost with Redis', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
    ]);
    // What a Redis restarted without its data leaves: the run EXECUTING, its job nowhere.
    const run = await db.run.create({
      data: {
        extractorId,
        userId: owner.id,
        trigger: 'MANUAL',
        status: 'EXECUTING',
        startedAt: new Date(Date.now() - 60_000),
      },
    });
    await db.run.update({ where: { id: run.id }, data: { jobId: run.id } });

    const ended = await waitForRun(owner, run.id, (detail) => detail.status !== 'EXECUTING', 30_000);
    expect(ended).toMatchObject({ status: 'ERROR', errorMessage: RUN_MESSAGES.queueLost });
    const extractor = await db.extractor.findUniqueOrThrow({
      where: { id: extractorId },
      include: { errorMessages: true },
    });
    expect(extractor.status).toBe('ERROR');
    expect(extractor.errorMessages.map((e) => e.message)).toEqual([RUN_MESSAGES.queueLost]);
  });
});

/** 127.0.0.2 is loopback too, but not among the test stack's allowed hosts (127.0.0.1, localhost). */
const REFUSED_HOST = '127.0.0.2';
/** Only so that a broken cap cannot take the machine's memory: far past the 25 MB file cap. */
const ENDLESS_BODY_BOUND = 512 * 1024 * 1024;

interface HostileSite {
  url: string;
  refusedUrl: string;
  close: () => void;
}

/**
 * Pages that misbehave: a link to a body that never ends, a redirect to an address the policy
 * refuses (where a service really answers), and a button that never becomes clickable.
 */
async function startHostileSite(): Promise<HostileSite> {
  const internal = http.createServer((_request, response) => response.end('internal service'));
  await new Promise<void>((resolve) => internal.listen(0, REFUSED_HOST, resolve));
  const refusedUrl = `http://${REFUSED_HOST}:${(internal.address() as AddressInfo).port}/admin`;
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const site = http.createServer((incoming, response) => {
    if (incoming.url === '/endless') {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      let sent = 0;
      const push = () => {
        while (!response.destroyed && sent < ENDLESS_BODY_BOUND && response.write(chunk))
          sent += chunk.length;
        if (sent >= ENDLESS_BODY_BOUND) response.end();
        else if (!response.destroyed) response.once('drain', push);
      };
      push();
      return;
    }
    if (incoming.url === '/small') {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(Buffer.alloc(1024 * 1024, 'y'));
      return;
    }
    if (incoming.url === '/to-internal') {
      response.writeHead(302, { location: refusedUrl });
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<!doctype html><title>hostile</title><h1 id="title">Hostile</h1>
      <a id="endless" href="/endless">statement.pdf</a><a id="small" href="/small">small.pdf</a><button id="off" disabled>Export</button>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    refusedUrl,
    close: () => {
      site.closeAllConnections();
      site.close();
      internal.close();
    },
  };
}

/** Peak resident memory of a process so far (kB, /proc's VmHWM). */
function peakRssKb(pid: number): number {
  const line = /^VmHWM:\s+(\d+) kB/mu.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? 0);
}

/** The Chromium a worker launched: its child process running the browser. */
function chromiumOf(workerPid: number): number {
  const childrenOf = (pid: number) =>
    execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  const children = childrenOf(workerPid);
  const launched = children.find((pid) => /chrom/u.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8')));
  if (!launched) throw new Error(`worker ${workerPid} has no Chromium child among ${children.join(', ')}`);
  // A CHROMIUM_PATH may name a wrapper script that starts the browser without `exec`: the browser
  // is then the shell's child, and killing the shell would leave it running.
  const isShell = readFileSync(`/proc/${launched}/cmdline`, 'utf8').split('\0')[0]?.endsWith('sh');
  return isShell ? (childrenOf(launched)[0] ?? launched) : launched;
}

/** Every line of the stack's worker logs that mentions `text`. */
function workerLogLines(text: string): string[] {
  const logDir = fromRoot('.pagewright', process.env.PW_TEST_LOG_DIRECTORY ?? 'test-logs');
  return readdirSync(logDir)
    .filter((name) => name.startsWith(STACK_WORKER_LOG))
    .flatMap((name) => readFileSync(path.join(logDir, name), 'utf8').split('\n'))
    .filter((line) => line.includes(text));
}

describe('runs under attack and faults', () => {
  let hostile: HostileSite;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

  beforeAll(async () => {
    hostile = await startHostileSite();
  });
  afterAll(() => {
    hostile?.close();
    redis.disconnect();
  });

  it('stops a GET_FILE at the size cap while an endless body streams in, holding little memory', async () => {
    // A first run on a fresh worker grows its heap whatever it downloads (code loaded, caches
    // filled): one ordinary download first, so the figure below is the endless body's alone.
    const warmUpId = await insertExtractor(owner, 'Small file', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${hostile.url}/` },
      { sequence: 20, type: 'GET_FILE', selectorValue: '#small' },
    ]);
    expect(await waitForRun(owner, await execute(owner, warmUpId))).toMatchObject({ status: 'SUCCESS' });
    const workerPid = await currentWorkerPid();
    const peakBefore = peakRssKb(workerPid);
    const extractorId = await insertExtractor(owner, 'Endless file', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${hostile.url}/` },
      { sequence: 20, type: 'GET_FILE', selectorValue: '#endless' },
    ]);
    const run = await waitForRun(owner, await execute(owner, extractorId));
    expect(run).toMatchObject({
      status: 'ERROR',
      errorCode: 100061,
      errorSequence: 20,
      errorMessage: `The file is over the ${25 * 1024 * 1024} bytes limit; the download was stopped there`,
    });
    expect(peakRssKb(workerPid) - peakBefore).toBeLessThan(100 * 1024);
  }, 90_000);

  it('fails a step whose value is over STEP_VALUE_MAX_BYTES, naming the limit', async () => {
    const extractorId = await insertExtractor(owner, 'Huge value', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
      {
        sequence: 20,
        type: 'SCRIPT',
        options: { script: { script: "return 'x'.repeat(30 * 1024 * 1024);", returnType: 'TEXT' } },
      },
    ]);
    const run = await waitForRun(owner, await execute(owner, extractorId));
    expect(run).toMatchObject({ status: 'ERROR', errorCode: 100061, errorSequence: 20 });
    expect(run.errorMessage).toMatch(
      /^The step's value is at least 31457282 bytes, over the limit of 1048576 bytes for one step's value \(STEP_VALUE_MAX_BYTES\)$/u,
    );
  }, 90_000);

  it('fails a NAVIGATE that an allowed host redirects to a refused address with 100061', async () => {
    const extractorId = await insertExtractor(owner, 'Redirected inside', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${hostile.url}/to-internal` },
      { sequence: 20, type: 'GET_TEXT', selectorValue: 'body' },
    ]);
    const run = await waitForRun(owner, await execute(owner, extractorId));
    expect(run).toMatchObject({
      status: 'ERROR',
      errorCode: 100061,
      errorSequence: 10,
      errorMessage: `Navigation to ${hostile.refusedUrl} refused: ${REFUSED_HOST} resolves to the non-public address ${REFUSED_HOST}`,
    });
    expect(run.steps.map((step) => step.sequence)).toEqual([10]);
  }, 90_000);

  it('shows a failed step without Playwright’s call log or stack frames; the worker log keeps them', async () => {
    const extractorId = await insertExtractor(owner, 'Never clickable', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${hostile.url}/` },
      { sequence: 20, type: 'CLICK', selectorValue: '#off', options: { timeoutMs: 1000 } },
    ]);
    const runId = await execute(owner, extractorId);
    const run = await waitForRun(owner, runId);
    expect(run).toMatchObject({
      status: 'ERROR',
      errorCode: 100012,
      errorMessage: 'Timeout 1000ms exceeded (element is not enabled)',
    });
    const step = run.steps.find((s) => s.sequence === 20);
    for (const shown of [run.errorMessage, step?.errorMessage]) {
      expect(shown).not.toContain('Call log');
      expect(shown).not.toMatch(/^\s*at /mu);
    }
    await expect.poll(() => workerLogLines(runId).some((line) => line.includes('Call log:'))).toBe(true);
  }, 90_000);

  it('reports a Chromium killed mid-run as the browser closing within 5 s; the next run gets a fresh one', async () => {
    const extractorId = await insertExtractor(owner, 'Browser dies', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
      { sequence: 20, type: 'WAIT', options: { number: 60 } },
      { sequence: 30, type: 'GET_TEXT', selectorValue: '#login-title' },
    ]);
    const runId = await execute(owner, extractorId);
    await waitForRun(owner, runId, (run) => run.steps.length === 1, 30_000);
    const killedAt = Date.now();
    process.kill(chromiumOf(await currentWorkerPid()), 'SIGKILL');
    const run = await waitForRun(owner, runId, (r) => r.status !== 'EXECUTING', 10_000);
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    expect(run).toMatchObject({
      status: 'ERROR',
      errorCode: 100006,
      errorSequence: 20,
      errorMessage: 'The browser closed while the step ran',
    });

    const nextId = await insertExtractor(owner, 'After the browser died', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
      { sequence: 20, type: 'GET_TEXT', selectorValue: '#login-title' },
    ]);
    const next = await waitForRun(owner, await execute(owner, nextId));
    expect(next.status).toBe('SUCCESS');
    expect(next.steps.map((step) => step.value)).toContainEqual({ kind: 'text', value: 'Sign in' });
  }, 90_000);

  it('leaves no key of its runs in Redis without an expiry', async () => {
    await expect.poll(() => keysWithoutExpiry(redis, redisKeyPrefix), { timeout: 15_000 }).toEqual([]);
  });
});
