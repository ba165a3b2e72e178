import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  MESSAGES,
  ENGINE_DATASET_ENTITIES,
  ENGINE_ENTITIES,
  ENGINE_FIELD_TYPES,
  ENGINE_PATHS,
  engineErrorBodySchema,
  engineFileValueSchema,
  engineImportRequestSchema,
  engineImportResponseSchema,
  engineImportRowSchema,
  engineInvestorSectionsSchema,
  engineInvestorsPageSchema,
  engineSectionSchema,
  engineFieldSchema,
  engineSignInRequestSchema,
  engineSignInResponseSchema,
  investorSchema,
  type EngineEntity,
} from '@pagewright/shared';
import { startFengineSandbox, type RunningFengineSandbox } from '../support/fengine-sandbox.js';
import { fromRoot } from '../support/paths.js';

const json = { 'content-type': 'application/json' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function signIn(sandbox: RunningFengineSandbox, password = sandbox.password): Promise<Response> {
  return fetch(`${sandbox.url}${ENGINE_PATHS.sessions}`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ username: sandbox.username, password }),
  });
}

async function investorsPage(sandbox: RunningFengineSandbox, token: string, query: string) {
  const response = await fetch(`${sandbox.url}${ENGINE_PATHS.investors}?${query}`, {
    headers: bearer(token),
  });
  expect(response.status).toBe(200);
  return engineInvestorsPageSchema.parse(await response.json());
}

function importRows(sandbox: RunningFengineSandbox, token: string, entity: EngineEntity, rows: unknown[]) {
  return fetch(`${sandbox.url}${ENGINE_PATHS.imports(entity)}`, {
    method: 'POST',
    headers: { ...json, ...bearer(token) },
    body: JSON.stringify({ rows }),
  });
}

describe('the reference F-engine (apps/fengine-sandbox)', () => {
  let sandbox: RunningFengineSandbox;
  let token: string;

  beforeAll(async () => {
    sandbox = await startFengineSandbox();
    token = await sandbox.signIn();
  });
  afterAll(() => sandbox?.close());

  it('signs in with the seed user and answers a token with its expiry; a wrong password is a 401', async () => {
    const signedIn = await signIn(sandbox);
    expect(signedIn.status).toBe(200);
    const session = engineSignInResponseSchema.parse(await signedIn.json());
    expect(Date.parse(session.expiresAt) - Date.now()).toBeGreaterThan(800_000);

    const refused = await signIn(sandbox, 'not-the-password');
    expect(refused.status).toBe(401);
    expect(engineErrorBodySchema.parse(await refused.json()).error).toMatch(/wrong/i);
  });

  it('refuses a missing or unknown bearer token with 401', async () => {
    for (const headers of [{}, bearer('made-up-token')]) {
      const response = await fetch(`${sandbox.url}${ENGINE_PATHS.investors}`, { headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'Session expired or unknown' });
    }
  });

  it('pages through 25 investors, the two end-to-end investors first, and searches them', async () => {
    const first = await investorsPage(sandbox, token, 'page=1&pageSize=10');
    expect(first).toMatchObject({ page: 1, pageSize: 10, total: 25 });
    expect(first.items.slice(0, 2)).toEqual([
      expect.objectContaining({ portfolioid: 'PF-100001', name: 'Amélie Laurent' }),
      expect.objectContaining({ portfolioid: 'PF-100002', name: 'Jonas Berg' }),
    ]);
    const third = await investorsPage(sandbox, token, 'page=3&pageSize=10');
    expect(third.items.map((investor) => investor.portfolioid)).toEqual(
      ['21', '22', '23', '24', '25'].map((n) => `PF-1000${n}`),
    );
    expect((await investorsPage(sandbox, token, '')).pageSize).toBe(20);
    const all = await investorsPage(sandbox, token, 'pageSize=100');
    expect(all.items.filter((investor) => investor.confirmationNumber === null)).toHaveLength(2);
    expect(new Set(all.items.map((investor) => investor.portfolioid)).size).toBe(25);

    const byName = await investorsPage(sandbox, token, 'search=JONAS');
    expect(byName.items.map((investor) => investor.portfolioid)).toEqual(['PF-100002']);
    const byPortfolio = await investorsPage(sandbox, token, 'search=pf-100001');
    expect(byPortfolio.items.map((investor) => investor.name)).toEqual(['Amélie Laurent']);
    const confirmation = first.items[0]!.confirmationNumber!;
    const byConfirmation = await investorsPage(sandbox, token, `search=${confirmation.toLowerCase()}`);
    expect(byConfirmation.items.map((investor) => investor.portfolioid)).toContain('PF-100001');
    expect((await investorsPage(sandbox, token, 'search=%25')).total).toBe(0);

    const tooLarge = await fetch(`${sandbox.url}${ENGINE_PATHS.investors}?pageSize=101`, {
      headers: bearer(token),
    });
    expect(tooLarge.status).toBe(400);
  });

  it("answers an investor's sections in the contract's shape, different for the two e2e investors", async () => {
    const read = async (portfolioid: string) => {
      const response = await fetch(`${sandbox.url}${ENGINE_PATHS.investorSections(portfolioid)}`, {
        headers: bearer(token),
      });
      expect(response.status).toBe(200);
      return engineInvestorSectionsSchema.parse(await response.json());
    };
    const amelie = await read('PF-100001');
    const jonas = await read('PF-100002');
    expect(amelie.sections.map((section) => section.key)).toEqual(['identity', 'address', 'bank', 'kyc']);
    const values = (sections: typeof amelie.sections) =>
      Object.fromEntries(sections.flatMap((s) => s.fields.map((f) => [`${s.key}.${f.key}`, f])));
    const a = values(amelie.sections);
    const j = values(jonas.sections);
    expect(Object.keys(a)).toEqual(Object.keys(j));
    for (const path of Object.keys(a)) {
      expect(a[path]!.value, path).not.toBeNull();
      if (a[path]!.type === 'CHOICE') expect(a[path]!.options).toContain(a[path]!.value);
      if (path !== 'kyc.politicallyExposed' || a[path]!.value !== j[path]!.value) {
        expect(a[path]!.value, path).not.toBe(j[path]!.value);
      }
    }
    expect(a['identity.dateOfBirth']).toMatchObject({ type: 'DATE', value: '1984-03-12' });
    expect(a['kyc.politicallyExposed']).toMatchObject({ type: 'BOOLEAN', value: 'false' });
    expect(j['kyc.politicallyExposed']).toMatchObject({ type: 'BOOLEAN', value: 'true' });
    expect(a['kyc.investmentExperienceYears']?.type).toBe('NUMBER');

    const unknown = await fetch(`${sandbox.url}${ENGINE_PATHS.investorSections('PF-999999')}`, {
      headers: bearer(token),
    });
    expect(unknown.status).toBe(404);
    engineErrorBodySchema.parse(await unknown.json());
  });

  it('imports rows idempotently by externalId and rejects rows without a required field', async () => {
    const row = (externalId: string, amount: number | null) => ({
      externalId,
      values: {
        transactionId: externalId.toUpperCase(),
        portfolioId: 'PF-100001',
        tradeDate: '2026-11-02T00:00:00.000Z',
        type: 'Subscription',
        amount,
        currency: 'EUR',
      },
    });
    const first = await importRows(sandbox, token, 'transactions', [
      row('t-1', 100),
      row('t-2', 200),
      row('t-3', null),
    ]);
    expect(first.status).toBe(200);
    const firstResult = engineImportResponseSchema.parse(await first.json());
    expect(firstResult).toEqual({
      created: 2,
      updated: 0,
      rejected: [{ externalId: 't-3', reason: expect.stringContaining('amount') }],
    });

    const again = engineImportResponseSchema.parse(
      await (await importRows(sandbox, token, 'transactions', [row('t-1', 100), row('t-2', 250)])).json(),
    );
    expect(again).toEqual({ created: 0, updated: 2, rejected: [] });

    const stored = await sandbox.importedRows('transactions');
    expect(stored.map((r) => [r.externalId, r.values.amount])).toEqual([
      ['t-1', 100],
      ['t-2', 250],
    ]);
    expect(await sandbox.importedRows('funds')).toEqual([]);

    const file = {
      externalId: 'f-1',
      values: {
        documentId: 'DOC-1',
        portfolioId: 'PF-100002',
        documentType: 'KYC form',
        file: { fileName: 'kyc.pdf', mimeType: 'application/pdf', contentBase64: 'JVBERi0=' },
      },
    };
    const statement = {
      externalId: 'f-2',
      values: { ...file.values, documentId: 'DOC-2', documentType: 'Statement' },
    };
    const files = engineImportResponseSchema.parse(
      await (await importRows(sandbox, token, 'files', [file, statement])).json(),
    );
    expect(files.created).toBe(1);
    // The engine files KYC forms only, for now (the data spec's text).
    expect(files.rejected).toEqual([{ externalId: 'f-2', reason: MESSAGES['recognition.only.kyc'] }]);
    expect((await sandbox.importedRows('files'))[0]?.values.file).toEqual(file.values.file);

    expect((await importRows(sandbox, token, 'transactions', [])).status).toBe(400);
    expect((await importRows(sandbox, token, 'not-an-entity' as EngineEntity, [row('x', 1)])).status).toBe(
      404,
    );
  });

  describe('fault switches', () => {
    afterAll(() => sandbox.clearFaults());

    it('answers 500 or 503 with an error body, only for the calls named', async () => {
      await sandbox.setFaults({ failWith: 503, calls: ['investors'] });
      const failed = await fetch(`${sandbox.url}${ENGINE_PATHS.investors}`, { headers: bearer(token) });
      expect(failed.status).toBe(503);
      engineErrorBodySchema.parse(await failed.json());
      const other = await fetch(`${sandbox.url}${ENGINE_PATHS.investorSections('PF-100001')}`, {
        headers: bearer(token),
      });
      expect(other.status).toBe(200);

      await sandbox.setFaults({ failWith: 500 });
      expect((await signIn(sandbox)).status).toBe(500);
      await sandbox.clearFaults();
      expect((await signIn(sandbox)).status).toBe(200);
    });

    it('answers an HTML page, or JSON of the wrong shape, with 200', async () => {
      await sandbox.setFaults({ answerHtml: true });
      const html = await fetch(`${sandbox.url}${ENGINE_PATHS.investors}`, { headers: bearer(token) });
      expect(html.status).toBe(200);
      expect(html.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await html.text()).toMatch(/^<html>.*<\/html>$/s);

      await sandbox.setFaults({ malformed: true });
      const malformed = await fetch(`${sandbox.url}${ENGINE_PATHS.investors}`, { headers: bearer(token) });
      expect(malformed.status).toBe(200);
      expect(engineInvestorsPageSchema.safeParse(await malformed.json()).success).toBe(false);
      await sandbox.clearFaults();
    });

    it('answers late, and closes the connection without an answer when down', async () => {
      await sandbox.setFaults({ delayMs: 1200, calls: ['sections'] });
      const started = Date.now();
      const slow = await fetch(`${sandbox.url}${ENGINE_PATHS.investorSections('PF-100001')}`, {
        headers: bearer(token),
      });
      expect(slow.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1150);

      await sandbox.setFaults({ down: true });
      await expect(
        fetch(`${sandbox.url}${ENGINE_PATHS.investors}`, { headers: bearer(token) }),
      ).rejects.toThrow();
      await sandbox.clearFaults();
      expect((await fetch(`${sandbox.url}/health`)).ok).toBe(true);
    });

    it('are refused without the admin token', async () => {
      const response = await fetch(`${sandbox.url}/sandbox/faults`, {
        method: 'POST',
        headers: { ...json, 'x-sandbox-admin': 'wrong' },
        body: JSON.stringify({ down: true }),
      });
      expect(response.status).toBe(403);
    });
  });

  it('reset restores the seed and drops sessions and imported rows', async () => {
    const own = await sandbox.signIn();
    await importRows(sandbox, own, 'funds', [
      { externalId: 'fund-1', values: { fundCode: 'F1', name: 'Fund one' } },
    ]);
    await sandbox.reset();
    const refused = await fetch(`${sandbox.url}${ENGINE_PATHS.investors}`, { headers: bearer(own) });
    expect(refused.status).toBe(401);
    expect(await sandbox.importedRows('funds')).toEqual([]);
    token = await sandbox.signIn();
    expect((await investorsPage(sandbox, token, '')).total).toBe(25);
  });
});

describe('an F-engine session past its expiry', () => {
  let sandbox: RunningFengineSandbox;
  beforeAll(async () => {
    sandbox = await startFengineSandbox({ sessionTtlSeconds: 1 });
  });
  afterAll(() => sandbox?.close());

  it('is refused with 401 "Session expired or unknown"', async () => {
    const token = await sandbox.signIn();
    expect((await fetch(`${sandbox.url}${ENGINE_PATHS.investors}`, { headers: bearer(token) })).status).toBe(
      200,
    );
    await expect
      .poll(
        async () =>
          (await fetch(`${sandbox.url}${ENGINE_PATHS.investors}`, { headers: bearer(token) })).status,
        {
          timeout: 5000,
          interval: 200,
        },
      )
      .toBe(401);
    const refused = await fetch(`${sandbox.url}${ENGINE_PATHS.investors}`, { headers: bearer(token) });
    expect(await refused.json()).toEqual({ error: 'Session expired or unknown' });
  });
});

/** docs/f-engine-connector.yaml follows the zod contract: a change to one without the other fails here. */
describe('the connector OpenAPI document', () => {
  interface OpenApiSchema {
    type?: string | string[];
    required?: string[];
    properties?: Record<string, unknown>;
    enum?: string[];
    'x-entity-fields'?: Record<
      string,
      { datasetType: string; key: string[]; required: string[]; optional: string[] }
    >;
  }
  const document = parse(readFileSync(fromRoot('docs/f-engine-connector.yaml'), 'utf8')) as {
    openapi: string;
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, OpenApiSchema> };
  };
  const schemas = document.components.schemas;

  it('is OpenAPI 3.1 with every path of ENGINE_PATHS and its methods', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths[ENGINE_PATHS.sessions] ?? {})).toContain('post');
    expect(Object.keys(document.paths[ENGINE_PATHS.investors] ?? {})).toContain('get');
    const sections = ENGINE_PATHS.investorSections('PORTFOLIO').replace('PORTFOLIO', '{portfolioid}');
    expect(Object.keys(document.paths[sections] ?? {})).toContain('get');
    const imports = ENGINE_PATHS.imports('ENTITY' as EngineEntity).replace('ENTITY', '{entity}');
    expect(Object.keys(document.paths[imports] ?? {})).toEqual(expect.arrayContaining(['post', 'get']));
  });

  it('names every engine entity with the fields of ENGINE_DATASET_ENTITIES, and every field type', () => {
    expect(schemas.Entity?.enum).toEqual([...ENGINE_ENTITIES]);
    expect(schemas.FieldType?.enum).toEqual([...ENGINE_FIELD_TYPES]);
    const documented = schemas.Entity?.['x-entity-fields'] ?? {};
    for (const [datasetType, { entity, fields }] of Object.entries(ENGINE_DATASET_ENTITIES)) {
      expect(documented[entity], entity).toEqual({
        datasetType,
        key: fields.filter((f) => f.isKey).map((f) => f.name),
        required: fields.filter((f) => f.isRequired).map((f) => f.name),
        optional: fields.filter((f) => !f.isRequired).map((f) => f.name),
      });
    }
  });

  it('describes every payload with the properties and required fields of its zod schema', () => {
    const pairs: [string, { shape: Record<string, { safeParse(value: unknown): { success: boolean } }> }][] =
      [
        ['SignInRequest', engineSignInRequestSchema],
        ['SignInResponse', engineSignInResponseSchema],
        ['Investor', investorSchema],
        ['InvestorsPage', engineInvestorsPageSchema],
        ['Field', engineFieldSchema],
        ['Section', engineSectionSchema],
        ['InvestorSections', engineInvestorSectionsSchema],
        ['FileValue', engineFileValueSchema],
        ['ImportRow', engineImportRowSchema],
        ['ImportRequest', engineImportRequestSchema],
        ['ImportResponse', engineImportResponseSchema],
        ['Error', engineErrorBodySchema],
      ];
    for (const [name, schema] of pairs) {
      const documented = schemas[name];
      expect(Object.keys(documented?.properties ?? {}).sort(), name).toEqual(
        Object.keys(schema.shape).sort(),
      );
      const required = Object.entries(schema.shape)
        .filter(([, property]) => !property.safeParse(undefined).success)
        .map(([key]) => key);
      expect([...(documented?.required ?? [])].sort(), name).toEqual(required.sort());
    }
  });
});
