/**
 * The authenticated API under concurrent load, next to two baselines measured in the same run on
 * the same machine: a bare Fastify route, and a hand-written floor for an authenticated read
 * (Fastify + jsonwebtoken verify of the same access token + one node-postgres primary-key read of
 * the user row, against the stack's database). Prints requests/s, p50/p99 latency and the ratios.
 * Rows: GET /api/health, GET /api/user/, POST /api/auth, and the dashboard list GET /api/extractor
 * of a user with a realistic number of items and runs (whole, and a poll that finds it unchanged).
 * Run: pnpm bench:auth  (needs PostgreSQL and Redis; starts its own API and database).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import request from 'supertest';
import { createConfirmedUser } from '../tests/support/accounts.js';
import { fromRoot } from '../tests/support/paths.js';
import { freePort, waitFor } from '../tests/support/ports.js';
import { startProcess } from '../tests/support/processes.js';
import { startStack } from '../tests/support/stack.js';
import { benchNodeArgs } from './support/node-args.js';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** The dashboard list is measured at more connections: every open tab polls it. */
const LIST_CONNECTIONS = Number(process.env.BENCH_LIST_CONNECTIONS ?? 100);
/** Items of the benchmark user's dashboard list, each with runs and some errors not yet shown. */
const LIST_ITEMS = 20;
/** node-postgres' default pool size, as the API's own pool has by default (DATABASE_POOL_SIZE). */
const FLOOR_POOL_SIZE = 10;
/** Issue 27's goals (the first round's was 0.8× the floor). */
const GOALS = { userVsFloor: 0.9, userP99Ms: 20, listP99Ms: 50 };

interface Figure {
  name: string;
  connections: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(
  name: string,
  options: autocannon.Options & { connections?: number },
): Promise<Figure> {
  const connections = options.connections ?? CONNECTIONS;
  const result = await autocannon({ duration: DURATION_S, ...options, connections });
  return {
    name,
    connections,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/**
 * Both baselines (bench/support/baseline-server.ts) from a process of their own, as the API runs in
 * one: the bare route, then the hand-written floor. This process only generates load.
 */
async function baselines(
  databaseUrl: string,
  jwtSecret: string,
  accessToken: string,
): Promise<{ bare: Figure; floor: Figure }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = startProcess(
    'baseline-server',
    process.execPath,
    ['--import', 'tsx', fromRoot('bench/support/baseline-server.ts')],
    {
      ...process.env,
      BASELINE_PORT: String(port),
      FLOOR_DATABASE_URL: databaseUrl,
      FLOOR_JWT_SECRET: jwtSecret,
      FLOOR_POOL_SIZE: String(FLOOR_POOL_SIZE),
    },
  );
  try {
    await waitFor(
      async () => ((await fetch(`${url}/hello`)).ok ? true : undefined),
      `the baseline server (log: ${server.logFile})`,
    );
    const bare = await measure('bare Fastify GET /hello (baseline)', { url: `${url}/hello` });
    const floor = await measure('hand-written floor: Fastify + jsonwebtoken + pg PK read', {
      url: `${url}/api/user/`,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    return { bare, floor };
  } finally {
    await server.stop();
  }
}

/**
 * A dashboard as a user who has worked with the product for a while sees it: LIST_ITEMS extractors
 * (and a few insertors and navigators the list leaves out), each with validation and operator runs,
 * a few with errors not yet shown and some already cleared.
 */
async function arrangeDashboard(databaseUrl: string, email: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `WITH owner AS (SELECT id FROM "User" WHERE email = lower($1)),
       items AS (
         INSERT INTO "Extractor" (id, "userId", name, description, "extractorType", status, "lastRunAt", "createdAt", "updatedAt")
         SELECT gen_random_uuid(), owner.id, 'Item ' || n, 'Reads the figures of site ' || n,
                (CASE WHEN n <= $2 THEN 'EXTRACTOR' WHEN n % 2 = 0 THEN 'INSERTOR' ELSE 'NAVIGATOR' END)::"ExtractorType",
                (CASE WHEN n % 4 = 0 THEN 'ERROR' ELSE 'SUCCESS' END)::"RunStatus",
                now() - n * interval '1 hour', now() - n * interval '1 day', now()
         FROM owner, generate_series(1, $2 + 10) AS n
         RETURNING id, "userId", name
       ),
       runs AS (
         INSERT INTO "Run" (id, "extractorId", "userId", status, trigger, "startedAt", "finishedAt", "createdAt", "updatedAt")
         SELECT gen_random_uuid(), items.id, items."userId",
                (CASE WHEN r % 5 = 0 THEN 'ERROR' ELSE 'SUCCESS' END)::"RunStatus",
                (CASE WHEN r % 3 = 0 THEN 'VALIDATION' WHEN r % 7 = 0 THEN 'SCHEDULED' ELSE 'MANUAL' END)::"RunTrigger",
                now() - r * interval '2 hours', now() - r * interval '2 hours' + interval '20 seconds', now(), now()
         FROM items, generate_series(1, 15) AS r
         RETURNING id, "extractorId", status, "startedAt"
       )
       INSERT INTO "ExtractorErrorMessage" (id, "extractorId", "runId", message, "errorCode", "actionSequence", "isCleared", "createdAt")
       SELECT gen_random_uuid(), runs."extractorId", runs.id, 'The element #price was not found on the page',
              100002, 30, runs."startedAt" < now() - interval '12 hours', runs."startedAt"
       FROM runs WHERE runs.status = 'ERROR'`,
      [email, LIST_ITEMS],
    );
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

const jwtSecret = randomBytes(32).toString('hex');
const stack = await startStack({
  nodeArgs: benchNodeArgs('auth'),
  useBuild: process.env.BENCH_USE_SOURCE !== '1',
  // The login rate limit protects accounts; the benchmark measures raw throughput instead. The
  // JWT secret is the benchmark's so that the floor verifies the very same access token.
  env: { LOGIN_RATE_LIMIT_MAX: '100000000', LOG_LEVEL: 'error', JWT_SECRET: jwtSecret },
  logDirectory: 'bench-logs',
});
try {
  const user = await createConfirmedUser(stack.apiUrl, stack.mailUrl, 'bench');
  const authorization = `Bearer ${user.accessToken}`;
  await arrangeDashboard(stack.databaseUrl, user.username);
  await request(stack.apiUrl).get('/api/user/').set('Authorization', authorization).expect(200);
  const list = await request(stack.apiUrl)
    .get('/api/extractor')
    .query({ extractorType: 'EXTRACTOR' })
    .set('Authorization', authorization)
    .expect(200);
  const listed = list.body as unknown[];
  if (listed.length !== LIST_ITEMS)
    throw new Error(`the list holds ${listed.length} items, not ${LIST_ITEMS}`);

  const loadBefore = os.loadavg();
  // The floor and GET /api/user/ run back to back: on a shared machine the load drifts.
  const { bare: baseline, floor } = await baselines(stack.databaseUrl, jwtSecret, user.accessToken);
  const currentUser = await measure('GET /api/user/ (JWT + session check)', {
    url: `${stack.apiUrl}/api/user/`,
    headers: { authorization },
  });
  const dashboardList = await measure(`GET /api/extractor (${LIST_ITEMS} items with runs)`, {
    url: `${stack.apiUrl}/api/extractor?extractorType=EXTRACTOR`,
    headers: { authorization },
    connections: LIST_CONNECTIONS,
  });
  // What a tab's browser sends when it polls again: the ETag it kept, for a list that did not change.
  const unchangedList = await measure('GET /api/extractor, unchanged since the last poll (304)', {
    url: `${stack.apiUrl}/api/extractor?extractorType=EXTRACTOR`,
    headers: { authorization, 'if-none-match': String(list.headers.etag) },
    connections: LIST_CONNECTIONS,
  });
  const health = await measure('GET /api/health (db + redis ping)', { url: `${stack.apiUrl}/api/health` });
  const login = await measure('POST /api/auth (argon2id verify + session)', {
    url: `${stack.apiUrl}/api/auth`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, password: user.password }),
  });
  const loadAfter = os.loadavg();

  const rows = [baseline, floor, currentUser, dashboardList, unchangedList, health, login];
  const load = (avg: number[]) => avg.map((value) => value.toFixed(2)).join(' ');
  console.log(
    `\nPagewright auth benchmark: ${DURATION_S} s each, ${os.cpus().length} CPUs, ${new Date().toISOString()}`,
  );
  console.log(`load average (1/5/15 min): before ${load(loadBefore)}, after ${load(loadAfter)}`);
  console.log('| what | conns | req/s | p50 ms | p99 ms | errors | non-2xx | vs baseline | vs floor |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const vsBaseline = r.requestsPerSecond / baseline.requestsPerSecond;
    const vsFloor = r.requestsPerSecond / floor.requestsPerSecond;
    console.log(
      `| ${r.name} | ${r.connections} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${vsBaseline.toFixed(3)} | ${vsFloor.toFixed(2)}× |`,
    );
  }
  const userVsFloor = currentUser.requestsPerSecond / floor.requestsPerSecond;
  const verdict = (isMet: boolean) => (isMet ? 'met' : 'NOT met');
  console.log(
    `\nGoals: GET /api/user/ ≥ ${GOALS.userVsFloor}× the floor: ${userVsFloor.toFixed(2)}× (${verdict(userVsFloor >= GOALS.userVsFloor)}); ` +
      `its p99 ≤ ${GOALS.userP99Ms} ms at ${currentUser.connections}: ${currentUser.p99} ms (${verdict(currentUser.p99 <= GOALS.userP99Ms)}); ` +
      `GET /api/extractor p99 ≤ ${GOALS.listP99Ms} ms at ${dashboardList.connections}: ${dashboardList.p99} ms (${verdict(dashboardList.p99 <= GOALS.listP99Ms)})`,
  );
} finally {
  await stack.stop();
}
