import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createPrismaClient } from '@pagewright/db';
import {
  BUILDER_MESSAGES,
  MESSAGES,
  WORKER_HEARTBEAT_TTL_MS,
  type AddActionInput,
  type BuilderView,
  type EvaluatePointResponse,
  type NormalizedPage,
  type PendingAskAction,
  type RunDetail,
  type ValidationResult,
} from '@pagewright/shared';
import { FIXTURE_PASSWORD, startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { waitForRun as waitForRunOf } from '../support/runs-api.js';
import { startExtractorBuilder } from '../support/builder-api.js';
import { keysWithoutExpiry } from '../support/redis-keys.js';
import { currentWorkerPid, startFileStack } from '../support/stack.js';
import { waitUntil } from '../support/wait.js';

// Tests here kill the worker and read every Redis key: a stack of this file's own.
const stack = await startFileStack();
const apiUrl = stack.apiUrl;
const mailUrl = stack.mailUrl;
const db = createPrismaClient(stack.databaseUrl);
const api = () => request(apiUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const EXTRACTOR = { extractorType: 'EXTRACTOR' } as const;

type User = SignedInUser;

let site: FixtureSite;
let owner: User;
let stranger: User;

const signUp = (label: string): Promise<User> => createSignedInUser(db, apiUrl, mailUrl, label);

const startBuilder = (user: User, name: string): Promise<string> =>
  startExtractorBuilder(apiUrl, user.token, name);

function add(user: User, body: AddActionInput) {
  return api().post('/api/extractor/').query(EXTRACTOR).set(bearer(user.token)).send(body);
}

async function added(user: User, body: AddActionInput): Promise<number> {
  const answer = await add(user, body);
  expect(answer.status, `${body.type}: ${JSON.stringify(answer.body)}`).toBe(200);
  return (answer.body as { action: { sequence: number } }).action.sequence;
}

/** Picks an element the way the builder screen does: by clicking a point of the page. */
async function pick(user: User, selectorPart: string): Promise<EvaluatePointResponse> {
  const page = (
    await api().post('/api/extractor/normalized').query(EXTRACTOR).set(bearer(user.token)).expect(200)
  ).body as NormalizedPage;
  const area = page.areas.find(
    (candidate) => candidate.selector.includes(selectorPart) && candidate.width > 0,
  );
  expect(area, `an area for ${selectorPart} among ${page.areas.length}`).toBeDefined();
  const point = { x: area!.x + area!.width / 2, y: area!.y + area!.height / 2 };
  const element = await api()
    .post('/api/extractor/evaluate/point')
    .query(EXTRACTOR)
    .set(bearer(user.token))
    .send(point)
    .expect(200);
  return element.body as EvaluatePointResponse;
}

const target = (selectorValue: string) => ({ selectorValue });

/** Answers the next ask of `runId` (or of any run when omitted) within 20 s. */
async function answerNextAsk(
  user: User,
  textValue: string,
  runId?: string,
  endedWithout?: () => string | undefined,
): Promise<PendingAskAction> {
  const found = await waitUntil(
    async (): Promise<{ ended: string } | { ask: PendingAskAction } | false> => {
      const ended = endedWithout?.();
      if (ended !== undefined) return { ended };
      const pending = await api()
        .get('/api/extractor/getPendingAskActionToFill')
        .query(EXTRACTOR)
        .set(bearer(user.token));
      const ask = pending.body as PendingAskAction;
      return pending.status === 200 && (!runId || ask.runId === runId) && { ask };
    },
    { timeoutMs: 20_000, intervalMs: 200, message: 'a pending ask' },
  );
  if ('ended' in found) throw new Error(`ended before asking: ${found.ended.slice(0, 1500)}`);
  await api()
    .post('/api/extractor/updatePendingAskAction')
    .set(bearer(user.token))
    .send({ id: found.ask.id, textValue })
    .expect(200);
  return found.ask;
}

function parseValidation(text: string): { progress: string[]; result: ValidationResult } {
  const lines = text.trim().split('\n');
  const last = lines.pop() ?? '';
  return { progress: lines, result: JSON.parse(last) as ValidationResult };
}

const waitForRun = (user: User, runId: string): Promise<RunDetail> =>
  waitForRunOf(apiUrl, user.token, runId, undefined, 90_000);

beforeAll(async () => {
  site = await startFixtureSite();
  [owner, stranger] = await Promise.all([signUp('builder-owner'), signUp('builder-stranger')]);
});

afterAll(async () => {
  await site?.close();
  await db.$disconnect();
});

describe('the action builder (record, validate, save, run)', () => {
  let extractorId: string;

  it('records a flow using every kind of action, validates it, saves it and runs it', async () => {
    extractorId = await startBuilder(owner, 'Every action');
    const page = (name: string) => `${site.url}/pages/${name}`;

    // A brand-new builder starts with Navigate.
    const notFirst = await add(owner, { type: 'CLICK', target: target('#x') }).expect(400);
    expect(notFirst.body).toMatchObject({
      message: MESSAGES['extractor.first.action.navigate'],
      field: 'type',
    });
    const badUrl = await add(owner, { type: 'NAVIGATE', textValue: 'not a url' }).expect(400);
    expect(badUrl.body).toMatchObject({ message: 'Invalid URL', field: 'textValue' });

    expect(await added(owner, { type: 'NAVIGATE', textValue: page('login.html') })).toBe(10);
    const username = await pick(owner, 'username');
    expect(username).toMatchObject({ type: 'INPUTABLE_TEXT' });
    expect(username.fallbackLocators.length).toBeGreaterThan(1);
    expect(await added(owner, { type: 'TYPE_TEXT', target: username, textValue: 'ops-user' })).toBe(20);
    const password = await pick(owner, 'password');
    expect(password.type).toBe('INPUTABLE_PASSWORD');
    await added(owner, { type: 'TYPE_PASSWORD', target: password, credentials: FIXTURE_PASSWORD });
    await added(owner, { type: 'MOVE', target: target('#login-submit') });
    const submit = await pick(owner, 'login-submit');
    expect(submit.type).toBe('CLICKABLE');
    await added(owner, { type: 'CLICK', target: submit });
    const welcome = await add(owner, {
      type: 'GET_TEXT',
      label: 'Welcome',
      target: target('#welcome'),
    }).expect(200);
    expect(welcome.body).toMatchObject({
      value: { kind: 'text', value: 'Welcome, ops-user' },
      label: 'Welcome',
    });
    expect(typeof welcome.body.pageScreenshot).toBe('string');
    await added(owner, {
      type: 'SCRIPT',
      label: 'Welcome length',
      options: {
        script: {
          script: "return document.querySelector('#welcome').textContent.length;",
          returnType: 'NUMBER',
        },
      },
    });
    await added(owner, {
      type: 'ASK_QUESTION',
      label: 'Reference',
      textValue: 'Which reference?',
      credentials: 'REF-1',
    });

    await added(owner, { type: 'NAVIGATE', textValue: page('table.html') });
    await added(owner, { type: 'WAIT_UNTIL_NOT_ENABLED', target: target('#previous-page') });
    const amount = await add(owner, {
      type: 'GET_NUMBER',
      label: 'First amount',
      target: target('#statement-rows tr:first-child td:nth-child(2)'),
      options: {
        numberFormat: {
          beforePositive: '$',
          afterPositive: '',
          beforeNegative: '-',
          afterNegative: '',
          decimalSeparator: '.',
          groupSeparator: ',',
        },
      },
    }).expect(200);
    expect(amount.body.value).toEqual({ kind: 'number', value: 1234.5 });
    const amountSequence = (amount.body as { action: { sequence: number } }).action.sequence;
    await added(owner, {
      type: 'GET_DATE',
      label: 'First date',
      target: target('#statement-rows tr:first-child td:nth-child(3)'),
      options: { datetimeFormat: { mask: 'MM/dd/yyyy', gmt: 'Etc/GMT0' } },
    });
    // Ordering conditions need a number or date source; GET_TEXT sources get Invalid Value.
    const ifCondition = await added(owner, {
      type: 'IF_CONDITION',
      options: {
        condition: { sequenceSource: amountSequence, condition: 'GREATER_THAN', value: '1000' },
        sequenceDestination: 9990,
      },
    });
    await added(owner, {
      type: 'GET_TABLE',
      options: {
        table: {
          name: 'Statements',
          tableSelector: '#statements',
          rowSelector: '#statement-rows tr',
          columns: [
            { label: 'Name', selector: 'td:nth-child(1)', type: 'TEXT' },
            {
              label: 'Amount',
              selector: 'td:nth-child(2)',
              type: 'NUMBER',
              numberMask: {
                beforePositive: '$',
                afterPositive: '',
                beforeNegative: '-',
                afterNegative: '',
                decimalSeparator: '.',
                groupSeparator: ',',
              },
            },
          ],
          maxPages: 1,
        },
      },
    });
    const file = await add(owner, {
      type: 'GET_FILE',
      target: target('#statement-rows tr:first-child a'),
    }).expect(200);
    expect(file.body.value).toMatchObject({ kind: 'file', mimeType: 'application/pdf' });
    await added(owner, { type: 'GET_IMAGE', label: 'Statements picture', target: target('#statements') });
    await added(owner, { type: 'CLICK_IF_ENABLED', target: target('#next-page') });
    await added(owner, { type: 'WAIT_UNTIL_ENABLED', target: target('#previous-page') });
    for (const type of ['SCROLL_BOTTOM', 'SCROLL_UP', 'SCROLL_DOWN', 'SCROLL_TOP'] as const)
      await added(owner, { type });
    await added(owner, { type: 'MOUSE_MOVE', options: { point: { x: 5, y: 5 } } });
    await added(owner, { type: 'MOUSE_CLICK', options: { point: { x: 5, y: 5 } } });

    await added(owner, { type: 'NAVIGATE', textValue: page('select.html') });
    await added(owner, {
      type: 'CLICK_SELECT',
      target: target('#plan'),
      options: { select: { option: 'pro', options: [] } },
    });
    await added(owner, { type: 'GET_TEXT', label: 'Plan', target: target('#plan-result') });
    await added(owner, { type: 'GO_BACK' });
    await added(owner, { type: 'GO_FORWARD' });

    await added(owner, { type: 'NAVIGATE', textValue: page('delayed.html') });
    await added(owner, { type: 'WAIT_UNTIL_EXISTS', target: target('#loaded-message') });
    await added(owner, { type: 'WAIT_UNTIL_NOT_EXISTS', target: target('#spinner') });
    await added(owner, { type: 'WAIT_UNTIL_DISPLAYED', target: target('#loaded-message') });
    await added(owner, { type: 'WAIT_UNTIL_NOT_DISPLAYED', target: target('#spinner') });
    await added(owner, { type: 'CLICK_IF_EXISTS', target: target('#delayed-button') });
    await added(owner, { type: 'CLICK_IF_DISPLAYED', target: target('#delayed-button') });
    await added(owner, { type: 'WAIT', textValue: '0' });
    const next = (sequence: number) => sequence + 10;
    await added(owner, {
      type: 'IF_NOT_EXISTS',
      target: target('#missing'),
      options: { sequenceDestination: 9000 },
    });
    await added(owner, {
      type: 'IF_DISPLAYED',
      target: target('#button-result'),
      options: { sequenceDestination: 9000 },
    });
    await added(owner, {
      type: 'IF_NOT_DISPLAYED',
      target: target('#spinner'),
      options: { sequenceDestination: 9000 },
    });
    let sequence = await added(owner, {
      type: 'IF_ENABLED',
      target: target('#delayed-button'),
      options: { sequenceDestination: 9000 },
    });
    // Does not hold (the button is enabled): jumps to the next action, a no-op jump.
    sequence = await added(owner, {
      type: 'IF_NOT_ENABLED',
      target: target('#delayed-button'),
      options: { sequenceDestination: next(next(sequence)) },
    });
    // Does not hold either (nothing matches): jumps over the error.
    sequence = await added(owner, {
      type: 'IF_EXISTS',
      target: target('#missing'),
      options: { sequenceDestination: next(next(next(sequence))) },
    });
    const raise = await added(owner, { type: 'RAISE_ERROR', textValue: 'This error is jumped over' });
    await added(owner, { type: 'GET_TEXT', label: 'Result', target: target('#button-result') });
    await added(owner, { type: 'END' });
    expect(raise).toBe(sequence + 10);

    const view = (
      await api().get('/api/extractor/current').query(EXTRACTOR).set(bearer(owner.token)).expect(200)
    ).body as BuilderView;
    const types = new Set(view.actions.map((action) => action.type));
    expect(types.size).toBeGreaterThanOrEqual(40);
    expect(view.isValidated).toBe(false);
    // The typed secret is never returned.
    expect(JSON.stringify(view)).not.toContain(FIXTURE_PASSWORD);
    expect(view.actions.find((action) => action.type === 'TYPE_PASSWORD')).toMatchObject({
      hasCredentials: true,
      textValue: null,
    });

    // Saving needs a validation first.
    const early = await api()
      .put('/api/extractor/edit')
      .query(EXTRACTOR)
      .set(bearer(owner.token))
      .send({})
      .expect(400);
    expect(early.body.message).toBe(MESSAGES['extractor.must.validate']);

    // Validate: progress lines stream while the ask waits for its answer.
    const validating = api()
      .get('/api/extractor/validate')
      .query(EXTRACTOR)
      .set(bearer(owner.token))
      .buffer(true);
    let finished: { text: string } | undefined;
    const validation = validating.then((answer) => {
      finished = answer;
      return answer;
    });
    const ask = await answerNextAsk(owner, 'REF-1', undefined, () => finished?.text);
    expect(ask).toMatchObject({
      type: 'ASK_QUESTION',
      label: 'Reference',
      options: { text: 'Which reference?' },
    });
    const streamed = await validation;
    expect(streamed.status).toBe(200);
    expect(streamed.headers['content-type']).toMatch(/^text\/plain/);
    const { progress, result } = parseValidation(streamed.text);
    expect(progress.length).toBeGreaterThanOrEqual(5);
    expect(progress[0]).toBe('0|NAVIGATE');
    expect(progress.at(-1)).toBe('100|END');
    for (const line of progress) expect(line).toMatch(/^\d{1,3}\|[A-Z_]+$/);
    expect(result, streamed.text.slice(-2000)).toMatchObject({ error: null, data: { sequence: null } });
    expect(result.data.actions.every((action) => action.validation === 'SUCCESS')).toBe(true);

    const all = (
      await api().get('/api/extractor/screenshot/all').query(EXTRACTOR).set(bearer(owner.token)).expect(200)
    ).body as Record<string, string | null>;
    expect(Buffer.from(all['20']!, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const shot = await api()
      .get('/api/extractor/screenshot')
      .query({ ...EXTRACTOR, sequence: 60 })
      .set(bearer(owner.token))
      .expect(200);
    expect(shot.body).toMatchObject({ sequence: 60 });
    expect(typeof shot.body.pageScreenshot).toBe('string');

    const saved = (
      await api().put('/api/extractor/edit').query(EXTRACTOR).set(bearer(owner.token)).send({}).expect(200)
    ).body as BuilderView;
    expect(saved.isValidated).toBe(true);
    expect(saved.actions.every((action) => action.isSaved)).toBe(true);
    const rows = await db.extractorAction.findMany({ where: { extractorId }, orderBy: { sequence: 'asc' } });
    expect(rows).toHaveLength(view.actions.length);
    const passwordRow = rows.find((row) => row.type === 'TYPE_PASSWORD')!;
    expect(passwordRow.textValue).toBeNull();
    expect(Buffer.from(passwordRow.secretCiphertext!).toString('utf8')).not.toContain(FIXTURE_PASSWORD);
    expect(rows.find((row) => row.sequence === ifCondition)).toMatchObject({
      ifCondition: 'GREATER_THAN',
      ifValue: '1000',
    });
    expect(rows.every((row) => row.isValidated)).toBe(true);

    // Run the saved flow: values, files and screenshots are kept step by step.
    const execute = await api()
      .get(`/api/extractor/execute/${extractorId}`)
      .set(bearer(owner.token))
      .expect(200);
    const runId = (execute.body as { runId: string }).runId;
    await answerNextAsk(owner, 'REF-2', runId);
    const run = await waitForRun(owner, runId);
    expect(run.status, JSON.stringify(run.steps.filter((s) => s.errorMessage))).toBe('SUCCESS');
    const step = (label: string) => run.steps.find((s) => s.label === label);
    expect(step('Welcome')?.value).toEqual({ kind: 'text', value: 'Welcome, ops-user' });
    expect(step('Welcome length')?.value).toEqual({ kind: 'number', value: 'Welcome, ops-user'.length });
    expect(step('Reference')?.value).toEqual({ kind: 'text', value: 'REF-2' });
    expect(step('First amount')?.value).toEqual({ kind: 'number', value: 1234.5 });
    expect(step('First date')?.value).toEqual({ kind: 'datetime', value: '2025-03-14T00:00:00.000Z' });
    expect(step('Plan')?.value).toEqual({ kind: 'text', value: 'Selected: Pro' });
    expect(step('Result')?.value).toEqual({ kind: 'text', value: 'Continued' });
    const raised = run.steps.filter((s) => s.sequence === raise);
    expect(raised.every((s) => s.errorMessage === null && s.value?.kind === 'none')).toBe(true);
    const fileStep = run.steps.find((s) => s.fileName?.endsWith('.pdf'));
    expect(fileStep).toBeDefined();
    const pdf = await api()
      .get(`/api/extractor/run/${runId}/step/${fileStep!.sequence}/file`)
      .set(bearer(owner.token))
      .buffer(true)
      .expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const welcomeStep = step('Welcome')!;
    expect(welcomeStep).toMatchObject({
      hasPageScreenshot: true,
      hasElementScreenshot: true,
      hasNormalizedHtml: true,
    });
    const html = await api()
      .get(`/api/extractor/run/${runId}/step/${welcomeStep.sequence}/html`)
      .set(bearer(owner.token))
      .expect(200);
    expect(html.headers['content-type']).toMatch(/^text\/plain/);
    expect(html.text).toContain('Welcome, ops-user');
  }, 150_000); // ~45 recorded actions, a validation, a save and a run: minutes on a loaded 2-core machine.

  it('keeps the first action in place, renumbers the rest, and moves references with them', async () => {
    await api().get(`/api/extractor/edit/${extractorId}`).set(bearer(owner.token)).expect(200);
    const first = await api()
      .delete('/api/extractor/action')
      .query({ ...EXTRACTOR, sequence: 10 })
      .set(bearer(owner.token))
      .expect(400);
    expect(first.body.message).toBe(MESSAGES['extractor.first.action.delete.warning']);
    const moveFirst = await api()
      .put('/api/extractor/sequence')
      .query({ ...EXTRACTOR, currentSequence: 10, newSequence: 15 })
      .set(bearer(owner.token))
      .expect(400);
    expect(moveFirst.body.message).toBe(MESSAGES['extractor.first.action.change.warning']);
    const beforeFirst = await api()
      .put('/api/extractor/sequence')
      .query({ ...EXTRACTOR, currentSequence: 20, newSequence: 5 })
      .set(bearer(owner.token))
      .expect(400);
    expect(beforeFirst.body.message).toBe(MESSAGES['extractor.sequence.change.warning']);
    const moved = (
      await api()
        .put('/api/extractor/sequence')
        .query({ ...EXTRACTOR, currentSequence: 20, newSequence: 25 })
        .set(bearer(owner.token))
        .expect(200)
    ).body as BuilderView;
    expect(moved.actions.map((a) => a.sequence)).toContain(25);
    expect(moved.actions.find((a) => a.sequence === 25)?.validation).toBe('NOTVALIDATED');

    const pairs = (
      await api().get('/api/extractor/resequence').query(EXTRACTOR).set(bearer(owner.token)).expect(200)
    ).body as { sequenceBefore: number; sequenceAfter: number }[];
    expect(pairs[0]).toEqual({ sequenceBefore: 10, sequenceAfter: 10 });
    expect(pairs.find((pair) => pair.sequenceBefore === 25)).toEqual({
      sequenceBefore: 25,
      sequenceAfter: 20,
    });
    const after = (
      await api().get('/api/extractor/current').query(EXTRACTOR).set(bearer(owner.token)).expect(200)
    ).body as BuilderView;
    expect(after.actions.map((a) => a.sequence)).toEqual(after.actions.map((_, index) => 10 + index * 10));
    const ifCondition = after.actions.find((a) => a.type === 'IF_CONDITION')!;
    const source = after.actions.find((a) => a.label === 'First amount')!;
    expect(ifCondition.options.condition?.sequenceSource).toBe(source.sequence);

    const removed = await api()
      .delete('/api/extractor/action')
      .query({ ...EXTRACTOR, sequence: 40 })
      .set(bearer(owner.token))
      .expect(200);
    expect(removed.body.message).toBe(MESSAGES['extractor.action.deleted']);
    const current = (
      await api().get('/api/extractor/current').query(EXTRACTOR).set(bearer(owner.token)).expect(200)
    ).body as BuilderView;
    expect(current.isValidated).toBe(false);
    // Nothing is saved until validated and saved again: the stored flow is intact.
    expect(await db.extractorAction.count({ where: { extractorId } })).toBe(after.actions.length);
    await api().get('/api/extractor/end').query(EXTRACTOR).set(bearer(owner.token)).expect(200);
    await api().get('/api/extractor/current').query(EXTRACTOR).set(bearer(owner.token)).expect(404);
  });

  it('records the operator’s answer to a dialog the page asks as an Answer dialog action bound to its step', async () => {
    await startBuilder(owner, 'Order flow');
    await added(owner, { type: 'NAVIGATE', textValue: `${site.url}/pages/order.html` });
    const answerDialog = (user: User, body: object) =>
      api().post('/api/extractor/dialog').query(EXTRACTOR).set(bearer(user.token)).send(body);
    // Nothing to answer before a step opens a dialog.
    await answerDialog(owner, { accept: true }).expect(409);

    const click = add(owner, { type: 'CLICK', target: target('#place-order') }).then((response) => response);
    // The click waits on the page's confirm() until its operator answers; nobody else can. Until
    // the dialog shows, both are told there is nothing to answer (409, to the stranger 404).
    const answers = await waitUntil(
      async () => {
        const byStranger = (await answerDialog(stranger, { accept: true })).status;
        const byOwner = byStranger === 404 ? (await answerDialog(owner, { accept: true })).status : null;
        return byOwner !== 409 && { byStranger, byOwner };
      },
      { timeoutMs: 30_000, intervalMs: 200, message: "the page's dialog" },
    );
    expect(answers).toEqual({ byStranger: 404, byOwner: 200 });
    const clicked = await click;
    expect(clicked.status, JSON.stringify(clicked.body)).toBe(200);
    expect(clicked.body.dialogActions).toEqual([
      expect.objectContaining({
        sequence: 21,
        type: 'ANSWER_DIALOG',
        options: expect.objectContaining({
          dialog: { type: 'confirm', message: 'Place order?', accept: true },
        }),
      }),
    ]);
    // OK was given to the page: the order went through.
    const read = await add(owner, { type: 'GET_TEXT', target: target('#order-result') }).expect(200);
    expect(read.body.value).toEqual({ kind: 'text', value: 'Order placed: Widget' });

    // An answer is only recorded from the page, never added as an action of its own.
    const direct = await add(owner, {
      type: 'ANSWER_DIALOG',
      options: { dialog: { type: 'confirm', message: 'Place order?', accept: true } },
    }).expect(400);
    expect(JSON.stringify(direct.body)).toContain(MESSAGES['dialog.answer.recorded']);

    // Removing the click removes its answer with it.
    await api()
      .delete('/api/extractor/action')
      .query({ ...EXTRACTOR, sequence: 20 })
      .set(bearer(owner.token))
      .expect(200);
    const view = (
      await api().get('/api/extractor/current').query(EXTRACTOR).set(bearer(owner.token)).expect(200)
    ).body as BuilderView;
    expect(view.actions.map((action) => [action.sequence, action.type])).toEqual([
      [10, 'NAVIGATE'],
      [30, 'GET_TEXT'],
    ]);
    await api().get('/api/extractor/end').query(EXTRACTOR).set(bearer(owner.token)).expect(200);
  });

  it('brings the live page to where a step found it, and Reload replays the steps to the end', async () => {
    await startBuilder(owner, 'Replayed flow');
    await added(owner, { type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` });
    await added(owner, { type: 'TYPE_TEXT', target: target('#username'), textValue: 'ops-user' });
    await added(owner, { type: 'TYPE_PASSWORD', target: target('#password'), credentials: FIXTURE_PASSWORD });
    await added(owner, { type: 'CLICK', target: target('#login-submit') });
    await added(owner, { type: 'GET_TEXT', target: target('#welcome') });

    const atClick = await api()
      .get('/api/extractor/edit/normalized')
      .query({ ...EXTRACTOR, sequence: 40 })
      .set(bearer(owner.token))
      .expect(200);
    expect(atClick.body).toMatchObject({
      sequence: 40,
      pageURL: `${site.url}/pages/login.html`,
      replay: { reachedSequence: 30, stoppedAt: null, message: null },
    });
    // The fields hold what the replayed steps typed (the password too, opened on the worker).
    const typed = await add(owner, { type: 'GET_TEXT', target: target('#username'), sequence: 35 }).expect(
      200,
    );
    expect(typed.body.value).toEqual({ kind: 'text', value: 'ops-user' });

    const reloaded = await api()
      .get('/api/extractor/normalized/reload')
      .query(EXTRACTOR)
      .set(bearer(owner.token))
      .expect(200);
    expect(reloaded.body).toMatchObject({
      pageURL: `${site.url}/welcome`,
      replay: { reachedSequence: 50, stoppedAt: null },
    });
    expect((reloaded.body as NormalizedPage).areas.some((area) => area.selector === '#welcome')).toBe(true);
    await api().get('/api/extractor/end').query(EXTRACTOR).set(bearer(owner.token)).expect(200);
  });

  it('moves the live page under the wheel while picking, records nothing, and refuses a turn of nothing', async () => {
    await startBuilder(owner, 'Looked around');
    await added(owner, { type: 'NAVIGATE', textValue: `${site.url}/pages/long-table.html` });
    const pagerTop = async () => {
      const page = await api()
        .get('/api/extractor/normalized/current')
        .query(EXTRACTOR)
        .set(bearer(owner.token));
      return (page.body as NormalizedPage).areas.find((area) => area.selector === '#users-next')!.y;
    };
    const before = await pagerTop();
    expect(before).toBeGreaterThan(800);

    const scroll = (body: object) =>
      api().post('/api/extractor/scroll').query(EXTRACTOR).set(bearer(owner.token)).send(body);
    const moved = await scroll({ deltaY: 400, point: { x: 300, y: 300 } }).expect(200);
    expect(moved.body).toEqual({ message: 'The page moved; nothing was recorded.' });
    // As far as the page goes (its end is less than 400 px away): the pager is on screen now.
    const after = await pagerTop();
    expect(after).toBeLessThan(before);
    expect(after).toBeLessThan(800 - 20);
    const current = await api().get('/api/extractor/current').query(EXTRACTOR).set(bearer(owner.token));
    expect((current.body as BuilderView).actions.map((action) => action.type)).toEqual(['NAVIGATE']);

    const refused = await scroll({ deltaY: 0, point: { x: 1, y: 1 } }).expect(400);
    expect(JSON.stringify(refused.body)).toContain('deltaY');
    await scroll({ deltaY: 999_999, point: { x: 1, y: 1 } }).expect(400);
    await api()
      .post('/api/extractor/scroll')
      .query(EXTRACTOR)
      .set(bearer(stranger.token))
      .send({ deltaY: 100, point: { x: 1, y: 1 } })
      .expect(404);
    await api().get('/api/extractor/end').query(EXTRACTOR).set(bearer(owner.token)).expect(200);
  });

  it('reads every row of a table behind "Load more" once, its cells known by ids, under a sticky footer', async () => {
    await startBuilder(owner, 'Load more');
    await added(owner, { type: 'NAVIGATE', textValue: `${site.url}/pages/load-more.html` });
    // What the Get table panel makes of it: rows and columns by place, the link as next page.
    const table = await add(owner, {
      type: 'GET_TABLE',
      options: {
        table: {
          name: 'Customers',
          tableSelector: '#table',
          rowSelector: 'tbody > tr',
          columns: [{ label: 'Name', selector: 'td:nth-of-type(3)', type: 'TEXT' }],
          nextPageSelector: '#table ~ p > a',
          maxPages: 10,
        },
      },
    }).expect(200);
    const rows = (table.body as { value: { rows: string[][] } }).value.rows.map((row) => row[0]);
    expect(rows).toHaveLength(120);
    expect(new Set(rows).size).toBe(120);
    expect(rows.at(-1)).toBe('Customer 120');
    await api().get('/api/extractor/end').query(EXTRACTOR).set(bearer(owner.token)).expect(200);
  });

  it('marks the failing action ERROR with the automation error and the earlier ones SUCCESS', async () => {
    await startBuilder(owner, 'Failing flow');
    await added(owner, { type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` });
    await added(owner, { type: 'GET_TEXT', target: target('#login-title') });
    await added(owner, { type: 'CLICK', target: target('#login-submit') });
    // Changed after recording: the element no longer exists.
    await api()
      .post('/api/extractor/action')
      .query(EXTRACTOR)
      .set(bearer(owner.token))
      .send({ sequence: 30, target: { selectorValue: '#gone', fallbackLocators: [] } })
      .expect(200);
    const validation = await api()
      .get('/api/extractor/validate')
      .query(EXTRACTOR)
      .set(bearer(owner.token))
      .buffer(true)
      .expect(200);
    const { result } = parseValidation(validation.text);
    expect(result.data.sequence).toBe(30);
    expect(result.code).toBe(100007);
    expect(result.error).toMatch(/^No Such Element \(100007\)/);
    expect(result.data.actions.map((a) => a.validation)).toEqual(['SUCCESS', 'SUCCESS', 'ERROR']);
    await api().put('/api/extractor/edit').query(EXTRACTOR).set(bearer(owner.token)).send({}).expect(400);
    await api().get('/api/extractor/end').query(EXTRACTOR).set(bearer(owner.token)).expect(200);
  });

  it('stays VALIDATING after a successful validation until a change or a save, and is NONE after a failed one', async () => {
    const user = await signUp('builder-state');
    const id = await startBuilder(user, 'Builder state');
    await added(user, { type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` });
    await added(user, { type: 'GET_TEXT', label: 'Title', target: target('#login-title') });
    const current = async () =>
      (await api().get('/api/extractor/current').query(EXTRACTOR).set(bearer(user.token)).expect(200))
        .body as BuilderView;
    const validate = async () =>
      parseValidation(
        (
          await api()
            .get('/api/extractor/validate')
            .query(EXTRACTOR)
            .set(bearer(user.token))
            .buffer(true)
            .expect(200)
        ).text,
      ).result;
    const change = (body: object) =>
      api().post('/api/extractor/action').query(EXTRACTOR).set(bearer(user.token)).send(body).expect(200);
    expect((await current()).state).toBe('NONE');

    // Spec §4: a success leaves the builder VALIDATING (validated, ready to save; no card menu)…
    expect(await validate()).toMatchObject({ error: null, data: { sequence: null } });
    expect(await current()).toMatchObject({ state: 'VALIDATING', isValidated: true });
    // …until the flow changes,
    await change({ sequence: 20, label: 'Heading' });
    expect(await current()).toMatchObject({ state: 'NONE', isValidated: false });
    // …or is saved: the saved flow is where editing goes on from.
    await validate();
    expect((await current()).state).toBe('VALIDATING');
    const saved = await api().put('/api/extractor/edit').query(EXTRACTOR).set(bearer(user.token)).send({});
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((saved.body as BuilderView).state).toBe('NONE');
    expect((await current()).state).toBe('NONE');

    // Opening the item again starts from NONE, whatever the builder was in.
    await validate();
    expect((await current()).state).toBe('VALIDATING');
    const reopened = (await api().get(`/api/extractor/edit/${id}`).set(bearer(user.token)).expect(200))
      .body as BuilderView;
    expect(reopened).toMatchObject({ state: 'NONE', isValidated: true });

    // A failure returns to NONE, the failing action in ERROR.
    await change({ sequence: 20, target: { selectorValue: '#gone', fallbackLocators: [] } });
    const failed = await validate();
    expect(failed.data.sequence).toBe(20);
    expect(await current()).toMatchObject({ state: 'NONE', isValidated: false });
    await api().get('/api/extractor/end').query(EXTRACTOR).set(bearer(user.token)).expect(200);
  }, 120_000);

  it('says once that the live page was lost when its worker dies, then starts a fresh page and keeps the draft', async () => {
    await startBuilder(owner, 'Lost session');
    await added(owner, { type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` });
    await added(owner, { type: 'GET_TEXT', label: 'Title', target: target('#login-title') });
    const before = (
      await api().post('/api/extractor/normalized').query(EXTRACTOR).set(bearer(owner.token)).expect(200)
    ).body as NormalizedPage;
    expect(before.areas.some((area) => area.textContent === 'Sign in')).toBe(true);

    // The stack starts another worker when this one dies, as a process supervisor would.
    process.kill(await currentWorkerPid(), 'SIGKILL');
    const killedAt = Date.now();
    const lost = await api().post('/api/extractor/normalized').query(EXTRACTOR).set(bearer(owner.token));
    const detectedInMs = Date.now() - killedAt;
    expect(lost.status, JSON.stringify(lost.body)).toBe(409);
    expect(lost.body).toEqual({ code: 'SESSION_LOST', message: BUILDER_MESSAGES.sessionLost });
    // Never a hang: the dead worker's queue has no consumer any more, seen on two checks 2 s apart
    // (the heartbeat, WORKER_HEARTBEAT_TTL_MS, would take longer).
    expect(detectedInMs).toBeLessThan(WORKER_HEARTBEAT_TTL_MS / 2);

    // The next call opens a fresh page on the replacement worker; the recorded steps are all kept.
    const fresh = (
      await api().post('/api/extractor/normalized').query(EXTRACTOR).set(bearer(owner.token)).expect(200)
    ).body as NormalizedPage;
    expect(fresh.areas.some((area) => area.textContent === 'Sign in')).toBe(false);
    const current = (
      await api().get('/api/extractor/current').query(EXTRACTOR).set(bearer(owner.token)).expect(200)
    ).body as BuilderView;
    expect(current.actions.map((action) => action.type)).toEqual(['NAVIGATE', 'GET_TEXT']);
    // Validating replays the draft on the new page.
    const validation = await api()
      .get('/api/extractor/validate')
      .query(EXTRACTOR)
      .set(bearer(owner.token))
      .buffer(true)
      .expect(200);
    expect(parseValidation(validation.text).result).toMatchObject({ error: null, data: { sequence: null } });
    await api().get('/api/extractor/end').query(EXTRACTOR).set(bearer(owner.token)).expect(200);
  }, 90_000);

  it('keeps a saved item read-only while readOnlyEdit is on, and editable again when it is off', async () => {
    const reader = await signUp('read-only');
    const id = await startBuilder(reader, 'Read-only flow');
    await added(reader, { type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` });
    await added(reader, { type: 'GET_TEXT', target: target('#login-title') });
    await added(reader, { type: 'WAIT', textValue: '0' });
    await api()
      .get('/api/extractor/validate')
      .query(EXTRACTOR)
      .set(bearer(reader.token))
      .buffer(true)
      .expect(200);
    await api().put('/api/extractor/edit').query(EXTRACTOR).set(bearer(reader.token)).send({}).expect(200);
    const stored = await db.extractorAction.findMany({
      where: { extractorId: id },
      orderBy: { sequence: 'asc' },
    });

    const setReadOnly = (value: 'true' | 'false') =>
      api().put('/api/user/settings/readOnlyEdit').set(bearer(reader.token)).send({ value }).expect(200);
    await setReadOnly('true');
    const opened = (await api().get(`/api/extractor/edit/${id}`).set(bearer(reader.token)).expect(200))
      .body as BuilderView;
    expect(opened.actions.every((action) => action.isSaved)).toBe(true);

    const refusals = [
      api()
        .post('/api/extractor/action')
        .query(EXTRACTOR)
        .set(bearer(reader.token))
        .send({ sequence: 20, target: { selectorValue: '#login-submit', fallbackLocators: [] } }),
      api()
        .delete('/api/extractor/action')
        .query({ ...EXTRACTOR, sequence: 30 })
        .set(bearer(reader.token)),
      api()
        .put('/api/extractor/sequence')
        .query({ ...EXTRACTOR, currentSequence: 30, newSequence: 35 })
        .set(bearer(reader.token)),
      api().get('/api/extractor/resequence').query(EXTRACTOR).set(bearer(reader.token)),
      api().get('/api/extractor/validate').query(EXTRACTOR).set(bearer(reader.token)),
      api().put('/api/extractor/edit').query(EXTRACTOR).set(bearer(reader.token)).send({}),
    ];
    for (const [index, refused] of refusals.entries()) {
      const answer = await refused;
      expect(answer.status, `refusal ${index + 1}`).toBe(403);
      expect(answer.body).toMatchObject({ code: 'FORBIDDEN', message: MESSAGES['extractor.read.only'] });
    }
    const current = (
      await api().get('/api/extractor/current').query(EXTRACTOR).set(bearer(reader.token)).expect(200)
    ).body as BuilderView;
    expect(current.actions.map((action) => [action.sequence, action.validation])).toEqual([
      [10, 'SUCCESS'],
      [20, 'SUCCESS'],
      [30, 'SUCCESS'],
    ]);
    expect(
      await db.extractorAction.findMany({ where: { extractorId: id }, orderBy: { sequence: 'asc' } }),
    ).toEqual(stored);

    await setReadOnly('false');
    await api()
      .delete('/api/extractor/action')
      .query({ ...EXTRACTOR, sequence: 30 })
      .set(bearer(reader.token))
      .expect(200);
    await api().get('/api/extractor/end').query(EXTRACTOR).set(bearer(reader.token)).expect(200);
  });

  it("never lets another user open, read or drive someone's builder", async () => {
    await api().get(`/api/extractor/edit/${extractorId}`).set(bearer(stranger.token)).expect(404);
    await api().get('/api/extractor/current').query(EXTRACTOR).set(bearer(stranger.token)).expect(404);
    await add(stranger, { type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` }).expect(404);
    await api()
      .get('/api/extractor/getImageNavigator')
      .query(EXTRACTOR)
      .set(bearer(stranger.token))
      .expect(404);
    await api().get('/api/extractor/validate').query(EXTRACTOR).set(bearer(stranger.token)).expect(404);
    await api().get('/api/extractor/current').set(bearer('not-a-token')).expect(401);
  });

  it('previews masks on the live page and lists time zones', async () => {
    await startBuilder(owner, 'Masks');
    await added(owner, { type: 'NAVIGATE', textValue: `${site.url}/pages/table.html` });
    const number = await api()
      .post('/api/extractor/number/mask')
      .query(EXTRACTOR)
      .set(bearer(owner.token))
      .send({
        selectorValue: '#statement-rows tr:nth-child(2) td:nth-child(2)',
        beforePositive: '$',
        beforeNegative: '-',
        decimalSeparator: '.',
        groupSeparator: ',',
      })
      .expect(200);
    expect(number.body).toEqual({ text: '-$20.00', value: -20 });
    const date = await api()
      .post('/api/extractor/dateTime/mask')
      .query(EXTRACTOR)
      .set(bearer(owner.token))
      .send({
        selectorValue: '#statement-rows tr:first-child td:nth-child(3)',
        mask: 'MM/dd/yyyy',
        gmt: 'America/New_York',
      })
      .expect(200);
    expect(date.body).toEqual({ text: '03/14/2025', value: '2025-03-14T04:00:00.000Z' });
    const bad = await api()
      .post('/api/extractor/number/mask')
      .query(EXTRACTOR)
      .set(bearer(owner.token))
      .send({ selectorValue: '#page-indicator', decimalSeparator: '.', groupSeparator: ',' })
      .expect(422);
    expect(bad.body.message).toMatch(/^Error to apply mask/);
    const zones = (await api().get('/api/extractor/dateTime/timezones').set(bearer(owner.token)).expect(200))
      .body as string[];
    expect(zones[0]).toBe('Etc/GMT0');
    expect(zones).toEqual(expect.arrayContaining(['Europe/Paris', 'America/New_York', 'Etc/GMT+3']));
    const image = await api()
      .get('/api/extractor/getImageNavigator')
      .query(EXTRACTOR)
      .set(bearer(owner.token))
      .expect(200);
    expect(image.body.pageURL).toBe(`${site.url}/pages/table.html`);
    // The page view keeps only frames of this session (a user's other builders push theirs too).
    expect(image.body.sessionId).toEqual(expect.stringMatching(/.+/));
    expect(Buffer.from(image.body.image as string, 'base64').subarray(0, 2)).toEqual(
      Buffer.from([0xff, 0xd8]),
    );
    await api().get('/api/extractor/end').query(EXTRACTOR).set(bearer(owner.token)).expect(200);
  });
});

describe('an insertor’s builder', () => {
  const INSERTOR = { extractorType: 'INSERTOR' } as const;

  it('words its answers for an insertor, not an extractor, and keeps an action’s 1024-character label', async () => {
    const operator = await signUp('builder-insertor');
    await api()
      .post('/api/extractor/start')
      .set(bearer(operator.token))
      .send({ name: 'Order form', description: 'places orders', extractorType: 'INSERTOR' })
      .expect(201);
    const addToInsertor = (body: AddActionInput) =>
      api().post('/api/extractor/').query(INSERTOR).set(bearer(operator.token)).send(body).expect(200);
    await addToInsertor({ type: 'NAVIGATE', textValue: `${site.url}/pages/order.html` });
    const label = 'Waits for the shop. '.repeat(52).slice(0, 1024);
    await addToInsertor({ type: 'WAIT', textValue: '0', label });
    const current = (
      await api().get('/api/extractor/current').query(INSERTOR).set(bearer(operator.token)).expect(200)
    ).body as BuilderView;
    expect(current.actions.find((action) => action.sequence === 20)?.label).toBe(label);

    const early = await api().put('/api/extractor/edit').query(INSERTOR).set(bearer(operator.token)).send({});
    expect(early.status).toBe(400);
    expect(early.body.message).toBe(MESSAGES['insertor.must.validate']);
    const removed = await api()
      .delete('/api/extractor/action')
      .query({ ...INSERTOR, sequence: 20 })
      .set(bearer(operator.token))
      .expect(200);
    expect(removed.body.message).toBe(MESSAGES['insertor.action.deleted']);
    await api().get('/api/extractor/end').query(INSERTOR).set(bearer(operator.token)).expect(200);
  }, 90_000);
});

describe('a navigator recorded live and watched through its screen-share link', () => {
  it('records each step for the viewer, and ends the share when the builder closes', async () => {
    const NAVIGATOR = { extractorType: 'NAVIGATOR' } as const;
    await api()
      .post('/api/extractor/start')
      .set(bearer(owner.token))
      .send({
        name: 'Shared session',
        description: 'Watch me',
        extractorType: 'NAVIGATOR',
        viewerEmail: 'viewer@example.com',
      })
      .expect(201);
    const view = (
      await api().get('/api/extractor/current').query(NAVIGATOR).set(bearer(owner.token)).expect(200)
    ).body as BuilderView;
    expect(view.screenShareUrl).toMatch(/\/screen-share-viewer\/[A-Za-z0-9_-]{43}$/);
    const token = view.screenShareUrl!.split('/').pop()!;

    for (const body of [
      { type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
      { type: 'GET_TEXT', label: 'Title', target: target('#login-title') },
    ] as const)
      await api().post('/api/extractor/').query(NAVIGATOR).set(bearer(owner.token)).send(body).expect(200);

    const watching = await api().get(`/api/extractor/token/${token}`).expect(200);
    expect(watching.body).toMatchObject({ name: 'Shared session', status: 'EXECUTING' });
    // Each live step keeps the page's picture and its HTML for the viewer.
    expect((watching.body as { actions: { type: string; hasScreen: boolean }[] }).actions).toEqual([
      expect.objectContaining({ type: 'NAVIGATE', hasScreen: true, hasHtml: true }),
      expect.objectContaining({ type: 'GET_TEXT', hasScreen: true, hasHtml: true }),
    ]);
    const screen = await api().get(`/api/extractor/token/${token}/step/20/screen`).buffer(true).expect(200);
    expect(screen.headers['content-type']).toBe('image/jpeg');

    // A table read live keeps the file of each of its FILE cells in the shared run, as runs do.
    for (const body of [
      { type: 'NAVIGATE', textValue: `${site.url}/pages/table.html` },
      {
        type: 'GET_TABLE',
        options: {
          table: {
            name: 'Statements',
            tableSelector: '#statements',
            rowSelector: '#statement-rows tr',
            columns: [
              { label: 'Name', selector: 'td:nth-child(1)', type: 'TEXT' },
              { label: 'Statement', selector: 'td:nth-child(4)', type: 'FILE' },
            ],
            maxPages: 1,
          },
        },
      },
    ])
      await api().post('/api/extractor/').query(NAVIGATOR).set(bearer(owner.token)).send(body).expect(200);
    const navigator = (
      (await api().get('/api/extractor').query(NAVIGATOR).set(bearer(owner.token)).expect(200)).body as {
        name: string;
        lastRunId: string | null;
      }[]
    ).find((item) => item.name === 'Shared session');
    const sharedRun = (
      await api().get(`/api/extractor/run/${navigator!.lastRunId}`).set(bearer(owner.token)).expect(200)
    ).body as RunDetail;
    const tableStep = sharedRun.steps.find((step) => step.actionType === 'GET_TABLE');
    expect(tableStep?.tableFiles).toEqual(
      Array.from({ length: 5 }, (_, row) => ({ row, column: 1, fileName: `statement-${row + 1}.pdf` })),
    );

    await api().get('/api/extractor/end').query(NAVIGATOR).set(bearer(owner.token)).expect(200);
    expect((await api().get(`/api/extractor/token/${token}`).expect(200)).body.status).toBe('SUCCESS');
  });
});

describe('the builder holding Redis to bounds', () => {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  afterAll(() => redis.disconnect());

  it('refuses a step value over STEP_VALUE_MAX_BYTES, and leaves nothing in Redis without an expiry', async () => {
    const bounded = await signUp('builder-bounded');
    await startBuilder(bounded, 'Huge values');
    await added(bounded, { type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` });
    const script = { script: "return 'x'.repeat(30 * 1024 * 1024);", returnType: 'TEXT' as const };
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refused = await add(bounded, { type: 'SCRIPT', label: `Huge ${attempt}`, options: { script } });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'UNPROCESSABLE' });
      expect((refused.body as { message: string }).message).toMatch(
        /^Invalid Argument \(100061\): The step's value is at least 31457282 bytes, over the limit of 1048576 bytes for one step's value \(STEP_VALUE_MAX_BYTES\)$/u,
      );
    }
    const current = (
      await api().get('/api/extractor/current').query(EXTRACTOR).set(bearer(bounded.token)).expect(200)
    ).body as BuilderView;
    expect(current.actions.map((action) => action.type)).toEqual(['NAVIGATE']);
    await api().get('/api/extractor/end').query(EXTRACTOR).set(bearer(bounded.token)).expect(200);

    await expect.poll(() => keysWithoutExpiry(redis, stack.redisKeyPrefix), { timeout: 15_000 }).toEqual([]);
  }, 90_000);
});
