import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createPrismaClient } from '@pagewright/db';
import {
  INPUT_MESSAGES,
  QUEUES,
  SCHEDULE_JOBS,
  queuePrefix,
  type BuilderView,
  type ExtractorInput,
  type ExtractorListItem,
  type RunDetail,
} from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { insertExtractorRows, type ActionRow } from '../support/extractor-rows.js';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { startExtractorBuilder } from '../support/builder-api.js';
import { waitFor } from '../support/ports.js';
import { waitForRun as waitForRunOf } from '../support/runs-api.js';

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const db = createPrismaClient(inject('databaseUrl'));
const api = () => request(apiUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const EXTRACTOR = { extractorType: 'EXTRACTOR' } as const;

let site: FixtureSite;
let owner: SignedInUser;
let stranger: SignedInUser;

const signUp = (label: string) => createSignedInUser(db, apiUrl, mailUrl, label);

const insertExtractor = (user: SignedInUser, name: string, inputs: ExtractorInput[], actions: ActionRow[]) =>
  insertExtractorRows(db, { userId: user.id, name, inputs, actions });

const startWith = (user: SignedInUser, extractorId: string, body?: object) =>
  api().post(`/api/extractor/execute/${extractorId}`).set(bearer(user.token)).send(body);

async function runWith(user: SignedInUser, extractorId: string, body?: object): Promise<RunDetail> {
  const started = await startWith(user, extractorId, body);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return waitForRunOf(apiUrl, user.token, (started.body as { runId: string }).runId);
}

const valueAt = (run: RunDetail, sequence: number) => {
  const value = run.steps.find((step) => step.sequence === sequence)?.value;
  return value?.kind === 'text' ? value.value : undefined;
};

/** Echo page: opens `{{input.page}}`, types `{{input.say}}`, reads the echo and the query value. */
const echoInputs = (): ExtractorInput[] => [
  { name: 'page', type: 'URL', defaultValue: `${site.url}/pages/echo.html?q=recorded` },
  { name: 'say', type: 'TEXT', defaultValue: 'hello' },
];
const echoActions = (): ActionRow[] => [
  { sequence: 10, type: 'NAVIGATE', textValue: '{{input.page}}' },
  { sequence: 20, type: 'TYPE_TEXT', selectorValue: '#echo-input', textValue: '{{input.say}}' },
  { sequence: 30, type: 'GET_TEXT', label: 'Echo', selectorValue: '#echo' },
  { sequence: 40, type: 'GET_TEXT', label: 'Query', selectorValue: '#query-value' },
];

beforeAll(async () => {
  site = await startFixtureSite();
  [owner, stranger] = await Promise.all([signUp('inputs-owner'), signUp('inputs-stranger')]);
});

afterAll(async () => {
  await site.close();
  await db.$disconnect();
});

describe('runs with inputs (issue 26, item 3)', () => {
  it('types the values a run is started with, as plain text, and keeps them with the run', async () => {
    const id = await insertExtractor(owner, 'Echo with inputs', echoInputs(), echoActions());
    const said = '<b>bold?</b> {{input.page}} ${1+1}';
    const run = await runWith(owner, id, {
      inputs: { say: said, page: `${site.url}/pages/echo.html?q=given` },
    });
    expect(run.status, JSON.stringify(run)).toBe('SUCCESS');
    // Never evaluated, never substituted twice: the page echoes exactly what was given.
    expect(valueAt(run, 30)).toBe(said);
    expect(valueAt(run, 40)).toBe('given');
    expect(run.inputs).toEqual({ say: said, page: `${site.url}/pages/echo.html?q=given` });

    // The dashboard list tells the screen which inputs Execute asks for.
    const listed = (await api().get('/api/extractor').query(EXTRACTOR).set(bearer(owner.token)).expect(200))
      .body as ExtractorListItem[];
    expect(listed.find((item) => item.id === id)?.inputs).toEqual(echoInputs());
  });

  it('takes the defaults for the inputs left out, and for Execute without a body', async () => {
    const id = await insertExtractor(owner, 'Echo with defaults', echoInputs(), echoActions());
    const partly = await runWith(owner, id, { inputs: { say: 'only this' } });
    expect(partly.status).toBe('SUCCESS');
    expect(valueAt(partly, 30)).toBe('only this');
    expect(valueAt(partly, 40)).toBe('recorded');
    expect(partly.inputs).toEqual({ say: 'only this', page: `${site.url}/pages/echo.html?q=recorded` });

    const answer = await api().get(`/api/extractor/execute/${id}`).set(bearer(owner.token)).expect(200);
    const plain = await waitForRunOf(apiUrl, owner.token, (answer.body as { runId: string }).runId);
    expect(plain.status).toBe('SUCCESS');
    expect(valueAt(plain, 30)).toBe('hello');
    expect(plain.inputs).toEqual({ say: 'hello', page: `${site.url}/pages/echo.html?q=recorded` });
  });

  it('refuses a value of the wrong type or an unknown input, naming it (400), and starts nothing', async () => {
    const id = await insertExtractor(owner, 'Echo refusals', echoInputs(), echoActions());
    const wrongType = await startWith(owner, id, { inputs: { page: 'javascript:alert(1)' } }).expect(400);
    expect(wrongType.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'inputs.page' });
    expect(wrongType.body.message).toContain('page');
    const unknown = await startWith(owner, id, { inputs: { color: 'blue' } }).expect(400);
    expect(unknown.body).toMatchObject({
      message: INPUT_MESSAGES.unknown.replace('{{name}}', 'color'),
      field: 'inputs.color',
    });
    expect(await db.run.count({ where: { extractorId: id } })).toBe(0);
  });

  it('fails a run whose URL is no longer http(s) once filled in, and keeps the egress policy', async () => {
    const id = await insertExtractor(
      owner,
      'Echo any target',
      [{ name: 'target', type: 'TEXT', defaultValue: `${site.url}/pages/echo.html` }],
      [
        { sequence: 10, type: 'NAVIGATE', textValue: '{{input.target}}' },
        { sequence: 20, type: 'GET_TEXT', selectorValue: '#echo' },
      ],
    );
    const script = await runWith(owner, id, { inputs: { target: 'javascript:alert(1)' } });
    expect(script).toMatchObject({
      status: 'ERROR',
      errorSequence: 10,
      errorMessage: INPUT_MESSAGES.notHttp.replace('{{sequence}}', '10'),
    });
    // An address the egress policy refuses stays refused when an input names it.
    const metadata = await runWith(owner, id, {
      inputs: { target: 'http://169.254.169.254/latest/meta-data' },
    });
    expect(metadata).toMatchObject({ status: 'ERROR', errorSequence: 10 });
    expect(metadata.steps.find((step) => step.sequence === 20)).toBeUndefined();
  });

  it('runs a scheduled firing with the defaults', async () => {
    const id = await insertExtractor(owner, 'Echo on schedule', echoInputs(), echoActions());
    const scheduler = (
      await api()
        .put('/api/extractor/scheduler/')
        .set(bearer(owner.token))
        .send({
          name: 'Echo daily',
          description: 'Runs with its defaults',
          extractorIds: [id],
          scheduleType: 'DAILY',
          time: '09:30:00',
          timeZone: 'Europe/Berlin',
        })
        .expect(200)
    ).body as { id: string };
    const connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
      maxRetriesPerRequest: null,
    });
    const schedules = new Queue(QUEUES.schedules, {
      connection,
      prefix: queuePrefix(inject('redisKeyPrefix')),
    });
    try {
      // One firing now, handled by the worker's production processor.
      await schedules.add(SCHEDULE_JOBS.fire.name, { schedulerId: scheduler.id }, {
        jobId: `inputs-${scheduler.id}`,
        prevMillis: Date.now(),
      } as never);
      const runId = await waitFor(
        async () => (await db.run.findFirst({ where: { extractorId: id }, select: { id: true } }))?.id,
        'the scheduled run',
        20_000,
      );
      const run = await waitForRunOf(apiUrl, owner.token, runId);
      expect(run).toMatchObject({ status: 'SUCCESS', trigger: 'SCHEDULED', inputs: { say: 'hello' } });
      expect(valueAt(run, 30)).toBe('hello');
      expect(valueAt(run, 40)).toBe('recorded');
    } finally {
      await api().delete(`/api/extractor/scheduler/${scheduler.id}`).set(bearer(owner.token));
      await schedules.close();
      connection.disconnect();
    }
  });

  it("answers 404 to another user's Execute, with or without inputs", async () => {
    const id = await insertExtractor(owner, 'Echo mine', echoInputs(), echoActions());
    await startWith(stranger, id, { inputs: { say: 'not yours' } }).expect(404);
    await api().get(`/api/extractor/execute/${id}`).set(bearer(stranger.token)).expect(404);
    expect(await db.run.count({ where: { extractorId: id } })).toBe(0);
  });

  it('starts a run by API key with inputs (POST /api/v1/extractors/:id/runs → 202)', async () => {
    const id = await insertExtractor(owner, 'Echo by key', echoInputs(), echoActions());
    const key = (
      await api()
        .post('/api/user/api-keys')
        .set(bearer(owner.token))
        .send({ name: 'inputs', scope: 'RUN' })
        .expect(201)
    ).body as { key: string };
    const started = await api()
      .post(`/api/v1/extractors/${id}/runs`)
      .set(bearer(key.key))
      .send({ inputs: { say: 'from a key' } })
      .expect(202);
    expect(started.body).toEqual({ runId: expect.any(String), status: 'EXECUTING' });
    const run = await waitForRunOf(apiUrl, owner.token, (started.body as { runId: string }).runId);
    expect(run.status).toBe('SUCCESS');
    expect(valueAt(run, 30)).toBe('from a key');

    const wrong = await api()
      .post(`/api/v1/extractors/${id}/runs`)
      .set(bearer(key.key))
      .send({ inputs: { page: 'not a url' } })
      .expect(400);
    expect(wrong.body).toMatchObject({ field: 'inputs.page' });

    const strangerKey = (
      await api()
        .post('/api/user/api-keys')
        .set(bearer(stranger.token))
        .send({ name: 'other', scope: 'RUN' })
        .expect(201)
    ).body as { key: string };
    await api().post(`/api/v1/extractors/${id}/runs`).set(bearer(strangerKey.key)).send({}).expect(404);
    const readKey = (
      await api()
        .post('/api/user/api-keys')
        .set(bearer(owner.token))
        .send({ name: 'read', scope: 'READ' })
        .expect(201)
    ).body as { key: string };
    await api().post(`/api/v1/extractors/${id}/runs`).set(bearer(readKey.key)).send({}).expect(403);
  });

  it('makes an action an input in the builder, runs it with the default while recording, and saves it', async () => {
    const id = await startExtractorBuilder(apiUrl, owner.token, 'Echo recorded');
    const builder = () => api().post('/api/extractor/').query(EXTRACTOR).set(bearer(owner.token));
    const opened = await builder().send({
      type: 'NAVIGATE',
      textValue: `${site.url}/pages/echo.html?q=while-recording`,
      makeInput: { name: 'page', type: 'URL' },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.action.textValue).toBe('{{input.page}}');
    // The page opened the recorded URL (the input's default).
    expect(opened.body.action.pageURL).toBe(`${site.url}/pages/echo.html?q=while-recording`);

    const typed = await builder().send({
      type: 'TYPE_TEXT',
      target: { selectorType: 'CSS', selectorValue: '#echo-input' },
      textValue: 'recorded words',
      makeInput: { name: 'say', type: 'TEXT' },
    });
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
    const read = await builder().send({
      type: 'GET_TEXT',
      target: { selectorType: 'CSS', selectorValue: '#echo' },
    });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.value).toEqual({ kind: 'text', value: 'recorded words' });

    // A default that does not read as its type, or a text naming an undeclared input: refused.
    const badDefault = await builder().send({
      type: 'TYPE_TEXT',
      target: { selectorType: 'CSS', selectorValue: '#echo-input' },
      textValue: 'twelve',
      makeInput: { name: 'count', type: 'NUMBER' },
    });
    expect(badDefault.status).toBe(400);
    expect(badDefault.body.message).toContain('count');
    const undeclared = await builder().send({
      type: 'TYPE_TEXT',
      target: { selectorType: 'CSS', selectorValue: '#echo-input' },
      textValue: '{{input.nowhere}}',
    });
    expect(undeclared.status).toBe(400);

    const current = (
      await api().get('/api/extractor/current').query(EXTRACTOR).set(bearer(owner.token)).expect(200)
    ).body as BuilderView;
    expect(current.inputs).toEqual([
      { name: 'page', type: 'URL', defaultValue: `${site.url}/pages/echo.html?q=while-recording` },
      { name: 'say', type: 'TEXT', defaultValue: 'recorded words' },
    ]);

    const validated = await api()
      .get('/api/extractor/validate')
      .query(EXTRACTOR)
      .set(bearer(owner.token))
      .buffer(true);
    const result = JSON.parse(validated.text.trim().split('\n').at(-1) ?? '{}') as { error: string | null };
    expect(result.error, validated.text).toBeNull();
    await api().put('/api/extractor/edit').query(EXTRACTOR).set(bearer(owner.token)).send({}).expect(200);
    await api().get('/api/extractor/end').query(EXTRACTOR).set(bearer(owner.token)).expect(200);

    const stored = await db.extractor.findUniqueOrThrow({ where: { id }, select: { inputs: true } });
    expect(stored.inputs).toEqual(current.inputs);
    const run = await runWith(owner, id, {
      inputs: { say: 'run words', page: `${site.url}/pages/echo.html?q=run` },
    });
    expect(run.status, JSON.stringify(run)).toBe('SUCCESS');
    expect(valueAt(run, 30)).toBe('run words');
  });
});
