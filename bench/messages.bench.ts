/**
 * Messaging at size (issue 14 acceptance: "received-list p95 with 100,000 messages in the database,
 * next to the same query hand-written in SQL (goal ≤ 1.5×); the API's peak RSS while ten 10 MB
 * attachments are sent at once"), each figure next to a baseline measured in the same run:
 *  1. 100,000 messages inserted with SQL (generate_series, one transaction) among 50 accounts: the
 *     measured account (signed up through the API) receives every 5th (20,000: To, or Cc on every
 *     25th) and writes a few; every 4th message has a Cc too, every 9th replies in a thread; every
 *     10th carries a file (every 30th two); on the recipient's side every 3rd is read and every
 *     17th deleted; every 19th is deleted from its sender's list.
 *  2. GET /api/message/received (first page, 50 rows) over HTTP (fetch, keep-alive), BENCH_REQUESTS
 *     times (300) after 30 untimed: p50/p95; in the same rounds, the same page by a hand-written
 *     statement (bench/support/received-by-hand.ts) run through node-postgres from this process —
 *     the baseline (the goal is API p95 ≤ 1.5× of it) — and, for reference, that statement
 *     served over HTTP by the baseline server (bare Fastify, jsonwebtoken, node-postgres: the floor
 *     of an authenticated read). The 100th page through the cursor, the same way against its
 *     statement by hand. The plans (EXPLAIN ANALYZE) of the API's own statement (RECEIVED_SQL, read
 *     from messages.repository.ts) for both pages.
 *  3. The API process's RSS (/proc/<pid>/status, sampled every 20 ms) while one message with a
 *     10 MB file of random bytes is sent (the baseline), then while ten such messages are sent at
 *     once (ten concurrent POST /api/message/add to another account): RSS before, peak, growth, time
 *     and MB/s; the files checked byte for byte (SHA-256) in the database afterwards. Then one such
 *     file written through the product's file store alone, in a fresh process
 *     (bench/support/file-write-memory.ts), sampled the same way: the store's share of the memory.
 * Run: pnpm bench:messages  (needs PostgreSQL and Redis; starts its own stack and database; uses the
 * build unless BENCH_USE_SOURCE=1). BENCH_MESSAGES changes the 100,000, BENCH_REQUESTS the 300.
 * Logs go to .pagewright/bench-logs/; the header prints the load average (other work on this
 * 2-core machine shows in the figures).
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { MESSAGE_LIST_PAGE_SIZE, type MessageListResponse } from '@pagewright/shared';
import { createPrismaClient } from '@pagewright/db';
import { createSignedInUser } from '../tests/support/accounts.js';
import { fromRoot } from '../tests/support/paths.js';
import { freePort, waitFor } from '../tests/support/ports.js';
import { startProcess } from '../tests/support/processes.js';
import { startStack } from '../tests/support/stack.js';
import { benchNodeArgs } from './support/node-args.js';
import { RECEIVED_BEFORE_BY_HAND, RECEIVED_BY_HAND } from './support/received-by-hand.js';

const MESSAGES_IN_ALL = Number(process.env.BENCH_MESSAGES ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const WARM_UP = 30;
const DEEP_PAGE = 100;
const DEEP_REQUESTS = 100;
const ACCOUNTS = 50;
const FILE_BYTES = 10 * 1024 * 1024;
const AT_ONCE = 10;
const SAMPLE_EVERY_MS = 20;
const GOALS = { receivedP95VsSql: 1.5 };
/** Ten files at once growing the API by more than this is called out in the output. */
const RSS_GROWTH_WARNING_MB = 600;

const MiB = 1024 * 1024;
const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;
const mb = (bytes: number) => `${(bytes / MiB).toFixed(0)} MB`;
const count = (n: number) => n.toLocaleString('en');
const spread = (values: readonly number[]) =>
  `p50 ${ms(percentile(values, 50))} / p95 ${ms(percentile(values, 95))}`;
const line = (label: string, text: string) => console.log(`${label.padEnd(62)} ${text}`);

/** The API's own statement for the received list, as the repository holds it (it is not exported). */
const RECEIVED_SQL_OF_API = (() => {
  const source = readFileSync(fromRoot('apps/api/src/modules/messages/messages.repository.ts'), 'utf8');
  const statement = /const RECEIVED_SQL = `([^`]+)`/u.exec(source)?.[1];
  if (statement === undefined) throw new Error('RECEIVED_SQL is no longer in messages.repository.ts');
  return statement;
})();

/**
 * The seed, in one transaction on one connection ($1 the measured account's id, $2 its e-mail).
 * Accounts are numbered 0 (the measured one) to ACCOUNTS - 1; message g goes To account
 * `to_n` with an optional Cc `cc_n`, from `sender_n` (never one of its recipients). Ids are md5s
 * of names, so later statements find the rows earlier ones wrote.
 */
const SEED_STATEMENTS = [
  `INSERT INTO "User" (id, email, "firstName", "lastName", "passwordHash", "passwordChangedAt",
                       "emailConfirmedAt", "createdAt", "updatedAt")
   SELECT md5('bench-user-' || n)::uuid, 'bench-messages-' || n || '@example.com', 'Member', 'Number ' || n,
          'no password: never signs in', now(), now(), now(), now()
     FROM generate_series(1, ${ACCOUNTS - 1}) n`,
  `CREATE TEMP TABLE bench_account ON COMMIT DROP AS
   SELECT 0 AS n, $1::uuid AS id, $2::text AS email
   UNION ALL
   SELECT n, md5('bench-user-' || n)::uuid, 'bench-messages-' || n || '@example.com'
     FROM generate_series(1, ${ACCOUNTS - 1}) n`,
  `CREATE TEMP TABLE bench_plan ON COMMIT DROP AS
   SELECT g, md5('bench-message-' || g)::uuid AS id, to_n, sender_n,
          CASE WHEN cc_n IN (to_n, sender_n) THEN NULL ELSE cc_n END AS cc_n,
          (now() AT TIME ZONE 'UTC') - make_interval(mins => 5 * (${MESSAGES_IN_ALL} - g))
                                     - make_interval(secs => (g * 37) % 240) AS at
     FROM (SELECT g, to_n, cc_n, CASE WHEN sender_n = to_n THEN 1 + sender_n % ${ACCOUNTS - 1} ELSE sender_n END AS sender_n
             FROM (SELECT g,
                          CASE WHEN g % 5 = 0 AND g % 25 <> 0 THEN 0 ELSE 1 + (g * 7) % ${ACCOUNTS - 1} END AS to_n,
                          CASE WHEN g % 25 = 0 THEN 0 WHEN g % 4 = 0 THEN 1 + (g * 17 + 3) % ${ACCOUNTS - 1} END AS cc_n,
                          CASE WHEN g % 11 = 0 AND g % 5 <> 0 THEN 0 ELSE 1 + (g * 13 + 5) % ${ACCOUNTS - 1} END AS sender_n
                     FROM generate_series(1, ${MESSAGES_IN_ALL}) g) numbered) fixed`,
  `INSERT INTO "Message" (id, "senderId", "fromAddress", "toLine", "ccLine", "bccLine", subject, body, "replyOfId",
                          "sentAt", "senderDeletedAt", "createdAt", "updatedAt")
   SELECT p.id, s.id, s.email, t.email, coalesce(c.email, ''), '',
          CASE WHEN p.g % 9 = 0 THEN 'Re: ' ELSE '' END || 'Quarterly figures, part ' || p.g,
          repeat('Body text of message ' || p.g || '. ', 1 + p.g % 20),
          CASE WHEN p.g % 9 = 0 AND p.g > 7 THEN md5('bench-message-' || (p.g - 7))::uuid END,
          p.at, CASE WHEN p.g % 19 = 0 THEN p.at + interval '1 day' END, p.at, p.at
     FROM bench_plan p
     JOIN bench_account s ON s.n = p.sender_n
     JOIN bench_account t ON t.n = p.to_n
     LEFT JOIN bench_account c ON c.n = p.cc_n`,
  `INSERT INTO "MessageRecipient" (id, "messageId", "userId", email, kind, "tokenHash", "tokenExpiresAt",
                                   "mailedAt", "mailState", "mailStateAt", "readAt", "deletedAt", "createdAt")
   SELECT md5('bench-recipient-' || p.g || '-' || k.kind)::uuid, p.id, a.id, a.email, k.kind::"RecipientKind",
          encode(sha256(convert_to('bench-token-' || p.g || '-' || k.kind, 'UTF8')), 'hex'),
          p.at + interval '30 days', p.at + interval '2 seconds', 'SENT', p.at + interval '2 seconds',
          CASE WHEN p.g % 3 = 0 THEN p.at + interval '1 hour' END,
          CASE WHEN p.g % 17 = 0 THEN p.at + interval '2 hours' END, p.at
     FROM bench_plan p
    CROSS JOIN LATERAL (VALUES ('TO', p.to_n), ('CC', p.cc_n)) k(kind, n)
     JOIN bench_account a ON a.n = k.n`,
  `CREATE TEMP TABLE bench_file ON COMMIT DROP AS
   SELECT p.g, f, p.id AS message_id, s.id AS owner_id, p.at, md5('bench-file-' || p.g || '-' || f)::uuid AS id,
          decode(repeat(md5(p.g || '-' || f), 32), 'hex') AS content
     FROM bench_plan p
     JOIN bench_account s ON s.n = p.sender_n
    CROSS JOIN generate_series(1, CASE WHEN p.g % 30 = 0 THEN 2 ELSE 1 END) f
    WHERE p.g % 10 = 0`,
  `INSERT INTO "StoredFile" (id, "userId", name, "mimeType", size, content, sha256, "createdAt")
   SELECT id, owner_id, 'report-' || g || '-' || f || '.pdf', 'application/pdf', octet_length(content), content,
          encode(sha256(content), 'hex'), at
     FROM bench_file`,
  `INSERT INTO "MessageAttachment" (id, "messageId", "fileId", "createdAt")
   SELECT md5('bench-attachment-' || g || '-' || f)::uuid, message_id, id, at FROM bench_file`,
];

interface PlanNode {
  'Node Type': string;
  'Scan Direction'?: string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Subplan Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Actual Total Time': number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}
interface ExplainResult {
  Plan: PlanNode;
  'Planning Time': number;
  'Execution Time': number;
}

/** A plan, one node a line: what it walks, rows × loops, time per loop, buffers. */
function planLines(node: PlanNode, depth = 0): string[] {
  const direction = node['Scan Direction'] === 'Backward' ? ' Backward' : '';
  const target = node['Index Name']
    ? ` using ${node['Index Name']}`
    : node['Relation Name']
      ? ` on ${node['Relation Name']}`
      : '';
  const subplan = node['Subplan Name'] ? ` (${node['Subplan Name']})` : '';
  const buffers = `hit ${node['Shared Hit Blocks'] ?? 0}, read ${node['Shared Read Blocks'] ?? 0}`;
  return [
    `${'  '.repeat(depth)}${node['Node Type']}${direction}${target}${subplan}: rows ${node['Actual Rows']} × ` +
      `${node['Actual Loops']}, ${node['Actual Total Time'].toFixed(3)} ms, buffers ${buffers}`,
    ...(node.Plans ?? []).flatMap((child) => planLines(child, depth + 1)),
  ];
}
const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

/**
 * The sampler runs in a process of its own, so a busy event loop here (ten 14 MB bodies leaving at
 * once) cannot delay a sample: each line is its time (ms since the epoch) and the RSS in bytes. It
 * ends when stopped, when the pipe to this process breaks, or when the watched process is gone.
 */
const RSS_SAMPLER = `
  const { readFileSync } = require('node:fs');
  const [pid, every] = process.argv.slice(1).map(Number);
  const rss = () => Number(/VmRSS:\\s+(\\d+) kB/.exec(readFileSync('/proc/' + pid + '/status', 'utf8'))[1]) * 1024;
  setInterval(() => process.stdout.write(Date.now() + ' ' + rss() + '\\n'), every);
  process.stdout.write(Date.now() + ' ' + rss() + '\\n');
  process.stdout.on('error', () => process.exit(0));`;

/** Samples a process's RSS every SAMPLE_EVERY_MS until stopped: before, peak (and when), how evenly. */
async function watchRss(pid: number) {
  const sampler = spawn(process.execPath, ['-e', RSS_SAMPLER, String(pid), String(SAMPLE_EVERY_MS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  sampler.stdout.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    sampler.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('\n')) resolve();
    });
    sampler.once('exit', (code) => reject(new Error(`the RSS sampler exited (${code})`)));
  });
  return {
    async stop() {
      const exited = new Promise((resolve) => sampler.once('exit', resolve));
      sampler.kill();
      await exited;
      const samples = output
        .trim()
        .split('\n')
        .map((text) => text.split(' ').map(Number) as [number, number]);
      const [startedAt, before] = samples[0] ?? [0, 0];
      const [peakAt, peak] = samples.reduce((top, sample) => (sample[1] > top[1] ? sample : top));
      const longestGap = Math.max(
        0,
        ...samples.slice(1).map(([at], index) => at - (samples[index]?.[0] ?? at)),
      );
      return {
        before,
        peak,
        growth: peak - before,
        peakAfter: peakAt - startedAt,
        samples: samples.length,
        longestGap,
      };
    },
  };
}

/**
 * One 10 MB file written through the product's file store by bench/support/file-write-memory.ts, a
 * fresh process of its own, while its RSS is sampled: the store's share of a message's memory.
 */
async function storeWriteAlone(ownerId: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', fromRoot('bench/support/file-write-memory.ts')], {
    env: {
      ...process.env,
      FILE_DATABASE_URL: stack.databaseUrl,
      FILE_OWNER_ID: ownerId,
      FILE_BYTES: String(FILE_BYTES),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const output = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const expect = async (word: string) => {
    const { value } = await output.next();
    if (value !== word) throw new Error(`the file writer said ${String(value)}, not ${word}`);
  };
  try {
    await expect('ready');
    const watch = await watchRss(child.pid ?? 0);
    const started = performance.now();
    child.stdin.write('go\n');
    await expect('done');
    const elapsed = performance.now() - started;
    return { ...(await watch.stop()), elapsed };
  } finally {
    child.stdin.end();
    await exited;
  }
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
    // The burst measures ten large sends parsed at once (one account): the gate (issue 24) would
    // answer nine of them 429 at its defaults.
    MESSAGE_LARGE_SENDS_MAX_RUNNING: '10',
    MESSAGE_LARGE_SENDS_MAX_PER_USER: '10',
    JWT_SECRET: jwtSecret,
  },
  logDirectory: 'bench-logs',
});
const db = createPrismaClient(stack.databaseUrl);
const sql = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
try {
  console.log(
    `Pagewright messages benchmark: ${count(MESSAGES_IN_ALL)} messages among ${ACCOUNTS} accounts, ` +
      `${useBuild ? 'build' : 'sources'}, ${os.availableParallelism()} cores, 1-min load average ` +
      `${loadAtStart.toFixed(2)} at start, ${new Date().toISOString()}`,
  );
  const reader = await createSignedInUser(db, stack.apiUrl, stack.mailUrl, 'bench-messages-reader');
  const bearer = { Authorization: `Bearer ${reader.token}` };

  // ---------------------------------------------------------------------------------------------
  // 1. The seed.
  // ---------------------------------------------------------------------------------------------
  const seedStarted = performance.now();
  const seeding = await sql.connect();
  try {
    await seeding.query('BEGIN');
    for (const statement of SEED_STATEMENTS) {
      const parameters = statement.includes('$1') ? [reader.id, reader.email] : [];
      await seeding.query(statement, parameters);
    }
    await seeding.query('COMMIT');
  } catch (error) {
    await seeding.query('ROLLBACK');
    throw error;
  } finally {
    seeding.release();
  }
  await sql.query(
    'ANALYZE "User"; ANALYZE "Message"; ANALYZE "MessageRecipient"; ANALYZE "MessageAttachment"; ANALYZE "StoredFile"',
  );
  const seedMs = performance.now() - seedStarted;
  const [totals] = (
    await sql.query<{ messages: string; recipients: string; files: string }>(
      `SELECT (SELECT count(*) FROM "Message") AS messages, (SELECT count(*) FROM "MessageRecipient") AS recipients,
              (SELECT count(*) FROM "MessageAttachment") AS files`,
    )
  ).rows;
  const [inbox] = (
    await sql.query<{ received: string; listed: string; read: string; withFiles: string; cc: string }>(
      `SELECT count(*) AS received, count(*) FILTER (WHERE r."deletedAt" IS NULL) AS listed,
              count(r."readAt") AS read, count(*) FILTER (WHERE r.kind = 'CC') AS cc,
              count(*) FILTER (WHERE EXISTS (SELECT 1 FROM "MessageAttachment" a WHERE a."messageId" = r."messageId")) AS "withFiles"
         FROM "MessageRecipient" r WHERE r."userId" = $1`,
      [reader.id],
    )
  ).rows;
  line(
    `1. seeded by SQL in one transaction (+ ANALYZE)`,
    `${(seedMs / 1000).toFixed(1)} s: ${count(Number(totals?.messages))} messages, ` +
      `${count(Number(totals?.recipients))} recipient rows, ${count(Number(totals?.files))} attachments`,
  );
  line(
    '   the measured account receives',
    `${count(Number(inbox?.received))} (${count(Number(inbox?.cc))} as Cc); listed ${count(Number(inbox?.listed))} ` +
      `(the rest deleted on its side); read ${count(Number(inbox?.read))}; with files ${count(Number(inbox?.withFiles))}`,
  );

  // ---------------------------------------------------------------------------------------------
  // 2. The received list: the API over HTTP, next to the same page by hand.
  // ---------------------------------------------------------------------------------------------
  const getPage = async (baseUrl: string, before?: string): Promise<MessageListResponse> => {
    const url = new URL('/api/message/received', baseUrl);
    if (before !== undefined) url.searchParams.set('before', before);
    const response = await fetch(url, { headers: bearer });
    if (response.status !== 200) throw new Error(`${url.pathname} answered ${response.status}`);
    return (await response.json()) as MessageListResponse;
  };
  const ids = (rows: readonly { id: string }[]) => JSON.stringify(rows.map(({ id }) => id));

  const firstPage = await getPage(stack.apiUrl);
  const firstByHand = await sql.query<{ id: string }>(RECEIVED_BY_HAND, [reader.id]);
  if (
    firstPage.messages.length !== MESSAGE_LIST_PAGE_SIZE ||
    ids(firstPage.messages) !== ids(firstByHand.rows)
  )
    throw new Error('the API and the statement by hand list different first pages');

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
  const apiTimes: number[] = [];
  const sqlTimes: number[] = [];
  const floorTimes: number[] = [];
  try {
    await waitFor(
      async () => ((await fetch(`${baselineUrl}/hello`)).ok ? true : undefined),
      'the baseline server',
    );
    if (ids((await getPage(baselineUrl)).messages) !== ids(firstByHand.rows))
      throw new Error('the baseline server lists another first page');
    const contenders = [
      { samples: apiTimes, run: () => getPage(stack.apiUrl) },
      { samples: sqlTimes, run: () => sql.query(RECEIVED_BY_HAND, [reader.id]) },
      { samples: floorTimes, run: () => getPage(baselineUrl) },
    ];
    for (let round = 0; round < WARM_UP + REQUESTS; round += 1) {
      for (const { samples, run } of contenders) {
        const started = performance.now();
        await run();
        if (round >= WARM_UP) samples.push(performance.now() - started);
      }
    }
  } finally {
    await baselineServer.stop();
  }
  const firstRatio = percentile(apiTimes, 95) / percentile(sqlTimes, 95);
  line(
    `2. GET /api/message/received, first page (${MESSAGE_LIST_PAGE_SIZE}), HTTP, ${REQUESTS}×`,
    spread(apiTimes),
  );
  line('   the same page by hand in SQL (node-postgres, this process)', spread(sqlTimes));
  line(
    `   p95 ratio API / SQL (goal ≤ ${GOALS.receivedP95VsSql}×)`,
    `${firstRatio.toFixed(2)}×${firstRatio <= GOALS.receivedP95VsSql ? '' : '  ← over the goal'} ` +
      `(p50 ${(percentile(apiTimes, 50) / percentile(sqlTimes, 50)).toFixed(2)}×)`,
  );
  line(
    '   reference: that statement over HTTP (Fastify + jwt + pg)',
    `${spread(floorTimes)}; API / it ${(percentile(apiTimes, 95) / percentile(floorTimes, 95)).toFixed(2)}× at p95`,
  );

  // The 100th page: the cursor of the 99th page's last row.
  let before = firstPage.nextCursor;
  for (let page = 2; page < DEEP_PAGE; page += 1) {
    if (before === null) throw new Error(`the list ended before page ${page}`);
    before = (await getPage(stack.apiUrl, before)).nextCursor;
  }
  if (before === null) throw new Error(`the list ended before page ${DEEP_PAGE}`);
  const deepBefore = before;
  const [cursorAt, cursorId] = deepBefore.split('_') as [string, string];
  const deepPage = await getPage(stack.apiUrl, deepBefore);
  const deepByHand = await sql.query<{ id: string }>(RECEIVED_BEFORE_BY_HAND, [
    reader.id,
    cursorAt,
    cursorId,
  ]);
  if (ids(deepPage.messages) !== ids(deepByHand.rows))
    throw new Error(`the API and the statement by hand list different pages ${DEEP_PAGE}`);
  const deepApiTimes: number[] = [];
  const deepSqlTimes: number[] = [];
  for (let round = 0; round < 10 + DEEP_REQUESTS; round += 1) {
    let started = performance.now();
    await getPage(stack.apiUrl, deepBefore);
    if (round >= 10) deepApiTimes.push(performance.now() - started);
    started = performance.now();
    await sql.query(RECEIVED_BEFORE_BY_HAND, [reader.id, cursorAt, cursorId]);
    if (round >= 10) deepSqlTimes.push(performance.now() - started);
  }
  const deepRatio = percentile(deepApiTimes, 95) / percentile(deepSqlTimes, 95);
  line(
    `   page ${DEEP_PAGE} through the cursor (rows ${count((DEEP_PAGE - 1) * MESSAGE_LIST_PAGE_SIZE + 1)}–), HTTP, ${DEEP_REQUESTS}×`,
    spread(deepApiTimes),
  );
  line('   the same page by hand in SQL', `${spread(deepSqlTimes)}; p95 ratio ${deepRatio.toFixed(2)}×`);

  const explain = async (parameters: unknown[]) =>
    ((
      await sql.query<{ 'QUERY PLAN': ExplainResult[] }>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${RECEIVED_SQL_OF_API}`,
        parameters,
      )
    ).rows[0]?.['QUERY PLAN'] ?? [])[0];
  const plans = [
    { page: 'first page', plan: await explain([reader.id, null, null, MESSAGE_LIST_PAGE_SIZE]) },
    {
      page: `page ${DEEP_PAGE}`,
      plan: await explain([reader.id, cursorAt, cursorId, MESSAGE_LIST_PAGE_SIZE]),
    },
  ];
  for (const { page, plan } of plans) {
    if (!plan) throw new Error('EXPLAIN answered no plan');
    const nodes = planNodes(plan.Plan);
    const isSorted = nodes.some((node) => node['Node Type'].includes('Sort'));
    line(
      `   plan of the API's statement (RECEIVED_SQL), ${page}`,
      `planning ${plan['Planning Time'].toFixed(3)} ms, execution ${plan['Execution Time'].toFixed(3)} ms; ` +
        (isSorted ? 'SORTS (does not walk an index in order)' : 'walks the index in order, no sort'),
    );
    for (const text of planLines(plan.Plan)) console.log(`     ${text}`);
  }

  // ---------------------------------------------------------------------------------------------
  // 3. The API's memory while 10 MB files arrive: one, then ten at once.
  // ---------------------------------------------------------------------------------------------
  const apiPid = stack.apiProcess.child.pid;
  if (apiPid === undefined) throw new Error('the API process has no pid');
  const recipient = `bench-messages-1@example.com`;
  const sentFiles = Array.from({ length: 1 + AT_ONCE }, () => randomBytes(FILE_BYTES));
  const sentHashes = new Set(sentFiles.map((file) => createHash('sha256').update(file).digest('hex')));
  // Encoded before the clock starts: this process only writes bytes during a burst.
  const bodyOf = (index: number) =>
    new TextEncoder().encode(
      JSON.stringify({
        to: recipient,
        cc: '',
        bcc: '',
        subject: `Big file ${index}`,
        body: 'The measurements are in the attached file.',
        attachments: [
          { name: `measurements-${index}.bin`, content: sentFiles[index]?.toString('base64') ?? '' },
        ],
      }),
    );
  /** Posts the bodies at once while sampling the API's RSS: RSS figures, total time, each request's time. */
  const sendAtOnce = async (bodies: readonly Uint8Array<ArrayBuffer>[]) => {
    const watch = await watchRss(apiPid);
    const started = performance.now();
    const each = await Promise.all(
      bodies.map(async (body) => {
        const response = await fetch(new URL('/api/message/add', stack.apiUrl), {
          method: 'POST',
          headers: { ...bearer, 'content-type': 'application/json' },
          body,
        });
        if (response.status !== 200)
          throw new Error(`POST /api/message/add answered ${response.status}: ${await response.text()}`);
        await response.json();
        return performance.now() - started;
      }),
    );
    const elapsed = performance.now() - started;
    return { ...(await watch.stop()), elapsed, each };
  };
  const oneBody = [bodyOf(0)];
  const tenBodies = Array.from({ length: AT_ONCE }, (_, index) => bodyOf(index + 1));
  const bodyBytes = oneBody[0]?.byteLength ?? 0;
  const one = await sendAtOnce(oneBody);
  // The mail jobs of the first send run in the worker; the API settles before the burst.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const ten = await sendAtOnce(tenBodies);
  const stored = (
    await sql.query<{ sha256: string }>(
      `SELECT encode(sha256(content), 'hex') AS sha256 FROM "StoredFile" WHERE "userId" = $1 AND size = $2`,
      [reader.id, FILE_BYTES],
    )
  ).rows;
  const intact = stored.filter(({ sha256 }) => sentHashes.has(sha256)).length;
  const alone = await storeWriteAlone(reader.id);
  const rate = (files: number, elapsed: number) => (files * FILE_BYTES) / MiB / (elapsed / 1000);
  const perMessage = ten.growth / AT_ONCE;
  line(
    `3. one 10 MB file (JSON body ${mb(bodyBytes)}): API RSS before / peak`,
    `${mb(one.before)} / ${mb(one.peak)} (+${mb(one.growth)}), ${(one.elapsed / 1000).toFixed(2)} s, ` +
      `${rate(1, one.elapsed).toFixed(1)} MB/s`,
  );
  line(
    `   ten 10 MB files at once: API RSS before / peak`,
    `${mb(ten.before)} / ${mb(ten.peak)} (+${mb(ten.growth)}), ${(ten.elapsed / 1000).toFixed(2)} s, ` +
      `${rate(AT_ONCE, ten.elapsed).toFixed(1)} MB/s`,
  );
  line(
    '   ten at once: growth / the growth for one file',
    `${(ten.growth / Math.max(1, one.growth)).toFixed(1)}×; ${mb(perMessage)} per message in the burst ` +
      `(${(perMessage / FILE_BYTES).toFixed(1)}× its file)`,
  );
  line(
    '   ten at once: answered after',
    `first ${(Math.min(...ten.each) / 1000).toFixed(2)} s, median ${(percentile(ten.each, 50) / 1000).toFixed(2)} s, ` +
      `last ${(Math.max(...ten.each) / 1000).toFixed(2)} s`,
  );
  line(
    '   RSS samples one / ten at once: count, longest gap, peak at',
    `${one.samples} / ${ten.samples}, ${one.longestGap} / ${ten.longestGap} ms, ` +
      `${(one.peakAfter / 1000).toFixed(2)} / ${(ten.peakAfter / 1000).toFixed(2)} s`,
  );
  line(
    `   files stored, byte for byte (goal ${sentFiles.length})`,
    `${intact} of ${stored.length} stored at 10 MB`,
  );
  line(
    "   the file store's write alone, one 10 MB file, fresh process",
    `RSS ${mb(alone.before)} / ${mb(alone.peak)} (+${mb(alone.growth)}, ${(alone.growth / FILE_BYTES).toFixed(1)}× ` +
      `the file, which it already held), ${(alone.elapsed / 1000).toFixed(2)} s`,
  );
  if (ten.growth / MiB > RSS_GROWTH_WARNING_MB)
    console.log(
      `   WARNING: ten 10 MB files at once grew the API by ${mb(ten.growth)}, over ${RSS_GROWTH_WARNING_MB} MB.`,
    );
  console.log(
    "   Where it goes: the store's write (Prisma + node-postgres) is measured above; the rest is a reading " +
      `of the code: the request is held as its JSON body (${mb(bodyBytes)}), then the parsed base64 string ` +
      `(${mb(bodyBytes)}) and the decoded Buffer (10 MB); the store copies that into a Uint8Array, Prisma's ` +
      'client turns it into base64 for its query protocol and back, node-postgres writes it into a Bind ' +
      'message. Two messages with files are written at once (FILE_WRITES_AT_ONCE); the others wait ' +
      'holding their body and parsed string.',
  );

  // ---------------------------------------------------------------------------------------------
  const rows: [string, string, string, string, string][] = [
    ['figure', 'product', 'baseline (same run)', 'ratio', 'goal'],
    [
      'received, first page, p95',
      ms(percentile(apiTimes, 95)),
      `${ms(percentile(sqlTimes, 95))} SQL by hand`,
      `${firstRatio.toFixed(2)}×`,
      `≤ ${GOALS.receivedP95VsSql}× ${firstRatio <= GOALS.receivedP95VsSql ? 'met' : 'MISSED'}`,
    ],
    [
      'received, first page, p50',
      ms(percentile(apiTimes, 50)),
      `${ms(percentile(sqlTimes, 50))} SQL by hand`,
      `${(percentile(apiTimes, 50) / percentile(sqlTimes, 50)).toFixed(2)}×`,
      '',
    ],
    [
      'received, first page, p95 (reference)',
      ms(percentile(apiTimes, 95)),
      `${ms(percentile(floorTimes, 95))} by hand over HTTP`,
      `${(percentile(apiTimes, 95) / percentile(floorTimes, 95)).toFixed(2)}×`,
      '',
    ],
    [
      `received, page ${DEEP_PAGE}, p95`,
      ms(percentile(deepApiTimes, 95)),
      `${ms(percentile(deepSqlTimes, 95))} SQL by hand`,
      `${deepRatio.toFixed(2)}×`,
      '',
    ],
    [
      'API peak RSS growth, ten 10 MB files at once',
      `+${mb(ten.growth)}`,
      `+${mb(one.growth)} one file`,
      `${(ten.growth / Math.max(1, one.growth)).toFixed(1)}×`,
      `flag > ${RSS_GROWTH_WARNING_MB} MB: ${ten.growth / MiB > RSS_GROWTH_WARNING_MB ? 'OVER' : 'under'}`,
    ],
    [
      'throughput, ten 10 MB files at once',
      `${rate(AT_ONCE, ten.elapsed).toFixed(1)} MB/s`,
      `${rate(1, one.elapsed).toFixed(1)} MB/s one file`,
      `${(rate(AT_ONCE, ten.elapsed) / rate(1, one.elapsed)).toFixed(2)}×`,
      '',
    ],
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  console.log('\nSummary');
  for (const [index, row] of rows.entries()) {
    console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
  console.log(
    `HTTP: fetch with keep-alive, response read and parsed; SQL: pool.query, rows parsed. 1-min load ` +
      `average at end ${(os.loadavg()[0] ?? 0).toFixed(2)}.`,
  );
} finally {
  await sql.end();
  await db.$disconnect();
  await stack.stop();
}
