import { afterAll, describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { actionSecretContext, createPrismaClient, createSecretBox } from '@pagewright/db';
import {
  MESSAGES,
  extractorListItemSchema,
  type BuilderView,
  type ExtractorListItem,
} from '@pagewright/shared';
import { FIXTURE_PASSWORD, startFixtureSite } from '../fixtures/site/server.js';
import { createConfirmedUser, createSignedInUser } from '../support/accounts.js';
import { waitForRun } from '../support/runs-api.js';
import { saveOneAction, withDatabase } from '../support/test-database.js';

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const databaseUrl = inject('databaseUrl');
const api = () => request(apiUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('extractors, insertors and navigators: create, list, rename, delete', () => {
  it('creates with the spec rules and texts, 409 on a used name per type', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'extractors');
    const auth = bearer(user.accessToken);
    const created = await api()
      .post('/api/extractor/start')
      .set(auth)
      .send({ name: '  Prices  ', description: 'Daily prices', extractorType: 'EXTRACTOR' })
      .expect(201);
    expect(created.body).toMatchObject({
      name: 'Prices',
      extractorType: 'EXTRACTOR',
      status: null,
      viewerEmail: null,
    });

    // A saved item's name is taken (a draft never saved nor validated gives its name way, below).
    await withDatabase(databaseUrl, (db) => saveOneAction(db, created.body.id));
    const duplicate = await api()
      .post('/api/extractor/start')
      .set(auth)
      .send({ name: 'Prices', description: 'again', extractorType: 'EXTRACTOR' })
      .expect(409);
    expect(duplicate.body).toEqual({
      message: MESSAGES['extractor.list.error.unique'],
      code: 'NAME_EXISTS',
      field: 'name',
    });
    // The same name is fine for another kind.
    await api()
      .post('/api/extractor/start')
      .set(auth)
      .send({ name: 'Prices', description: 'x', extractorType: 'INSERTOR' })
      .expect(201);

    const blankName = await api()
      .post('/api/extractor/start')
      .set(auth)
      .send({ name: '   ', description: 'x' })
      .expect(400);
    expect(blankName.body).toMatchObject({ message: MESSAGES['extractor.list.error.name'], field: 'name' });
    const noDescription = await api()
      .post('/api/extractor/start')
      .set(auth)
      .send({ name: 'n', description: '' })
      .expect(400);
    expect(noDescription.body).toMatchObject({
      message: MESSAGES['extractor.list.error.description'],
      field: 'description',
    });
    const tooLong = await api()
      .post('/api/extractor/start')
      .set(auth)
      .send({ name: 'n'.repeat(129), description: 'x' })
      .expect(400);
    expect(tooLong.body.field).toBe('name');
    await api()
      .post('/api/extractor/start')
      .set(auth)
      .send({ name: 'n'.repeat(128), description: 'd'.repeat(1024) })
      .expect(201);
    expect(
      (
        await api()
          .post('/api/extractor/start')
          .set(auth)
          .send({ name: 'long', description: 'd'.repeat(1025) })
          .expect(400)
      ).body.field,
    ).toBe('description');
  });

  it('navigators need a viewer e-mail of the spec pattern, which rename cannot change', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'navigators');
    const auth = bearer(user.accessToken);
    const missing = await api()
      .post('/api/extractor/start')
      .set(auth)
      .send({ name: 'Share', description: 'Screen Share', extractorType: 'NAVIGATOR' })
      .expect(400);
    expect(missing.body).toMatchObject({
      message: MESSAGES['navigator.list.error.viewer.email'],
      field: 'viewerEmail',
    });
    await api()
      .post('/api/extractor/start')
      .set(auth)
      .send({
        name: 'Share',
        description: 'Screen Share',
        extractorType: 'NAVIGATOR',
        viewerEmail: 'viewer@bank.info',
      })
      .expect(400);
    const navigator = await api()
      .post('/api/extractor/start')
      .set(auth)
      .send({
        name: 'Share',
        description: 'Screen Share',
        extractorType: 'NAVIGATOR',
        viewerEmail: 'viewer@bank.com',
      })
      .expect(201);
    const renamed = await api()
      .post('/api/extractor/rename')
      .set(auth)
      .send({ id: navigator.body.id, name: 'Shared', description: 'Renamed', viewerEmail: 'other@bank.com' })
      .expect(200);
    expect(renamed.body).toMatchObject({
      name: 'Shared',
      description: 'Renamed',
      viewerEmail: 'viewer@bank.com',
    });
  });

  it('lists by type with unseen errors first, and clears them once shown', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'listing');
    const auth = bearer(user.accessToken);
    const a = (
      await api().post('/api/extractor/start').set(auth).send({ name: 'A', description: 'a' }).expect(201)
    ).body;
    const b = (
      await api()
        .post('/api/extractor/start')
        .set(auth)
        .send({ name: 'B', description: 'b', extractorType: 'INSERTOR' })
        .expect(201)
    ).body;
    await withDatabase(databaseUrl, async (db) => {
      await db.query(`UPDATE "Extractor" SET status = 'ERROR' WHERE id = $1`, [a.id]);
      await saveOneAction(db, b.id);
      await db.query(
        `INSERT INTO "ExtractorErrorMessage" (id, "extractorId", message, "createdAt") VALUES (gen_random_uuid(), $1, 'older', now() - interval '1 minute'), (gen_random_uuid(), $1, 'No Such Element: #price', now())`,
        [a.id],
      );
    });
    const list = await api()
      .get('/api/extractor')
      .query({ extractorType: 'EXTRACTOR' })
      .set(auth)
      .expect(200);
    expect(list.body).toHaveLength(1);
    // The list is written without zod's runtime pass (issue 11): its fields must still be the contract's.
    expect(extractorListItemSchema.strict().parse(list.body[0])).toEqual(list.body[0]);
    expect(list.body[0]).toMatchObject({
      id: a.id,
      status: 'ERROR',
      errorMessage: 'No Such Element: #price',
    });
    expect(list.body[0].errorMessages.map((e: { errorMessage: string }) => e.errorMessage)).toEqual([
      'No Such Element: #price',
      'older',
    ]);
    // A poll that finds the same list gets 304 and no body (the browser shows what it kept).
    const etag = list.headers.etag as string;
    expect(list.headers['cache-control']).toBe('private, no-cache');
    const unchanged = await api()
      .get('/api/extractor')
      .query({ extractorType: 'EXTRACTOR' })
      .set(auth)
      .set('If-None-Match', etag)
      .expect(304);
    expect(unchanged.text).toBe('');
    expect(
      (await api().get('/api/extractor').query({ extractorType: 'INSERTOR' }).set(auth).expect(200)).body,
    ).toHaveLength(1);

    await api().put(`/api/extractor/clearShowErrorMessage/${a.id}`).set(auth).expect(200);
    // A changed list comes whole, whatever the browser kept.
    const after = await api().get('/api/extractor').set(auth).set('If-None-Match', etag).expect(200);
    expect(after.body[0]).toMatchObject({ errorMessage: null, errorMessages: [] });
  });

  it('refuses to delete an extractor a dataset uses or one that is executing, and deletes otherwise', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'deleting');
    const auth = bearer(user.accessToken);
    const used = (
      await api().post('/api/extractor/start').set(auth).send({ name: 'Used', description: 'u' }).expect(201)
    ).body;
    const busy = (
      await api().post('/api/extractor/start').set(auth).send({ name: 'Busy', description: 'b' }).expect(201)
    ).body;
    const free = (
      await api().post('/api/extractor/start').set(auth).send({ name: 'Free', description: 'f' }).expect(201)
    ).body;
    await withDatabase(databaseUrl, async (db) => {
      const userId = (await db.query(`SELECT "userId" FROM "Extractor" WHERE id = $1`, [used.id])).rows[0]
        .userId;
      const action = await db.query(
        `INSERT INTO "ExtractorAction" (id, "extractorId", sequence, type, "updatedAt") VALUES (gen_random_uuid(), $1, 10, 'GET_TEXT', now()) RETURNING id`,
        [used.id],
      );
      const dataset = await db.query(
        `INSERT INTO "Dataset" (id, "userId", name, description, "updatedAt") VALUES (gen_random_uuid(), $1, 'Prices', 'p', now()) RETURNING id`,
        [userId],
      );
      const field = await db.query(
        `INSERT INTO "DatasetField" (id, "datasetId", name, sequence, "updatedAt") VALUES (gen_random_uuid(), $1, 'price', 1, now()) RETURNING id`,
        [dataset.rows[0].id],
      );
      await db.query(
        `INSERT INTO "DatasetMap" (id, "datasetFieldId", "actionId") VALUES (gen_random_uuid(), $1, $2)`,
        [field.rows[0].id, action.rows[0].id],
      );
      await db.query(`UPDATE "Extractor" SET status = 'EXECUTING' WHERE id = $1`, [busy.id]);
    });

    const refused = await api().delete(`/api/extractor/${used.id}`).set(auth).expect(409);
    expect(refused.body.message).toBe('Could not delete this extractor, it is associated with a data set');
    expect((await api().delete(`/api/extractor/${busy.id}`).set(auth).expect(409)).body.message).toBe(
      MESSAGES['extractor.delete.executing'],
    );
    await api().delete(`/api/extractor/${free.id}`).set(auth).expect(200);
    const names = (await api().get('/api/extractor').set(auth).expect(200)).body.map(
      (e: { name: string }) => e.name,
    );
    expect(names.sort()).toEqual(['Busy', 'Used']);
    await api().delete('/api/extractor/not-a-uuid').set(auth).expect(400);
  });

  it('user B can never list, rename, clear or delete user A’s extractors', async () => {
    const a = await createConfirmedUser(apiUrl, mailUrl, 'owner-a');
    const b = await createConfirmedUser(apiUrl, mailUrl, 'owner-b');
    const mine = (
      await api()
        .post('/api/extractor/start')
        .set(bearer(a.accessToken))
        .send({ name: 'Mine', description: 'm' })
        .expect(201)
    ).body;
    await withDatabase(databaseUrl, (db) => saveOneAction(db, mine.id));
    expect((await api().get('/api/extractor').set(bearer(b.accessToken)).expect(200)).body).toEqual([]);
    await api()
      .post('/api/extractor/rename')
      .set(bearer(b.accessToken))
      .send({ id: mine.id, name: 'Stolen', description: 's' })
      .expect(404);
    await api().put(`/api/extractor/clearShowErrorMessage/${mine.id}`).set(bearer(b.accessToken)).expect(404);
    await api().delete(`/api/extractor/${mine.id}`).set(bearer(b.accessToken)).expect(404);
    // B may use the same name: names are unique per user.
    await api()
      .post('/api/extractor/start')
      .set(bearer(b.accessToken))
      .send({ name: 'Mine', description: 'b' })
      .expect(201);
    const list = (await api().get('/api/extractor').set(bearer(a.accessToken)).expect(200)).body;
    expect(list).toEqual([expect.objectContaining({ id: mine.id, name: 'Mine' })]);
  });
});

describe('what the dashboard lists', () => {
  it('leaves off a draft never saved nor validated, which its builder still reaches by id and whose name gives way', async () => {
    const site = await startFixtureSite();
    try {
      const user = await createConfirmedUser(apiUrl, mailUrl, 'drafts');
      const auth = bearer(user.accessToken);
      const listed = async () =>
        ((await api().get('/api/extractor').set(auth).expect(200)).body as ExtractorListItem[]).map(
          (item) => item.name,
        );
      const start = (name: string) =>
        api()
          .post('/api/extractor/start')
          .set(auth)
          .send({ name, description: `${name} flow` });
      const builder = (path: string) =>
        api().get(`/api/extractor${path}`).query({ extractorType: 'EXTRACTOR' });

      const draft = (await start('Draft').expect(201)).body as ExtractorListItem;
      expect(await listed()).toEqual([]);
      // The builder opens it by id, and keeps what is recorded there unsaved (a reloaded tab finds it).
      await api().get(`/api/extractor/edit/${draft.id}`).set(auth).expect(200);
      const added = await api()
        .post('/api/extractor/')
        .query({ extractorType: 'EXTRACTOR' })
        .set(auth)
        .send({ type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      const current = (await builder('/current').set(auth).expect(200)).body as BuilderView;
      expect(current).toMatchObject({ id: draft.id, actions: [{ type: 'NAVIGATE', isSaved: false }] });
      expect(await listed()).toEqual([]);

      // Validated (saved or not), it is listed.
      const validation = await builder('/validate').set(auth).buffer(true).expect(200);
      expect(validation.text.trim().split('\n').at(-1)).toContain('"error":null');
      expect(await listed()).toEqual(['Draft']);
      await api()
        .put('/api/extractor/edit')
        .query({ extractorType: 'EXTRACTOR' })
        .set(auth)
        .send({})
        .expect(200);
      expect(await listed()).toEqual(['Draft']);
      // A listed item keeps its name.
      expect((await start('Draft').expect(409)).body.code).toBe('NAME_EXISTS');

      // An unlisted draft does not hold its name: starting the same name again replaces it.
      const scratch = (await start('Scratch').expect(201)).body as ExtractorListItem;
      const again = (await start('Scratch').expect(201)).body as ExtractorListItem;
      expect(again.id).not.toBe(scratch.id);
      await api().get(`/api/extractor/edit/${scratch.id}`).set(auth).expect(404);
      expect((await builder('/current').set(auth).expect(200)).body).toMatchObject({ id: again.id });
      expect(await listed()).toEqual(['Draft']);
      await builder('/end').set(auth).expect(200);
    } finally {
      await site.close();
    }
  }, 90_000);
});

describe('copy (POST /extractor/copy/:id)', () => {
  const prisma = createPrismaClient(databaseUrl);
  afterAll(() => prisma.$disconnect());
  const secretBox = () => {
    const key = process.env.PW_TEST_ENCRYPTION_KEY;
    if (!key) throw new Error('PW_TEST_ENCRYPTION_KEY is not set: start the stack first');
    return createSecretBox(key);
  };
  const copy = (token: string, id: string) => api().post(`/api/extractor/copy/${id}`).set(bearer(token));
  const listOf = async (token: string, extractorType = 'EXTRACTOR') =>
    (await api().get('/api/extractor').query({ extractorType }).set(bearer(token)).expect(200))
      .body as ExtractorListItem[];

  it('copies the whole flow with its secrets sealed for the new actions, and the copy runs', async () => {
    const site = await startFixtureSite();
    try {
      const owner = await createSignedInUser(prisma, apiUrl, mailUrl, 'copy-owner');
      const box = secretBox();
      const original = await prisma.extractor.create({
        data: { userId: owner.id, name: 'Login flow', description: 'Signs in', extractorType: 'EXTRACTOR' },
      });
      const add = (data: Parameters<typeof prisma.extractorAction.create>[0]['data']) =>
        prisma.extractorAction.create({ data });
      await add({
        extractorId: original.id,
        sequence: 10,
        type: 'NAVIGATE',
        textValue: `${site.url}/pages/login.html`,
        isValidated: true,
      });
      await add({
        extractorId: original.id,
        sequence: 20,
        type: 'TYPE_TEXT',
        selectorValue: '#username',
        textValue: 'ops-user',
        isValidated: true,
      });
      const password = await add({
        extractorId: original.id,
        sequence: 30,
        type: 'TYPE_PASSWORD',
        selectorValue: '#password',
        isValidated: true,
      });
      const sealed = box.seal(FIXTURE_PASSWORD, actionSecretContext(owner.id, password.id));
      await prisma.extractorAction.update({
        where: { id: password.id },
        data: {
          secretCiphertext: new Uint8Array(sealed.ciphertext),
          secretIv: new Uint8Array(sealed.iv),
          secretAuthTag: new Uint8Array(sealed.authTag),
        },
      });
      await add({
        extractorId: original.id,
        sequence: 40,
        type: 'CLICK',
        selectorValue: '#login-submit',
        isValidated: true,
      });
      await add({
        extractorId: original.id,
        sequence: 50,
        type: 'GET_TEXT',
        label: 'Welcome',
        selectorValue: '#welcome',
        isValidated: true,
      });
      // Relations a flow keeps beside its rows: a table with columns, masks, an answer saved for next time.
      await add({
        extractorId: original.id,
        sequence: 60,
        type: 'GET_TABLE',
        getTable: {
          create: {
            name: 'Rows',
            tableSelector: '#t',
            rowSelector: '#t tr',
            columns: { create: [{ sequence: 0, label: 'Name', selector: 'td:nth-child(1)', type: 'TEXT' }] },
          },
        },
        isValidated: true,
      });
      await add({
        extractorId: original.id,
        sequence: 70,
        type: 'GET_NUMBER',
        selectorValue: '#n',
        numberMask: { create: { beforePositive: '$', decimalSeparator: ',', groupSeparator: '.' } },
      });
      await add({
        extractorId: original.id,
        sequence: 80,
        type: 'GET_DATE',
        selectorValue: '#d',
        dateMask: { create: { mask: 'dd/MM/yyyy' } },
      });
      const asked = await add({
        extractorId: original.id,
        sequence: 90,
        type: 'ASK_CODE',
        selectorValue: '#c',
        saveOptionsFlag: true,
      });
      const savedAnswer = box.seal('123456', actionSecretContext(owner.id, asked.id));
      await prisma.savedSecret.create({
        data: {
          userId: owner.id,
          actionId: asked.id,
          ciphertext: new Uint8Array(savedAnswer.ciphertext),
          iv: new Uint8Array(savedAnswer.iv),
          authTag: new Uint8Array(savedAnswer.authTag),
        },
      });

      const copied = await copy(owner.token, original.id).expect(201);
      expect(copied.body).toMatchObject({
        name: 'Login flow (copy)',
        description: 'Signs in',
        extractorType: 'EXTRACTOR',
        status: null,
        viewerEmail: null,
        errorMessages: [],
        errorMessage: null,
        lastRunId: null,
      });
      const copyId = (copied.body as ExtractorListItem).id;
      expect(copyId).not.toBe(original.id);

      const include = {
        getTable: { include: { columns: true } },
        numberMask: true,
        dateMask: true,
        savedSecret: true,
      };
      const actionsOf = (extractorId: string) =>
        prisma.extractorAction.findMany({ where: { extractorId }, include, orderBy: { sequence: 'asc' } });
      const sourceRows = await actionsOf(original.id);
      const copyRows = await actionsOf(copyId);
      expect(
        copyRows.map((row) => [row.sequence, row.type, row.selectorValue, row.textValue, row.isValidated]),
      ).toEqual(
        sourceRows.map((row) => [row.sequence, row.type, row.selectorValue, row.textValue, row.isValidated]),
      );
      expect(copyRows.every((row) => !sourceRows.some((source) => source.id === row.id))).toBe(true);
      const byType = (type: string) => copyRows.find((row) => row.type === type)!;
      expect(byType('GET_TABLE').getTable).toMatchObject({ name: 'Rows', columns: [{ label: 'Name' }] });
      expect(byType('GET_NUMBER').numberMask).toMatchObject({ beforePositive: '$', decimalSeparator: ',' });
      expect(byType('GET_DATE').dateMask).toMatchObject({ mask: 'dd/MM/yyyy', timezone: 'Etc/GMT0' });
      // Secrets are sealed again for the copy's own actions: they open there, and only there.
      const copiedPassword = byType('TYPE_PASSWORD');
      const openedPassword = box.open(
        {
          ciphertext: Buffer.from(copiedPassword.secretCiphertext!),
          iv: Buffer.from(copiedPassword.secretIv!),
          authTag: Buffer.from(copiedPassword.secretAuthTag!),
        },
        actionSecretContext(owner.id, copiedPassword.id),
      );
      expect(openedPassword).toBe(FIXTURE_PASSWORD);
      const copiedAnswer = byType('ASK_CODE').savedSecret!;
      expect(
        box.open(
          {
            ciphertext: Buffer.from(copiedAnswer.ciphertext),
            iv: Buffer.from(copiedAnswer.iv),
            authTag: Buffer.from(copiedAnswer.authTag),
          },
          actionSecretContext(owner.id, byType('ASK_CODE').id),
        ),
      ).toBe('123456');
      expect(Buffer.from(copiedPassword.secretCiphertext!).equals(Buffer.from(sealed.ciphertext))).toBe(
        false,
      );

      // The copy runs on its own: the password opens for its new action. Only the login part is run.
      await prisma.extractorAction.deleteMany({ where: { extractorId: copyId, sequence: { gt: 50 } } });
      const listed = async () =>
        (
          (await api().get('/api/extractor').set(bearer(owner.token)).expect(200)).body as ExtractorListItem[]
        ).find((item) => item.id === copyId);
      expect((await listed())?.lastRunId).toBeNull();
      const execute = await api()
        .get(`/api/extractor/execute/${copyId}`)
        .set(bearer(owner.token))
        .expect(200);
      const runId = (execute.body as { runId: string }).runId;
      const run = await waitForRun(apiUrl, owner.token, runId);
      expect(run.status, JSON.stringify(run.steps.filter((step) => step.errorMessage))).toBe('SUCCESS');
      expect(run.steps.find((step) => step.label === 'Welcome')?.value).toEqual({
        kind: 'text',
        value: 'Welcome, ops-user',
      });
      // The list points at the operator's latest run; a later validation run does not replace it.
      expect((await listed())?.lastRunId).toBe(runId);
      await prisma.run.create({
        data: { extractorId: copyId, userId: owner.id, trigger: 'VALIDATION', status: 'SUCCESS' },
      });
      expect((await listed())?.lastRunId).toBe(runId);
      // The original is untouched.
      expect(await prisma.extractorAction.count({ where: { extractorId: original.id } })).toBe(9);
    } finally {
      await site.close();
    }
  });

  it('names copies "(copy)", "(copy 2)"… unique per user and type, within 128 characters', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'copy-names');
    const auth = bearer(user.accessToken);
    const start = async (name: string, extractorType = 'EXTRACTOR', viewerEmail?: string) =>
      (
        await api()
          .post('/api/extractor/start')
          .set(auth)
          .send({ name, description: 'd', extractorType, ...(viewerEmail ? { viewerEmail } : {}) })
          .expect(201)
      ).body as ExtractorListItem;
    const prices = await start('Prices');
    expect((await copy(user.accessToken, prices.id).expect(201)).body.name).toBe('Prices (copy)');
    const second = (await copy(user.accessToken, prices.id).expect(201)).body as ExtractorListItem;
    expect(second.name).toBe('Prices (copy 2)');
    // Copying a copy numbers it beside the others.
    expect((await copy(user.accessToken, second.id).expect(201)).body.name).toBe('Prices (copy 3)');
    // Names are per type: an insertor "Prices" copies to "Prices (copy)".
    const insertor = await start('Prices', 'INSERTOR');
    expect((await copy(user.accessToken, insertor.id).expect(201)).body).toMatchObject({
      name: 'Prices (copy)',
      extractorType: 'INSERTOR',
    });
    // A navigator keeps its viewer e-mail.
    const navigator = await start('Share', 'NAVIGATOR', 'viewer@example.com');
    expect((await copy(user.accessToken, navigator.id).expect(201)).body).toMatchObject({
      name: 'Share (copy)',
      viewerEmail: 'viewer@example.com',
    });
    // A full-length name is shortened so that the suffix fits.
    const long = await start('L'.repeat(128));
    const longCopy = (await copy(user.accessToken, long.id).expect(201)).body as ExtractorListItem;
    expect(longCopy.name).toBe(`${'L'.repeat(121)} (copy)`);
    expect(longCopy.name).toHaveLength(128);
    expect((await copy(user.accessToken, long.id).expect(201)).body.name).toBe(`${'L'.repeat(119)} (copy 2)`);
    const names = (await listOf(user.accessToken)).map((item) => item.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('answers 404 for another user’s item and leaves it unchanged', async () => {
    const a = await createConfirmedUser(apiUrl, mailUrl, 'copy-a');
    const b = await createConfirmedUser(apiUrl, mailUrl, 'copy-b');
    const mine = (
      await api()
        .post('/api/extractor/start')
        .set(bearer(a.accessToken))
        .send({ name: 'Private', description: 'p' })
        .expect(201)
    ).body as ExtractorListItem;
    const before = await listOf(a.accessToken);
    const refused = await copy(b.accessToken, mine.id).expect(404);
    expect(refused.body).toEqual({ message: MESSAGES['error.not.found'], code: 'NOT_FOUND' });
    await copy(b.accessToken, '00000000-0000-4000-8000-000000000000').expect(404);
    expect(await listOf(b.accessToken)).toEqual([]);
    expect(await listOf(a.accessToken)).toEqual(before);
    await api().post(`/api/extractor/copy/${mine.id}`).expect(401);
  });
});
