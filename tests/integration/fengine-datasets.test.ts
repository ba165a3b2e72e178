import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createPrismaClient, type Prisma } from '@pagewright/db';
import {
  ENGINE_DATASET_ENTITIES,
  QUEUES,
  fengineImportJobId,
  formatMessage,
  queuePrefix,
  type DatasetDto,
  type DatasetFieldDto,
  type LabelColumnMappingRow,
  type LabelColumnRow,
  type QueryResult,
} from '@pagewright/shared';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { startFengineSandbox, type ImportedRow } from '../support/fengine-sandbox.js';
import { waitForRun } from '../support/runs-api.js';
import { startFileStack } from '../support/stack.js';
import { waitUntil } from '../support/wait.js';

/**
 * Engine datasets and queries (issue 25 item 4), over HTTP against a stack of this file's own whose
 * worker imports into the reference F-engine (apps/fengine-sandbox): an extractor fills a
 * FENGINE_TRANSACTION dataset, and the engine then holds its transactions; with the engine down
 * the run still succeeds, the rows wait (the dataset says why) and arrive once it is back.
 */

const sandbox = await startFengineSandbox();
afterAll(() => sandbox.close(), 60_000);
const stack = await startFileStack({
  env: {
    FENGINE_URL: sandbox.url,
    FENGINE_USER: sandbox.username,
    FENGINE_PASSWORD: sandbox.password,
    // Flows reach the fixture site as `localhost`; 127.0.0.1 is private for them and for the engine
    // addresses operators type. Imports go to FENGINE_URL, which the operator set (issue 38).
    NAVIGATION_ALLOWED_HOSTS: 'localhost',
    // The sweep that queues waiting rows again, and the first retry delay: seconds, not minutes.
    FENGINE_IMPORT_SWEEP_SECONDS: '2',
    FENGINE_IMPORT_RETRY_SECONDS: '1',
  },
});
const db = createPrismaClient(stack.databaseUrl);
const api = () => request(stack.apiUrl);
const bearer = (user: SignedInUser) => ({ Authorization: `Bearer ${user.token}` });
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const importQueue = new Queue(QUEUES.fengineImport, {
  connection: redis,
  prefix: queuePrefix(stack.redisKeyPrefix),
});

const TRANSACTION_FIELDS = ENGINE_DATASET_ENTITIES.FENGINE_TRANSACTION.fields;
/** The fixture table's columns, in order, and the engine field each one fills. */
const COLUMNS = [
  ['Transaction', 'transactionId'],
  ['Portfolio', 'portfolioId'],
  ['Trade date', 'tradeDate'],
  ['Type', 'type'],
  ['Amount', 'amount'],
  ['Currency', 'currency'],
  ['Description', 'description'],
] as const;

let site: FixtureSite;
/** The fixture site by the one private host this stack's flows may reach. */
const siteUrl = () => site.url.replace('127.0.0.1', 'localhost');
let owner: SignedInUser;
let stranger: SignedInUser;
let extractorId: string;
let datasetId: string;

type ActionRow = Omit<Prisma.ExtractorActionCreateWithoutExtractorInput, 'id'>;

function transactionActions(variant: string | null): ActionRow[] {
  const page = `${siteUrl()}/pages/transactions.html${variant ? `?variant=${variant}` : ''}`;
  return [
    { sequence: 10, type: 'NAVIGATE', textValue: page },
    {
      sequence: 20,
      type: 'GET_TABLE',
      label: 'Transactions',
      getTable: {
        create: {
          name: 'Transactions',
          tableSelector: '#transactions',
          rowSelector: '#transaction-rows tr',
          columns: {
            create: COLUMNS.map(([label], index) => ({
              sequence: index + 1,
              label,
              selector: `td:nth-child(${index + 1})`,
              type: 'TEXT' as const,
            })),
          },
        },
      },
    },
  ];
}

/** Points the extractor's page at a variant of the fixture (a changed row, an incomplete one). */
async function useVariant(variant: string | null): Promise<void> {
  await db.extractorAction.updateMany({
    where: { extractorId, type: 'NAVIGATE' },
    data: { textValue: `${siteUrl()}/pages/transactions.html${variant ? `?variant=${variant}` : ''}` },
  });
}

async function execute(user: SignedInUser): Promise<void> {
  const answer = await api().get(`/api/extractor/execute/${extractorId}`).set(bearer(user)).expect(200);
  const run = await waitForRun(stack.apiUrl, user.token, (answer.body as { runId: string }).runId);
  expect(run.status, JSON.stringify(run.errorMessage)).toBe('SUCCESS');
}

async function datasetOf(user: SignedInUser, id: string): Promise<DatasetDto | undefined> {
  const list = await api().get('/api/dataset/datasetdashboard').set(bearer(user)).expect(200);
  return (list.body as DatasetDto[]).find((dataset) => dataset.id === id);
}

/** Polls until `until` holds for what `read` answers (the import is a job: it lands a moment later). */
async function eventually<T>(read: () => Promise<T>, until: (value: T) => boolean, what: string): Promise<T> {
  let last: T | undefined;
  const found = await waitUntil(
    async () => {
      const value = await read();
      last = value;
      return until(value) && { value };
    },
    { timeoutMs: 60_000, intervalMs: 250, message: what },
  ).catch((error: unknown) => {
    throw new Error(`${what}: still ${JSON.stringify(last)}`, { cause: error });
  });
  return found.value;
}

const byExternalId = (rows: ImportedRow[]) => new Map(rows.map((row) => [row.externalId, row]));

beforeAll(async () => {
  site = await startFixtureSite();
  [owner, stranger] = await Promise.all([
    createSignedInUser(db, stack.apiUrl, stack.mailUrl, 'engine-owner'),
    createSignedInUser(db, stack.apiUrl, stack.mailUrl, 'engine-stranger'),
  ]);
  const extractor = await db.extractor.create({
    data: { userId: owner.id, name: 'Transactions', description: 'transactions', extractorType: 'EXTRACTOR' },
  });
  extractorId = extractor.id;
  for (const action of transactionActions(null))
    await db.extractorAction.create({ data: { ...action, extractor: { connect: { id: extractorId } } } });
}, 120_000);

afterAll(async () => {
  await site?.close();
  await importQueue.close();
  redis.disconnect();
  await db.$disconnect();
});

describe('engine datasets', () => {
  it('gets its engine entity’s fields, which step 1 cannot change', async () => {
    const created = await api()
      .post('/api/dataset/createdataset')
      .set(bearer(owner))
      .send({ type: 'FENGINE_TRANSACTION', name: 'Engine transactions', description: 'to the engine' })
      .expect(201);
    datasetId = (created.body as { id: string }).id;
    const list = await api().get('/api/dataset/datasetfieldlist').set(bearer(owner)).expect(200);
    const fields = (list.body as { datasetFieldDtoList: DatasetFieldDto[] }).datasetFieldDtoList;
    expect(fields.map(({ name, type, dataSetKey }) => ({ name, type, dataSetKey }))).toEqual(
      TRANSACTION_FIELDS.map((field) => ({ name: field.name, type: field.type, dataSetKey: field.isKey })),
    );

    const asSent = fields.map(({ name, type, dataSetKey }) => ({ name, type, dataSetKey }));
    const refusals = [
      {
        fields: asSent.map((f, i) => (i === 4 ? { ...f, name: 'total' } : f)),
        name: 'total',
        at: 'fields.4.name',
      },
      {
        fields: asSent.map((f, i) => (i === 4 ? { ...f, type: 'TEXT' } : f)),
        name: 'amount',
        at: 'fields.4',
      },
      {
        fields: asSent.map((f, i) => (i === 0 ? { ...f, dataSetKey: false } : f)),
        name: 'transactionId',
        at: 'fields.0',
      },
      {
        fields: [...asSent, { name: 'note', type: 'TEXT', dataSetKey: false }],
        name: 'note',
        at: 'fields.7.name',
      },
      { fields: asSent.slice(0, 6), name: 'description', at: 'fields' },
    ];
    for (const refusal of refusals) {
      const answer = await api()
        .post('/api/dataset/datasetfield')
        .set(bearer(owner))
        .send({ fields: refusal.fields })
        .expect(400);
      expect(answer.body).toMatchObject({
        message: formatMessage('dataset.engine.field.fixed', { name: refusal.name }),
        field: refusal.at,
      });
    }
    const removal = await api()
      .delete('/api/dataset/removedatasetfield/')
      .query({ datasetId, datasetFieldName: 'amount' })
      .set(bearer(owner))
      .expect(400);
    expect(removal.body).toMatchObject({
      message: formatMessage('dataset.engine.field.fixed', { name: 'amount' }),
    });
    await api().post('/api/dataset/datasetfield').set(bearer(owner)).send({ fields: asSent }).expect(200);

    // Step 2 and 3 as for a custom dataset: each fixture column onto its engine field.
    const offered = (
      (await api().get('/api/dataset/datasetlabelcolumn').set(bearer(owner)).expect(200)).body as {
        labelTablesColumnsDto: LabelColumnRow[];
      }
    ).labelTablesColumnsDto.filter((row) => row.extractorId === extractorId);
    expect(offered).toHaveLength(COLUMNS.length);
    const step3 = await api()
      .post('/api/dataset/labeltablecolumnlist')
      .set(bearer(owner))
      .send({ rows: offered.map(({ actionId, tableColumnId }) => ({ actionId, tableColumnId })) })
      .expect(200);
    const fieldOfColumn = new Map<string, string>(COLUMNS);
    const rows = (
      step3.body as { labelAndTableColumnDtoList: LabelColumnMappingRow[] }
    ).labelAndTableColumnDtoList.map((row) => ({
      actionId: row.actionId,
      tableColumnId: row.tableColumnId,
      checkBoxes: row.checkBoxes.map((box) => ({
        datasetFieldName: box.datasetFieldName,
        checked:
          fieldOfColumn.get(row.extractorLabelTableColumnDto.tableColumnName ?? '') === box.datasetFieldName,
      })),
    }));
    await api().post('/api/dataset/save').query({ datasetId }).set(bearer(owner)).send({ rows }).expect(200);

    expect(await datasetOf(owner, datasetId)).toMatchObject({
      type: 'FENGINE_TRANSACTION',
      rowCount: 0,
      engineSync: { pending: 0, rejected: 0, lastError: null, lastSyncedAt: null },
    });
    // A saved engine dataset keeps its fields too.
    await api().get('/api/dataset/edit').query({ datasetId }).set(bearer(owner)).expect(200);
    const renamed = await api()
      .post('/api/dataset/datasetfield')
      .set(bearer(owner))
      .send({ fields: asSent.map((f, i) => (i === 1 ? { ...f, name: 'portfolio' } : f)) })
      .expect(400);
    expect(renamed.body).toMatchObject({
      message: formatMessage('dataset.engine.field.fixed', { name: 'portfolio' }),
    });
    await api().get('/api/dataset/canceldataset').set(bearer(owner)).expect(200);
  });

  it('a run’s rows reach the engine; a second run sends only the row that changed', async () => {
    await execute(owner);
    const imported = await eventually(
      () => sandbox.importedRows('transactions'),
      (rows) => rows.length === 5,
      'the engine’s transactions',
    );
    const first = byExternalId(imported);
    const dataset = await eventually(
      () => datasetOf(owner, datasetId),
      (found) => found?.engineSync?.lastSyncedAt !== null && found?.engineSync?.pending === 0,
      'the dataset’s import state',
    );
    expect(dataset).toMatchObject({ rowCount: 5, engineSync: { pending: 0, rejected: 0, lastError: null } });
    expect([...first.keys()].every((id) => id.startsWith(`${datasetId}:`))).toBe(true);
    expect(
      [...first.values()].map((row) => row.values).find((values) => values.transactionId === 'T-1001'),
    ).toEqual({
      transactionId: 'T-1001',
      portfolioId: 'PF-001',
      tradeDate: '2025-03-14T00:00:00.000Z',
      type: 'SUBSCRIPTION',
      amount: 1234.5,
      currency: 'EUR',
      description: 'Initial subscription',
    });

    // The same page again: nothing changed, nothing waits, nothing is sent (every row keeps its
    // import time).
    await execute(owner);
    expect(await datasetOf(owner, datasetId)).toMatchObject({ engineSync: { pending: 0, rejected: 0 } });
    const unchanged = byExternalId(await sandbox.importedRows('transactions'));
    for (const [id, row] of first) expect(unchanged.get(id)?.importedAt, id).toBe(row.importedAt);

    // One amount changed: that row alone is imported again (the engine updates it by externalId).
    await useVariant('changed');
    await execute(owner);
    const after = byExternalId(
      await eventually(
        () => sandbox.importedRows('transactions'),
        (rows) => rows.some((row) => row.values.transactionId === 'T-1003' && row.values.amount === 999.99),
        'the changed transaction',
      ),
    );
    expect(after.size).toBe(5);
    for (const [id, row] of first) {
      if (row.values.transactionId === 'T-1003') expect(after.get(id)?.importedAt).not.toBe(row.importedAt);
      else expect(after.get(id)?.importedAt, id).toBe(row.importedAt);
    }
  });

  it('keeps the reason of a row the engine refuses and does not send it again until it changes', async () => {
    await useVariant('incomplete');
    await execute(owner);
    const dataset = await eventually(
      () => datasetOf(owner, datasetId),
      (found) => found?.engineSync?.rejected === 1,
      'the refused row',
    );
    expect(dataset).toMatchObject({ rowCount: 6, engineSync: { pending: 0, rejected: 1, lastError: null } });
    expect((await sandbox.importedRows('transactions')).map((row) => row.values.transactionId)).not.toContain(
      'T-1006',
    );
    // The same refused row again: it is not sent again (nothing waits) until it changes.
    await execute(owner);
    expect(await datasetOf(owner, datasetId)).toMatchObject({ engineSync: { pending: 0, rejected: 1 } });
  });

  it('with the engine down the run succeeds and the rows wait, saying why; they arrive once it is back', async () => {
    await sandbox.setFaults({ down: true });
    await useVariant('changed');
    await execute(owner);
    const waiting = await eventually(
      () => datasetOf(owner, datasetId),
      (found) => (found?.engineSync?.pending ?? 0) > 0 && (found?.engineSync?.lastError ?? null) !== null,
      'the waiting rows',
    );
    // T-1003 is 999.99 again (the last page had 980.00): one changed row waits.
    expect(waiting?.engineSync?.pending).toBe(1);
    expect(waiting?.engineSync?.lastError).toContain(`The F-engine at ${sandbox.url} could not be reached`);

    await sandbox.clearFaults();
    await eventually(
      () => sandbox.importedRows('transactions'),
      (rows) => rows.some((row) => row.values.transactionId === 'T-1003' && row.values.amount === 999.99),
      'the waiting row at the engine',
    );
    expect(
      await eventually(
        () => datasetOf(owner, datasetId),
        (found) => found?.engineSync?.pending === 0,
        'no row waiting',
      ),
    ).toMatchObject({ engineSync: { pending: 0, lastError: null } });
  });

  it('with the engine answering 503 and the import job gone, the sweep sends the rows once it answers', async () => {
    await sandbox.setFaults({ failWith: 503 });
    await useVariant(null);
    await execute(owner);
    const waiting = await eventually(
      () => datasetOf(owner, datasetId),
      (found) => found?.engineSync?.lastError?.includes('HTTP 503') ?? false,
      'the 503',
    );
    expect(waiting?.engineSync?.pending).toBe(1);
    // The job's own tries are spent (or Redis lost it): only the sweep queues the dataset again.
    await eventually(
      async () => {
        const job = await importQueue.getJob(fengineImportJobId(datasetId));
        return job
          ? job.remove().then(
              () => true,
              () => false,
            )
          : true;
      },
      Boolean,
      'removing the import job',
    );
    await sandbox.clearFaults();
    await eventually(
      () => sandbox.importedRows('transactions'),
      (rows) => rows.some((row) => row.values.transactionId === 'T-1003' && row.values.amount === 980),
      'the waiting row at the engine',
    );
    await eventually(
      () => datasetOf(owner, datasetId),
      (found) => found?.engineSync?.pending === 0 && found.engineSync.lastError === null,
      'no row waiting',
    );
  });

  it('shows another user nothing of the dataset', async () => {
    expect(await datasetOf(stranger, datasetId)).toBeUndefined();
    await api().get('/api/dataset/edit').query({ datasetId }).set(bearer(stranger)).expect(404);
  });
});

describe('FENGINE queries', () => {
  it('a query over an engine dataset is FENGINE, reads its rows and opens for editing', async () => {
    const created = await api()
      .post('/api/query/createquery')
      .set(bearer(owner))
      .send({ name: 'Engine transactions', description: 'engine' })
      .expect(201);
    const queryId = (created.body as { id: string }).id;
    await api().post('/api/query/dataset').set(bearer(owner)).send({ datasetId }).expect(200);
    await api().post('/api/query/datasetfieldquery').set(bearer(owner)).send({}).expect(200);
    const fields = await db.datasetField.findMany({ where: { datasetId }, orderBy: { sequence: 'asc' } });
    await api()
      .post('/api/query/fieldselected')
      .set(bearer(owner))
      .send({ fields: fields.map((field) => ({ datasetFieldId: field.id })) })
      .expect(200);
    await api().post('/api/query/datasetfieldqueryForFilter').set(bearer(owner)).send({}).expect(200);
    await api().post('/api/query/filterinputvalue').set(bearer(owner)).send({ filters: [] }).expect(200);
    const page = (
      await api()
        .get('/api/query/showqueryresult')
        .query({ page: 0, size: 25 })
        .set(bearer(owner))
        .expect(200)
    ).body as QueryResult;
    expect(page.totalOfRows).toBe(6);
    expect(
      page.rows.map((row) => row.fields.find((cell) => cell.name === 'transactionId')?.value).sort(),
    ).toEqual(['T-1001', 'T-1002', 'T-1003', 'T-1004', 'T-1005', 'T-1006']);
    await api().get('/api/query/save').query({ queryId }).set(bearer(owner)).expect(200);
    expect(await db.query.findUniqueOrThrow({ where: { id: queryId } })).toMatchObject({ type: 'FENGINE' });

    const listed = await api().get('/api/query/querydashboard').set(bearer(owner)).expect(200);
    expect(
      (listed.body as { id: string; type: string }[]).find((query) => query.id === queryId),
    ).toMatchObject({
      type: 'FENGINE',
    });
    const opened = await api().get('/api/query/editquery').query({ queryId }).set(bearer(owner)).expect(200);
    expect(opened.body).toMatchObject({ query: { id: queryId, type: 'FENGINE' } });
    await api().get('/api/query/editquery').query({ queryId }).set(bearer(stranger)).expect(404);
  });
});

describe('engine addresses an operator types (issue 38)', () => {
  /** An insertor that only signs in to the engine its run is told, and asks for an investor. */
  async function signInOnlyInsertor(): Promise<string> {
    const insertor = await db.extractor.create({
      data: {
        userId: owner.id,
        name: `Sign-in ${Date.now()}`,
        description: 'x',
        extractorType: 'FENGINE_INSERTOR',
      },
    });
    const steps = [
      [10, 'ASK_F_ENGINE_URL'],
      [20, 'ASK_F_ENGINE_USER'],
      [30, 'ASK_F_ENGINE_PASSWORD'],
      [40, 'ASK_F_ENGINE_INVESTOR'],
    ] as const;
    for (const [sequence, type] of steps)
      await db.extractorAction.create({
        data: {
          sequence,
          type,
          label: type,
          textValue: `${type}?`,
          extractor: { connect: { id: insertor.id } },
        },
      });
    return insertor.id;
  }

  /** Runs it with `engineUrl` typed into the address ask; the run's end. */
  async function runWithEngineAt(engineUrl: string) {
    const insertorId = await signInOnlyInsertor();
    const started = await api().get(`/api/extractor/execute/${insertorId}`).set(bearer(owner)).expect(200);
    const runId = (started.body as { runId: string }).runId;
    const answers: Record<string, string> = {
      ASK_F_ENGINE_URL: engineUrl,
      ASK_F_ENGINE_USER: sandbox.username,
      ASK_F_ENGINE_PASSWORD: sandbox.password,
    };
    for (;;) {
      const next = await waitUntil(
        async () => {
          const ask = await api()
            .get('/api/extractor/getPendingAskActionToFill')
            .query({ extractorType: 'FENGINE_INSERTOR' })
            .set(bearer(owner));
          const shown = ask.body as { id: string; type: string; runId: string };
          if (ask.status === 200 && shown.runId === runId) return { ask: shown };
          const run = await api().get(`/api/extractor/run/${runId}`).set(bearer(owner));
          return (
            run.status === 200 && (run.body as { status: string }).status !== 'EXECUTING' && { ask: null }
          );
        },
        { timeoutMs: 30_000, intervalMs: 200, message: `an ask of run ${runId}` },
      );
      if (!next.ask || next.ask.type === 'ASK_F_ENGINE_INVESTOR') break;
      await api()
        .post('/api/extractor/updatePendingAskAction')
        .set(bearer(owner))
        .send({ id: next.ask.id, textValue: answers[next.ask.type], saveOptionsFlag: false })
        .expect(200);
    }
    return waitForRun(stack.apiUrl, owner.token, runId);
  }

  it('reach no other port of the machine, nor the import engine, and no request leaves', async () => {
    // A local service that must never hear from the worker (Redis, Postgres, maildev stand-in).
    const heard: string[] = [];
    const local = http.createServer((request, response) => {
      heard.push(`${request.method} ${request.url}`);
      response.end('{}');
    });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    const port = (local.address() as AddressInfo).port;
    try {
      for (const typed of [
        `http://127.0.0.1:${port}/anything`,
        `http://[::ffff:127.0.0.1]:${port}/`,
        // IPv4-compatible IPv6 was judged public (item 11).
        `http://[::127.0.0.1]:${port}/`,
        // FENGINE_URL's origin is trusted for imports only.
        sandbox.url,
      ]) {
        const run = await runWithEngineAt(typed);
        expect(run.status, typed).toBe('ERROR');
        expect(run.errorMessage, typed).toMatch(/^The F-engine address \S+ is refused/u);
        expect(run.errorMessage, typed).toContain('non-public address');
      }
      expect(heard).toEqual([]);
    } finally {
      await new Promise((resolve) => local.close(resolve));
    }
  });
});
