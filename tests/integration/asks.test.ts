import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { createPrismaClient, type Prisma } from '@pagewright/db';
import {
  ASK_MESSAGES,
  MESSAGES,
  RECAPTCHA_DONE,
  type PendingAskAction,
  type RunDetail,
} from '@pagewright/shared';
import { FIXTURE_PASSWORD, startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { waitForRun as waitForRunOf } from '../support/runs-api.js';
import { STACK_ASK_TIMEOUT_SECONDS } from '../support/stack.js';
import { waitUntil } from '../support/wait.js';

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const db = createPrismaClient(inject('databaseUrl'));
const api = () => request(apiUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

type ActionRow = Omit<Prisma.ExtractorActionCreateWithoutExtractorInput, 'id'>;

type User = SignedInUser;

let site: FixtureSite;
let owner: User;
let stranger: User;

const signUp = (label: string): Promise<User> => createSignedInUser(db, apiUrl, mailUrl, label);

async function insertExtractor(user: User, name: string, actions: ActionRow[]): Promise<string> {
  const extractor = await db.extractor.create({
    data: { userId: user.id, name, description: name, extractorType: 'EXTRACTOR' },
  });
  for (const action of actions) {
    await db.extractorAction.create({ data: { ...action, extractor: { connect: { id: extractor.id } } } });
  }
  return extractor.id;
}

async function execute(user: User, extractorId: string): Promise<string> {
  const answer = await api().get(`/api/extractor/execute/${extractorId}`).set(bearer(user.token)).expect(200);
  return (answer.body as { runId: string }).runId;
}

const waitForRun = (user: User, runId: string, timeoutMs = 60_000): Promise<RunDetail> =>
  waitForRunOf(apiUrl, user.token, runId, undefined, timeoutMs);

/** Width and height of a base64 PNG, from its IHDR chunk. */
function pngSize(base64: string): { width: number; height: number } {
  const bytes = Buffer.from(base64, 'base64');
  expect([...bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Polls getPendingAskActionToFill until an ask of that run shows (at most 20 s). */
function nextAsk(
  user: User,
  runId: string,
  isWanted: (ask: PendingAskAction) => boolean = () => true,
): Promise<PendingAskAction> {
  return waitUntil(
    async () => {
      const answer = await api()
        .get('/api/extractor/getPendingAskActionToFill')
        .query({ extractorType: 'EXTRACTOR' })
        .set(bearer(user.token));
      expect([200, 204]).toContain(answer.status);
      const ask = answer.body as PendingAskAction;
      return answer.status === 200 && ask.runId === runId && isWanted(ask) && ask;
    },
    { timeoutMs: 20_000, intervalMs: 250, message: `an ask of run ${runId}` },
  );
}

function answer(user: User, id: string, textValue: string, saveOptionsFlag?: boolean) {
  return api()
    .post('/api/extractor/updatePendingAskAction')
    .set(bearer(user.token))
    .send({ id, textValue, ...(saveOptionsFlag === undefined ? {} : { saveOptionsFlag }) });
}

function askLoginActions(): ActionRow[] {
  return [
    { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` },
    { sequence: 20, type: 'ASK_ID', label: 'User id', selectorValue: '#username', textValue: 'Your id?' },
    { sequence: 30, type: 'ASK_PASSWORD', label: 'Password', selectorValue: '#password' },
    { sequence: 40, type: 'CLICK', selectorValue: '#login-submit' },
    { sequence: 50, type: 'GET_TEXT', label: 'Welcome', selectorValue: '#welcome' },
  ];
}

beforeAll(async () => {
  site = await startFixtureSite();
  [owner, stranger] = await Promise.all([signUp('asks-owner'), signUp('asks-stranger')]);
});

afterAll(async () => {
  await site?.close();
  await db.$disconnect();
});

describe('asks during a run (getPendingAskActionToFill / updatePendingAskAction)', () => {
  it('asks for the id and the password, saves the password, and asks only for the id next time', async () => {
    const extractorId = await insertExtractor(owner, 'Asked login', askLoginActions());
    const runId = await execute(owner, extractorId);

    const idAsk = await nextAsk(owner, runId);
    expect(idAsk).toMatchObject({
      type: 'ASK_ID',
      label: 'User id',
      options: { text: 'Your id?' },
      saveOptionsFlag: false,
      isActionSaved: true,
      extractorId,
      runId,
      updated: false,
    });
    expect(typeof idAsk.elementScreenshot).toBe('string');
    expect([...Buffer.from(idAsk.elementScreenshot!, 'base64').subarray(0, 4)]).toEqual([
      0x89, 0x50, 0x4e, 0x47,
    ]);

    // Another user neither sees nor answers it.
    const none = await api()
      .get('/api/extractor/getPendingAskActionToFill')
      .query({ extractorType: 'EXTRACTOR' })
      .set(bearer(stranger.token))
      .expect(204);
    expect(none.text).toBe('');
    const refused = await answer(stranger, idAsk.id, 'intruder').expect(404);
    expect(refused.body).toEqual({ message: MESSAGES['error.not.found'], code: 'NOT_FOUND' });

    expect((await answer(owner, idAsk.id, 'ops-user').expect(200)).body).toEqual({ message: 'Answer sent' });
    // A second answer to the same ask is refused.
    await answer(owner, idAsk.id, 'again').expect(404);

    const passwordAsk = await nextAsk(owner, runId);
    expect(passwordAsk).toMatchObject({ type: 'ASK_PASSWORD', label: 'Password', runId });
    await answer(owner, passwordAsk.id, FIXTURE_PASSWORD, true).expect(200);

    const run = await waitForRun(owner, runId);
    expect(run.status).toBe('SUCCESS');
    expect(run.steps.find((s) => s.sequence === 50)?.value).toEqual({
      kind: 'text',
      value: 'Welcome, ops-user',
    });
    expect(JSON.stringify(run)).not.toContain(FIXTURE_PASSWORD);
    const asks = await db.pendingAsk.findMany({ where: { runId } });
    expect(asks.map((a) => [a.actionType, a.status])).toEqual(
      expect.arrayContaining([
        ['ASK_ID', 'ANSWERED'],
        ['ASK_PASSWORD', 'ANSWERED'],
      ]),
    );
    expect(asks).toHaveLength(2);
    for (const ask of asks) {
      expect(JSON.stringify(ask)).not.toContain(FIXTURE_PASSWORD);
      expect(ask.answerCiphertext).toBeNull();
    }
    const saved = await db.savedSecret.findMany({ where: { userId: owner.id } });
    expect(saved).toHaveLength(1);
    expect(Buffer.from(saved[0]!.ciphertext).toString('utf8')).not.toContain(FIXTURE_PASSWORD);

    // Second run: the password comes from the saved answer; only the id is asked.
    const secondRunId = await execute(owner, extractorId);
    const secondAsk = await nextAsk(owner, secondRunId);
    expect(secondAsk.type).toBe('ASK_ID');
    await answer(owner, secondAsk.id, 'ops-user').expect(200);
    const second = await waitForRun(owner, secondRunId);
    expect(second.status).toBe('SUCCESS');
    expect(second.steps.find((s) => s.sequence === 50)?.value).toEqual({
      kind: 'text',
      value: 'Welcome, ops-user',
    });
    expect(await db.pendingAsk.findMany({ where: { runId: secondRunId } })).toHaveLength(1);
    expect(JSON.stringify(second)).not.toContain(FIXTURE_PASSWORD);
  });

  it('stops the run STOPPED when the answer is CANCELED', async () => {
    const extractorId = await insertExtractor(owner, 'Canceled login', askLoginActions());
    const runId = await execute(owner, extractorId);
    const ask = await nextAsk(owner, runId);
    await answer(owner, ask.id, 'CANCELED').expect(200);
    const run = await waitForRun(owner, runId);
    expect(run.status).toBe('STOPPED');
    expect(run.steps.map((s) => s.sequence)).not.toContain(30);
    const stored = await db.pendingAsk.findUniqueOrThrow({ where: { id: ask.id } });
    expect(stored.status).toBe('CANCELED');
    await api()
      .get('/api/extractor/getPendingAskActionToFill')
      .query({ extractorType: 'EXTRACTOR' })
      .set(bearer(owner.token))
      .expect(204);
  });

  it('stops the run STOPPED with a clear message when nobody answers in time', async () => {
    const extractorId = await insertExtractor(owner, 'Unanswered login', askLoginActions());
    const runId = await execute(owner, extractorId);
    const ask = await nextAsk(owner, runId);
    const run = await waitForRun(owner, runId, (STACK_ASK_TIMEOUT_SECONDS + 30) * 1000);
    expect(run.status).toBe('STOPPED');
    expect(run.errorMessage).toBe(ASK_MESSAGES.expired);
    expect(run.steps.map((s) => s.sequence)).not.toContain(30);
    expect((await db.pendingAsk.findUniqueOrThrow({ where: { id: ask.id } })).status).toBe('EXPIRED');
    // The expired ask is no longer offered, and a late answer is refused.
    await api()
      .get('/api/extractor/getPendingAskActionToFill')
      .query({ extractorType: 'EXTRACTOR' })
      .set(bearer(owner.token))
      .expect(204);
    await answer(owner, ask.id, 'too-late').expect(404);
    // Execute is free again.
    const next = await execute(owner, extractorId);
    await answer(owner, (await nextAsk(owner, next)).id, 'CANCELED').expect(200);
    expect((await waitForRun(owner, next)).status).toBe('STOPPED');
  });

  it('shows a multi-step ask its question area, read from the page, and types the answer into its field', async () => {
    const extractorId = await insertExtractor(owner, 'Security question', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/question.html` },
      {
        sequence: 20,
        type: 'ASK_QUESTION',
        label: 'Security question',
        selectorValue: '#question-answer',
        options: {
          askMultiStepDto: { builderStep: 'USER_RESPONSE', askDataContentSelector: '#security-question' },
        },
      },
      { sequence: 30, type: 'CLICK', selectorValue: '#question-submit' },
      { sequence: 40, type: 'GET_TEXT', label: 'Result', selectorValue: '#question-result' },
    ]);
    const runId = await execute(owner, extractorId);
    const ask = await nextAsk(owner, runId);
    expect(ask).toMatchObject({
      type: 'ASK_QUESTION',
      options: {
        // Nothing was recorded as the question: it is the area's text at run time.
        text: 'What is the name of your first pet?',
        askMultiStepDto: { builderStep: 'USER_RESPONSE', askDataContentSelector: '#security-question' },
      },
      normalizedElements: null,
    });
    // The picture is the question area (a bordered paragraph), not the answer field.
    const picture = pngSize(ask.options.askMultiStepDto!.askDataScreenshot!);
    expect(ask.elementScreenshot).toBe(ask.options.askMultiStepDto!.askDataScreenshot);
    expect(picture.width).toBeGreaterThan(250);
    expect(picture.height).toBeGreaterThan(30);

    await answer(owner, ask.id, 'Rex').expect(200);
    const run = await waitForRun(owner, runId);
    expect(run.status).toBe('SUCCESS');
    expect(run.steps.find((s) => s.sequence === 20)?.value).toEqual({ kind: 'text', value: 'Rex' });
    expect(run.steps.find((s) => s.sequence === 40)?.value).toEqual({
      kind: 'text',
      value: 'Answer accepted',
    });
  });

  it('shows an image captcha to the operator and types what they read into its field', async () => {
    const extractorId = await insertExtractor(owner, 'Image captcha', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/image-captcha.html` },
      {
        sequence: 20,
        type: 'ASK_CAPTCHA',
        label: 'Captcha',
        selectorValue: '#captcha-answer',
        options: {
          askMultiStepDto: { builderStep: 'USER_RESPONSE', askDataContentSelector: '#captcha-image' },
        },
      },
      { sequence: 30, type: 'CLICK', selectorValue: '#captcha-submit' },
      { sequence: 40, type: 'GET_TEXT', label: 'Result', selectorValue: '#captcha-result' },
    ]);
    const runId = await execute(owner, extractorId);
    const ask = await nextAsk(owner, runId);
    expect(ask).toMatchObject({
      type: 'ASK_CAPTCHA',
      label: 'Captcha',
      options: {
        askMultiStepDto: { builderStep: 'USER_RESPONSE', askDataContentSelector: '#captcha-image' },
      },
      normalizedElements: null,
    });
    // The operator sees the captcha picture (180×60 plus its border; a fractional top may add a
    // pixel row), not the empty answer field.
    const picture = pngSize(ask.options.askMultiStepDto!.askDataScreenshot!);
    expect(picture.width).toBe(182);
    expect(picture.height).toBeGreaterThanOrEqual(62);
    expect(picture.height).toBeLessThanOrEqual(63);

    // Even when a client asks to keep it, a captcha's answer is never saved for the next run.
    await answer(owner, ask.id, 'w7kq', true).expect(200);
    const run = await waitForRun(owner, runId);
    expect(run.status).toBe('SUCCESS');
    expect(run.steps.find((s) => s.sequence === 40)?.value).toEqual({
      kind: 'text',
      value: 'Captcha accepted',
    });
    const captchaAction = await db.extractorAction.findFirstOrThrow({ where: { extractorId, sequence: 20 } });
    expect(await db.savedSecret.count({ where: { actionId: captchaAction.id } })).toBe(0);
  });

  it('solves a captcha by clicking the areas the operator picks on its picture, then goes on', async () => {
    const extractorId = await insertExtractor(owner, 'Captcha', [
      { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/captcha.html` },
      { sequence: 20, type: 'ASK_RECAPTCHA', label: 'Captcha', selectorValue: '#captcha-frame' },
      { sequence: 30, type: 'GET_TEXT', label: 'Status', selectorValue: '#captcha-status' },
    ]);
    const runId = await execute(owner, extractorId);
    let ask = await nextAsk(owner, runId);
    expect(ask.type).toBe('ASK_RECAPTCHA');
    const areas = ask.normalizedElements!;
    const picture = pngSize(ask.elementScreenshot!);
    // The frame's own areas, in the picture's pixels: border 2 + padding 4 + body padding 10.
    const firstTile = areas.find((area) => area.selector.includes('tile-1'))!;
    expect(firstTile).toMatchObject({ textContent: 'lighthouse', x: 16, width: 96, height: 96 });
    for (const area of areas) {
      expect(area.x + area.width).toBeLessThanOrEqual(picture.width + 1);
      expect(area.y + area.height).toBeLessThanOrEqual(picture.height + 1);
    }
    expect(areas.some((area) => area.textContent === 'Not verified')).toBe(false);

    // Something that is not an offered area is refused and changes nothing.
    const refused = await answer(owner, ask.id, '#captcha-status').expect(400);
    expect(refused.body).toMatchObject({ message: ASK_MESSAGES.unknownArea });

    const lighthouses = areas.filter(
      (area) => area.tagName.toLowerCase() === 'button' && area.textContent === 'lighthouse',
    );
    expect(lighthouses).toHaveLength(3);
    const verify = areas.find((area) => area.textContent === 'Verify')!;
    for (const area of [...lighthouses, verify]) {
      const before = ask.elementScreenshot;
      await answer(owner, ask.id, area.selector).expect(200);
      // The same ask comes back with a fresh picture of the widget.
      ask = await nextAsk(owner, runId, (next) => next.elementScreenshot !== before);
      expect(ask.type).toBe('ASK_RECAPTCHA');
    }
    await answer(owner, ask.id, RECAPTCHA_DONE).expect(200);

    const run = await waitForRun(owner, runId);
    expect(run.status).toBe('SUCCESS');
    expect(run.steps.find((s) => s.sequence === 30)?.value).toEqual({ kind: 'text', value: 'Verified' });
    const stored = await db.pendingAsk.findMany({ where: { runId } });
    expect(stored.map((a) => a.status)).toEqual(['ANSWERED']);
    // Each round's picture replaced the last one: one file is left, not five.
    expect(stored[0]!.elementScreenshotFileId).not.toBeNull();
    expect(await db.storedFile.count({ where: { name: { startsWith: `run-${runId}-ask-` } } })).toBe(1);
  });

  it("tells the dialog that a validation's new draft action is not saved (nothing to save an answer for)", async () => {
    const auth = bearer(owner.token);
    const created = await api()
      .post('/api/extractor/start')
      .set(auth)
      .send({ name: 'Draft ask', description: 'draft', extractorType: 'EXTRACTOR' })
      .expect(201);
    const extractorId = (created.body as { id: string }).id;
    const add = (body: object) =>
      api().post('/api/extractor/').query({ extractorType: 'EXTRACTOR' }).set(auth).send(body).expect(200);
    await add({ type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` });
    await add({
      type: 'ASK_ID',
      label: 'User id',
      textValue: 'Your id?',
      target: { selectorValue: '#username' },
      credentials: 'recording-user',
    });
    const validation = api()
      .get('/api/extractor/validate')
      .query({ extractorType: 'EXTRACTOR' })
      .set(auth)
      .buffer(true);
    let isFinished = false;
    const finished = validation.then((answer) => {
      isFinished = true;
      return answer;
    });
    const { ask } = await waitUntil(
      async () => {
        if (isFinished) return { ask: undefined };
        const pending = await api()
          .get('/api/extractor/getPendingAskActionToFill')
          .query({ extractorType: 'EXTRACTOR' })
          .set(auth);
        const shown = pending.body as PendingAskAction;
        return pending.status === 200 && shown.extractorId === extractorId && { ask: shown };
      },
      { timeoutMs: 20_000, intervalMs: 250, message: 'the validation to ask' },
    );
    if (!ask) throw new Error('the validation ended without asking');
    expect(ask).toMatchObject({ type: 'ASK_ID', label: 'User id', isActionSaved: false, extractorId });
    const savedBefore = await db.savedSecret.count({ where: { userId: owner.id } });
    // Even when asked, an answer is not kept for an action that has no row yet.
    await answer(owner, ask.id, 'draft-user', true).expect(200);
    expect((await finished).status).toBe(200);
    expect(await db.savedSecret.count({ where: { userId: owner.id } })).toBe(savedBefore);
    await api().get('/api/extractor/end').query({ extractorType: 'EXTRACTOR' }).set(auth).expect(200);
  });

  it('needs a signed-in caller', async () => {
    await api().get('/api/extractor/getPendingAskActionToFill').expect(401);
    await api()
      .post('/api/extractor/updatePendingAskAction')
      .send({ id: '00000000-0000-4000-8000-000000000000', textValue: 'x' })
      .expect(401);
  });
});
