import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createPrismaClient, datasetTable, fieldColumn } from '@pagewright/db';
import {
  BULK_RUN_MAX_INPUTS,
  INPUT_MESSAGES,
  MESSAGES,
  QUEUES,
  queuePrefix,
  type BulkRunItemPage,
  type BulkRunView,
  type ExtractorInput,
} from '@pagewright/shared';
import { insertExtractorRows, type ActionRow } from '../support/extractor-rows.js';
import { createSignedInUser, signInAgain, type SignedInUser } from '../support/accounts.js';
import { buildDataset } from '../support/datasets-api.js';
import { waitFor } from '../support/ports.js';
import { readRun } from '../support/runs-api.js';

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const db = createPrismaClient(inject('databaseUrl'));
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const bulkQueue = new Queue(QUEUES.bulkRuns, {
  connection: redis,
  prefix: queuePrefix(inject('redisKeyPrefix')),
});
const api = () => request(apiUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
/** The worker's BULK_RUN_CONCURRENCY_PER_USER in the test stack (its default). */
const BULK_CONCURRENCY = 3;
/**
 * The CSV's rows; one a quarter down fails on its first visit. Each row is a run in a fresh browser
 * context (40–80 a minute on the 2-core machine): the suite runs 30, ten times the three a user
 * runs at once, which is what the test proves (100 took ~110 s of the suite's 15 minutes, issue
 * 37); `PW_TEST_BULK_ROWS=500` is issue 26's figure, run by hand (docs/testing.md).
 */
const CSV_ROWS = Number(process.env.PW_TEST_BULK_ROWS) || 30;
const FLAKY_ROW = Math.ceil(CSV_ROWS / 4);

/**
 * A catalogue site of items: /item?n=K shows `item-K`. An item with `flaky=1` is not ready the
 * first time it is opened (no value on the page), as a real site's slow record would be.
 */
interface ItemSite {
  url: string;
  hits: Map<string, number>;
  close(): Promise<void>;
}

async function startItemSite(): Promise<ItemSite> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const n = url.searchParams.get('n') ?? '';
    const key = url.search;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    const ready = url.searchParams.get('flaky') !== '1' || (hits.get(key) ?? 0) > 1;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>Item ${n}</title><h1>Item</h1>${ready ? `<p id="value">item-${n}</p>` : '<p>Loading…</p>'}`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let site: ItemSite;
let owner: SignedInUser;
let stranger: SignedInUser;

const signUp = (label: string) => createSignedInUser(db, apiUrl, mailUrl, label);

const insertExtractor = (user: SignedInUser, name: string, inputs: ExtractorInput[], actions: ActionRow[]) =>
  insertExtractorRows(db, { userId: user.id, name, inputs, actions });

/** Opens `{{input.page}}` and reads its value (a short wait: a missing value fails fast). */
const itemExtractor = (user: SignedInUser, name: string) =>
  insertExtractor(
    user,
    name,
    [{ name: 'page', type: 'URL', defaultValue: `${site.url}/item?n=0` }],
    [
      { sequence: 10, type: 'NAVIGATE', textValue: '{{input.page}}' },
      {
        sequence: 20,
        type: 'GET_TEXT',
        label: 'Value',
        selectorValue: '#value',
        options: { timeoutMs: 2_000 },
      },
    ],
  );

const createBulk = (user: SignedInUser, extractorId: string, body: object) =>
  api().post(`/api/extractor/${extractorId}/bulk-runs`).set(bearer(user.token)).send(body);

/** The bulk run's progress; a token that expired during a long wait is renewed. */
async function readBulk(user: SignedInUser, bulkRunId: string): Promise<BulkRunView> {
  const read = () => api().get(`/api/bulk-runs/${bulkRunId}`).set(bearer(user.token));
  let answer = await read();
  if (answer.status === 401) {
    await signInAgain(apiUrl, user);
    answer = await read();
  }
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as BulkRunView;
}

async function allItems(user: SignedInUser, bulkRunId: string, status = 'all') {
  const items: BulkRunItemPage['items'] = [];
  let after = 0;
  for (;;) {
    const page = (
      await api()
        .get(`/api/bulk-runs/${bulkRunId}/items`)
        .query({ status, after, limit: 1000 })
        .set(bearer(user.token))
        .expect(200)
    ).body as BulkRunItemPage;
    items.push(...page.items);
    if (page.nextAfter === null) return items;
    after = page.nextAfter;
  }
}

/** Waits for the bulk run to end, sampling how many of the user's runs execute at once. */
async function untilEnded(user: SignedInUser, bulkRunId: string, timeoutMs: number) {
  let mostAtOnce = 0;
  const progress: number[] = [];
  const ended = await waitFor(
    async () => {
      const executing = await db.run.count({ where: { userId: user.id, status: 'EXECUTING' } });
      mostAtOnce = Math.max(mostAtOnce, executing);
      const view = await readBulk(user, bulkRunId);
      progress.push(view.total - view.counts.pending - view.counts.running);
      return view.status === 'RUNNING' ? undefined : view;
    },
    `bulk run ${bulkRunId} to end`,
    timeoutMs,
  );
  return { ended, mostAtOnce, progress };
}

const csvOf = (rows: string[]) => ['page', ...rows].join('\r\n');

beforeAll(async () => {
  site = await startItemSite();
  [owner, stranger] = await Promise.all([signUp('bulk-owner'), signUp('bulk-stranger')]);
});

afterAll(async () => {
  await site.close();
  await bulkQueue.close();
  redis.disconnect();
  await db.$disconnect();
});

describe('bulk runs (issue 26, item 4)', () => {
  it(
    'runs a CSV of many inputs (500 with PW_TEST_BULK_ROWS=500) a few at a time, fills the dataset, and retries the one failed row alone',
    async () => {
      const extractorId = await itemExtractor(owner, 'Items in bulk');
      const datasetId = await buildDataset(
        apiUrl,
        owner.token,
        'Bulk items',
        [{ name: 'Value', type: 'TEXT', dataSetKey: true }],
        { [extractorId]: { Value: 'Value' } },
      );
      const rows = Array.from({ length: CSV_ROWS }, (_, index) =>
        index + 1 === FLAKY_ROW
          ? `${site.url}/item?n=${FLAKY_ROW}&flaky=1`
          : `${site.url}/item?n=${index + 1}`,
      );
      const created = await createBulk(owner, extractorId, {
        source: 'CSV',
        fileName: 'items.csv',
        csv: csvOf(rows),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const bulk = created.body as BulkRunView;
      expect(bulk).toMatchObject({
        source: 'CSV',
        sourceName: 'items.csv',
        status: 'RUNNING',
        total: CSV_ROWS,
      });

      const { ended, mostAtOnce, progress } = await untilEnded(owner, bulk.id, 15 * 60_000);
      expect(ended.status).toBe('FINISHED');
      expect(ended.counts).toEqual({
        pending: 0,
        running: 0,
        success: CSV_ROWS - 1,
        error: 1,
        stopped: 0,
        cancelled: 0,
      });
      // Side by side, never more than the user's share; the progress only grows.
      expect(mostAtOnce).toBeGreaterThanOrEqual(2);
      expect(mostAtOnce).toBeLessThanOrEqual(BULK_CONCURRENCY);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));

      const items = await allItems(owner, bulk.id);
      expect(items.map((item) => item.position)).toEqual(rows.map((_, index) => index + 1));
      expect(items[0]).toMatchObject({ inputs: { page: rows[0] }, status: 'SUCCESS', attempts: 1 });
      expect(new Set(items.map((item) => item.runId)).size).toBe(CSV_ROWS);
      const failed = await allItems(owner, bulk.id, 'failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ position: FLAKY_ROW, status: 'ERROR', attempts: 1 });
      expect(failed[0]?.errorMessage).toBeTruthy();
      // Only the step that failed is pictured: a bulk run does not store every step's pictures.
      const failedRun = await readRun(apiUrl, owner.token, failed[0]?.runId ?? '');
      expect(failedRun.steps.find((step) => step.sequence === 20)).toMatchObject({
        hasPageScreenshot: true,
      });
      const goodRun = await readRun(apiUrl, owner.token, items[0]?.runId ?? '');
      expect(goodRun.steps).toHaveLength(2);
      expect(
        goodRun.steps.some(
          (step) => step.hasPageScreenshot || step.hasElementScreenshot || step.hasNormalizedHtml,
        ),
      ).toBe(false);

      // The runs filled the mapped dataset like single runs: one row per successful item.
      const values = async () =>
        (
          await db.$queryRawUnsafe<{ value: string }[]>(
            `SELECT ${fieldColumn((await db.datasetField.findFirstOrThrow({ where: { datasetId } })).id)} AS value FROM ${datasetTable(datasetId)}`,
          )
        ).map((row) => row.value);
      const filled = await values();
      expect(filled).toHaveLength(CSV_ROWS - 1);
      expect(filled).not.toContain(`item-${FLAKY_ROW}`);

      // Only a failed row can be retried; retrying it runs that row alone.
      const notFailed = await api()
        .post(`/api/bulk-runs/${bulk.id}/items/1/retry`)
        .set(bearer(owner.token))
        .expect(409);
      expect(notFailed.body.message).toBe(MESSAGES['bulk.run.item.not.retryable']);
      const runsBefore = await db.run.count({ where: { extractorId } });
      const retried = await api()
        .post(`/api/bulk-runs/${bulk.id}/items/${FLAKY_ROW}/retry`)
        .set(bearer(owner.token))
        .expect(200);
      expect((retried.body as BulkRunView).status).toBe('RUNNING');
      const again = await untilEnded(owner, bulk.id, 60_000);
      expect(again.ended.counts).toMatchObject({ success: CSV_ROWS, error: 0 });
      expect(await db.run.count({ where: { extractorId } })).toBe(runsBefore + 1);
      const after = await allItems(owner, bulk.id);
      expect(after[FLAKY_ROW - 1]).toMatchObject({ status: 'SUCCESS', attempts: 2, errorMessage: null });
      expect(after[FLAKY_ROW - 1]?.runId).not.toBe(items[FLAKY_ROW - 1]?.runId);
      expect(after.filter((_, index) => index !== FLAKY_ROW - 1).map((item) => item.runId)).toEqual(
        items.filter((_, index) => index !== FLAKY_ROW - 1).map((item) => item.runId),
      );
      expect(await values()).toContain(`item-${FLAKY_ROW}`);
    },
    20 * 60_000,
  );

  it('checks every row before queueing anything, naming the row and the input', async () => {
    const extractorId = await itemExtractor(owner, 'Items checked');
    const before = await db.bulkRun.count();
    const badValue = await createBulk(owner, extractorId, {
      source: 'CSV',
      csv: csvOf([`${site.url}/item?n=1`, `${site.url}/item?n=2`, 'not a url']),
    }).expect(400);
    expect(badValue.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'rows.3.page',
      message: MESSAGES['bulk.run.row.invalid']
        .replace('{{row}}', '3')
        .replace(
          '{{message}}',
          INPUT_MESSAGES.invalid.replace('{{name}}', 'page').replace('{{expected}}', 'an http(s) URL'),
        ),
    });
    const unknownColumn = await createBulk(owner, extractorId, {
      source: 'CSV',
      csv: 'page,color\r\nhttp://127.0.0.1/,blue',
    }).expect(400);
    expect(unknownColumn.body.message).toBe(
      MESSAGES['bulk.run.column.unknown'].replace('{{column}}', 'color'),
    );
    const broken = await createBulk(owner, extractorId, { source: 'CSV', csv: 'page\r\n"unclosed' }).expect(
      400,
    );
    expect(broken.body.message).toMatch(/^The CSV file could not be read: /u);
    const empty = await createBulk(owner, extractorId, { source: 'LINES', lines: '\n  \n' }).expect(400);
    expect(empty.body.message).toBe(MESSAGES['bulk.run.empty']);
    const tooMany = await createBulk(owner, extractorId, {
      source: 'LINES',
      lines: Array.from(
        { length: BULK_RUN_MAX_INPUTS + 1 },
        (_, index) => `${site.url}/item?n=${index}`,
      ).join('\n'),
    }).expect(400);
    expect(tooMany.body.message).toBe(
      MESSAGES['bulk.run.too.many'].replace('{{max}}', '10,000').replace('{{count}}', '10,001'),
    );
    const noInputs = await insertExtractor(
      owner,
      'No inputs',
      [],
      [{ sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/item?n=1` }],
    );
    const refused = await createBulk(owner, noInputs, { source: 'LINES', lines: 'a' }).expect(400);
    expect(refused.body.message).toBe(MESSAGES['bulk.run.no.inputs']);
    // The CSV's file name is shown in lists and exports: one line, no control character (issue 38).
    for (const [fileName, message] of [
      ['items.csv\r\nX-Injected: 1', MESSAGES['error.name.line.break']],
      ['items\u001b[31m.csv', MESSAGES['error.file.name.control']],
    ] as const) {
      const named = await createBulk(owner, extractorId, {
        source: 'CSV',
        fileName,
        csv: csvOf([`${site.url}/item?n=1`]),
      }).expect(400);
      expect(named.body, fileName).toMatchObject({ code: 'VALIDATION_ERROR', field: 'fileName', message });
    }
    expect(await db.bulkRun.count()).toBe(before);
  });

  it(
    'takes 10,000 pasted lines at once, and cancels the rows not started',
    async () => {
      const extractorId = await itemExtractor(owner, 'Items cancelled');
      const lines = Array.from(
        { length: BULK_RUN_MAX_INPUTS },
        (_, index) => `${site.url}/item?n=${index + 1}`,
      );
      const created = await createBulk(owner, extractorId, { source: 'LINES', lines: lines.join('\n') });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const bulk = created.body as BulkRunView;
      expect(bulk).toMatchObject({ total: 10_000, source: 'LINES', sourceName: 'Pasted lines' });
      await waitFor(
        async () => ((await readBulk(owner, bulk.id)).counts.success > 0 ? true : undefined),
        'a first run',
        60_000,
      );
      const cancelled = (
        await api().post(`/api/bulk-runs/${bulk.id}/cancel`).set(bearer(owner.token)).expect(200)
      ).body as BulkRunView;
      expect(cancelled.status).toBe('CANCELLED');
      expect(cancelled.counts.cancelled).toBeGreaterThan(9_900);
      // The runs already going finish; nothing else starts.
      await waitFor(
        async () =>
          (await db.run.count({ where: { extractorId, status: 'EXECUTING' } })) === 0 ? true : undefined,
        'the runs going to end',
        60_000,
      );
      const runs = await db.run.count({ where: { extractorId } });
      // Each run's end woke the owner's bulk runs (an advance job, queued once its row took the
      // end): once no row runs and the bulk-run queue has nothing waiting or running, every wake-up
      // has run, and a cancelled row one of them started would be a run more.
      await waitFor(
        async () => ((await readBulk(owner, bulk.id)).counts.running === 0 ? true : undefined),
        'the rows to take the ends of their runs',
        60_000,
      );
      await waitFor(
        async () => {
          const queued = await bulkQueue.getJobCounts('waiting', 'prioritized', 'active');
          return Object.values(queued).every((count) => count === 0) ? true : undefined;
        },
        'the bulk-run queue to be idle',
        60_000,
      );
      expect(await db.run.count({ where: { extractorId } })).toBe(runs);
      const final = await readBulk(owner, bulk.id);
      expect(final.counts.pending + final.counts.running).toBe(0);
      expect(final.counts.success + final.counts.error + final.counts.cancelled).toBe(10_000);
    },
    5 * 60_000,
  );

  it(
    'reads its inputs from a dataset, and starts and reads by API key with the key scopes',
    async () => {
      const pages = await itemExtractor(owner, 'Page list');
      // A dataset of pages: filled by a bulk run of its own, then the source of the next one.
      const datasetId = await buildDataset(
        apiUrl,
        owner.token,
        'Pages to visit',
        [{ name: 'Page', type: 'TEXT', dataSetKey: true }],
        { [pages]: { Page: 'Value' } },
      );
      const seeded = (
        await createBulk(owner, pages, {
          source: 'LINES',
          lines: [7, 8, 9].map((n) => `${site.url}/item?n=${n}`).join('\n'),
        }).expect(201)
      ).body as BulkRunView;
      await untilEnded(owner, seeded.id, 60_000);
      const rows = await db.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM ${datasetTable(datasetId)}`,
      );
      expect(rows[0]?.n).toBe(3);

      const reader = await insertExtractor(
        owner,
        'Reads values',
        [{ name: 'say', type: 'TEXT', defaultValue: 'x' }],
        [{ sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/item?n=1` }],
      );
      const key = (
        await api()
          .post('/api/user/api-keys')
          .set(bearer(owner.token))
          .send({ name: 'bulk', scope: 'RUN' })
          .expect(201)
      ).body as { key: string };
      const readKey = (
        await api()
          .post('/api/user/api-keys')
          .set(bearer(owner.token))
          .send({ name: 'bulk-read', scope: 'READ' })
          .expect(201)
      ).body as { key: string };
      const body = { source: 'DATASET', datasetId, columns: { say: 'Page' } };
      await api()
        .post(`/api/v1/extractors/${reader}/bulk-runs`)
        .set(bearer(readKey.key))
        .send(body)
        .expect(403);
      const started = await api()
        .post(`/api/v1/extractors/${reader}/bulk-runs`)
        .set(bearer(key.key))
        .send(body);
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      const bulk = started.body as BulkRunView;
      expect(bulk).toMatchObject({ source: 'DATASET', sourceName: 'Pages to visit', total: 3 });
      await untilEnded(owner, bulk.id, 60_000);
      const progress = await api().get(`/api/v1/bulk-runs/${bulk.id}`).set(bearer(readKey.key)).expect(200);
      expect(progress.body).toMatchObject({ status: 'FINISHED', counts: { success: 3 } });
      const items = (
        await api().get(`/api/v1/bulk-runs/${bulk.id}/items`).set(bearer(readKey.key)).expect(200)
      ).body as BulkRunItemPage;
      expect(items.items.map((item) => item.inputs.say).sort()).toEqual(['item-7', 'item-8', 'item-9']);
      const missingColumn = await api()
        .post(`/api/v1/extractors/${reader}/bulk-runs`)
        .set(bearer(key.key))
        .send({ source: 'DATASET', datasetId, columns: { say: 'Nope' } })
        .expect(400);
      expect(missingColumn.body).toMatchObject({ field: 'columns.say' });
    },
    5 * 60_000,
  );

  it('keeps another user out of a bulk run and its extractor, by session and by key', async () => {
    const extractorId = await itemExtractor(owner, 'Items private');
    const bulk = (
      await createBulk(owner, extractorId, { source: 'LINES', lines: `${site.url}/item?n=1` }).expect(201)
    ).body as BulkRunView;
    const as = bearer(stranger.token);
    await createBulk(stranger, extractorId, { source: 'LINES', lines: `${site.url}/item?n=2` }).expect(404);
    await api().get(`/api/bulk-runs/${bulk.id}`).set(as).expect(404);
    await api().get(`/api/bulk-runs/${bulk.id}/items`).set(as).expect(404);
    await api().post(`/api/bulk-runs/${bulk.id}/retry`).set(as).expect(404);
    await api().post(`/api/bulk-runs/${bulk.id}/items/1/retry`).set(as).expect(404);
    await api().post(`/api/bulk-runs/${bulk.id}/cancel`).set(as).expect(404);
    const listed = (await api().get('/api/bulk-runs').set(as).expect(200)).body as {
      bulkRuns: BulkRunView[];
    };
    expect(listed.bulkRuns.map((item) => item.id)).not.toContain(bulk.id);
    const strangerKey = (
      await api().post('/api/user/api-keys').set(as).send({ name: 'other', scope: 'RUN' }).expect(201)
    ).body as { key: string };
    await api().get(`/api/v1/bulk-runs/${bulk.id}`).set(bearer(strangerKey.key)).expect(404);
    await api()
      .post(`/api/v1/extractors/${extractorId}/bulk-runs`)
      .set(bearer(strangerKey.key))
      .send({ source: 'LINES', lines: 'x' })
      .expect(404);
    const mine = (
      await api().get('/api/bulk-runs').query({ extractorId }).set(bearer(owner.token)).expect(200)
    ).body as { bulkRuns: BulkRunView[] };
    expect(mine.bulkRuns.map((item) => item.id)).toEqual([bulk.id]);
  });
});
