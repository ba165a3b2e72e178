import { describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { defaultUserSettings } from '@pagewright/shared';
import { createConfirmedUser } from '../support/accounts.js';

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const api = () => request(apiUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('per-user settings', () => {
  it('start from the spec defaults: every panel on but the scheduler, readOnlyEdit off, language en', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'defaults');
    const all = await api().get('/api/user/settings').set(bearer(user.accessToken)).expect(200);
    expect(all.body).toEqual(defaultUserSettings());
    expect(all.body).toMatchObject({
      showDataExtractor: 'true',
      showDataInserter: 'true',
      showNavigator: 'true',
      showDatasetAndQueries: 'true',
      showMessaging: 'true',
      showStatementRecognition: 'true',
      showScheduler: 'false',
      readOnlyEdit: 'false',
      language: 'en',
      listRefreshInterval: '5000',
      checkImageRefreshInterval: '4000',
    });
    const headless = await api().get('/api/user/settings/headless').set(bearer(user.accessToken)).expect(200);
    expect(headless.body).toEqual({ name: 'headless', value: 'true' });
  });

  it('saves a valid value and refuses invalid ones with the field named, keeping the old value', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'save');
    const auth = bearer(user.accessToken);
    await api().put('/api/user/settings/showScheduler').set(auth).send({ value: 'true' }).expect(200);
    const bad = await api()
      .put('/api/user/settings/showScheduler')
      .set(auth)
      .send({ value: 'yes' })
      .expect(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'value' });
    expect(bad.body.message).toContain('showScheduler');
    const tooFast = await api()
      .put('/api/user/settings/listRefreshInterval')
      .set(auth)
      .send({ value: '10' })
      .expect(400);
    expect(tooFast.body.field).toBe('value');
    const unknown = await api()
      .put('/api/user/settings/isAdmin')
      .set(auth)
      .send({ value: 'true' })
      .expect(404);
    expect(unknown.body).toMatchObject({ code: 'NOT_FOUND', field: 'name' });
    expect((await api().get('/api/user/settings/showScheduler').set(auth).expect(200)).body.value).toBe(
      'true',
    );
  });

  it('user B can never read or change user A’s settings', async () => {
    const a = await createConfirmedUser(apiUrl, mailUrl, 'owner-a');
    const b = await createConfirmedUser(apiUrl, mailUrl, 'owner-b');
    await api()
      .put('/api/user/settings/showScheduler')
      .set(bearer(a.accessToken))
      .send({ value: 'true' })
      .expect(200);
    await api()
      .put('/api/user/settings/readOnlyEdit')
      .set(bearer(b.accessToken))
      .send({ value: 'true' })
      .expect(200);

    expect((await api().get('/api/user/settings/showScheduler').set(bearer(b.accessToken))).body.value).toBe(
      'false',
    );
    expect((await api().get('/api/user/settings/readOnlyEdit').set(bearer(a.accessToken))).body.value).toBe(
      'false',
    );
    expect((await api().get('/api/user/').set(bearer(b.accessToken))).body.username).toBe(b.username);
    // Settings calls take no user id: there is no way to address another account's row.
    await api()
      .get(`/api/user/settings/showScheduler?userId=${a.username}`)
      .set(bearer(b.accessToken))
      .expect(200);
    await api().get('/api/user/settings').expect(401);
  });
});
