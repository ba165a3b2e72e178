/**
 * Query exports as the SPA asks for them (issue 27: "query export of a small query (10 rows): ≤ 1 s
 * on a quiet host; ≤ 1.5× exceljs writing the same rows"), each figure next to a baseline measured
 * in the same run, round by round:
 *  1. GET /api/query/export/excel of a 10-row query over HTTP (fetch, keep-alive, the whole body
 *     read), BENCH_EXPORTS times (20) after 3 untimed: the wizard's export of its draft (the call
 *     the Export button makes) and a saved query's (?queryId=): headers and last byte, p50/p95;
 *     beside exceljs's streaming writer writing the same 10 rows into a buffer in this process
 *     (the same workbook: date format, column widths) and an authenticated JSON call (the query
 *     list) as the floor of any call;
 *  2. the same export of 10,000 rows (a writer thread's work), for context.
 * Run: pnpm bench:exports  (needs PostgreSQL and Redis; starts its own stack and database; uses the
 * build unless BENCH_USE_SOURCE=1). The header and footer print the load average.
 */
import os from 'node:os';
import { Writable } from 'node:stream';
import pg from 'pg';
import request from 'supertest';
import { createPrismaClient } from '@pagewright/db';
import { createConfirmedUser } from '../tests/support/accounts.js';
import { startStack } from '../tests/support/stack.js';
import { createQueryOfRows, writeWorkbookFromMemory } from './support/export-workbook.js';
import { benchNodeArgs } from './support/node-args.js';

const EXPORTS = Number(process.env.BENCH_EXPORTS ?? 20);
const WARM_UP = 3;
const LARGE_ROWS = 10_000;
const LARGE_EXPORTS = 5;
const GOALS = { smallTotalMs: 1000, smallVsExceljs: 1.5 };

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const p50p95 = (values: readonly number[]) =>
  `p50 ${ms(percentile(values, 50))} / p95 ${ms(percentile(values, 95))}`;
const line = (label: string, text: string) => console.log(`${label.padEnd(60)} ${text}`);
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

const loadAtStart = load();
const stack = await startStack({
  nodeArgs: benchNodeArgs('exports'),
  useBuild: process.env.BENCH_USE_SOURCE !== '1',
  env: { LOG_LEVEL: 'error' },
  logDirectory: 'bench-logs',
});
const db = createPrismaClient(stack.databaseUrl);
const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
try {
  const user = await createConfirmedUser(stack.apiUrl, stack.mailUrl, 'bench');
  const auth = { Authorization: `Bearer ${user.accessToken}` };
  const { id: userId } = await db.user.findUniqueOrThrow({ where: { email: user.username } });
  const queryOf = (count: number) =>
    createQueryOfRows({ apiUrl: stack.apiUrl, auth, db, pool, userId, count });
  const small = await queryOf(10);
  const large = await queryOf(LARGE_ROWS);
  // The wizard open on the 10-row query: its draft is what the Export button exports.
  await request(stack.apiUrl)
    .get('/api/query/editquery')
    .query({ queryId: small.queryId })
    .set(auth)
    .expect(200);

  /** One call over HTTP, its whole body read: when its headers came, when its last byte did. */
  async function timedCall(path: string): Promise<{ headersMs: number; totalMs: number; bytes: number }> {
    const started = performance.now();
    const response = await fetch(new URL(path, stack.apiUrl), { headers: auth });
    const headersMs = performance.now() - started;
    const body = await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    return { headersMs, totalMs: performance.now() - started, bytes: body.byteLength };
  }
  /** exceljs writing `rows` into one buffer in this process, as the export writes them. */
  async function writeToBuffer(rows: readonly unknown[][]): Promise<{ totalMs: number; bytes: number }> {
    const chunks: Buffer[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    const started = performance.now();
    await writeWorkbookFromMemory(rows, { stream });
    const bytes = Buffer.concat(chunks).byteLength;
    return { totalMs: performance.now() - started, bytes };
  }

  const draftExport = '/api/query/export/excel';
  const savedExport = (queryId: string) => `/api/query/export/excel?queryId=${queryId}`;
  const figures = {
    draftHeaders: [] as number[],
    draft: [] as number[],
    savedHeaders: [] as number[],
    saved: [] as number[],
    exceljs: [] as number[],
    json: [] as number[],
  };
  let sizes = { api: 0, exceljs: 0 };
  for (let round = -WARM_UP; round < EXPORTS; round += 1) {
    const draft = await timedCall(draftExport);
    const saved = await timedCall(savedExport(small.queryId));
    const written = await writeToBuffer(small.rows);
    const json = await timedCall('/api/query/querydashboard');
    sizes = { api: saved.bytes, exceljs: written.bytes };
    if (round < 0) continue;
    figures.draftHeaders.push(draft.headersMs);
    figures.draft.push(draft.totalMs);
    figures.savedHeaders.push(saved.headersMs);
    figures.saved.push(saved.totalMs);
    figures.exceljs.push(written.totalMs);
    figures.json.push(json.totalMs);
  }

  const largeApi: number[] = [];
  const largeExceljs: number[] = [];
  for (let round = -1; round < LARGE_EXPORTS; round += 1) {
    const exported = await timedCall(savedExport(large.queryId));
    const written = await writeToBuffer(large.rows);
    if (round < 0) continue;
    largeApi.push(exported.totalMs);
    largeExceljs.push(written.totalMs);
  }

  const p50 = (values: readonly number[]) => percentile(values, 50);
  const p95 = (values: readonly number[]) => percentile(values, 95);
  console.log(
    `exports benchmark — ${EXPORTS} exports of 10 rows each way, ${LARGE_EXPORTS} of ${LARGE_ROWS.toLocaleString('en')}; ` +
      `${process.env.BENCH_USE_SOURCE === '1' ? 'source (tsx)' : 'build'}; load average at start ${loadAtStart}`,
  );
  line("10 rows, the wizard's export (draft): headers", p50p95(figures.draftHeaders));
  line('    last byte', `${p50p95(figures.draft)} (goal ≤ ${GOALS.smallTotalMs} ms)`);
  line('10 rows, a saved query (?queryId=): headers', p50p95(figures.savedHeaders));
  line('    last byte', `${p50p95(figures.saved)} (${(sizes.api / 1024).toFixed(1)} KiB)`);
  line(
    '    exceljs WorkbookWriter, same rows, to a buffer in-process',
    `${p50p95(figures.exceljs)} (${(sizes.exceljs / 1024).toFixed(1)} KiB)`,
  );
  line(
    `    ratio draft / exceljs (goal ≤ ${GOALS.smallVsExceljs}×)`,
    `p50 ${(p50(figures.draft) / p50(figures.exceljs)).toFixed(2)}× / p95 ${(p95(figures.draft) / p95(figures.exceljs)).toFixed(2)}×`,
  );
  line(
    '    ratio saved / exceljs',
    `p50 ${(p50(figures.saved) / p50(figures.exceljs)).toFixed(2)}× / p95 ${(p95(figures.saved) / p95(figures.exceljs)).toFixed(2)}×`,
  );
  line('    (an authenticated JSON call: the query list)', p50p95(figures.json));
  line(`${LARGE_ROWS.toLocaleString('en')} rows, a saved query: last byte`, p50p95(largeApi));
  line('    exceljs WorkbookWriter, same rows, to a buffer', p50p95(largeExceljs));
  line('    ratio of p50s', `${(p50(largeApi) / p50(largeExceljs)).toFixed(2)}×`);
  console.log(`load average at end ${load()}`);
} finally {
  await pool.end();
  await db.$disconnect();
  await stack.stop();
}
