/**
 * Datasets and queries at size, each figure next to a baseline measured in the same run:
 *  (a) the first page of a query with two filters and a two-field sort over 1,000,000 rows
 *      (GET /api/query/showqueryresult, with totalOfRows) — p50/p95 — next to the same page and
 *      count written by hand in SQL against the dataset's typed, indexed table (node-postgres);
 *  (b) filling 10,000 rows by key through the product's path (a run's end: its GET_TABLE step read
 *      back, rows built and upserted in the transaction that ends the run) — rows/s, first insert
 *      and then update — next to a hand-written multi-row INSERT … ON CONFLICT through node-postgres
 *      into a twin table with the same columns and indexes;
 *  (c) exporting 1,000,000 rows (GET /api/query/export/excel): time and the API's peak RSS growth,
 *      next to exceljs's streaming writer writing the same rows from memory into the same workbook
 *      (date cells formatted, as the export does; plain cells also shown, for reference);
 *  (d) exporting small results, 10 and 5,000 rows (written on the API thread, issue 23): time to
 *      first byte and total — p50 — next to exceljs's streaming writer writing the same rows from
 *      memory, and to a JSON call (a page of the same result) in the same run.
 * Run: pnpm bench:datasets  (needs PostgreSQL and Redis; starts its own stack and database; uses the
 * build unless BENCH_USE_SOURCE=1). BENCH_DATASET_ROWS changes the million.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import request from 'supertest';
import { createPrismaClient, datasetTable, fieldColumn } from '@pagewright/db';
import { createRunStore } from '@pagewright/worker';
import type { DatasetEditResponse, LabelColumnRow, QueryFieldStepResponse } from '@pagewright/shared';
import { createConfirmedUser } from '../tests/support/accounts.js';
import { startStack } from '../tests/support/stack.js';
import { createQueryOfRows, writeWorkbookFromMemory } from './support/export-workbook.js';
import { benchNodeArgs } from './support/node-args.js';

const ROWS = Number(process.env.BENCH_DATASET_ROWS ?? 1_000_000);
const FILL_ROWS = 10_000;
const FILL_ROUNDS = 4;
const PAGE_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const PAGE_SIZE = 25;
const SMALL_EXPORT_ROUNDS = 20;
const GOALS = {
  pageVsSql: 1.5,
  pageP95Ms: 250,
  fillVsSql: 0.5,
  exportRssMb: 200,
  exportVsExceljs: 1.5,
  smallExportMs: 1000,
};
const CATEGORIES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const line = (label: string, text: string) => console.log(`${label.padEnd(58)} ${text}`);

const stack = await startStack({
  nodeArgs: benchNodeArgs('datasets'),
  useBuild: process.env.BENCH_USE_SOURCE !== '1',
  env: { LOG_LEVEL: 'error' },
  logDirectory: 'bench-logs',
});
const db = createPrismaClient(stack.databaseUrl);
const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 4 });
try {
  const user = await createConfirmedUser(stack.apiUrl, stack.mailUrl, 'bench');
  const auth = { Authorization: `Bearer ${user.accessToken}` };
  const api = () => request(stack.apiUrl);
  const { id: userId } = await db.user.findUniqueOrThrow({ where: { email: user.username } });

  // An extractor whose GET_TABLE reads four typed columns, and a dataset built on it by the wizard.
  const extractor = await db.extractor.create({
    data: { userId, name: 'Customers', description: 'Customers', extractorType: 'EXTRACTOR' },
  });
  await db.extractorAction.create({
    data: { extractorId: extractor.id, sequence: 10, type: 'NAVIGATE', textValue: 'https://example.com/' },
  });
  const tableAction = await db.extractorAction.create({
    data: {
      extractorId: extractor.id,
      sequence: 20,
      type: 'GET_TABLE',
      label: 'Customers',
      getTable: {
        create: {
          name: 'Customers',
          tableSelector: 'table',
          rowSelector: 'tr',
          columns: {
            create: [
              { sequence: 1, label: 'Name', selector: 'td:nth-child(1)', type: 'TEXT' },
              { sequence: 2, label: 'Amount', selector: 'td:nth-child(2)', type: 'NUMBER' },
              { sequence: 3, label: 'Date', selector: 'td:nth-child(3)', type: 'DATETIME' },
              { sequence: 4, label: 'Category', selector: 'td:nth-child(4)', type: 'TEXT' },
            ],
          },
        },
      },
    },
  });
  const created = await api()
    .post('/api/dataset/createdataset')
    .set(auth)
    .send({ type: 'CUSTOM', name: 'Customers', description: 'A million customers' })
    .expect(201);
  const datasetId = (created.body as { id: string }).id;
  const fieldNames = ['Name', 'Amount', 'Date', 'Category'];
  await api()
    .post('/api/dataset/datasetfield')
    .set(auth)
    .send({
      fields: [
        { name: 'Name', type: 'TEXT', dataSetKey: true },
        { name: 'Amount', type: 'NUMBER', dataSetKey: false },
        { name: 'Date', type: 'DATETIME', dataSetKey: false },
        { name: 'Category', type: 'TEXT', dataSetKey: false },
      ],
    })
    .expect(200);
  const offered = (
    (await api().get('/api/dataset/datasetlabelcolumn').set(auth).expect(200)).body as {
      labelTablesColumnsDto: LabelColumnRow[];
    }
  ).labelTablesColumnsDto.filter((row) => row.actionId === tableAction.id);
  await api()
    .post('/api/dataset/labeltablecolumnlist')
    .set(auth)
    .send({ rows: offered.map(({ actionId, tableColumnId }) => ({ actionId, tableColumnId })) })
    .expect(200);
  await api()
    .post('/api/dataset/save')
    .query({ datasetId })
    .set(auth)
    .send({
      rows: offered.map((row) => ({
        actionId: row.actionId,
        tableColumnId: row.tableColumnId,
        checkBoxes: fieldNames.map((name) => ({
          datasetFieldName: name,
          checked: name === row.extractorLabelTableColumnDto.tableColumnName,
        })),
      })),
    })
    .expect(200);
  const edited = (await api().get('/api/dataset/edit').query({ datasetId }).set(auth).expect(200))
    .body as DatasetEditResponse;
  await api().get('/api/dataset/canceldataset').set(auth).expect(200);
  const fieldId = new Map(edited.datasetFieldDtoList.map((field) => [field.name, field.id as string]));
  const column = (name: string) => fieldColumn(fieldId.get(name) as string);
  const table = datasetTable(datasetId);

  console.log(
    `datasets benchmark — ${ROWS.toLocaleString('en')} rows, ${FILL_ROWS.toLocaleString('en')} filled by key`,
  );

  // ---------------------------------------------------------------------------------------------
  // (b) Filling by key: the product's run end vs a hand-written upsert into a twin table.
  // ---------------------------------------------------------------------------------------------
  await pool.query(`CREATE SCHEMA IF NOT EXISTS bench_baseline`);
  await pool.query(`DROP TABLE IF EXISTS bench_baseline.fill_twin`);
  await pool.query(`CREATE TABLE bench_baseline.fill_twin (LIKE ${table} INCLUDING ALL)`);
  const fillRows = (round: number) =>
    Array.from({ length: FILL_ROWS }, (_, i) => [
      `Filled ${i}`,
      Math.round((i * 7.31 + round) * 100) / 100,
      new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
      CATEGORIES[(i + round) % CATEGORIES.length] as string,
    ]);
  const store = createRunStore(db);
  async function productFill(round: number): Promise<number> {
    const run = await db.run.create({
      data: { extractorId: extractor.id, userId, status: 'EXECUTING', trigger: 'MANUAL' },
    });
    await db.runStep.create({
      data: {
        runId: run.id,
        sequence: 20,
        actionId: tableAction.id,
        actionType: 'GET_TABLE',
        pageUrl: 'https://example.com/',
        value: {
          kind: 'table',
          columns: [
            { label: 'Name', type: 'TEXT' },
            { label: 'Amount', type: 'NUMBER' },
            { label: 'Date', type: 'DATETIME' },
            { label: 'Category', type: 'TEXT' },
          ],
          rows: fillRows(round),
        },
      },
    });
    const started = performance.now();
    const ended = await store.finishRun(run.id, { status: 'SUCCESS' });
    const took = performance.now() - started;
    if (ended?.status !== 'SUCCESS') throw new Error(`the run ended ${JSON.stringify(ended)}`);
    return took;
  }
  const twin = 'bench_baseline.fill_twin';
  const twinColumns = ['Name', 'Amount', 'Date', 'Category'].map(column);
  async function baselineFill(round: number): Promise<number> {
    const rows = fillRows(round);
    const client = await pool.connect();
    const started = performance.now();
    try {
      await client.query('BEGIN');
      for (let start = 0; start < rows.length; start += 1000) {
        const batch = rows.slice(start, start + 1000);
        const values = batch.map(
          (_, r) => `($${r * 4 + 1}, $${r * 4 + 2}::numeric, $${r * 4 + 3}::timestamptz, $${r * 4 + 4})`,
        );
        await client.query(
          `INSERT INTO ${twin} (${twinColumns.join(', ')}) VALUES ${values.join(', ')}
           ON CONFLICT (${twinColumns[0]}) DO UPDATE SET ${twinColumns
             .slice(1)
             .map((c) => `${c} = EXCLUDED.${c}`)
             .join(', ')}, _updated_at = now()`,
          batch.flat(),
        );
      }
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    return performance.now() - started;
  }
  const product: number[] = [];
  const baseline: number[] = [];
  for (let round = 0; round < FILL_ROUNDS; round += 1) {
    product.push(await productFill(round));
    baseline.push(await baselineFill(round));
  }
  const [rowCount] = (await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows;
  if (Number(rowCount?.n) !== FILL_ROWS)
    throw new Error(`the dataset holds ${rowCount?.n} rows, not ${FILL_ROWS}`);
  const rate = (took: number) => (FILL_ROWS / took) * 1000;
  const updates = (values: number[]) => percentile(values.slice(1), 50);
  line(
    '(b) fill 10,000 rows, first run (inserts): product',
    `${rate(product[0]!).toFixed(0)} rows/s (${ms(product[0]!)})`,
  );
  line(
    '    hand-written INSERT … ON CONFLICT',
    `${rate(baseline[0]!).toFixed(0)} rows/s (${ms(baseline[0]!)})`,
  );
  line('    ratio (goal ≥ 0.5×)', `${(baseline[0]! / product[0]!).toFixed(2)}×`);
  line(
    '(b) fill 10,000 rows again (updates by key): product',
    `${rate(updates(product)).toFixed(0)} rows/s (${ms(updates(product))})`,
  );
  line(
    '    hand-written INSERT … ON CONFLICT',
    `${rate(updates(baseline)).toFixed(0)} rows/s (${ms(updates(baseline))})`,
  );
  line('    ratio (goal ≥ 0.5×)', `${(updates(baseline) / updates(product)).toFixed(2)}×`);

  // ---------------------------------------------------------------------------------------------
  // (a) The first page of a filtered, sorted query over the million rows.
  // ---------------------------------------------------------------------------------------------
  const loadStarted = performance.now();
  await pool.query(
    `INSERT INTO ${table} (${column('Name')}, ${column('Amount')}, ${column('Date')}, ${column('Category')})
     SELECT 'Customer ' || g, round((random() * 10000)::numeric, 2),
            timestamptz '2020-01-01 00:00:00+00' + random() * interval '6 years',
            (ARRAY['${CATEGORIES.join("','")}'])[1 + g % ${CATEGORIES.length}]
     FROM generate_series(1, ${ROWS - FILL_ROWS}) AS g`,
  );
  await pool.query(`ANALYZE ${table}`);
  await db.dataset.update({ where: { id: datasetId }, data: { rowCount: ROWS } });
  line('    (setup: rows loaded by SQL)', `${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

  const filters = [
    { datasetFieldId: fieldId.get('Amount'), operatorId: 9, inputValue: '9000' },
    { datasetFieldId: fieldId.get('Date'), operatorId: 17, inputValue: '2025-01-01' },
  ];
  async function openQuery(name: string, withFilters: boolean): Promise<string> {
    const query = await api()
      .post('/api/query/createquery')
      .set(auth)
      .send({ name, description: name, timeZone: 'UTC' })
      .expect(201);
    await api().post('/api/query/dataset').set(auth).send({ datasetId }).expect(200);
    const step2 = (await api().post('/api/query/datasetfieldquery').set(auth).send({}).expect(200))
      .body as QueryFieldStepResponse;
    const order: Record<string, { orderType: string; orderSequence: number }> = withFilters
      ? {
          Date: { orderType: 'ASCENDING', orderSequence: 1 },
          Amount: { orderType: 'DESCENDING', orderSequence: 2 },
        }
      : {};
    await api()
      .post('/api/query/fieldselected')
      .set(auth)
      .send({
        fields: step2.datasetFieldList.map((field) => ({
          datasetFieldId: field.datasetFieldId,
          ...order[field.name],
        })),
      })
      .expect(200);
    await api()
      .post('/api/query/filterinputvalue')
      .set(auth)
      .send({ filters: withFilters ? filters : [] })
      .expect(200);
    return (query.body as { id: string }).id;
  }
  await openQuery('Big spenders of 2025', true);
  const where = `${column('Amount')} > $1 AND ${column('Date')} >= $2::timestamptz`;
  const sqlPage = async () =>
    Promise.all([
      pool.query(
        `SELECT ${column('Name')}, ${column('Amount')}::text, ${column('Date')}, ${column('Category')} FROM ${table}
         WHERE ${where} ORDER BY ${column('Date')} ASC, ${column('Amount')} DESC, _row_id LIMIT ${PAGE_SIZE} OFFSET 0`,
        ['9000', '2025-01-01T00:00:00Z'],
      ),
      pool.query(`SELECT count(*) FROM ${table} WHERE ${where}`, ['9000', '2025-01-01T00:00:00Z']),
    ]);
  let total = 0;
  const apiPage = async () => {
    const page = await api()
      .get('/api/query/showqueryresult')
      .query({ page: 0, size: PAGE_SIZE })
      .set(auth)
      .expect(200);
    total = (page.body as { totalOfRows: number }).totalOfRows;
  };
  const [sqlCount] = await sqlPage().then(([, count]) => count.rows as { count: string }[]);
  await apiPage();
  if (total !== Number(sqlCount?.count)) throw new Error(`the API counts ${total}, SQL ${sqlCount?.count}`);
  const apiTimes: number[] = [];
  const sqlTimes: number[] = [];
  for (let round = 0; round < PAGE_ROUNDS; round += 1) {
    let started = performance.now();
    await apiPage();
    apiTimes.push(performance.now() - started);
    started = performance.now();
    await sqlPage();
    sqlTimes.push(performance.now() - started);
  }
  line(
    `(a) first page (${PAGE_SIZE} rows of ${total.toLocaleString('en')}), 2 filters, 2-field sort: API`,
    `p50 ${ms(percentile(apiTimes, 50))} / p95 ${ms(percentile(apiTimes, 95))} (goal p95 ≤ ${GOALS.pageP95Ms} ms)`,
  );
  line(
    '    hand-written SQL (page + count), node-postgres',
    `p50 ${ms(percentile(sqlTimes, 50))} / p95 ${ms(percentile(sqlTimes, 95))}`,
  );
  line(
    '    ratio of p50s (goal ≤ 1.5×)',
    `${(percentile(apiTimes, 50) / percentile(sqlTimes, 50)).toFixed(2)}×`,
  );

  // ---------------------------------------------------------------------------------------------
  // (c) Exporting every row.
  // ---------------------------------------------------------------------------------------------
  const everyRowId = await openQuery('Everyone', false);
  await api().get('/api/query/save').query({ queryId: everyRowId }).set(auth).expect(200);
  const apiPid = Number(
    /pid=(\d+)/u.exec(
      execFileSync('ss', ['-Hltnp', `sport = :${new URL(stack.apiUrl).port}`]).toString(),
    )?.[1],
  );
  const rssMb = () =>
    Number(/VmRSS:\s+(\d+)/u.exec(readFileSync(`/proc/${apiPid}/status`, 'utf8'))?.[1]) / 1024;
  const rssBefore = rssMb();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb())), 50);
  const exportStarted = performance.now();
  const exported = await new Promise<number>((resolve, reject) => {
    const url = new URL(`/api/query/export/excel?queryId=${everyRowId}`, stack.apiUrl);
    http
      .get(url, { headers: auth }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`export answered ${response.statusCode}`));
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => resolve(bytes));
        response.on('error', reject);
      })
      .on('error', reject);
  });
  const exportMs = performance.now() - exportStarted;
  clearInterval(sampler);

  // The same rows from memory through exceljs's streaming writer, to a sink.
  const { rows: inMemory } = await pool.query({
    text: `SELECT ${column('Name')}, ${column('Amount')}::float8, ${column('Date')}, ${column('Category')} FROM ${table} ORDER BY _row_id`,
    rowMode: 'array',
  });
  const writerMs = await writeWorkbookFromMemory(inMemory as unknown[][]);
  const plainWriterMs = await writeWorkbookFromMemory(inMemory as unknown[][], { asExported: false });
  line(
    `(c) export ${ROWS.toLocaleString('en')} rows as xlsx: API`,
    `${(exportMs / 1000).toFixed(1)} s, ${(exported / 1024 / 1024).toFixed(1)} MiB, peak RSS +${(rssPeak - rssBefore).toFixed(0)} MB (goal ≤ ${GOALS.exportRssMb} MB)`,
  );
  line('    exceljs WorkbookWriter from memory, same workbook', `${(writerMs / 1000).toFixed(1)} s`);
  line('    ratio (goal ≤ 1.5×)', `${(exportMs / writerMs).toFixed(2)}×`);
  line(
    '    (exceljs from memory, plain cells: no date format)',
    `${(plainWriterMs / 1000).toFixed(1)} s, ratio ${(exportMs / plainWriterMs).toFixed(2)}×`,
  );

  // ---------------------------------------------------------------------------------------------
  // (d) Small exports: written on the API thread, from rows read at once.
  // ---------------------------------------------------------------------------------------------
  /** One export over HTTP: when its first byte came and when its last did. */
  const timedExport = (queryId: string) =>
    new Promise<{ firstByteMs: number; totalMs: number }>((resolve, reject) => {
      const started = performance.now();
      let firstByteMs = 0;
      http
        .get(
          new URL(`/api/query/export/excel?queryId=${queryId}`, stack.apiUrl),
          { headers: auth },
          (response) => {
            if (response.statusCode !== 200) reject(new Error(`export answered ${response.statusCode}`));
            response.on('data', () => (firstByteMs ||= performance.now() - started));
            response.on('end', () => resolve({ firstByteMs, totalMs: performance.now() - started }));
            response.on('error', reject);
          },
        )
        .on('error', reject);
    });
  for (const count of [10, 5000]) {
    const { queryId, rows } = await createQueryOfRows({
      apiUrl: stack.apiUrl,
      auth,
      db,
      pool,
      userId,
      count,
    });
    const firstBytes: number[] = [];
    const totals: number[] = [];
    const writers: number[] = [];
    await timedExport(queryId);
    for (let round = 0; round < SMALL_EXPORT_ROUNDS; round += 1) {
      const { firstByteMs, totalMs } = await timedExport(queryId);
      firstBytes.push(firstByteMs);
      totals.push(totalMs);
      writers.push(await writeWorkbookFromMemory(rows));
    }
    const p50 = (values: number[]) => percentile(values, 50);
    line(
      `(d) export ${count.toLocaleString('en')} rows as xlsx: API, first byte / total`,
      `p50 ${ms(p50(firstBytes))} / ${ms(p50(totals))} (goal total ≤ ${GOALS.smallExportMs} ms)`,
    );
    line('    exceljs WorkbookWriter from memory, same workbook', `p50 ${ms(p50(writers))}`);
    line('    ratio of p50 totals', `${(p50(totals) / p50(writers)).toFixed(2)}×`);
  }
  const pageTimes: number[] = [];
  for (let round = 0; round < SMALL_EXPORT_ROUNDS; round += 1) {
    const started = performance.now();
    await api().get('/api/query/querydashboard').set(auth).expect(200);
    pageTimes.push(performance.now() - started);
  }
  line('    (a JSON call in the same run: the query list)', `p50 ${ms(percentile(pageTimes, 50))}`);
} finally {
  await pool.end();
  await db.$disconnect();
  await stack.stop();
}
