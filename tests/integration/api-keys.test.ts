import { readFileSync } from 'node:fs';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createDatasetTable,
  createPrismaClient,
  fillDataset,
  pgSql,
  type PrismaClient,
} from '@pagewright/db';
import {
  API_KEY_SHOWN_LENGTH,
  MESSAGES,
  type ApiKey,
  type CreatedApiKey,
  type V1Dataset,
  type V1Extractor,
  type V1Run,
  type V1RowsPage,
} from '@pagewright/shared';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { waitFor } from '../support/ports.js';
// Calls one key may make per minute on the suite's stack (the rate-limit test spends them), whose
// API logs every request at info (global-setup.ts).
import { SHARED_STACK_API_KEY_RATE_LIMIT_PER_MINUTE as RATE_LIMIT } from '../support/stack.js';

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const apiLogFile = inject('apiLogFile');
const db: PrismaClient = createPrismaClient(inject('databaseUrl'));
const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
let owner: SignedInUser;
let stranger: SignedInUser;
const api = () => request(apiUrl);
const session = (user: SignedInUser) => ({ Authorization: `Bearer ${user.token}` });
const withKey = (key: string) => ({ Authorization: `Bearer ${key}` });

/** Every key this file made, to prove none of them reached the API's log. */
const keysMade: string[] = [];

async function createKey(
  user: SignedInUser,
  body: { name: string; scope: 'READ' | 'RUN'; expiresInDays?: number },
): Promise<CreatedApiKey> {
  const created = (await api().post('/api/user/api-keys').set(session(user)).send(body).expect(201))
    .body as CreatedApiKey;
  keysMade.push(created.key);
  return created;
}

async function insertExtractor(user: SignedInUser, name: string): Promise<string> {
  const extractor = await db.extractor.create({
    data: {
      userId: user.id,
      name,
      description: name,
      extractorType: 'EXTRACTOR',
      actions: { create: [{ sequence: 10, type: 'GET_TEXT', label: 'Title', selectorValue: 'h1' }] },
    },
  });
  return extractor.id;
}

/** A dataset of `count` rows (Code "code-1"…, Amount 1…), written as a run writes them. */
async function insertDataset(user: SignedInUser, name: string, count: number): Promise<string> {
  const dataset = await db.dataset.create({
    data: {
      userId: user.id,
      name,
      description: name,
      rowCount: count,
      fields: {
        create: [
          { name: 'Code', type: 'TEXT', isKey: false, sequence: 0 },
          { name: 'Amount', type: 'NUMBER', isKey: false, sequence: 1 },
        ],
      },
    },
    include: { fields: true },
  });
  const fields = dataset.fields.map((field) => ({ id: field.id, type: field.type, isKey: false }));
  const [code, amount] = dataset.fields.sort((a, b) => a.sequence - b.sequence);
  await createDatasetTable(pgSql(pool), dataset.id, fields);
  await fillDataset(pgSql(pool), {
    datasetId: dataset.id,
    fields,
    writtenFieldIds: fields.map((field) => field.id),
    rows: Array.from({ length: count }, (_, index) => ({
      [code!.id]: `code-${index + 1}`,
      [amount!.id]: index % 3 === 0 ? `say "${index + 1}", ok` : String(index + 1),
    })),
    extractorId: null,
    runId: null,
  });
  return dataset.id;
}

beforeAll(async () => {
  owner = await createSignedInUser(db, apiUrl, mailUrl, 'keys-owner');
  stranger = await createSignedInUser(db, apiUrl, mailUrl, 'keys-stranger');
}, 240_000);

afterAll(async () => {
  await pool.end();
  await db.$disconnect();
});

describe('API keys (issue 26)', () => {
  it('creates a key shown once, lists it by prefix, uses it, and refuses it once revoked', async () => {
    const extractorId = await insertExtractor(owner, 'Prices');
    const created = await createKey(owner, { name: 'CI', scope: 'READ', expiresInDays: 30 });
    expect(created.key).toMatch(/^pw_[\w-]{43}$/);
    expect(created.prefix).toBe(created.key.slice(0, API_KEY_SHOWN_LENGTH));
    expect(await db.apiKey.count({ where: { keyHash: created.key } })).toBe(0);

    const listed = (await api().get('/api/user/api-keys').set(session(owner)).expect(200)).body as ApiKey[];
    const item = listed.find((key) => key.id === created.id);
    expect(item).toMatchObject({ name: 'CI', scope: 'READ', revoked: false, lastUsedAt: null });
    expect(JSON.stringify(listed)).not.toContain(created.key);

    const extractors = (await api().get('/api/v1/extractors').set(withKey(created.key)).expect(200))
      .body as V1Extractor[];
    expect(extractors).toEqual([
      { id: extractorId, name: 'Prices', type: 'EXTRACTOR', status: null, lastRun: null },
    ]);
    const used = (await api().get('/api/user/api-keys').set(session(owner)).expect(200)).body as ApiKey[];
    expect(used.find((key) => key.id === created.id)?.lastUsedAt).not.toBeNull();

    await api().delete(`/api/user/api-keys/${created.id}`).set(session(owner)).expect(200);
    const refused = await api().get('/api/v1/extractors').set(withKey(created.key)).expect(401);
    expect(refused.body).toEqual({ message: MESSAGES['apikey.revoked'], code: 'UNAUTHORIZED' });
    // Another user cannot revoke (or see) the owner's keys.
    await api().delete(`/api/user/api-keys/${created.id}`).set(session(stranger)).expect(404);
  });

  it('refuses a key name with a line break or a control character, naming the field (issue 38)', async () => {
    for (const [name, message] of [
      ['CI\r\nX-Admin: 1', MESSAGES['error.name.line.break']],
      ['CI\u2028two', MESSAGES['error.name.line.break']],
      ['CI\u001b[31m', MESSAGES['error.name.control']],
      ['CI\tkey', MESSAGES['error.name.control']],
    ] as const) {
      const answer = await api().post('/api/user/api-keys').set(session(owner)).send({ name, scope: 'READ' });
      expect([answer.status, answer.body], JSON.stringify(name)).toEqual([
        400,
        { code: 'VALIDATION_ERROR', field: 'name', message },
      ]);
    }
    const listed = (await api().get('/api/user/api-keys').set(session(owner)).expect(200)).body as ApiKey[];
    expect(listed.filter((key) => key.name.startsWith('CI') && key.name !== 'CI')).toEqual([]);
  });

  it('refuses unknown and expired keys, and no key at all', async () => {
    await api()
      .get('/api/v1/extractors')
      .set(withKey('pw_not-a-key-not-a-key-not-a-key-not-a-key-nota'))
      .expect(401, { message: MESSAGES['apikey.invalid'], code: 'UNAUTHORIZED' });
    await api()
      .get('/api/v1/extractors')
      .expect(401, { message: MESSAGES['apikey.missing'], code: 'UNAUTHORIZED' });
    // A session token is not an API key.
    await api().get('/api/v1/extractors').set(session(owner)).expect(401);

    const expiring = await createKey(owner, { name: 'soon', scope: 'READ', expiresInDays: 1 });
    await api().get('/api/v1/extractors').set(withKey(expiring.key)).expect(200);
    await db.apiKey.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await api()
      .get('/api/v1/extractors')
      .set(withKey(expiring.key))
      .expect(401, { message: MESSAGES['apikey.expired'], code: 'UNAUTHORIZED' });
  });

  it('is refused on the session routes', async () => {
    const { key } = await createKey(owner, { name: 'session-route', scope: 'RUN' });
    await api()
      .get('/api/user/')
      .set(withKey(key))
      .expect(401, { message: MESSAGES['apikey.session.only'], code: 'UNAUTHORIZED' });
    await api().get('/api/extractor?extractorType=EXTRACTOR').set(withKey(key)).expect(401);
  });

  it('keeps a READ key off RUN routes', async () => {
    const extractorId = await insertExtractor(owner, 'Scope check');
    const { key } = await createKey(owner, { name: 'reader', scope: 'READ' });
    const refused = await api().post(`/api/v1/extractors/${extractorId}/runs`).set(withKey(key)).send({});
    expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    expect(refused.body).toEqual({ message: MESSAGES['apikey.scope.run'], code: 'FORBIDDEN' });
    expect(await db.run.count({ where: { extractorId } })).toBe(0);
  });

  it("answers 404 for another user's items", async () => {
    const datasetId = await insertDataset(owner, 'Owned rows', 3);
    const extractorId = await insertExtractor(owner, 'Owned run');
    const run = await db.run.create({
      data: { extractorId, userId: owner.id, trigger: 'MANUAL', status: 'SUCCESS', finishedAt: new Date() },
    });
    const { key } = await createKey(stranger, { name: 'stranger', scope: 'RUN' });
    await api().get(`/api/v1/datasets/${datasetId}/rows`).set(withKey(key)).expect(404);
    await api().get(`/api/v1/datasets/${datasetId}/rows?format=csv`).set(withKey(key)).expect(404);
    await api().get(`/api/v1/runs/${run.id}`).set(withKey(key)).expect(404);
    await api().get(`/api/v1/runs/${run.id}/steps/10/file`).set(withKey(key)).expect(404);
    const lists = await Promise.all(
      ['/api/v1/extractors', '/api/v1/datasets'].map(
        async (url) => (await api().get(url).set(withKey(key)).expect(200)).body as unknown[],
      ),
    );
    expect(lists).toEqual([[], []]);
  });

  it("pages a dataset's rows by cursor as JSON, and streams them as CSV from a cursor", async () => {
    const datasetId = await insertDataset(owner, 'Paged rows', 7);
    const { key } = await createKey(owner, { name: 'rows', scope: 'READ' });
    const datasets = (await api().get('/api/v1/datasets').set(withKey(key)).expect(200)).body as V1Dataset[];
    expect(datasets.find((dataset) => dataset.id === datasetId)).toMatchObject({
      name: 'Paged rows',
      rowCount: 7,
      fields: [
        { name: 'Code', type: 'TEXT' },
        { name: 'Amount', type: 'NUMBER' },
      ],
    });

    const codes: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = (
        await api()
          .get(`/api/v1/datasets/${datasetId}/rows`)
          .query({ limit: 3, ...(cursor ? { cursor } : {}) })
          .set(withKey(key))
          .expect(200)
      ).body as V1RowsPage;
      codes.push(...page.rows.map((row) => row.Code ?? ''));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(codes).toEqual(['code-1', 'code-2', 'code-3', 'code-4', 'code-5', 'code-6', 'code-7']);

    const first = (
      await api().get(`/api/v1/datasets/${datasetId}/rows?limit=2`).set(withKey(key)).expect(200)
    ).body as V1RowsPage;
    expect(first.rows[0]).toEqual({ Code: 'code-1', Amount: null });
    const csv = await api()
      .get(`/api/v1/datasets/${datasetId}/rows`)
      .query({ format: 'csv', cursor: first.nextCursor })
      .set(withKey(key))
      .expect(200)
      .expect('content-type', /text\/csv/);
    expect(csv.text).toBe('Code,Amount\r\ncode-3,3\r\ncode-4,\r\ncode-5,5\r\ncode-6,6\r\ncode-7,\r\n');
    await api()
      .get(`/api/v1/datasets/${datasetId}/rows?cursor=nonsense`)
      .set(withKey(key))
      .expect(400, { message: MESSAGES['publicapi.bad.cursor'], code: 'VALIDATION_ERROR', field: 'cursor' });
  });

  it("pages a saved query's sorted results by cursor, as JSON and CSV", async () => {
    const datasetId = await insertDataset(owner, 'Queried rows', 5);
    const fields = await db.datasetField.findMany({ where: { datasetId }, orderBy: { sequence: 'asc' } });
    const query = await db.query.create({
      data: {
        userId: owner.id,
        name: 'Codes backwards',
        description: '',
        datasetId,
        fields: {
          create: [{ datasetFieldId: fields[0]!.id, sequence: 1, orderType: 'DESCENDING', orderSequence: 1 }],
        },
      },
    });
    const { key } = await createKey(owner, { name: 'query', scope: 'READ' });
    const first = (
      await api().get(`/api/v1/queries/${query.id}/results?limit=2`).set(withKey(key)).expect(200)
    ).body as V1RowsPage;
    expect(first.columns).toEqual([{ name: 'Code', type: 'TEXT' }]);
    expect(first.rows).toEqual([{ Code: 'code-5' }, { Code: 'code-4' }]);
    const second = (
      await api()
        .get(`/api/v1/queries/${query.id}/results`)
        .query({ limit: 2, cursor: first.nextCursor })
        .set(withKey(key))
        .expect(200)
    ).body as V1RowsPage;
    expect(second.rows).toEqual([{ Code: 'code-3' }, { Code: 'code-2' }]);
    const csv = await api()
      .get(`/api/v1/queries/${query.id}/results`)
      .query({ format: 'csv', cursor: second.nextCursor })
      .set(withKey(key))
      .expect(200);
    expect(csv.text).toBe('Code\r\ncode-1\r\n');
    const { key: strangerKey } = await createKey(stranger, { name: 'query-stranger', scope: 'READ' });
    await api().get(`/api/v1/queries/${query.id}/results`).set(withKey(strangerKey)).expect(404);
  });

  it("answers a run's steps and results, waiting with ?wait= until it ends", async () => {
    const extractorId = await insertExtractor(owner, 'Waited');
    const run = await db.run.create({ data: { extractorId, userId: owner.id, trigger: 'MANUAL' } });
    await db.runStep.createMany({
      data: [
        {
          runId: run.id,
          sequence: 10,
          actionType: 'GET_TEXT',
          label: 'Title',
          value: { kind: 'text', value: 'Hello' },
        },
        {
          runId: run.id,
          sequence: 20,
          actionType: 'GET_TABLE',
          label: 'Prices',
          value: {
            kind: 'table',
            columns: [
              { label: 'Item', type: 'TEXT' },
              { label: 'Price', type: 'NUMBER' },
            ],
            rows: [
              ['Tea', 2.5],
              ['Cake', null],
            ],
          },
        },
      ],
    });
    const { key } = await createKey(owner, { name: 'runs', scope: 'READ' });
    const started = Date.now();
    const ended = new Promise<void>((resolve, reject) => {
      // eslint-disable-next-line no-restricted-syntax -- the scenario, not a sleep: the run ends 1.5 s into the long poll, which must wait for it
      setTimeout(() => {
        db.run
          .update({ where: { id: run.id }, data: { status: 'SUCCESS', finishedAt: new Date() } })
          .then(() => resolve(), reject);
      }, 1500);
    });
    const answer = (await api().get(`/api/v1/runs/${run.id}?wait=20`).set(withKey(key)).expect(200))
      .body as V1Run;
    const waited = Date.now() - started;
    await ended;
    expect(waited).toBeGreaterThanOrEqual(1400);
    expect(waited).toBeLessThan(10_000);
    expect(answer).toMatchObject({
      id: run.id,
      status: 'SUCCESS',
      trigger: 'MANUAL',
      error: null,
      steps: [
        { sequence: 10, type: 'GET_TEXT', label: 'Title', status: 'SUCCESS' },
        { sequence: 20, type: 'GET_TABLE', label: 'Prices', status: 'SUCCESS' },
      ],
      results: [
        { sequence: 10, label: 'Title', kind: 'value', value: 'Hello' },
        {
          sequence: 20,
          label: 'Prices',
          kind: 'table',
          columns: ['Item', 'Price'],
          rows: [
            { Item: 'Tea', Price: 2.5 },
            { Item: 'Cake', Price: null },
          ],
          files: [],
        },
      ],
    });
    // Without a wait, an ended run answers at once.
    await api().get(`/api/v1/runs/${run.id}`).set(withKey(key)).expect(200);
    await api().get(`/api/v1/runs/${run.id}?wait=31`).set(withKey(key)).expect(400);
  });

  it(`rate-limits each key (${RATE_LIMIT} calls a minute here) with Retry-After`, async () => {
    const { key } = await createKey(owner, { name: 'busy', scope: 'READ' });
    const other = await createKey(owner, { name: 'calm', scope: 'READ' });
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    // The window is the clock's minute: one that ends mid-test starts the count again.
    for (let call = 0; call < RATE_LIMIT * 2 + 1 && !retryAfter; call += 1) {
      const response = await api().get('/api/v1/datasets').set(withKey(key));
      statuses.push(response.status);
      if (response.status === 429) {
        retryAfter = response.headers['retry-after'] as string;
        expect(response.body.code).toBe('RATE_LIMITED');
      }
    }
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(RATE_LIMIT);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    // Another key of the same user has its own count.
    await api().get('/api/v1/datasets').set(withKey(other.key)).expect(200);
  });

  it('documents the public API in the OpenAPI document under its own tag, with examples', async () => {
    const document = (await api().get('/api/docs/json').expect(200)).body as {
      tags?: { name: string }[];
      paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
    };
    expect(document.tags?.map((tag) => tag.name)).toContain('Public API v1');
    for (const path of [
      '/api/v1/extractors',
      '/api/v1/datasets',
      '/api/v1/datasets/{id}/rows',
      '/api/v1/queries/{id}/results',
      '/api/v1/runs/{id}',
    ]) {
      expect(document.paths[path]?.get?.tags, path).toEqual(['Public API v1']);
      expect(document.paths[path]?.get?.security, path).toEqual([{ apiKey: [] }]);
    }
    expect(JSON.stringify(document.paths['/api/v1/runs/{id}'])).toContain('Price list');
  });

  it('never writes a key to the API log', async () => {
    const { key } = await createKey(owner, { name: 'logged', scope: 'READ' });
    await api().get('/api/v1/extractors').set(withKey(key)).expect(200);
    await api().get('/api/user/').set(withKey(key)).expect(401);
    const marker = `keys-log-check-${Date.now()}`;
    await api().get('/api/user/isEmailValid/last%40example.com').set('x-request-id', marker);
    const log = await waitFor(async () => {
      const text = readFileSync(apiLogFile, 'utf8');
      return text.includes(marker) ? text : undefined;
    }, 'the last request in the API log');
    expect(log).toContain('/api/v1/extractors');
    expect(keysMade.length).toBeGreaterThan(0);
    for (const key of keysMade) {
      expect(log.includes(key), 'a key in api.log').toBe(false);
      expect(log.includes(key.slice(3)), "a key's secret in api.log").toBe(false);
    }
  });
});
