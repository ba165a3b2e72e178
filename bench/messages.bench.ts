/**
 * Messaging at size (issue 14 acceptance: "received-list p95 with 100,000 messages in the database,
 * next to the same query hand-written in SQL (goal ≤ 1.5×); the API's peak RSS while ten 10 MB
 * attachments are sent at once"):
 *  1. 100,000 messages inserted with SQL (generate_series) from one account to five (20,000 each;
 *     every 10th with a file, every 17th deleted on the recipient's side, every 3rd read).
 *  2. GET /api/message/received (first page, 50 rows) over HTTP, BENCH_REQUESTS times (300) after
 *     a warm-up: p50/p95; next to it, in the same rounds, the same page by a hand-written statement
 *     (bench/support/received-by-hand.ts) served over HTTP by the baseline server (bare Fastify,
 *     jsonwebtoken, node-postgres: the floor of an authenticated read), and run through
 *     node-postgres in this process (no HTTP at all); the ratios. Also the 100th page through the
 *     cursor, and the statement's plan.
 *  3. The API's RSS (sampled every 20 ms) while one 10 MB file is sent (baseline), then ten at once.
 * Run: pnpm bench:messages  (needs PostgreSQL and Redis; starts its own stack; uses the build unless
 * BENCH_USE_SOURCE=1).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import request from 'supertest';
import { createPrismaClient } from '../packages/db/src/index.js';
import { createSignedInUser, type SignedInUser } from '../tests/support/accounts.js';
import { startStack } from '../tests/support/stack.js';
import { fromRoot } from '../tests/support/paths.js';
import { freePort, waitFor } from '../tests/support/ports.js';
import { startProcess } from '../tests/support/processes.js';
import { benchNodeArgs } from './support/node-args.js';
import { RECEIVED_BY_HAND } from './support/received-by-hand.js';

const MESSAGES_IN_ALL = Number(process.env.BENCH_MESSAGES ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const RECIPIENTS = 5;
const FILE_BYTES = 10 * 1024 * 1024;
const AT_ONCE = 10;
const GOAL_RATIO = 1.5;

const line = (label: string, text: string) => console.log(`${label.padEnd(58)} ${text}`);
const ms = (value: number) => `${value.toFixed(2)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

const SEED_SQL = `
  WITH file AS (
    INSERT INTO "StoredFile" (id, "userId", name, "mimeType", size, content, sha256)
    VALUES (gen_random_uuid(), $1::uuid, 'report.pdf', 'application/pdf', 4, '\\x25504446', repeat('0', 64))
    RETURNING id),
  messages AS (
    INSERT INTO "Message" (id, "senderId", "fromAddress", "toLine", subject, body, "sentAt", "createdAt", "updatedAt")
    SELECT gen_random_uuid(), $1::uuid, $2, ($3::text[])[1 + g % ${RECIPIENTS}], 'Monthly report number ' || g,
           'Body of message ' || g, now() - make_interval(secs => ${MESSAGES_IN_ALL} - g),
           now() - make_interval(secs => ${MESSAGES_IN_ALL} - g), now()
      FROM generate_series(1, ${MESSAGES_IN_ALL}) g
    RETURNING id, "toLine", "sentAt", subject),
  numbered AS (SELECT id, "toLine", "sentAt", substring(subject from '([0-9]+)$')::int AS g FROM messages),
  recipients AS (
    INSERT INTO "MessageRecipient" (id, "messageId", "userId", email, kind, "readAt", "deletedAt", "createdAt")
    SELECT gen_random_uuid(), n.id, u.id, n."toLine", 'TO',
           CASE WHEN n.g % 3 = 0 THEN now() END, CASE WHEN n.g % 17 = 0 THEN now() END, n."sentAt"
      FROM numbered n JOIN "User" u ON u.email = n."toLine"
    RETURNING 1)
  INSERT INTO "MessageAttachment" (id, "messageId", "fileId")
  SELECT gen_random_uuid(), n.id, (SELECT id FROM file) FROM numbered n WHERE n.g % 10 = 0`;

function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/u.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

const useBuild = process.env.BENCH_USE_SOURCE !== '1';
const loadAtStart = os.loadavg()[0] ?? 0;
const jwtSecret = randomBytes(32).toString('hex');
const stack = await startStack({
  nodeArgs: benchNodeArgs('messages'),
  useBuild,
  env: {
    LOG_LEVEL: 'error',
    ACCESS_TOKEN_TTL_SECONDS: '7200',
    MESSAGE_SEND_RATE_LIMIT_MAX: '1000',
    JWT_SECRET: jwtSecret,
  },
  logDirectory: 'bench-logs',
});
const db = createPrismaClient(stack.databaseUrl);
const sql = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
const api = () => request(stack.apiUrl);

/** Times `work` `times` times in a row (after `warmUp` untimed runs): each run's milliseconds. */
async function timed(times: number, warmUp: number, work: () => Promise<unknown>): Promise<number[]> {
  for (let index = 0; index < warmUp; index += 1) await work();
  const samples: number[] = [];
  for (let index = 0; index < times; index += 1) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  return samples;
}

/** Sends `count` messages at once, each with one 10 MB file; the API's RSS before and at its peak. */
async function sendAtOnce(sender: SignedInUser, to: string, count: number) {
  const apiPid = stack.apiProcess.child.pid ?? 0;
  const before = rssOf(apiPid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(apiPid));
  }, 20);
  const start = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const content = randomBytes(FILE_BYTES).toString('base64');
      await api()
        .post('/api/message/add')
        .set({ Authorization: `Bearer ${sender.token}` })
        .send({
          to,
          subject: `Big file ${index}`,
          body: 'See the file.',
          attachments: [{ name: `data-${index}.bin`, content }],
        })
        .expect(200);
    }),
  );
  const elapsed = performance.now() - start;
  clearInterval(sampler);
  return { before, peak, elapsed };
}

try {
  const users = await Promise.all(
    Array.from({ length: RECIPIENTS + 1 }, (_, index) =>
      createSignedInUser(db, stack.apiUrl, stack.mailUrl, `bench-messages-${index}`),
    ),
  );
  const [sender, reader] = users as [SignedInUser, SignedInUser];
  const recipients = users.slice(1);
  const seedStart = performance.now();
  await sql.query(SEED_SQL, [sender.id, sender.email, recipients.map((user) => user.email)]);
  await sql.query('ANALYZE "Message"; ANALYZE "MessageRecipient"; ANALYZE "MessageAttachment"');
  const seedMs = performance.now() - seedStart;
  const [{ count }] = (
    await sql.query<{ count: string }>('SELECT count(*) FROM "MessageRecipient" WHERE "userId" = $1', [
      reader.id,
    ])
  ).rows as [{ count: string }];

  // 2. The received list over HTTP, next to the same page by hand in SQL.
  const bearer = { Authorization: `Bearer ${reader.token}` };
  const firstPage = await api().get('/api/message/received').set(bearer).expect(200);
  const byHand = await sql.query(RECEIVED_BY_HAND, [reader.id]);
  // The API's page and the statement by hand list the same messages, in the same order.
  const sameRows =
    JSON.stringify(firstPage.body.messages.map((row: { id: string }) => row.id)) ===
    JSON.stringify(byHand.rows.map((row: { id: string }) => row.id));
  if (!sameRows) console.log('rows differ', firstPage.body.messages.slice(0, 3), byHand.rows.slice(0, 3));
  const baselinePort = await freePort();
  const baselineUrl = `http://127.0.0.1:${baselinePort}`;
  const baselineServer = startProcess(
    'baseline-server',
    process.execPath,
    ['--import', 'tsx', fromRoot('bench/support/baseline-server.ts')],
    {
      ...process.env,
      BASELINE_PORT: String(baselinePort),
      FLOOR_DATABASE_URL: stack.databaseUrl,
      FLOOR_JWT_SECRET: jwtSecret,
      FLOOR_POOL_SIZE: '10',
    },
  );
  const http: number[] = [];
  const floor: number[] = [];
  const hand: number[] = [];
  try {
    await waitFor(
      async () => ((await fetch(`${baselineUrl}/hello`)).ok ? true : undefined),
      'the baseline server',
    );
    const rounds = [
      { samples: http, run: () => api().get('/api/message/received').set(bearer).expect(200) },
      {
        samples: floor,
        run: () => request(baselineUrl).get('/api/message/received').set(bearer).expect(200),
      },
      { samples: hand, run: () => sql.query(RECEIVED_BY_HAND, [reader.id]) },
    ];
    for (let round = 0; round < REQUESTS + 30; round += 1) {
      for (const { samples, run } of rounds) {
        const start = performance.now();
        await run();
        if (round >= 30) samples.push(performance.now() - start);
      }
    }
  } finally {
    await baselineServer.stop();
  }
  let cursor: string | null = firstPage.body.nextCursor as string;
  for (let page = 2; page < 100 && cursor; page += 1) {
    cursor = (
      await api()
        .get(`/api/message/received?before=${encodeURIComponent(cursor)}`)
        .set(bearer)
        .expect(200)
    ).body.nextCursor as string | null;
  }
  const deep = await timed(50, 5, () =>
    api()
      .get(`/api/message/received?before=${encodeURIComponent(cursor ?? '')}`)
      .set(bearer)
      .expect(200),
  );
  const plan = (
    await sql.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${RECEIVED_BY_HAND}`, [reader.id])
  ).rows
    .map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN'])
    .filter((text: string) => /Index|Limit|Execution|Sort/u.test(text))
    .slice(0, 4);

  // 3. The API's memory while 10 MB files arrive: one, then ten at once.
  const one = await sendAtOnce(sender, reader.email, 1);
  const ten = await sendAtOnce(sender, reader.email, AT_ONCE);

  const ratio = percentile(http, 95) / percentile(floor, 95);
  console.log('');
  console.log(
    `Messages — ${os.availableParallelism()} cores, load ${loadAtStart.toFixed(2)} at start, ${useBuild ? 'build' : 'sources'}`,
  );
  line(
    `1. seeded ${MESSAGES_IN_ALL.toLocaleString('en')} messages (SQL)`,
    `${(seedMs / 1000).toFixed(1)} s; the measured user receives ${Number(count).toLocaleString('en')}`,
  );
  line(
    '2. GET /api/message/received, first page (50), over HTTP',
    `p50 ${ms(percentile(http, 50))} / p95 ${ms(percentile(http, 95))}`,
  );
  line(
    '   the same page by hand over HTTP (Fastify + jwt + pg)',
    `p50 ${ms(percentile(floor, 50))} / p95 ${ms(percentile(floor, 95))}`,
  );
  line(
    '   p95 ratio (API / the page by hand over HTTP)',
    `${ratio.toFixed(2)}× (goal ≤ ${GOAL_RATIO}×)${ratio <= GOAL_RATIO ? '' : '  ← over the goal'}; same rows: ${sameRows}`,
  );
  line(
    '   the statement alone, no HTTP (node-postgres here)',
    `p50 ${ms(percentile(hand, 50))} / p95 ${ms(percentile(hand, 95))}; API / statement ${(percentile(http, 95) / percentile(hand, 95)).toFixed(2)}×`,
  );
  line(
    '   100th page through the cursor, over HTTP',
    `p50 ${ms(percentile(deep, 50))} / p95 ${ms(percentile(deep, 95))}`,
  );
  for (const text of plan) line('   plan', text.trim());
  line(
    '3. one 10 MB file: API RSS before / peak',
    `${mb(one.before)} / ${mb(one.peak)} (+${mb(one.peak - one.before)}), ${(one.elapsed / 1000).toFixed(2)} s`,
  );
  line(
    `   ten 10 MB files at once: API RSS before / peak`,
    `${mb(ten.before)} / ${mb(ten.peak)} (+${mb(ten.peak - ten.before)}), ${(ten.elapsed / 1000).toFixed(2)} s, ${((AT_ONCE * 10) / (ten.elapsed / 1000)).toFixed(1)} MB/s`,
  );
  line(
    '   ten at once / one (peak growth)',
    `${((ten.peak - ten.before) / Math.max(1, one.peak - one.before)).toFixed(1)}×`,
  );
} finally {
  await sql.end();
  await db.$disconnect();
  await stack.stop();
}
