import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import ExcelJS from 'exceljs';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  countDatasetRows,
  createDatabase,
  createDatasetTable,
  createPostgresFileStorage,
  createPrismaClient,
  datasetTable,
  fieldColumn,
  fillDataset,
  pgSql,
  type FillValue,
} from '@pagewright/db';
import {
  MESSAGES,
  type QueryDataset,
  type QueryDto,
  type QueryEditResponse,
  type QueryFieldStepResponse,
  type QueryFilterDto,
  type QueryOperatorDto,
  type QueryResult,
  type ValueType,
} from '@pagewright/shared';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { STACK_QUERY_EXPORTS_MAX_RUNNING, STACK_QUERY_EXPORT_STALL_SECONDS } from '../support/stack.js';

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const db = createPrismaClient(inject('databaseUrl'));
const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
const api = () => request(apiUrl);
const bearer = (user: SignedInUser) => ({ Authorization: `Bearer ${user.token}` });

let owner: SignedInUser;
let stranger: SignedInUser;

// ---------------------------------------------------------------------------------------------
// Arranging datasets: rows written as a run writes them (the dataset wizard has its own tests).
// ---------------------------------------------------------------------------------------------

interface Dataset {
  id: string;
  /** Field name → id. */
  fields: Record<string, string>;
}

async function insertDataset(
  user: SignedInUser,
  name: string,
  fields: [string, ValueType][],
  rows: Record<string, FillValue>[],
): Promise<Dataset> {
  const dataset = await db.dataset.create({
    data: {
      userId: user.id,
      name,
      description: `${name} rows`,
      fields: {
        create: fields.map(([field, type], sequence) => ({ name: field, type, isKey: false, sequence })),
      },
    },
    include: { fields: true },
  });
  const ids = Object.fromEntries(dataset.fields.map((field) => [field.name, field.id]));
  const tableFields = dataset.fields.map((field) => ({ id: field.id, type: field.type, isKey: false }));
  await createDatasetTable(pgSql(pool), dataset.id, tableFields);
  await fillDataset(pgSql(pool), {
    datasetId: dataset.id,
    fields: tableFields,
    writtenFieldIds: tableFields.map((field) => field.id),
    rows: rows.map((row) =>
      Object.fromEntries(Object.entries(row).map(([field, value]) => [ids[field], value])),
    ),
    extractorId: null,
    runId: null,
  });
  return { id: dataset.id, fields: ids };
}

const hourAgo = new Date(Date.now() - 60 * 60 * 1000).toISOString();
const SQL_TEXT = `x'); DROP TABLE "Query"; --`;

/** The orders every filter test reads; Invoice holds stored files (set in beforeAll). */
const ORDERS: {
  Customer: string | null;
  Amount: string | null;
  Ordered: string | null;
  Region: string;
  Invoice?: string;
}[] = [
  {
    Customer: 'Alice',
    Amount: '120.50',
    Ordered: '2026-01-05T10:00:00.000Z',
    Region: 'North',
    Invoice: 'inv-alice.pdf',
  },
  { Customer: 'bob', Amount: '75', Ordered: '2026-01-05T23:30:00.000Z', Region: 'South' },
  {
    Customer: 'Carol',
    Amount: '300',
    Ordered: '2026-02-10T12:00:00.000Z',
    Region: 'North',
    Invoice: 'inv_carol 100%.pdf',
  },
  { Customer: 'Dave', Amount: null, Ordered: '2026-02-11T01:00:00.000Z', Region: 'East' },
  { Customer: 'Eve', Amount: '75', Ordered: null, Region: 'South' },
  { Customer: '50% Frank', Amount: '10', Ordered: '2026-03-01T00:00:00.000Z', Region: 'West' },
  { Customer: 'under_score', Amount: '5.25', Ordered: '2026-03-02T08:00:00.000Z', Region: 'East' },
  { Customer: null, Amount: '0', Ordered: '2026-03-03T08:00:00.000Z', Region: 'North' },
  { Customer: SQL_TEXT, Amount: '1', Ordered: '2026-03-04T08:00:00.000Z', Region: 'West' },
  { Customer: 'Recent', Amount: '42', Ordered: hourAgo, Region: 'North' },
];
const ORDER_FIELDS: [string, ValueType][] = [
  ['Customer', 'TEXT'],
  ['Amount', 'NUMBER'],
  ['Ordered', 'DATETIME'],
  ['Region', 'TEXT'],
  ['Invoice', 'FILE'],
];

let orders: Dataset;
const invoiceIds: Record<string, string> = {};
/** A file of the owner that no dataset row holds. */
let looseFileId: string;

// ---------------------------------------------------------------------------------------------
// The wizard over HTTP.
// ---------------------------------------------------------------------------------------------

interface Column {
  name: string;
  orderType?: 'ASCENDING' | 'DESCENDING';
  orderSequence?: number;
}
interface Filter {
  field: string;
  operatorId: number;
  inputValue?: string | null;
}

/** createquery → dataset → fields → filters: the caller's draft, ready for step 4. */
async function openQuery(
  user: SignedInUser,
  dataset: Dataset,
  options: { name?: string; columns?: Column[]; filters?: Filter[]; timeZone?: string } = {},
): Promise<string> {
  const created = await api()
    .post('/api/query/createquery')
    .set(bearer(user))
    .send({
      name: options.name ?? `Query ${randomUUID()}`,
      description: 'Orders',
      timeZone: options.timeZone,
    })
    .expect(201);
  await api().post('/api/query/dataset').set(bearer(user)).send({ datasetId: dataset.id }).expect(200);
  await api().post('/api/query/datasetfieldquery').set(bearer(user)).send({}).expect(200);
  const columns = options.columns ?? Object.keys(dataset.fields).map((name) => ({ name }));
  await api()
    .post('/api/query/fieldselected')
    .set(bearer(user))
    .send({
      fields: columns.map(({ name, ...order }) => ({ datasetFieldId: dataset.fields[name], ...order })),
    })
    .expect(200);
  await api().post('/api/query/datasetfieldqueryForFilter').set(bearer(user)).send({}).expect(200);
  await setFilters(user, dataset, options.filters ?? []).expect(200);
  return (created.body as { id: string }).id;
}

const setFilters = (user: SignedInUser, dataset: Dataset, filters: Filter[]) =>
  api()
    .post('/api/query/filterinputvalue')
    .set(bearer(user))
    .send({
      filters: filters.map((filter) => ({
        datasetFieldId: dataset.fields[filter.field],
        operatorId: filter.operatorId,
        inputValue: filter.inputValue ?? null,
      })),
    });

async function result(user: SignedInUser, page = 0, size = 25): Promise<QueryResult> {
  return (await api().get('/api/query/showqueryresult').query({ page, size }).set(bearer(user)).expect(200))
    .body as QueryResult;
}

/** The draft's result as Customer names. */
async function customers(user: SignedInUser): Promise<(string | null)[]> {
  const page = await result(user);
  return page.rows.map((row) => row.fields.find((cell) => cell.name === 'Customer')?.value ?? null);
}

/** The customers of the orders matching `keep`, in row order. */
const expected = (keep: (order: (typeof ORDERS)[number]) => boolean) =>
  ORDERS.filter(keep).map((order) => order.Customer);

async function exportWorkbook(user: SignedInUser, queryId?: string) {
  const url = new URL('/api/query/export/excel', apiUrl);
  if (queryId) url.searchParams.set('queryId', queryId);
  const answer = await fetch(url, { headers: bearer(user) });
  expect(answer.status).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(await answer.arrayBuffer());
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('no sheet');
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { headers: answer.headers, rows };
}

beforeAll(async () => {
  [owner, stranger] = await Promise.all([
    createSignedInUser(db, apiUrl, mailUrl, 'queries-owner'),
    createSignedInUser(db, apiUrl, mailUrl, 'queries-stranger'),
  ]);
  const files = createPostgresFileStorage(db);
  for (const order of ORDERS) {
    if (order.Invoice)
      invoiceIds[order.Invoice] = await files.put(Buffer.from(`PDF of ${order.Invoice}`), {
        userId: owner.id,
        name: order.Invoice,
        mimeType: 'application/pdf',
      });
  }
  looseFileId = await files.put(Buffer.from('not in a dataset'), {
    userId: owner.id,
    name: 'loose.txt',
    mimeType: 'text/plain',
  });
  orders = await insertDataset(
    owner,
    'Orders',
    ORDER_FIELDS,
    ORDERS.map(({ Invoice, ...order }) => ({ ...order, Invoice: Invoice ? invoiceIds[Invoice] : null })),
  );
});

afterAll(async () => {
  await pool.end();
  await db.$disconnect();
});

describe('the wizard', () => {
  it('offers the caller’s datasets with whether they hold rows, and the operator table', async () => {
    const empty = await insertDataset(owner, 'Nothing yet', [['Name', 'TEXT']], []);
    await api()
      .post('/api/query/createquery')
      .set(bearer(owner))
      .send({ name: 'Step one', description: 'd' })
      .expect(201);
    const offered = (await api().get('/api/query/datasetquery').set(bearer(owner)).expect(200))
      .body as QueryDataset[];
    expect(offered.find((dataset) => dataset.id === orders.id)?.hasData).toBe(true);
    expect(offered.find((dataset) => dataset.id === empty.id)?.hasData).toBe(false);
    const chosen = await api()
      .post('/api/query/dataset')
      .set(bearer(owner))
      .send({ datasetId: empty.id })
      .expect(200);
    expect(chosen.body).toMatchObject({ id: empty.id, hasData: false });

    const operators = (await api().get('/api/query/datasetoperator').set(bearer(owner)).expect(200))
      .body as QueryOperatorDto[];
    expect(operators.map((operator) => operator.operatorId)).toEqual(
      Array.from({ length: 28 }, (_, i) => i + 1),
    );
    expect(operators.filter((operator) => operator.valueType === 'NONE').map((o) => o.operatorId)).toEqual([
      22, 23, 24, 25, 26, 27, 28,
    ]);
    await api().put('/api/query/cancelquery').set(bearer(owner)).expect(200);
  });

  it('step 2 lists the fields; step 3 needs a chosen field; a new dataset clears the choice', async () => {
    await api()
      .post('/api/query/createquery')
      .set(bearer(owner))
      .send({ name: 'Steps', description: 'd' })
      .expect(201);
    const noDataset = await api()
      .post('/api/query/datasetfieldquery')
      .set(bearer(owner))
      .send({})
      .expect(400);
    expect(noDataset.body).toMatchObject({ message: MESSAGES['query.dataset.required'] });
    await api().post('/api/query/dataset').set(bearer(owner)).send({ datasetId: orders.id }).expect(200);
    const step2 = (await api().post('/api/query/datasetfieldquery').set(bearer(owner)).send({}).expect(200))
      .body as QueryFieldStepResponse;
    expect(step2.datasetFieldList.map((field) => [field.name, field.type])).toEqual(ORDER_FIELDS);
    expect(step2.queryFieldList).toEqual([]);
    const noField = await api()
      .post('/api/query/datasetfieldqueryForFilter')
      .set(bearer(owner))
      .send({})
      .expect(400);
    expect(noField.body).toMatchObject({ message: MESSAGES['query.field.required'] });
    const twice = await api()
      .post('/api/query/fieldselected')
      .set(bearer(owner))
      .send({
        fields: [
          { datasetFieldId: orders.fields.Customer, orderSequence: 1 },
          { datasetFieldId: orders.fields.Amount, orderSequence: 1 },
        ],
      })
      .expect(400);
    expect(twice.body).toMatchObject({ message: MESSAGES['query.order.sequence.unique'] });
    await api()
      .post('/api/query/fieldselected')
      .set(bearer(owner))
      .send({ fields: [{ datasetFieldId: orders.fields.Customer }] })
      .expect(200);
    const other = await insertDataset(owner, 'Other', [['Name', 'TEXT']], [{ Name: 'x' }]);
    await api().post('/api/query/dataset').set(bearer(owner)).send({ datasetId: other.id }).expect(200);
    const cleared = (await api().post('/api/query/datasetfieldquery').set(bearer(owner)).send({}).expect(200))
      .body as QueryFieldStepResponse;
    expect(cleared.queryFieldList).toEqual([]);
    await api().put('/api/query/cancelquery').set(bearer(owner)).expect(200);
  });

  it("refuses filters without their value ('All fields are mandatory') or of the wrong kind", async () => {
    await openQuery(owner, orders);
    const cases: [Filter, string, string][] = [
      [
        { field: 'Customer', operatorId: 3, inputValue: '' },
        MESSAGES['query.all.fields.mandatory'],
        'inputValue',
      ],
      [{ field: 'Customer', operatorId: 1 }, MESSAGES['query.all.fields.mandatory'], 'inputValue'],
      [
        { field: 'Amount', operatorId: 20, inputValue: ' ; ' },
        MESSAGES['query.all.fields.mandatory'],
        'inputValue',
      ],
      [
        { field: 'Ordered', operatorId: 19, inputValue: '' },
        MESSAGES['query.all.fields.mandatory'],
        'inputValue',
      ],
      [
        { field: 'Amount', operatorId: 9, inputValue: 'ten' },
        MESSAGES['query.value.not.number'],
        'inputValue',
      ],
      [
        { field: 'Amount', operatorId: 20, inputValue: '1;two' },
        MESSAGES['query.value.not.number'],
        'inputValue',
      ],
      [
        { field: 'Ordered', operatorId: 13, inputValue: '03/01/2026' },
        MESSAGES['query.value.not.date'],
        'inputValue',
      ],
      [
        { field: 'Ordered', operatorId: 19, inputValue: '2026-01-01' },
        MESSAGES['query.value.not.range'],
        'inputValue',
      ],
      [
        { field: 'Amount', operatorId: 3, inputValue: '1' },
        'This operator does not apply to a NUMBER field',
        'operatorId',
      ],
      [{ field: 'Customer', operatorId: 24 }, 'This operator does not apply to a TEXT field', 'operatorId'],
    ];
    for (const [filter, message, field] of cases) {
      const refused = await setFilters(owner, orders, [{ field: 'Region', operatorId: 22 }, filter]).expect(
        400,
      );
      expect(refused.body, JSON.stringify(filter)).toEqual({
        message,
        code: 'VALIDATION_ERROR',
        field: `filters.1.${field}`,
      });
      const one = await api()
        .post('/api/query/fieldoperatorinputvalue')
        .set(bearer(owner))
        .send({
          datasetFieldId: orders.fields[filter.field],
          operatorId: filter.operatorId,
          inputValue: filter.inputValue,
        })
        .expect(400);
      expect(one.body).toEqual({ message, code: 'VALIDATION_ERROR', field });
    }
    const noOperator = await setFilters(owner, orders, [
      { field: 'Customer', operatorId: 0, inputValue: 'x' },
    ]).expect(400);
    expect(noOperator.body).toMatchObject({ message: MESSAGES['query.all.fields.mandatory'] });
    // A value-less operator needs nothing, and the list is still empty after the refusals.
    const filters = (
      await setFilters(owner, orders, [{ field: 'Ordered', operatorId: 25, inputValue: 'ignored' }]).expect(
        200,
      )
    ).body as { queryFilterList: QueryFilterDto[] };
    expect(filters.queryFilterList).toMatchObject([
      {
        operatorId: 25,
        operatorType: 'NO_VALUE',
        operator: { operatorId: 25, valueType: 'NONE' },
        inputValue: null,
      },
    ]);
    await api().put('/api/query/cancelquery').set(bearer(owner)).expect(200);
  });
});

describe('filters', () => {
  const cases: [string, Filter[], (string | null)[]][] = [
    ['text equals is exact', [{ field: 'Customer', operatorId: 1, inputValue: 'Bob' }], []],
    [
      'text not equals keeps empty cells',
      [{ field: 'Customer', operatorId: 2, inputValue: 'bob' }],
      expected((o) => o.Customer !== 'bob'),
    ],
    [
      'contains ignores case',
      [{ field: 'Customer', operatorId: 3, inputValue: 'O' }],
      ['bob', 'Carol', 'under_score', SQL_TEXT],
    ],
    ['% is literal', [{ field: 'Customer', operatorId: 3, inputValue: '%' }], ['50% Frank']],
    ['_ is literal', [{ field: 'Customer', operatorId: 3, inputValue: '_' }], ['under_score']],
    ['SQL is a value', [{ field: 'Customer', operatorId: 1, inputValue: SQL_TEXT }], [SQL_TEXT]],
    [
      'does not contain',
      [{ field: 'Region', operatorId: 4, inputValue: 'TH' }],
      expected((o) => !/th/i.test(o.Region)),
    ],
    [
      'ends with',
      [{ field: 'Region', operatorId: 6, inputValue: 'st' }],
      expected((o) => o.Region.endsWith('st')),
    ],
    ['number >', [{ field: 'Amount', operatorId: 9, inputValue: '75' }], ['Alice', 'Carol']],
    ['number = exact decimals', [{ field: 'Amount', operatorId: 7, inputValue: '120.5' }], ['Alice']],
    ['number ≤', [{ field: 'Amount', operatorId: 12, inputValue: '5.25' }], ['under_score', null, SQL_TEXT]],
    ['date on (UTC)', [{ field: 'Ordered', operatorId: 13, inputValue: '2026-01-05' }], ['Alice', 'bob']],
    [
      'date between, from ≤ to',
      [{ field: 'Ordered', operatorId: 19, inputValue: '2026-02-11;2026-03-02' }],
      ['Dave', '50% Frank', 'under_score'],
    ],
    ['date before', [{ field: 'Ordered', operatorId: 16, inputValue: '2026-02-10' }], ['Alice', 'bob']],
    ['last 7 days', [{ field: 'Ordered', operatorId: 25 }], ['Recent']],
    [
      'in list',
      [{ field: 'Region', operatorId: 20, inputValue: ' East ;West;;' }],
      expected((o) => ['East', 'West'].includes(o.Region)),
    ],
    [
      'number not in list',
      [{ field: 'Amount', operatorId: 21, inputValue: '75;0;1' }],
      expected((o) => !['75', '0', '1'].includes(o.Amount ?? '')),
    ],
    ['is empty', [{ field: 'Amount', operatorId: 22 }], ['Dave']],
    [
      'is not empty, with a second filter AND-ed',
      [
        { field: 'Invoice', operatorId: 23 },
        { field: 'Region', operatorId: 1, inputValue: 'North' },
      ],
      ['Alice', 'Carol'],
    ],
    [
      'FILE fields compare the file name',
      [{ field: 'Invoice', operatorId: 3, inputValue: '100%' }],
      ['Carol'],
    ],
  ];

  it.each(cases)('%s', async (_, filters, names) => {
    await openQuery(owner, orders, { filters });
    expect(await customers(owner)).toEqual(names);
  });

  it('counts days in the query’s time zone', async () => {
    // 2026-01-05T23:30Z is the 6th in Berlin; 2026-02-11T01:00Z the 10th in New York.
    await openQuery(owner, orders, {
      timeZone: 'Europe/Berlin',
      filters: [{ field: 'Ordered', operatorId: 13, inputValue: '2026-01-06' }],
    });
    expect(await customers(owner)).toEqual(['bob']);
    await openQuery(owner, orders, {
      timeZone: 'America/New_York',
      filters: [{ field: 'Ordered', operatorId: 13, inputValue: '2026-02-10' }],
    });
    expect(await customers(owner)).toEqual(['Carol', 'Dave']);
  });
});

describe('results', () => {
  it('sorts on two fields by order sequence, then by row', async () => {
    await openQuery(owner, orders, {
      columns: [
        { name: 'Customer' },
        { name: 'Amount', orderType: 'DESCENDING', orderSequence: 2 },
        { name: 'Region', orderType: 'ASCENDING', orderSequence: 1 },
      ],
    });
    const rank = (amount: string | null) => (amount === null ? Infinity : Number(amount));
    const sorted = ORDERS.map((order, row) => ({ ...order, row }))
      .sort((a, b) => a.Region.localeCompare(b.Region) || rank(b.Amount) - rank(a.Amount) || a.row - b.row)
      .map((order) => order.Customer);
    expect(await customers(owner)).toEqual(sorted);
    const page = await result(owner);
    expect(page.columns.map((column) => column.name)).toEqual(['Customer', 'Amount', 'Region']);
  });

  it('pages from 0 with totalOfRows, and answers typed cells', async () => {
    await openQuery(owner, orders, {
      columns: [{ name: 'Customer' }, { name: 'Amount' }, { name: 'Ordered' }, { name: 'Invoice' }],
    });
    const pages = [await result(owner, 0, 5), await result(owner, 1, 5), await result(owner, 2, 5)];
    expect(pages.map((page) => [page.page, page.size, page.totalOfRows, page.rows.length])).toEqual([
      [0, 5, 10, 5],
      [1, 5, 10, 5],
      [2, 5, 10, 0],
    ]);
    expect(pages.flatMap((page) => page.rows)).toEqual((await result(owner, 0, 25)).rows);
    const [alice] = pages[0]?.rows ?? [];
    expect(alice?.fields).toEqual([
      {
        datasetFieldId: orders.fields.Customer,
        name: 'Customer',
        type: 'TEXT',
        value: 'Alice',
        fileId: null,
      },
      { datasetFieldId: orders.fields.Amount, name: 'Amount', type: 'NUMBER', value: '120.50', fileId: null },
      {
        datasetFieldId: orders.fields.Ordered,
        name: 'Ordered',
        type: 'DATETIME',
        value: '2026-01-05T10:00:00.000Z',
        fileId: null,
      },
      {
        datasetFieldId: orders.fields.Invoice,
        name: 'Invoice',
        type: 'FILE',
        value: 'inv-alice.pdf',
        fileId: invoiceIds['inv-alice.pdf'],
      },
    ]);
    await api().get('/api/query/showqueryresult').query({ page: 0, size: 7 }).set(bearer(owner)).expect(400);
    await api().get('/api/query/showqueryresult').query({ page: -1, size: 5 }).set(bearer(owner)).expect(400);
  });

  it('shows a dataset’s rows as they are', async () => {
    const rows = (
      await api()
        .get('/api/query/showextractoractiondata')
        .query({ datasetId: orders.id, page: 1, size: 5 })
        .set(bearer(owner))
        .expect(200)
    ).body as QueryResult;
    expect(rows.totalOfRows).toBe(ORDERS.length);
    expect(rows.columns.map((column) => column.name)).toEqual(ORDER_FIELDS.map(([name]) => name));
    expect(rows.rows.map((row) => row.fields[0]?.value ?? null)).toEqual(
      ORDERS.slice(5).map((order) => order.Customer),
    );
  });

  it('downloads a FILE cell’s file', async () => {
    const id = invoiceIds['inv_carol 100%.pdf'] as string;
    const file = await api().get(`/api/query/file/${id}`).set(bearer(owner)).expect(200);
    expect(file.body).toEqual({
      filename: 'inv_carol 100%.pdf',
      fileContent: Buffer.from('PDF of inv_carol 100%.pdf').toString('base64'),
    });
    // The owner's file that no dataset holds is not served here.
    await api().get(`/api/query/file/${looseFileId}`).set(bearer(owner)).expect(404);
    await api().get(`/api/query/file/${randomUUID()}`).set(bearer(owner)).expect(404);
  });
});

describe('export', () => {
  it('streams the draft’s whole result as {query name}.xlsx, equal to the result', async () => {
    await openQuery(owner, orders, {
      name: 'Orders é/"x"',
      columns: [
        { name: 'Customer' },
        { name: 'Amount', orderType: 'ASCENDING', orderSequence: 1 },
        { name: 'Ordered' },
        { name: 'Invoice' },
      ],
      filters: [{ field: 'Region', operatorId: 2, inputValue: 'South' }],
    });
    const page = await result(owner);
    const { headers, rows } = await exportWorkbook(owner);
    expect(headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(headers.get('content-disposition')).toBe(
      `attachment; filename="Orders _/_x_.xlsx"; filename*=UTF-8''Orders%20%C3%A9%2F%22x%22.xlsx`,
    );
    expect(headers.get('x-total-rows')).toBe(String(page.totalOfRows));
    expect(rows[0]).toEqual(['Customer', 'Amount', 'Ordered', 'Invoice']);
    const cells = (value: string | null, type: string) => {
      if (value === null) return undefined;
      if (type === 'NUMBER') return Number(value);
      if (type === 'DATETIME') return new Date(value);
      return value;
    };
    const expectedRows = page.rows.map((row) => row.fields.map((cell) => cells(cell.value, cell.type)));
    // exceljs drops trailing empty cells of a row when reading.
    const trimmed = (row: unknown[]) => {
      const copy = [...row];
      while (copy.length > 0 && copy.at(-1) === undefined) copy.pop();
      return copy;
    };
    expect(rows.slice(1).map(trimmed)).toEqual(expectedRows.map(trimmed));
  });

  it('exports every row of a saved query, past one cursor batch (a large result, in the writer thread)', async () => {
    const big = await insertDataset(
      owner,
      'Big',
      [
        ['N', 'NUMBER'],
        ['Label', 'TEXT'],
      ],
      // More rows than the API thread writes itself (5,000): the writer thread's cursor, in batches.
      Array.from({ length: 6500 }, (_, index) => ({ N: String(index), Label: `row ${index % 7}` })),
    );
    const queryId = await openQuery(owner, big, {
      name: 'Everything',
      columns: [{ name: 'Label', orderType: 'DESCENDING', orderSequence: 1 }, { name: 'N' }],
      filters: [{ field: 'N', operatorId: 11, inputValue: '100' }],
    });
    await api().get('/api/query/save').query({ queryId }).set(bearer(owner)).expect(200);
    const { headers, rows } = await exportWorkbook(owner, queryId);
    expect(headers.get('x-total-rows')).toBe('6400');
    const wanted = Array.from({ length: 6500 }, (_, n) => n)
      .filter((n) => n >= 100)
      .map((n) => [`row ${n % 7}`, n])
      .sort((a, b) => String(b[0]).localeCompare(String(a[0])) || Number(a[1]) - Number(b[1]));
    expect(rows.slice(1)).toEqual(wanted);
  });
  it('ends the cursor when the reader leaves mid-way', async () => {
    const many = await insertDataset(
      owner,
      'Many',
      [
        ['N', 'NUMBER'],
        ['Label', 'TEXT'],
      ],
      Array.from({ length: 100_000 }, (_, index) => ({ N: String(index), Label: `label ${index} of many` })),
    );
    await openQuery(owner, many, { name: 'Many rows' });
    const openCursors = async () => {
      const { rows } = await pool.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM pg_stat_activity
         WHERE datname = current_database() AND query LIKE 'FETCH % FROM dataset_query'`,
      );
      return rows[0]?.count ?? 0;
    };
    const reader = await new Promise<http.ClientRequest>((resolve, reject) => {
      const started = http.get(
        new URL('/api/query/export/excel', apiUrl),
        { headers: bearer(owner) },
        (response) => {
          // Read nothing: the export waits on the full socket with its cursor open.
          response.pause();
          resolve(started);
        },
      );
      started.on('error', reject);
    });
    await expect.poll(openCursors, { timeout: 20_000 }).toBe(1);
    reader.destroy();
    await expect.poll(openCursors, { timeout: 20_000 }).toBe(0);
    await api().get('/api/query/querydashboard').set(bearer(owner)).expect(200);
  });

  it('runs a set number of exports at once; one more is told to try again until a slot is given back', async () => {
    /** A saved query of a dataset of its own, and a connection that can hold its table locked. */
    const lockable = async (name: string, user: SignedInUser) => {
      const dataset = await insertDataset(user, name, [['Label', 'TEXT']], [{ Label: `${name} row` }]);
      const queryId = await openQuery(user, dataset, { name });
      await api().get('/api/query/save').query({ queryId }).set(bearer(user)).expect(200);
      const locker = new pg.Client({ connectionString: inject('databaseUrl') });
      await locker.connect();
      await locker.query('BEGIN');
      // The export's count waits on this lock: the export holds its slot meanwhile.
      await locker.query(`LOCK TABLE ${datasetTable(dataset.id)} IN ACCESS EXCLUSIVE MODE`);
      return { queryId, locker, table: datasetTable(dataset.id), user };
    };
    const exportUrl = (queryId: string) => {
      const url = new URL('/api/query/export/excel', apiUrl);
      url.searchParams.set('queryId', queryId);
      return url;
    };
    /** Statements of the API waiting for the locked tables. */
    const waitingOnLocks = async () => {
      const { rows } = await pool.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock'
           AND query LIKE ANY ($1::text[])`,
        [held.map(({ table }) => `%${table}%`)],
      );
      return rows[0]?.count ?? 0;
    };
    // One after the other: the wizard is one draft per user. Each user may hold one export at a
    // time (STACK_QUERY_EXPORTS_MAX_PER_USER), so the slots are filled by different users.
    const held: Awaited<ReturnType<typeof lockable>>[] = [];
    const holders = [owner, stranger];
    for (let index = 0; index < STACK_QUERY_EXPORTS_MAX_RUNNING; index += 1)
      held.push(await lockable(`Held ${index}`, holders[index % holders.length] ?? owner));
    const free = await openQuery(owner, orders, { name: 'Orders, saved', columns: [{ name: 'Region' }] });
    await api().get('/api/query/save').query({ queryId: free }).set(bearer(owner)).expect(200);
    try {
      const readers = held.map(({ queryId, user }) => {
        const abort = new AbortController();
        const answer = fetch(exportUrl(queryId), { headers: bearer(user), signal: abort.signal });
        answer.catch(() => undefined);
        return { abort, answer };
      });
      await expect.poll(waitingOnLocks, { timeout: 20_000 }).toBe(STACK_QUERY_EXPORTS_MAX_RUNNING);

      // Every slot is taken: one more is refused at once, with the text to try again.
      const refused = await fetch(exportUrl(free), { headers: bearer(owner) });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await refused.json()).toEqual({
        message: 'Too many exports are running. Try again shortly.',
        code: 'SERVICE_UNAVAILABLE',
      });

      // The first reader leaves before its first byte; its export goes on once its table is free,
      // finds no reader, and gives its slot back while the others still hold theirs.
      readers[0]?.abort.abort();
      await held[0]?.locker.query('COMMIT');
      await expect
        .poll(
          async () => {
            const answer = await fetch(exportUrl(free), { headers: bearer(owner) });
            await answer.arrayBuffer();
            return answer.status;
          },
          { timeout: 20_000 },
        )
        .toBe(200);

      // The others end as they should once their tables are free: whole workbooks.
      for (const { locker } of held.slice(1)) await locker.query('COMMIT');
      for (const [index, reader] of readers.entries()) {
        if (index === 0) continue;
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(await (await reader.answer).arrayBuffer());
        expect(workbook.worksheets[0]?.getRow(2).getCell(1).value).toBe(`Held ${index} row`);
      }
    } finally {
      await Promise.all(held.map(({ locker }) => locker.end()));
    }

    // An export refused after it took its slot (not the caller's query), and one done, give it
    // back too: more of each, one after the other, than there are slots.
    for (let round = 0; round <= STACK_QUERY_EXPORTS_MAX_RUNNING; round += 1)
      await api().get('/api/query/export/excel').query({ queryId: free }).set(bearer(stranger)).expect(404);
    for (let round = 0; round <= STACK_QUERY_EXPORTS_MAX_RUNNING; round += 1) {
      const { headers, rows } = await exportWorkbook(owner, free);
      expect(headers.get('x-total-rows')).toBe(String(ORDERS.length));
      expect(rows.slice(1).map((row) => row[0])).toEqual(ORDERS.map((order) => order.Region));
    }
  });
});

describe('exports held by a user or a reader (issue 24)', () => {
  /** A saved query over a dataset of `rows` rows of 1 KB of hex each (barely compressible). */
  async function bulkyQuery(user: SignedInUser, name: string, rows: number) {
    const dataset = await insertDataset(user, name, [['Blob', 'TEXT']], []);
    await pool.query(
      `INSERT INTO ${datasetTable(dataset.id)} (${fieldColumn(dataset.fields.Blob ?? '')})
       SELECT string_agg(md5(n::text || '-' || k::text), '') FROM generate_series(1, $1) n,
              generate_series(1, 32) k GROUP BY n`,
      [rows],
    );
    const queryId = await openQuery(user, dataset, { name });
    await api().get('/api/query/save').query({ queryId }).set(bearer(user)).expect(200);
    return { queryId, table: datasetTable(dataset.id) };
  }

  const exportRequest = (user: SignedInUser, queryId: string) =>
    `GET /api/query/export/excel?queryId=${queryId} HTTP/1.1\r\nHost: pagewright\r\n` +
    `Authorization: Bearer ${user.token}\r\nConnection: close\r\n\r\n`;

  const exportSessions = async () =>
    (
      await pool.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'pagewright-export'`,
      )
    ).rows[0]?.count ?? 0;

  it('ends an export whose reader stops reading: its connection, transaction and slot come back', async () => {
    // 60,000 rows of 1 KB of hex: far more than the sockets between can hold (~30 MB zipped),
    // and the writer thread's path.
    const { queryId } = await bulkyQuery(owner, 'Bulky', 60_000);
    const url = new URL(apiUrl);
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    let isClosed = false;
    let isStalling = true;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // Reads the first bytes, then stops reading, as a stalled download does.
      if (isStalling) socket.pause();
    });
    socket.on('close', () => (isClosed = true));
    socket.on('error', () => undefined);
    socket.write(exportRequest(owner, queryId));
    try {
      await expect.poll(exportSessions, { timeout: 30_000 }).toBe(1);
      await expect.poll(() => chunks.length, { timeout: 30_000 }).toBeGreaterThan(0);
      // No byte moves: after STACK_QUERY_EXPORT_STALL_SECONDS the export ends and the writer's
      // connection (in its open transaction) is gone, while the reader still reads nothing.
      await expect
        .poll(exportSessions, { timeout: 30_000 + STACK_QUERY_EXPORT_STALL_SECONDS * 1000 })
        .toBe(0);
      // What the reader gets when it reads again is cut short: no chunked body's last chunk.
      isStalling = false;
      socket.resume();
      await expect.poll(() => isClosed, { timeout: 60_000 }).toBe(true);
      const response = Buffer.concat(chunks);
      expect(response.subarray(0, 15).toString()).toBe('HTTP/1.1 200 OK');
      expect(response.subarray(-5).toString()).not.toBe('0\r\n\r\n');
    } finally {
      socket.destroy();
    }
    // The user's slot is free again: the next export runs.
    const { headers } = await exportWorkbook(owner, (await bulkyQuery(owner, 'Small', 3)).queryId);
    expect(headers.get('x-total-rows')).toBe('3');
  }, 240_000);

  it("keeps one user from taking every export slot, with a text of its own; other users' exports run", async () => {
    const mine = await bulkyQuery(owner, 'Mine, held', 2);
    const other = await bulkyQuery(owner, 'Mine, second', 2);
    const theirs = await bulkyQuery(stranger, 'Theirs', 2);
    const locker = new pg.Client({ connectionString: inject('databaseUrl') });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${mine.table} IN ACCESS EXCLUSIVE MODE`);
    const exportUrl = new URL('/api/query/export/excel', apiUrl);
    exportUrl.searchParams.set('queryId', mine.queryId);
    const held = fetch(exportUrl, { headers: bearer(owner) });
    held.catch(() => undefined);
    try {
      await expect
        .poll(
          async () =>
            (
              await pool.query<{ count: number }>(
                `SELECT count(*)::int AS count FROM pg_stat_activity
                  WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
                [`%${mine.table}%`],
              )
            ).rows[0]?.count ?? 0,
          { timeout: 20_000 },
        )
        .toBe(1);
      const refused = await api()
        .get('/api/query/export/excel')
        .query({ queryId: other.queryId })
        .set(bearer(owner));
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({
        message: 'You already have 1 exports running. Try again when one has finished.',
        code: 'SERVICE_UNAVAILABLE',
      });
      const { headers } = await exportWorkbook(stranger, theirs.queryId);
      expect(headers.get('x-total-rows')).toBe('2');
    } finally {
      await locker.query('COMMIT');
      await locker.end();
    }
    expect((await held).status).toBe(200);
    await (await held).arrayBuffer();
  });

  it("limits the product's own database sessions: statements and idle transactions time out", async () => {
    const { prisma, pool: limited } = createDatabase(inject('databaseUrl'), {
      timeouts: { statementMs: 120_000, idleInTransactionMs: 90_000 },
    });
    try {
      const shown = await limited.query<{ statement_timeout: string }>('SHOW statement_timeout');
      const idle = await limited.query<{ idle_in_transaction_session_timeout: string }>(
        'SHOW idle_in_transaction_session_timeout',
      );
      expect(shown.rows[0]?.statement_timeout).toBe('2min');
      expect(idle.rows[0]?.idle_in_transaction_session_timeout).toBe('90s');
      // Prisma's statements run on the same limited pool.
      const [viaPrisma] =
        await prisma.$queryRawUnsafe<{ statement_timeout: string }[]>('SHOW statement_timeout');
      expect(viaPrisma?.statement_timeout).toBe('2min');
    } finally {
      await prisma.$disconnect();
      await limited.end();
    }
  });
});

describe('save, edit, rename, delete, cancel', () => {
  it('cancel leaves nothing behind', async () => {
    const before = await db.query.count({ where: { userId: owner.id } });
    await openQuery(owner, orders, { name: 'Ghost', filters: [{ field: 'Amount', operatorId: 22 }] });
    await api().put('/api/query/cancelquery').set(bearer(owner)).expect(200);
    expect(await db.query.count({ where: { userId: owner.id } })).toBe(before);
    const list = (await api().get('/api/query/querydashboard').set(bearer(owner)).expect(200))
      .body as QueryDto[];
    expect(list.map((query) => query.name)).not.toContain('Ghost');
    const gone = await api().get('/api/query/showqueryresult').set(bearer(owner)).expect(409);
    expect(gone.body).toMatchObject({ message: MESSAGES['query.no.draft'] });
  });

  it('saves, opens again for editing with the same fields and filters, and saves the change', async () => {
    const queryId = await openQuery(owner, orders, {
      name: 'Round trip',
      timeZone: 'Europe/Berlin',
      columns: [{ name: 'Region', orderType: 'DESCENDING', orderSequence: 1 }, { name: 'Customer' }],
      filters: [
        { field: 'Amount', operatorId: 11, inputValue: '10' },
        { field: 'Customer', operatorId: 4, inputValue: 'z' },
      ],
    });
    const saved = await api().get('/api/query/save').query({ queryId }).set(bearer(owner)).expect(200);
    expect(saved.body).toEqual({ id: queryId, message: MESSAGES['query.saved'] });
    const list = (await api().get('/api/query/querydashboard').set(bearer(owner)).expect(200))
      .body as QueryDto[];
    expect(list.find((query) => query.id === queryId)).toMatchObject({
      name: 'Round trip',
      type: 'CUSTOM',
      timeZone: 'Europe/Berlin',
      datasetId: orders.id,
      datasetName: 'Orders',
    });
    // Saving ended the wizard; the saved query exports as it was built.
    await api().get('/api/query/showqueryresult').set(bearer(owner)).expect(409);
    const exported = await exportWorkbook(owner, queryId);
    expect(exported.rows.slice(1).map((row) => row[1])).toEqual([
      '50% Frank',
      'bob',
      'Eve',
      'Alice',
      'Carol',
      'Recent',
    ]);

    const edit = (await api().get('/api/query/editquery').query({ queryId }).set(bearer(owner)).expect(200))
      .body as QueryEditResponse;
    expect(edit.query).toMatchObject({ id: queryId, name: 'Round trip' });
    expect(edit.queryDataset).toMatchObject({ id: orders.id, hasData: true });
    expect(
      edit.queryFieldList.map((field) => [field.name, field.orderType, field.orderSequence, field.sequence]),
    ).toEqual([
      ['Region', 'DESCENDING', 1, 0],
      ['Customer', null, null, 1],
    ]);
    expect(
      edit.queryFilterList.map((filter) => [filter.datasetFieldId, filter.operatorId, filter.inputValue]),
    ).toEqual([
      [orders.fields.Amount, 11, '10'],
      [orders.fields.Customer, 4, 'z'],
    ]);
    const [first] = (await result(owner)).rows;
    expect(first?.fields.map((cell) => cell.value)).toEqual(['West', '50% Frank']);

    // Change one filter by its id, remove the other, and save.
    const [amountFilter, customerFilter] = edit.queryFilterList;
    await api()
      .post('/api/query/fieldoperatorinputvalue')
      .set(bearer(owner))
      .send({
        queryFilterId: amountFilter?.queryFilterId,
        datasetFieldId: orders.fields.Amount,
        operatorId: 9,
        inputValue: '100',
      })
      .expect(200);
    const removed = await api()
      .delete('/api/query/removefield')
      .query({ queryFilterId: customerFilter?.queryFilterId })
      .set(bearer(owner))
      .expect(200);
    expect((removed.body as { queryFilterList: QueryFilterDto[] }).queryFilterList).toHaveLength(1);
    await api()
      .delete('/api/query/removefield')
      .query({ queryFilterId: randomUUID() })
      .set(bearer(owner))
      .expect(404);
    await api().get('/api/query/save').query({ queryId }).set(bearer(owner)).expect(200);
    const again = (await api().get('/api/query/editquery').query({ queryId }).set(bearer(owner)).expect(200))
      .body as QueryEditResponse;
    expect(again.queryFilterList).toEqual([
      {
        ...amountFilter,
        operatorId: 9,
        inputValue: '100',
        operatorType: 'NUMBER',
        operator: { operatorId: 9, valueType: 'NUMBER' },
      },
    ]);
    expect(await customers(owner)).toEqual(['Alice', 'Carol']);
    await api().put('/api/query/cancelquery').set(bearer(owner)).expect(200);
    expect(await db.queryFilter.count({ where: { queryId } })).toBe(1);
  });

  it('refuses a used name on create, save and rename; renames with the spec’s text', async () => {
    const first = await openQuery(owner, orders, { name: 'Taken' });
    await api().get('/api/query/save').query({ queryId: first }).set(bearer(owner)).expect(200);
    const again = await api()
      .post('/api/query/createquery')
      .set(bearer(owner))
      .send({ name: 'Taken', description: 'd' })
      .expect(409);
    expect(again.body).toEqual({
      message: MESSAGES['query.list.error.unique'],
      code: 'NAME_EXISTS',
      field: 'name',
    });
    // The stranger may use the name.
    await api()
      .post('/api/query/createquery')
      .set(bearer(stranger))
      .send({ name: 'Taken', description: 'd' })
      .expect(201);

    const second = await openQuery(owner, orders, { name: 'Second' });
    await api().get('/api/query/save').query({ queryId: second }).set(bearer(owner)).expect(200);
    const clash = await api()
      .post('/api/query/rename')
      .set(bearer(owner))
      .send({ id: second, name: 'Taken', description: 'd' })
      .expect(409);
    expect(clash.body).toMatchObject({ message: MESSAGES['query.list.error.unique'], field: 'name' });
    const renamed = await api()
      .post('/api/query/rename')
      .set(bearer(owner))
      .send({ id: second, name: SQL_TEXT, description: 'Renamed %_' })
      .expect(200);
    expect(renamed.body).toMatchObject({
      id: second,
      name: SQL_TEXT,
      description: 'Renamed %_',
      message: 'Query renamed successfully.',
    });
    const { headers } = await exportWorkbook(owner, second);
    expect(headers.get('content-disposition')).toContain(
      `filename*=UTF-8''x%27%29%3B%20DROP%20TABLE%20%22Query%22%3B%20--.xlsx`,
    );
  });

  it('opens a FENGINE query for editing as a custom one (the same wizard builds both)', async () => {
    const fengine = await db.query.create({
      data: {
        userId: owner.id,
        name: 'From F-Engine',
        description: 'd',
        type: 'FENGINE',
        datasetId: orders.id,
      },
    });
    const opened = await api()
      .get('/api/query/editquery')
      .query({ queryId: fengine.id })
      .set(bearer(owner))
      .expect(200);
    expect(opened.body).toMatchObject({ query: { id: fengine.id, type: 'FENGINE' } });
    await api().put('/api/query/cancelquery').set(bearer(owner)).expect(200);
  });

  it('deletes', async () => {
    const queryId = await openQuery(owner, orders, {
      name: 'Short lived',
      filters: [{ field: 'Amount', operatorId: 23 }],
    });
    await api().get('/api/query/save').query({ queryId }).set(bearer(owner)).expect(200);
    const deleted = await api().delete(`/api/query/${queryId}`).set(bearer(owner)).expect(200);
    expect(deleted.body).toEqual({ message: MESSAGES['query.deleted'] });
    expect(await db.query.count({ where: { id: queryId } })).toBe(0);
    expect(await db.queryFilter.count({ where: { queryId } })).toBe(0);
    await api().delete(`/api/query/${queryId}`).set(bearer(owner)).expect(404);
  });
});

describe('another user', () => {
  it('gets 404 on every id-taking route of the owner’s queries, datasets and files', async () => {
    const queryId = await openQuery(owner, orders, { name: 'Private' });
    await api().get('/api/query/save').query({ queryId }).set(bearer(owner)).expect(200);
    const fileId = invoiceIds['inv-alice.pdf'] as string;
    const as = bearer(stranger);

    await api().get('/api/query/editquery').query({ queryId }).set(as).expect(404);
    await api().get('/api/query/save').query({ queryId }).set(as).expect(404);
    await api().get('/api/query/export/excel').query({ queryId }).set(as).expect(404);
    await api().delete(`/api/query/${queryId}`).set(as).expect(404);
    await api()
      .post('/api/query/rename')
      .set(as)
      .send({ id: queryId, name: 'Mine', description: 'd' })
      .expect(404);
    await api().get(`/api/query/file/${fileId}`).set(as).expect(404);
    await api().get('/api/query/showextractoractiondata').query({ datasetId: orders.id }).set(as).expect(404);
    await api()
      .post('/api/query/createquery')
      .set(as)
      .send({ name: `Stranger ${randomUUID()}`, description: 'd' })
      .expect(201);
    await api().post('/api/query/dataset').set(as).send({ datasetId: orders.id }).expect(404);
    const offered = (await api().get('/api/query/datasetquery').set(as).expect(200)).body as QueryDataset[];
    expect(offered.map((dataset) => dataset.id)).not.toContain(orders.id);
    const list = (await api().get('/api/query/querydashboard').set(as).expect(200)).body as QueryDto[];
    expect(list.map((query) => query.id)).not.toContain(queryId);

    // The owner's query, draft and rows are as they were.
    expect(await db.query.findUnique({ where: { id: queryId } })).toMatchObject({ name: 'Private' });
    await api().get('/api/query/editquery').query({ queryId }).set(bearer(owner)).expect(200);
    expect(await countDatasetRows(pgSql(pool), orders.id)).toBe(ORDERS.length);
  });
});

describe('two edits of one draft at once both land (issue 24, 8)', () => {
  it('keeps both of two filters added at once, and a column removed while a filter is added', async () => {
    await openQuery(owner, orders, {
      columns: [{ name: 'Customer' }, { name: 'Region' }, { name: 'Amount' }],
    });
    const addFilter = (field: string, operatorId: number, inputValue: string) =>
      api()
        .post('/api/query/fieldoperatorinputvalue')
        .set(bearer(owner))
        .send({ datasetFieldId: orders.fields[field], operatorId, inputValue });
    const filterStep = async () =>
      (await api().post('/api/query/datasetfieldqueryForFilter').set(bearer(owner)).send({}).expect(200))
        .body as { queryFilterList: QueryFilterDto[] };

    for (const round of [1, 2, 3]) {
      const answers = await Promise.all([
        addFilter('Customer', 3, `a${round}`),
        addFilter('Region', 6, `st${round}`),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    }
    const filters = (await filterStep()).queryFilterList;
    expect(filters.map((filter) => filter.inputValue).sort()).toEqual([
      'a1',
      'a2',
      'a3',
      'st1',
      'st2',
      'st3',
    ]);

    const fieldStep = (
      await api().post('/api/query/datasetfieldquery').set(bearer(owner)).send({}).expect(200)
    ).body as QueryFieldStepResponse;
    const amount = fieldStep.queryFieldList.find((field) => field.datasetFieldId === orders.fields.Amount);
    const [removed, added] = await Promise.all([
      api().delete('/api/query/removefield').query({ queryFieldId: amount?.queryFieldId }).set(bearer(owner)),
      addFilter('Customer', 3, 'last'),
    ]);
    expect([removed.status, added.status]).toEqual([200, 200]);
    const after = (await api().post('/api/query/datasetfieldquery').set(bearer(owner)).send({}).expect(200))
      .body as QueryFieldStepResponse;
    expect(after.queryFieldList.map((field) => field.datasetFieldId)).toEqual([
      orders.fields.Customer,
      orders.fields.Region,
    ]);
    expect((await filterStep()).queryFilterList.map((filter) => filter.inputValue)).toContain('last');
    expect((await filterStep()).queryFilterList).toHaveLength(7);
    await api().put('/api/query/cancelquery').set(bearer(owner)).expect(200);
  });
});
