import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@pagewright/shared';
import { createTestDatabase, dropTestDatabase } from '../test-support/test-database.js';
import { createPrismaClient } from '../index.js';
import { createPostgresFileStorage } from '../file-storage.js';
import { createDatasetTable } from './dataset-table.js';
import { fillDataset, type FillValue } from './dataset-fill.js';
import {
  DatasetQueryError,
  datasetQueryPage,
  datasetQueryPageAt,
  datasetsHoldFile,
  filterProblem,
  isSortedDatasetQuery,
  openDatasetQueryCursor,
  type DatasetQuery,
  type DatasetQueryColumn,
  type DatasetQueryFilter,
} from './dataset-query.js';
import { pgSql, type SqlRunner } from './sql-runner.js';

/** The dataset's SQL against a real PostgreSQL (a fresh database with every migration). */

const field = {
  name: { id: randomUUID(), type: 'TEXT' },
  amount: { id: randomUUID(), type: 'NUMBER' },
  at: { id: randomUUID(), type: 'DATETIME' },
  doc: { id: randomUUID(), type: 'FILE' },
} as const satisfies Record<string, DatasetQueryColumn>;
const datasetId = randomUUID();
const columns: DatasetQueryColumn[] = [field.name, field.amount, field.at, field.doc];

let database: { name: string; url: string };
let pool: pg.Pool;
let sql: SqlRunner;
let prisma: ReturnType<typeof createPrismaClient>;
const fileIds: Record<string, string> = {};

interface Row {
  name: string | null;
  amount: string | null;
  at: string | null;
  doc?: string;
}
const rows: Row[] = [
  { name: 'Alice', amount: '10.50', at: '2026-03-10T03:00:00Z', doc: 'alice-report.pdf' },
  { name: 'alice', amount: '-2', at: '2026-03-10T12:00:00Z' },
  { name: 'Bob', amount: '1000', at: '2026-03-01T00:00:00Z', doc: 'bob_100%.pdf' },
  { name: '50% off', amount: '0.001', at: '2025-12-31T23:30:00Z' },
  { name: 'a_b', amount: null, at: null },
  { name: 'back\\slash', amount: '7', at: '2026-01-15T10:00:00Z' },
  { name: '', amount: '7', at: '2026-02-28T10:00:00Z' },
  { name: null, amount: '99999999999999999999.123456789', at: '2026-03-09T23:59:59Z' },
];

const base: DatasetQuery = { datasetId, columns, filters: [], timeZone: 'UTC' };

async function names(filters: DatasetQueryFilter[], timeZone = 'UTC'): Promise<(string | null)[]> {
  const page = await datasetQueryPage(sql, { ...base, filters, timeZone }, { page: 0, size: 100 });
  expect(page.totalOfRows).toBe(page.rows.length);
  return page.rows.map((row) => row[0]?.value ?? null);
}
const on = (which: keyof typeof field, operatorId: number, inputValue: string | null = null) => ({
  field: field[which],
  operatorId,
  inputValue,
});

beforeAll(async () => {
  database = await createTestDatabase('pagewright_unit');
  pool = new pg.Pool({ connectionString: database.url, max: 3 });
  sql = pgSql(pool);
  prisma = createPrismaClient(database.url);
  const user = await prisma.user.create({
    data: {
      email: `${randomUUID()}@example.com`,
      firstName: 'A',
      lastName: 'B',
      passwordHash: 'x',
      passwordChangedAt: new Date(),
    },
  });
  const files = createPostgresFileStorage(prisma);
  for (const row of rows) {
    if (row.doc)
      fileIds[row.doc] = await files.put(Buffer.from(row.doc), {
        userId: user.id,
        name: row.doc,
        mimeType: 'application/pdf',
      });
  }
  await createDatasetTable(
    sql,
    datasetId,
    columns.map((column) => ({ id: column.id, type: column.type, isKey: false })),
  );
  await fillDataset(sql, {
    datasetId,
    fields: columns.map((column) => ({ id: column.id, type: column.type, isKey: false })),
    writtenFieldIds: columns.map((column) => column.id),
    rows: rows.map((row): Record<string, FillValue> => ({
      [field.name.id]: row.name,
      [field.amount.id]: row.amount,
      [field.at.id]: row.at,
      [field.doc.id]: row.doc ? fileIds[row.doc] : null,
    })),
    extractorId: null,
    runId: null,
  });
});

afterAll(async () => {
  // pool.end() resolves before its clients' sockets close: the database is dropped only once every
  // client has gone, else the drop's FORCE ends a closing connection and its error goes unhandled.
  const open = pool?.totalCount ?? 0;
  const closed = new Promise<void>((resolve) => {
    let removed = 0;
    if (open === 0) resolve();
    pool?.on('remove', () => {
      removed += 1;
      if (removed === open) resolve();
    });
  });
  await pool?.end();
  await closed;
  await prisma?.$disconnect();
  if (database) await dropTestDatabase(database.name);
});

describe('filters', () => {
  it('text: equals is exact, the others ignore case and take %, _ and \\ literally', async () => {
    expect(await names([on('name', 1, 'Alice')])).toEqual(['Alice']);
    expect(await names([on('name', 2, 'Alice')])).toEqual([
      'alice',
      'Bob',
      '50% off',
      'a_b',
      'back\\slash',
      '',
      null,
    ]);
    expect(await names([on('name', 3, 'LIC')])).toEqual(['Alice', 'alice']);
    expect(await names([on('name', 3, '%')])).toEqual(['50% off']);
    expect(await names([on('name', 3, '_')])).toEqual(['a_b']);
    expect(await names([on('name', 3, '\\')])).toEqual(['back\\slash']);
    expect(await names([on('name', 4, 'a')])).toEqual(['Bob', '50% off', '', null]);
    expect(await names([on('name', 5, 'A')])).toEqual(['Alice', 'alice', 'a_b']);
    expect(await names([on('name', 6, 'OFF')])).toEqual(['50% off']);
    expect(await names([on('name', 1, 'x\'); DROP TABLE "StoredFile"; --')])).toEqual([]);
  });

  it('number: exact decimals, ≠ keeps empty cells', async () => {
    expect(await names([on('amount', 7, '7')])).toEqual(['back\\slash', '']);
    expect(await names([on('amount', 7, '10.5')])).toEqual(['Alice']);
    expect(await names([on('amount', 8, '7')])).toEqual(['Alice', 'alice', 'Bob', '50% off', 'a_b', null]);
    expect(await names([on('amount', 9, '10.5')])).toEqual(['Bob', null]);
    expect(await names([on('amount', 10, '0')])).toEqual(['alice']);
    expect(await names([on('amount', 11, '.001')])).toEqual([
      'Alice',
      'Bob',
      '50% off',
      'back\\slash',
      '',
      null,
    ]);
    expect(await names([on('amount', 12, '-2')])).toEqual(['alice']);
    expect(await names([on('amount', 7, '99999999999999999999.123456789')])).toEqual([null]);
  });

  it('dates are days of the query time zone', async () => {
    // 2026-03-10T03:00Z is the 9th in New York (UTC-4 since 8 March) and the 10th in UTC.
    expect(await names([on('at', 13, '2026-03-10')])).toEqual(['Alice', 'alice']);
    expect(await names([on('at', 13, '2026-03-09')], 'America/New_York')).toEqual(['Alice', null]);
    expect(await names([on('at', 14, '2026-03-10')])).toEqual([
      'Bob',
      '50% off',
      'a_b',
      'back\\slash',
      '',
      null,
    ]);
    expect(await names([on('at', 15, '2026-03-09')])).toEqual(['Alice', 'alice']);
    expect(await names([on('at', 16, '2026-01-01')])).toEqual(['50% off']);
    expect(await names([on('at', 16, '2026-01-01')], 'Europe/Berlin')).toEqual([]);
    expect(await names([on('at', 17, '2026-03-09')])).toEqual(['Alice', 'alice', null]);
    expect(await names([on('at', 18, '2026-03-01')])).toEqual(['Bob', '50% off', 'back\\slash', '']);
    expect(await names([on('at', 19, '2026-01-01;2026-02-28')])).toEqual(['back\\slash', '']);
    expect(await names([on('at', 19, '2026-02-28;2026-01-01')])).toEqual(['back\\slash', '']);
  });

  it('lists: trimmed items, empty ones dropped; numbers compare as numbers', async () => {
    expect(await names([on('name', 20, ' Bob ;; a_b;')])).toEqual(['Bob', 'a_b']);
    expect(await names([on('name', 21, 'Bob;a_b;Alice;alice')])).toEqual([
      '50% off',
      'back\\slash',
      '',
      null,
    ]);
    expect(await names([on('amount', 20, '7.0; 1000')])).toEqual(['Bob', 'back\\slash', '']);
  });

  it('empty and not empty (an empty text counts as empty)', async () => {
    expect(await names([on('name', 22)])).toEqual(['', null]);
    expect(await names([on('amount', 22)])).toEqual(['a_b']);
    expect(await names([on('doc', 23)])).toEqual(['Alice', 'Bob']);
    expect(await names([on('name', 23), on('amount', 23), on('at', 23)])).toHaveLength(5);
  });

  it('FILE fields compare the file name', async () => {
    expect(await names([on('doc', 3, '100%')])).toEqual(['Bob']);
    expect(await names([on('doc', 1, 'alice-report.pdf')])).toEqual(['Alice']);
    expect(await names([on('doc', 20, 'alice-report.pdf;nothing.pdf')])).toEqual(['Alice']);
  });

  it('refuses a filter that cannot run', () => {
    expect(filterProblem('TEXT', 3, '  ')?.message).toBe(MESSAGES['query.all.fields.mandatory']);
    expect(filterProblem('NUMBER', 7, '1e3')?.message).toBe(MESSAGES['query.value.not.number']);
    expect(filterProblem('NUMBER', 20, '1;x')?.message).toBe(MESSAGES['query.value.not.number']);
    expect(filterProblem('DATETIME', 13, '2026-02-30')?.message).toBe(MESSAGES['query.value.not.date']);
    expect(filterProblem('DATETIME', 19, '2026-02-01')?.message).toBe(MESSAGES['query.value.not.range']);
    expect(filterProblem('NUMBER', 3, 'x')).toEqual({
      field: 'operatorId',
      message: 'This operator does not apply to a NUMBER field',
    });
    expect(filterProblem('DATETIME', 25, null)).toBeNull();
    expect(filterProblem('TEXT', 24, null)?.field).toBe('operatorId');
  });

  it('the query refuses them too', async () => {
    await expect(
      datasetQueryPage(sql, { ...base, filters: [on('amount', 9, 'ten')] }, { page: 0, size: 5 }),
    ).rejects.toBeInstanceOf(DatasetQueryError);
  });
});

describe('relative days', () => {
  const relativeId = randomUUID();
  const at = { id: randomUUID(), type: 'DATETIME' } as const;
  const label = { id: randomUUID(), type: 'TEXT' } as const;
  const timeZone = 'Pacific/Kiritimati';

  beforeAll(async () => {
    const fields = [at, label].map((column) => ({ ...column, isKey: false }));
    await createDatasetTable(sql, relativeId, fields);
    // Noon of days counted back from today in the zone (UTC+14: its days are not UTC's).
    const days = [0, 1, 6, 7, 29, 30, 400, -1];
    const { rows: local } = await pool.query<{ day: number; at: string }>(
      `SELECT d AS day, to_char((((now() AT TIME ZONE $1)::date - d) + time '12:00') AT TIME ZONE $1 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at
       FROM unnest($2::int[]) AS d`,
      [timeZone, days],
    );
    await fillDataset(sql, {
      datasetId: relativeId,
      fields,
      writtenFieldIds: fields.map((column) => column.id),
      rows: local.map((row) => ({ [at.id]: row.at, [label.id]: String(row.day) })),
      extractorId: null,
      runId: null,
    });
  });

  const daysBack = async (operatorId: number) => {
    const page = await datasetQueryPage(
      sql,
      {
        datasetId: relativeId,
        columns: [label],
        filters: [{ field: at, operatorId, inputValue: null }],
        timeZone,
      },
      { page: 0, size: 25 },
    );
    return page.rows.map((row) => Number(row[0]?.value)).sort((a, b) => a - b);
  };

  it('today, the last 7 and 30 days (today included), this month and this year', async () => {
    expect(await daysBack(24)).toEqual([0]);
    expect(await daysBack(25)).toEqual([0, 1, 6]);
    expect(await daysBack(26)).toEqual([0, 1, 6, 7, 29]);
    // Tomorrow (-1) is this month's and this year's too, unless today ends them.
    const {
      rows: [today],
    } = await pool.query<{ day: number; doy: number; sameMonth: boolean; sameYear: boolean }>(
      `SELECT extract(day FROM d)::int AS day, extract(doy FROM d)::int AS doy,
              date_trunc('month', d) = date_trunc('month', d + 1) AS "sameMonth",
              date_trunc('year', d) = date_trunc('year', d + 1) AS "sameYear"
       FROM (SELECT (now() AT TIME ZONE $1)::date AS d) today`,
      [timeZone],
    );
    const within = (first: number, withTomorrow: boolean | undefined) => [
      ...(withTomorrow ? [-1] : []),
      ...[0, 1, 6, 7, 29, 30].filter((back) => back < first),
    ];
    expect(await daysBack(27)).toEqual(within(today?.day ?? 1, today?.sameMonth));
    expect(await daysBack(28)).toEqual(within(today?.doy ?? 1, today?.sameYear));
  });
});

describe('sort, paging and cells', () => {
  it('sorts by order sequence, then by row; descending puts empty cells first', async () => {
    const query: DatasetQuery = {
      ...base,
      columns: [
        { ...field.name },
        { ...field.amount, orderType: 'DESCENDING', orderSequence: 2 },
        { ...field.at, orderType: 'ASCENDING', orderSequence: 1 },
        field.doc,
      ],
    };
    const page = await datasetQueryPage(sql, query, { page: 0, size: 25 });
    expect(page.rows.map((row) => row[0]?.value ?? null)).toEqual([
      '50% off',
      'back\\slash',
      '',
      'Bob',
      null,
      'Alice',
      'alice',
      'a_b',
    ]);
    const descending = await datasetQueryPage(
      sql,
      { ...base, columns: [{ ...field.amount, orderType: 'DESCENDING', orderSequence: 1 }, field.name] },
      { page: 0, size: 3 },
    );
    expect(descending.rows.map((row) => row[1]?.value)).toEqual(['a_b', null, 'Bob']);
  });

  it('pages from 0 and counts every matching row', async () => {
    const query: DatasetQuery = { ...base, columns: [{ ...field.name, orderSequence: 1 }] };
    const all = (await datasetQueryPage(sql, query, { page: 0, size: 25 })).rows.map((row) => row[0]?.value);
    const pages = await Promise.all([0, 1, 2].map((page) => datasetQueryPage(sql, query, { page, size: 3 })));
    expect(pages.map((page) => page.totalOfRows)).toEqual([8, 8, 8]);
    expect(pages.flatMap((page) => page.rows.map((row) => row[0]?.value))).toEqual(all);
    expect(pages[2]?.rows).toHaveLength(2);
  });

  it('answers decimals as stored, date-times in UTC, files by name and id', async () => {
    const page = await datasetQueryPage(
      sql,
      { ...base, filters: [on('name', 1, 'Alice')] },
      { page: 0, size: 5 },
    );
    expect(page.rows[0]).toEqual([
      { value: 'Alice', fileId: null },
      { value: '10.50', fileId: null },
      { value: '2026-03-10T03:00:00.000Z', fileId: null },
      { value: 'alice-report.pdf', fileId: fileIds['alice-report.pdf'] },
    ]);
    const big = await datasetQueryPage(sql, { ...base, filters: [on('name', 22)] }, { page: 0, size: 5 });
    expect(big.rows.map((row) => row[1]?.value)).toContain('99999999999999999999.123456789');
  });
});

describe('cursor', () => {
  it('reads every row in batches, in the page order, with the count of its snapshot', async () => {
    const client = await pool.connect();
    try {
      const query: DatasetQuery = {
        ...base,
        columns: [{ ...field.amount, orderType: 'ASCENDING', orderSequence: 1 }, field.name],
        filters: [on('name', 23)],
      };
      const cursor = await openDatasetQueryCursor(pgSql(client), query, { batchSize: 2 });
      const batches = [];
      for (let batch = await cursor.read(); batch.length > 0; batch = await cursor.read())
        batches.push(batch);
      await cursor.close();
      expect(cursor.totalOfRows).toBe(6);
      expect(batches.map((batch) => batch.length)).toEqual([2, 2, 2]);
      const page = await datasetQueryPage(sql, query, { page: 0, size: 25 });
      expect(batches.flat()).toEqual(page.rows);
      // The connection is out of its transaction and usable again.
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      client.release();
    }
  });

  it('closes early and leaves the connection usable', async () => {
    const client = await pool.connect();
    try {
      const cursor = await openDatasetQueryCursor(pgSql(client), base, { batchSize: 1 });
      expect(await cursor.read()).toHaveLength(1);
      await cursor.close();
      expect((await client.query('SHOW transaction_read_only')).rows).toEqual([
        { transaction_read_only: 'off' },
      ]);
    } finally {
      client.release();
    }
  });
});

describe('datasetsHoldFile', () => {
  it('finds a file only in the rows of the datasets given', async () => {
    const fileId = fileIds['bob_100%.pdf'] as string;
    const datasets = [{ datasetId, fileFieldIds: [field.doc.id] }];
    expect(await datasetsHoldFile(sql, datasets, fileId)).toBe(true);
    expect(await datasetsHoldFile(sql, datasets, randomUUID())).toBe(false);
    expect(await datasetsHoldFile(sql, [], fileId)).toBe(false);
  });
});

describe('datasetQueryPageAt (the public API pages, issue 26)', () => {
  /** Every page of a query from the start, each position following the last. */
  async function allPages(query: DatasetQuery, limit: number) {
    const pages: (string | null)[][] = [];
    let position: Parameters<typeof datasetQueryPageAt>[2] = isSortedDatasetQuery(query)
      ? { offset: 0 }
      : null;
    for (;;) {
      const page = await datasetQueryPageAt(sql, query, position, limit);
      pages.push(page.rows.map((row) => row.cells[0]?.value ?? null));
      const last = page.rows.at(-1);
      if (!page.hasMore || !last) return pages;
      position =
        position && 'offset' in position
          ? { offset: position.offset + page.rows.length }
          : { afterRowId: last.rowId };
    }
  }

  it('pages rows in row order after the last row id, filters applied', async () => {
    expect(isSortedDatasetQuery(base)).toBe(false);
    expect(await allPages(base, 3)).toEqual([
      ['Alice', 'alice', 'Bob'],
      ['50% off', 'a_b', 'back\\slash'],
      ['', null],
    ]);
    // Names containing "a" (ILIKE): the keyset condition adds to the filter.
    expect(await allPages({ ...base, filters: [on('name', 3, 'a')] }, 2)).toEqual([
      ['Alice', 'alice'],
      ['a_b', 'back\\slash'],
    ]);
  });

  it('pages a sorted query by offset, in its order', async () => {
    const sorted: DatasetQuery = {
      ...base,
      columns: [{ ...field.amount, orderType: 'DESCENDING', orderSequence: 1 }, field.name],
    };
    expect(isSortedDatasetQuery(sorted)).toBe(true);
    const pages = await allPages(sorted, 3);
    expect(pages.flat()).toEqual([
      null,
      '99999999999999999999.123456789',
      '1000',
      '10.50',
      '7',
      '7',
      '0.001',
      '-2',
    ]);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 2]);
  });
});
