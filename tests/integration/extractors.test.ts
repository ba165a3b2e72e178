import { describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { MESSAGES } from '@pagewright/shared';
import { createConfirmedUser } from '../support/accounts.js';
import { withDatabase } from '../support/test-database.js';

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
    await api()
      .post('/api/extractor/start')
      .set(auth)
      .send({ name: 'B', description: 'b', extractorType: 'INSERTOR' })
      .expect(201);
    await withDatabase(databaseUrl, async (db) => {
      await db.query(`UPDATE "Extractor" SET status = 'ERROR' WHERE id = $1`, [a.id]);
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
    expect(list.body[0]).toMatchObject({
      id: a.id,
      status: 'ERROR',
      errorMessage: 'No Such Element: #price',
    });
    expect(list.body[0].errorMessages.map((e: { errorMessage: string }) => e.errorMessage)).toEqual([
      'No Such Element: #price',
      'older',
    ]);
    expect(
      (await api().get('/api/extractor').query({ extractorType: 'INSERTOR' }).set(auth).expect(200)).body,
    ).toHaveLength(1);

    await api().put(`/api/extractor/clearShowErrorMessage/${a.id}`).set(auth).expect(200);
    const after = await api().get('/api/extractor').set(auth).expect(200);
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
