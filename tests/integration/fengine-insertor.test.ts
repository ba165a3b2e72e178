import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { createPrismaClient, type Prisma } from '@pagewright/db';
import {
  ENGINE_MESSAGES,
  MESSAGES,
  type AddActionInput,
  type AddActionResponse,
  type NormalizedPage,
  type PendingAskAction,
  type RunDetail,
} from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { startFengineSandbox, type RunningFengineSandbox } from '../support/fengine-sandbox.js';
import { waitForRun as waitForRunOf } from '../support/runs-api.js';
import { waitUntil } from '../support/wait.js';

/**
 * F-engine insertors (issue 25, docs/f-engine.md): a run signs in to the reference engine through
 * its asks, offers the engine's investors, and types the chosen investor's fields into a KYC form.
 */

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const db = createPrismaClient(inject('databaseUrl'));
const api = () => request(apiUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const INSERTOR = { extractorType: 'FENGINE_INSERTOR' } as const;

type ActionRow = Omit<Prisma.ExtractorActionCreateWithoutExtractorInput, 'id'>;
type User = SignedInUser;

let site: FixtureSite;
let engine: RunningFengineSandbox;
let owner: User;
let stranger: User;

/** Page field → investor field ("section.field"), as an operator records them on kyc-onboarding. */
const FORM_FIELDS: [selector: string, field: string][] = [
  ['#given', 'identity.firstName'],
  ['#family', 'identity.lastName'],
  ['#dob', 'identity.dateOfBirth'],
  ['#nationality', 'identity.nationality'],
  ['#email', 'identity.email'],
  ['#street', 'address.street'],
  ['#city', 'address.city'],
  ['#zip', 'address.postalCode'],
  ['#country', 'address.country'],
  ['#iban', 'bank.iban'],
  ['#bic', 'bank.bic'],
  ['#source-of-funds', 'kyc.sourceOfFunds'],
  ['#pep input[value="Y"]', 'kyc.politicallyExposed'],
  ['#risk', 'kyc.riskProfile'],
];

function kycActions(fields = FORM_FIELDS): ActionRow[] {
  return [
    { sequence: 10, type: 'NAVIGATE', textValue: `${site.url}/pages/kyc-onboarding.html` },
    { sequence: 20, type: 'ASK_F_ENGINE_URL', label: 'Engine', textValue: 'F-engine address?' },
    { sequence: 30, type: 'ASK_F_ENGINE_USER', label: 'Engine user', textValue: 'F-engine user?' },
    {
      sequence: 40,
      type: 'ASK_F_ENGINE_PASSWORD',
      label: 'Engine password',
      textValue: 'F-engine password?',
    },
    { sequence: 50, type: 'ASK_F_ENGINE_INVESTOR', label: 'Investor', textValue: 'Which investor?' },
    ...fields.map(([selector, field], index): ActionRow => ({
      sequence: 60 + index * 10,
      type: 'TYPE_F_ENGINE_FIELD',
      selectorValue: selector,
      textValue: field,
    })),
  ];
}

async function insertInsertor(user: User, name: string, actions: ActionRow[]): Promise<string> {
  const extractor = await db.extractor.create({
    data: { userId: user.id, name, description: name, extractorType: 'FENGINE_INSERTOR' },
  });
  for (const action of actions)
    await db.extractorAction.create({ data: { ...action, extractor: { connect: { id: extractor.id } } } });
  return extractor.id;
}

async function execute(user: User, extractorId: string): Promise<string> {
  const answer = await api().get(`/api/extractor/execute/${extractorId}`).set(bearer(user.token)).expect(200);
  return (answer.body as { runId: string }).runId;
}

const waitForRun = (user: User, runId: string): Promise<RunDetail> =>
  waitForRunOf(apiUrl, user.token, runId, undefined, 60_000);

/** The next ask of that run (polls getPendingAskActionToFill), or null when the run ended first. */
async function nextAsk(user: User, runId: string): Promise<PendingAskAction | null> {
  const { ask } = await waitUntil(
    async () => {
      const answer = await api()
        .get('/api/extractor/getPendingAskActionToFill')
        .query(INSERTOR)
        .set(bearer(user.token));
      const shown = answer.body as PendingAskAction;
      if (answer.status === 200 && shown.runId === runId) return { ask: shown };
      const run = await api().get(`/api/extractor/run/${runId}`).set(bearer(user.token));
      return run.status === 200 && (run.body as RunDetail).status !== 'EXECUTING' && { ask: null };
    },
    { timeoutMs: 30_000, intervalMs: 200, message: `an ask of run ${runId}` },
  );
  return ask;
}

function answer(user: User, id: string, textValue: string, saveOptionsFlag = false) {
  return api()
    .post('/api/extractor/updatePendingAskAction')
    .set(bearer(user.token))
    .send({ id, textValue, saveOptionsFlag });
}

/** Answers the sign-in asks; returns the investor ask (or null if the run ended before it). */
async function signIn(
  user: User,
  runId: string,
  sign: { url: string; user: string; password: string },
): Promise<PendingAskAction | null> {
  const values: Record<string, string> = {
    ASK_F_ENGINE_URL: sign.url,
    ASK_F_ENGINE_USER: sign.user,
    ASK_F_ENGINE_PASSWORD: sign.password,
  };
  for (;;) {
    const ask = await nextAsk(user, runId);
    if (!ask || ask.type === 'ASK_F_ENGINE_INVESTOR') return ask;
    const value = values[ask.type];
    if (value === undefined) throw new Error(`unexpected ask ${ask.type}`);
    await answer(user, ask.id, value).expect(200);
  }
}

const engineSignIn = () => ({ url: engine.url, user: engine.username, password: engine.password });

/** The typed value of each TYPE_F_ENGINE_FIELD step, by its field. */
function typedValues(run: RunDetail): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const [index, [, field]] of FORM_FIELDS.entries()) {
    const step = run.steps.find((candidate) => candidate.sequence === 60 + index * 10);
    const value = step?.value;
    if (value?.kind === 'text') byField[field] = value.value;
  }
  return byField;
}

beforeAll(async () => {
  [site, engine] = await Promise.all([startFixtureSite(), startFengineSandbox()]);
  [owner, stranger] = await Promise.all([
    createSignedInUser(db, apiUrl, mailUrl, 'fengine-owner'),
    createSignedInUser(db, apiUrl, mailUrl, 'fengine-stranger'),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([site?.close(), engine?.close()]);
  await db.$disconnect();
});

beforeEach(async () => {
  await engine.clearFaults();
});

describe('an F-engine insertor run', () => {
  it('signs in, offers the investors, and types every field of the chosen one; another run types another', async () => {
    const extractorId = await insertInsertor(owner, 'KYC onboarding', kycActions());

    const first = await execute(owner, extractorId);
    const investorAsk = await signIn(owner, first, engineSignIn());
    expect(investorAsk?.type).toBe('ASK_F_ENGINE_INVESTOR');
    const investors = investorAsk?.managementDTO?.investors ?? [];
    expect(investors).toHaveLength(25); // every page of the engine's list
    expect(investors[0]).toEqual({
      portfolioid: 'PF-100001',
      name: 'Amélie Laurent',
      confirmationNumber: expect.any(String),
    });
    // Only an investor the engine listed is taken.
    await answer(owner, investorAsk!.id, 'PF-999999').expect(400);
    await answer(owner, investorAsk!.id, 'PF-100001').expect(200);
    const amelie = await waitForRun(owner, first);
    expect(amelie.status, amelie.errorMessage ?? '').toBe('SUCCESS');
    expect(typedValues(amelie)).toMatchObject({
      'identity.firstName': 'Amélie',
      'identity.lastName': 'Laurent',
      'identity.dateOfBirth': '1984-03-12',
      'identity.nationality': 'French',
      'address.city': 'Lyon',
      'address.country': 'France',
      'bank.bic': 'AGRIFRPPXXX',
      'kyc.sourceOfFunds': 'Salary',
      'kyc.riskProfile': 'Medium',
    });
    // The PEP answer "false" checks the "No" radio (its value is N, its label No).
    expect(typedValues(amelie)['kyc.politicallyExposed']).toBe('No');

    const second = await execute(owner, extractorId);
    const again = await signIn(owner, second, engineSignIn());
    await answer(owner, again!.id, 'PF-100002').expect(200);
    const jonas = await waitForRun(owner, second);
    expect(jonas.status, jonas.errorMessage ?? '').toBe('SUCCESS');
    expect(typedValues(jonas)).toMatchObject({
      'identity.firstName': 'Jonas',
      'identity.nationality': 'Norwegian',
      'address.country': 'Norway',
      'kyc.sourceOfFunds': 'Business income',
      'kyc.politicallyExposed': 'Yes',
      'kyc.riskProfile': 'High',
    });
    // The password asked is a secret: never a step value.
    expect(JSON.stringify(jonas.steps)).not.toContain(engine.password);
  });

  it('keeps a saved engine password for the next run, encrypted', async () => {
    const extractorId = await insertInsertor(
      owner,
      'KYC saved password',
      kycActions(FORM_FIELDS.slice(0, 1)),
    );
    const first = await execute(owner, extractorId);
    for (;;) {
      const ask = await nextAsk(owner, first);
      if (!ask) throw new Error('the run ended before its investor ask');
      if (ask.type === 'ASK_F_ENGINE_INVESTOR') {
        await answer(owner, ask.id, 'PF-100001').expect(200);
        break;
      }
      const value = { ASK_F_ENGINE_URL: engine.url, ASK_F_ENGINE_USER: engine.username }[ask.type as string];
      await answer(owner, ask.id, value ?? engine.password, ask.type === 'ASK_F_ENGINE_PASSWORD').expect(200);
    }
    expect((await waitForRun(owner, first)).status).toBe('SUCCESS');
    const saved = await db.savedSecret.findMany({ where: { userId: owner.id } });
    expect(saved.length).toBeGreaterThan(0);
    expect(saved.map((row) => Buffer.from(row.ciphertext).toString('utf8')).join()).not.toContain(
      engine.password,
    );

    const second = await execute(owner, extractorId);
    const asked: string[] = [];
    for (;;) {
      const ask = await nextAsk(owner, second);
      if (!ask) break;
      asked.push(ask.type);
      if (ask.type === 'ASK_F_ENGINE_INVESTOR') await answer(owner, ask.id, 'PF-100002').expect(200);
      else
        await answer(owner, ask.id, ask.type === 'ASK_F_ENGINE_URL' ? engine.url : engine.username).expect(
          200,
        );
    }
    expect(asked).toEqual(['ASK_F_ENGINE_URL', 'ASK_F_ENGINE_USER', 'ASK_F_ENGINE_INVESTOR']);
    expect((await waitForRun(owner, second)).status).toBe('SUCCESS');
  });

  it('says what happened when the engine address is refused, answers HTML or a 500, or the field is missing', async () => {
    const extractorId = await insertInsertor(owner, 'KYC failures', kycActions(FORM_FIELDS.slice(0, 1)));

    // A private address the egress policy refuses (cloud metadata).
    const refused = await execute(owner, extractorId);
    const ended = await signIn(owner, refused, { ...engineSignIn(), url: 'http://169.254.169.254/' });
    expect(ended).toBeNull();
    const refusedRun = await waitForRun(owner, refused);
    expect(refusedRun.status).toBe('ERROR');
    expect(refusedRun.errorMessage).toContain('The F-engine address http://169.254.169.254 is refused');

    await engine.setFaults({ answerHtml: true, calls: ['sessions'] });
    const html = await execute(owner, extractorId);
    expect(await signIn(owner, html, engineSignIn())).toBeNull();
    const htmlRun = await waitForRun(owner, html);
    expect(htmlRun.status).toBe('ERROR');
    expect(htmlRun.errorMessage).toContain(
      'gave an answer to "sign in" that is not what the connector contract says (an HTML page)',
    );

    await engine.setFaults({ failWith: 500, calls: ['investors'] });
    const failing = await execute(owner, extractorId);
    expect(await signIn(owner, failing, engineSignIn())).toBeNull();
    const failingRun = await waitForRun(owner, failing);
    expect(failingRun.status).toBe('ERROR');
    expect(failingRun.errorMessage).toContain('answered "list investors" with HTTP 500');
    await engine.clearFaults();

    const missing = await insertInsertor(
      owner,
      'KYC missing field',
      kycActions([['#given', 'identity.middleName']]),
    );
    const missingRun = await execute(owner, missing);
    const ask = await signIn(owner, missingRun, engineSignIn());
    await answer(owner, ask!.id, 'PF-100001').expect(200);
    const done = await waitForRun(owner, missingRun);
    expect(done.status).toBe('ERROR');
    expect(done.errorMessage).toContain(
      ENGINE_MESSAGES.fieldMissing('Amélie Laurent (PF-100001)', 'identity.middleName'),
    );
  });

  it("never shows one user's investor ask to another", async () => {
    const extractorId = await insertInsertor(owner, 'KYC private', kycActions(FORM_FIELDS.slice(0, 1)));
    const runId = await execute(owner, extractorId);
    const ask = await signIn(owner, runId, engineSignIn());
    const seen = await api()
      .get('/api/extractor/getPendingAskActionToFill')
      .query(INSERTOR)
      .set(bearer(stranger.token));
    expect(seen.status).toBe(204);
    await answer(stranger, ask!.id, 'PF-100001').expect(404);
    await answer(owner, ask!.id, 'CANCELED').expect(200);
    expect((await waitForRun(owner, runId)).status).toBe('STOPPED');
  });
});

describe('recording an F-engine insertor (POST /extractor/, normalized/reload)', () => {
  const add = (user: User, body: AddActionInput) =>
    api().post('/api/extractor/').query(INSERTOR).set(bearer(user.token)).send(body);

  it('signs the builder in once, returns the investors and the chosen investor’s sections, and types a field', async () => {
    await api()
      .post('/api/extractor/start')
      .set(bearer(owner.token))
      .send({ name: 'Recorded KYC', description: 'Recorded KYC flow', extractorType: 'FENGINE_INSERTOR' })
      .expect(201);
    await add(owner, { type: 'NAVIGATE', textValue: `${site.url}/pages/kyc-onboarding.html` }).expect(200);

    // Before a sign-in the investor ask cannot be recorded.
    const early = await add(owner, {
      type: 'ASK_F_ENGINE_INVESTOR',
      textValue: 'Which investor?',
      credentials: 'PF-100001',
    });
    expect(early.status).toBe(422);
    expect(JSON.stringify(early.body)).toContain(MESSAGES['extractor.investor.sign.in']);

    const url = await add(owner, { type: 'ASK_F_ENGINE_URL', textValue: 'Engine?', credentials: engine.url });
    expect(url.status, JSON.stringify(url.body)).toBe(200);
    expect((url.body as AddActionResponse).managementDTO).toBeNull();
    await add(owner, { type: 'ASK_F_ENGINE_USER', textValue: 'User?', credentials: engine.username }).expect(
      200,
    );
    const password = await add(owner, {
      type: 'ASK_F_ENGINE_PASSWORD',
      textValue: 'Password?',
      credentials: engine.password,
    });
    expect(password.status, JSON.stringify(password.body)).toBe(200);
    const signedIn = password.body as AddActionResponse;
    expect(signedIn.managementDTO?.investors).toHaveLength(25);
    expect(JSON.stringify(signedIn)).not.toContain(engine.password);

    const investor = await add(owner, {
      type: 'ASK_F_ENGINE_INVESTOR',
      textValue: 'Which investor?',
      credentials: 'PF-100002',
    });
    expect(investor.status, JSON.stringify(investor.body)).toBe(200);
    const chosen = investor.body as AddActionResponse;
    expect(chosen.fserviceDTO?.investor?.name).toBe('Jonas Berg');
    expect(chosen.fserviceDTO?.sections.map((section) => section.key)).toEqual([
      'identity',
      'address',
      'bank',
      'kyc',
    ]);

    const typed = await add(owner, {
      type: 'TYPE_F_ENGINE_FIELD',
      target: { selectorType: 'CSS', selectorValue: '#country' },
      textValue: 'address.country',
    });
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
    expect((typed.body as AddActionResponse).value).toEqual({ kind: 'text', value: 'Norway' });

    const reload = await api()
      .get('/api/extractor/normalized/reload')
      .query(INSERTOR)
      .set(bearer(owner.token))
      .expect(200);
    const page = reload.body as NormalizedPage;
    expect(page.fserviceDTO.sections.length).toBe(4);
    expect(page.fserviceDTO.investor?.portfolioid).toBe('PF-100002');
    expect(page.managementDTO?.investors).toHaveLength(25);
  });
});
