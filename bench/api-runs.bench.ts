/**
 * The public API at work (issue 26), every figure next to a baseline measured in the same run:
 *  1. 100 runs of one saved extractor (a 2-step flow on the fixture site) started by the public
 *     API (POST /api/v1/extractors/:id/runs with a RUN key made through POST /api/user/api-keys,
 *     its end awaited with GET /api/v1/runs/:id?wait=30) against the same 100 started by the
 *     screen's call (POST /api/extractor/execute/:id with the session, GET /api/extractor/run/:runId
 *     polled every 100 ms, as bench:runs polls; the SPA itself refreshes every 2 s). An extractor
 *     runs once at a time, so each side starts a run, waits for its end, then starts the next; the
 *     two sides take turns in blocks of 10 so a change of load on this shared host hits both.
 *     Figures: runs/min of each, API / screen (goal ≥ 0.95), p50/p95 of a run's cycle (start call →
 *     end seen).
 *  2. 1,000 signed webhook deliveries to a receiver in this process (127.0.0.1, answers 200 and
 *     checks each Standard Webhooks signature with its endpoint's secret). 10 endpoints (an item's
 *     most) are added to the extractor through POST /api/webhooks/extractor/:id; 10 runs fan out to
 *     100 RUN_FINISHED deliveries (delay: the run's finishedAt → receipt); then each of those is
 *     redelivered 10 times through POST /api/webhooks/deliveries/:id/redeliver, 10 requests at a
 *     time: 1,000 deliveries through the API, the webhooks queue, the worker's signing and POST.
 *     Delay: the redeliver request sent → receipt (a webhook-id's redeliveries paired with its
 *     receipts in order; the requests for one webhook-id are 100 apart) and → deliveredAt as the
 *     delivery log records it. Baseline: a plain BullMQ Queue and Worker on the same Redis
 *     (concurrency 16, as the product's webhooks worker), 1,000 jobs added one by one 10 at a time,
 *     the processor posting the same body to the same receiver with the worker's own postWebhook
 *     (no database, no signature, no egress check). Figures: deliveries/min, p50/p95 delay, ratios.
 * Run: pnpm bench:api-runs  (needs PostgreSQL and Redis; starts its own stack and database; uses the
 * build unless BENCH_USE_SOURCE=1). BENCH_API_RUNS changes the 100 runs a side, BENCH_DELIVERIES
 * the 1,000 deliveries. The API key's rate limit is raised for the bench (the default 120 calls a
 * minute would answer 429 to 2 calls a run); its count in Redis still happens on every call. Logs go
 * to .pagewright/bench-logs/; the header prints the load average.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import {
  QUEUES,
  queuePrefix,
  type CreatedApiKey,
  type CreatedWebhookEndpoint,
  type RunDetail,
  type RunFinishedData,
  type V1Run,
  type WebhookBody,
  type WebhookDeliveryList,
  type WebhookDeliveryView,
} from '@pagewright/shared';
import { createPrismaClient } from '@pagewright/db';
import { postWebhook } from '@pagewright/worker';
import { startFixtureSite } from '../tests/fixtures/site/server.js';
import { createConfirmedUser } from '../tests/support/accounts.js';
import { waitFor } from '../tests/support/ports.js';
import { startStack } from '../tests/support/stack.js';
import { benchNodeArgs } from './support/node-args.js';

const RUNS = Number(process.env.BENCH_API_RUNS ?? 100);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 1000);
const BLOCK = 10;
const WARM_UP_RUNS = 2;
const SCREEN_POLL_MS = 100;
/** An item's most endpoints (WEBHOOK_ENDPOINTS_MAX_PER_OWNER). */
const ENDPOINTS = 10;
const FAN_OUT_RUNS = 10;
const REQUESTS_AT_ONCE = 10;
/** The product's webhooks worker concurrency (apps/worker/src/main.ts). */
const WEBHOOK_WORKER_CONCURRENCY = 16;
const RUN_TIMEOUT_MS = 60_000;
const DELIVERY_TIMEOUT_MS = 3 * 60_000;
const GOAL_API_OVER_SCREEN = 0.95;
const BASELINE_QUEUE = 'bench-baseline-webhooks';

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(0)} ms`;
const spread = (values: readonly number[]) =>
  `p50 ${ms(percentile(values, 50))} / p95 ${ms(percentile(values, 95))} / max ${ms(Math.max(...values))}`;
const line = (label: string, text: string) => console.log(`${label.padEnd(64)} ${text}`);
const count = (n: number) => n.toLocaleString('en');
const perMinute = (n: number, wallMs: number) => (n / wallMs) * 60_000;

/** Runs `work` on every item, `atOnce` at a time; the results in the items' order. */
async function inParallel<T, R>(items: readonly T[], atOnce: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

/** The verification of docs/api.md "Webhooks", as a receiver writes it. */
function verifyWebhook(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const id = String(headers['webhook-id']);
  const timestamp = String(headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return String(headers['webhook-signature'])
    .split(' ')
    .some((entry) => {
      const [version, signature] = entry.split(',');
      const given = Buffer.from(signature ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

interface Receipt {
  path: string;
  receivedAt: number;
  webhookId: string;
  body: string;
  /** Whether the signature verified with the path's secret; undefined where none is expected. */
  isVerified: boolean | undefined;
}

/** A receiver on 127.0.0.1 that answers 200 and checks the signature of every path with a secret. */
async function startReceiver() {
  const received: Receipt[] = [];
  const secrets = new Map<string, string>();
  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const receivedAt = Date.now();
      const path = incoming.url ?? '';
      const body = Buffer.concat(chunks).toString('utf8');
      const secret = secrets.get(path);
      received.push({
        path,
        receivedAt,
        webhookId: String(incoming.headers['webhook-id'] ?? ''),
        body,
        isVerified: secret === undefined ? undefined : verifyWebhook(secret, incoming.headers, body),
      });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    secrets,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Each request's delay to its receipt: a webhook-id's requests and receipts paired in order. */
function pairedDelays(sent: readonly { webhookId: string; sentAt: number }[], receipts: readonly Receipt[]) {
  const byId = new Map<string, { sentAt: number[]; receivedAt: number[] }>();
  const entry = (webhookId: string) => {
    const found = byId.get(webhookId) ?? { sentAt: [], receivedAt: [] };
    byId.set(webhookId, found);
    return found;
  };
  for (const request of sent) entry(request.webhookId).sentAt.push(request.sentAt);
  for (const receipt of receipts) entry(receipt.webhookId).receivedAt.push(receipt.receivedAt);
  const delays: number[] = [];
  for (const { sentAt, receivedAt } of byId.values()) {
    sentAt.sort((a, b) => a - b);
    receivedAt.sort((a, b) => a - b);
    for (let i = 0; i < Math.min(sentAt.length, receivedAt.length); i++)
      delays.push(receivedAt[i]! - sentAt[i]!);
  }
  return delays;
}

const loadAtStart = os.loadavg()[0]!;
const useBuild = process.env.BENCH_USE_SOURCE !== '1';
const site = await startFixtureSite();
const receiver = await startReceiver();
const stack = await startStack({
  nodeArgs: benchNodeArgs('api-runs'),
  useBuild,
  logDirectory: 'bench-logs',
  env: {
    LOG_LEVEL: 'error',
    ACCESS_TOKEN_TTL_SECONDS: '7200',
    API_KEY_RATE_LIMIT_PER_MINUTE: '100000',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  },
});
const db = createPrismaClient(stack.databaseUrl);
const connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  maxRetriesPerRequest: null,
});
const prefix = queuePrefix(stack.redisKeyPrefix);
const baselineQueue = new Queue(BASELINE_QUEUE, { connection, prefix });
try {
  const account = await createConfirmedUser(stack.apiUrl, stack.mailUrl, 'bench-api-runs');
  const { id: userId } = await db.user.findUniqueOrThrow({
    where: { email: account.username.toLowerCase() },
  });
  const { id: extractorId } = await db.extractor.create({
    data: {
      userId,
      name: 'Bench API runs',
      description: 'api-runs benchmark',
      extractorType: 'EXTRACTOR',
      actions: {
        create: [
          { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/table.html` },
          { sequence: 20, type: 'GET_TEXT', label: 'Title', selectorValue: 'h1' },
        ],
      },
    },
    select: { id: true },
  });

  /** A JSON call to the API with a bearer token (the session's, or an API key). */
  const call = async <T>(token: string, method: string, url: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${stack.apiUrl}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const session = account.accessToken;
  const { key } = await call<CreatedApiKey>(session, 'POST', '/api/user/api-keys', {
    name: 'bench',
    scope: 'RUN',
  });

  // ---------------------------------------------------------------------------------------------
  // 1. Runs by the public API and by the screen's call, one after another, in turns.

  interface Cycle {
    ms: number;
    status: string;
  }
  /** Started by the API key; its end awaited by long polling. */
  const apiRun = async (): Promise<Cycle> => {
    const started = performance.now();
    const { runId } = await call<{ runId: string }>(key, 'POST', `/api/v1/extractors/${extractorId}/runs`, {
      inputs: {},
    });
    for (;;) {
      const run = await call<V1Run>(key, 'GET', `/api/v1/runs/${runId}?wait=30`);
      if (run.status !== 'EXECUTING') return { ms: performance.now() - started, status: run.status };
      if (performance.now() - started > RUN_TIMEOUT_MS) return { ms: Number.NaN, status: 'TIMED OUT' };
    }
  };
  /** Started by the screen's Execute; its end seen by polling the run. */
  const screenRun = async (): Promise<Cycle> => {
    const started = performance.now();
    const { runId } = await call<{ runId: string }>(
      session,
      'POST',
      `/api/extractor/execute/${extractorId}`,
      {
        inputs: {},
      },
    );
    for (;;) {
      const run = await call<RunDetail>(session, 'GET', `/api/extractor/run/${runId}`);
      if (run.status !== 'EXECUTING') return { ms: performance.now() - started, status: run.status };
      if (performance.now() - started > RUN_TIMEOUT_MS) return { ms: Number.NaN, status: 'TIMED OUT' };
      await new Promise((resolve) => setTimeout(resolve, SCREEN_POLL_MS));
    }
  };
  const inTurn = async (run: () => Promise<Cycle>, howMany: number) => {
    const cycles: Cycle[] = [];
    for (let i = 0; i < howMany; i++) cycles.push(await run());
    return cycles;
  };
  await inTurn(apiRun, WARM_UP_RUNS);
  await inTurn(screenRun, WARM_UP_RUNS);
  const sides = {
    api: { cycles: [] as Cycle[], wallMs: 0, run: apiRun },
    screen: { cycles: [] as Cycle[], wallMs: 0, run: screenRun },
  };
  for (let block = 0; block * BLOCK < RUNS; block++) {
    const order = block % 2 === 0 ? [sides.api, sides.screen] : [sides.screen, sides.api];
    for (const side of order) {
      const started = performance.now();
      side.cycles.push(...(await inTurn(side.run, Math.min(BLOCK, RUNS - block * BLOCK))));
      side.wallMs += performance.now() - started;
    }
  }
  const runsPerMinute = (side: typeof sides.api) => perMinute(side.cycles.length, side.wallMs);
  const failures = (side: typeof sides.api) => side.cycles.filter((cycle) => cycle.status !== 'SUCCESS');

  // ---------------------------------------------------------------------------------------------
  // 2. Webhooks: endpoints through the screen's route, one run's end fanned out to each of them.

  const endpoints: CreatedWebhookEndpoint[] = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    const path = `/product/${i}`;
    const endpoint = await call<CreatedWebhookEndpoint>(
      session,
      'POST',
      `/api/webhooks/extractor/${extractorId}`,
      { url: `${receiver.url}${path}`, events: ['RUN_FINISHED'] },
    );
    receiver.secrets.set(path, endpoint.secret);
    endpoints.push(endpoint);
  }
  const isProduct = (receipt: Receipt) => receipt.path.startsWith('/product/');
  const productReceipts = (since: number) =>
    receiver.received.filter((receipt) => isProduct(receipt) && receipt.receivedAt >= since);
  const fanOutStart = Date.now();
  const fanOutCycles = await inTurn(screenRun, FAN_OUT_RUNS);
  const fanOutExpected = FAN_OUT_RUNS * ENDPOINTS;
  const fanOutReceipts = await waitFor(
    async () => {
      const got = productReceipts(fanOutStart);
      return got.length >= fanOutExpected ? got : undefined;
    },
    `${fanOutExpected} fan-out deliveries`,
    DELIVERY_TIMEOUT_MS,
  );
  const fanOutDelays = fanOutReceipts.map(
    (receipt) =>
      receipt.receivedAt -
      Date.parse((JSON.parse(receipt.body) as WebhookBody<RunFinishedData>).data.finishedAt),
  );

  // The fan-out's deliveries, each redelivered DELIVERIES / their count times, round-robin.
  const originals: WebhookDeliveryView[] = [];
  for (const endpoint of endpoints)
    originals.push(
      ...(
        await call<WebhookDeliveryList>(session, 'GET', `/api/webhooks/endpoints/${endpoint.id}/deliveries`)
      ).deliveries,
    );
  const redeliveries = Array.from({ length: DELIVERIES }, (_, i) => originals[i % originals.length]!);
  const redeliverStart = Date.now();
  const sent = await inParallel(redeliveries, REQUESTS_AT_ONCE, async (original) => {
    const sentAt = Date.now();
    const created = await call<WebhookDeliveryView>(
      session,
      'POST',
      `/api/webhooks/deliveries/${original.id}/redeliver`,
    );
    return { webhookId: original.webhookId, sentAt, deliveryId: created.id };
  });
  const redeliverReceipts = await waitFor(
    async () => {
      const got = productReceipts(redeliverStart);
      return got.length >= DELIVERIES ? got : undefined;
    },
    `${DELIVERIES} redeliveries`,
    DELIVERY_TIMEOUT_MS,
  );
  const lastReceipt = Math.max(...redeliverReceipts.map((receipt) => receipt.receivedAt));
  const productWallMs = lastReceipt - redeliverStart;
  const productDelays = pairedDelays(sent, redeliverReceipts);
  const logged = await db.webhookDelivery.findMany({
    where: { id: { in: sent.map((request) => request.deliveryId) } },
    select: { id: true, status: true, deliveredAt: true },
  });
  const sentAtById = new Map(sent.map((request) => [request.deliveryId, request.sentAt]));
  const loggedDelays = logged.flatMap((row) =>
    row.deliveredAt ? [row.deliveredAt.getTime() - sentAtById.get(row.id)!] : [],
  );
  const unverified = [...fanOutReceipts, ...redeliverReceipts].filter((receipt) => !receipt.isVerified);

  // Baseline: bare BullMQ, the same receiver, the same body, the worker's own POST.
  const sampleBody = fanOutReceipts[0]!.body;
  const baselineSentAt: number[] = [];
  const baselineWorker = new Worker(
    BASELINE_QUEUE,
    async (job: Job<{ n: number }>) => {
      await postWebhook(`${receiver.url}/baseline/${job.data.n}`, sampleBody, {}, undefined);
    },
    { connection, prefix, concurrency: WEBHOOK_WORKER_CONCURRENCY },
  );
  const baselineStart = Date.now();
  await inParallel(
    Array.from({ length: DELIVERIES }, (_, n) => n),
    REQUESTS_AT_ONCE,
    async (n) => {
      baselineSentAt[n] = Date.now();
      await baselineQueue.add('deliver', { n }, { removeOnComplete: { count: 1000 }, removeOnFail: true });
    },
  );
  const baselineReceipts = await waitFor(
    async () => {
      const got = receiver.received.filter((receipt) => receipt.path.startsWith('/baseline/'));
      return got.length >= DELIVERIES ? got : undefined;
    },
    `${DELIVERIES} baseline jobs`,
    DELIVERY_TIMEOUT_MS,
  );
  await baselineWorker.close();
  const baselineWallMs = Math.max(...baselineReceipts.map((receipt) => receipt.receivedAt)) - baselineStart;
  const baselineDelays = baselineReceipts.map(
    (receipt) => receipt.receivedAt - baselineSentAt[Number(receipt.path.split('/').at(-1))]!,
  );

  // ---------------------------------------------------------------------------------------------
  const apiPerMinute = runsPerMinute(sides.api);
  const screenPerMinute = runsPerMinute(sides.screen);
  const productPerMinute = perMinute(DELIVERIES, productWallMs);
  const baselinePerMinute = perMinute(DELIVERIES, baselineWallMs);
  console.log(
    `\nPagewright public API benchmark: ${RUNS} runs a side of a 2-step flow, ${count(DELIVERIES)} webhook ` +
      `deliveries, ${useBuild ? 'build' : 'sources'}, ${os.cpus().length} cores, 1-min load average ` +
      `${loadAtStart.toFixed(1)} at start / ${os.loadavg()[0]!.toFixed(1)} at end, ${new Date().toISOString()}`,
  );
  line(
    'API: POST /api/v1/extractors/:id/runs, GET ?wait=30',
    `${apiPerMinute.toFixed(1)} runs/min; cycle ${spread(sides.api.cycles.map((c) => c.ms))}; ` +
      `failures ${failures(sides.api).length}/${sides.api.cycles.length}`,
  );
  line(
    `screen: POST /api/extractor/execute/:id, ${SCREEN_POLL_MS}-ms poll`,
    `${screenPerMinute.toFixed(1)} runs/min; cycle ${spread(sides.screen.cycles.map((c) => c.ms))}; ` +
      `failures ${failures(sides.screen).length}/${sides.screen.cycles.length}`,
  );
  line(`API / screen (goal ≥ ${GOAL_API_OVER_SCREEN})`, `${(apiPerMinute / screenPerMinute).toFixed(2)}×`);
  line(
    `webhooks, ${FAN_OUT_RUNS} runs × ${ENDPOINTS} endpoints: finishedAt → receipt`,
    `${fanOutReceipts.length}/${fanOutExpected} received; ${spread(fanOutDelays)}; ` +
      `run failures ${fanOutCycles.filter((c) => c.status !== 'SUCCESS').length}`,
  );
  line(
    `webhooks, ${count(DELIVERIES)} redeliveries (${REQUESTS_AT_ONCE} requests at a time)`,
    `${productPerMinute.toFixed(0)} delivered/min (${(productWallMs / 1000).toFixed(1)} s, first request → last receipt)`,
  );
  line('    request sent → receipt', spread(productDelays));
  line(
    '    request sent → deliveredAt in the delivery log',
    `${spread(loggedDelays)}; DELIVERED ${logged.filter((row) => row.status === 'DELIVERED').length}/${count(DELIVERIES)}`,
  );
  line(
    `baseline: bare BullMQ, ${count(DELIVERIES)} jobs posting to the receiver`,
    `${baselinePerMinute.toFixed(0)} jobs/min (${(baselineWallMs / 1000).toFixed(1)} s); add → receipt ${spread(baselineDelays)}`,
  );
  line(
    'product / baseline: throughput; p95 delay',
    `${(productPerMinute / baselinePerMinute).toFixed(2)}×; ` +
      `${(percentile(productDelays, 95) / percentile(baselineDelays, 95)).toFixed(1)}×`,
  );
  line(
    'signatures verified with the endpoint secret',
    `${count(fanOutReceipts.length + redeliverReceipts.length - unverified.length)}/` +
      `${count(fanOutReceipts.length + redeliverReceipts.length)}`,
  );
  for (const side of [sides.api, sides.screen])
    for (const cycle of failures(side))
      console.log(
        `warning: a run of the ${side === sides.api ? 'API' : 'screen'} side ended ${cycle.status}`,
      );
  if (receiver.received.filter(isProduct).length > fanOutExpected + DELIVERIES)
    console.log('warning: the receiver got more product deliveries than were sent (a retry?)');
} finally {
  await db.$disconnect();
  await stack.stop();
  // The stack drops its database; the keys of its webhooks queue and of the baseline's go here.
  const webhooksQueue = new Queue(QUEUES.webhooks, { connection, prefix });
  for (const queue of [webhooksQueue, baselineQueue]) {
    await queue.obliterate({ force: true });
    await queue.close();
  }
  connection.disconnect();
  await receiver.close();
  await site.close();
}
