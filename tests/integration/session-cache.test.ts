import { describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { MESSAGES } from '@pagewright/shared';
import { OTHER_GOOD_PASSWORD, createConfirmedUser } from '../support/accounts.js';
import { createInbox, temporaryPassword } from '../support/inbox.js';
import { withDatabase } from '../support/test-database.js';

/**
 * The API remembers each session's check for a few seconds (issue 27). Whatever ends a session or
 * changes what the check reads must still take effect on the very next request, however often the
 * token was just used. (Two API processes: multi-process.test.ts.)
 */
const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const databaseUrl = inject('databaseUrl');
const api = () => request(apiUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const sessionExpired = { message: MESSAGES['login.error.session.expired'], code: 'SESSION_EXPIRED' };

/** Uses the token a few times, so that its session check is remembered. */
async function warm(accessToken: string): Promise<void> {
  for (let i = 0; i < 3; i++) await api().get('/api/user/').set(bearer(accessToken)).expect(200);
}

const signInAgain = async (username: string, password: string) =>
  (await api().post('/api/auth').send({ username, password }).expect(200)).body as {
    accessToken: string;
    refreshToken: string;
  };

describe('remembered session checks end with their session', () => {
  it('refuses the access token right after logout', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'cache-logout');
    await warm(user.accessToken);
    await api()
      .post('/api/user/logout')
      .set(bearer(user.accessToken))
      .send({ refreshToken: user.refreshToken })
      .expect(200);
    const refused = await api().get('/api/user/').set(bearer(user.accessToken)).expect(401);
    expect(refused.body).toEqual(sessionExpired);
  });

  it("refuses the other sessions' tokens right after a password change, and keeps the changing one", async () => {
    const here = await createConfirmedUser(apiUrl, mailUrl, 'cache-password');
    const elsewhere = await signInAgain(here.username, here.password);
    await warm(here.accessToken);
    await warm(elsewhere.accessToken);
    await api()
      .put('/api/user/password')
      .set(bearer(here.accessToken))
      .send({ password: OTHER_GOOD_PASSWORD })
      .expect(200);
    const refused = await api().get('/api/user/').set(bearer(elsewhere.accessToken)).expect(401);
    expect(refused.body).toEqual(sessionExpired);
    await api().get('/api/user/').set(bearer(here.accessToken)).expect(200);
  });

  it('refuses a token right after an operator disables the account in SQL', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'cache-disabled');
    await warm(user.accessToken);
    await withDatabase(databaseUrl, (db) =>
      db.query('UPDATE "User" SET enabled = false WHERE email = $1', [user.username.toLowerCase()]),
    );
    const refused = await api().get('/api/user/').set(bearer(user.accessToken)).expect(403);
    expect(refused.body).toEqual({ message: MESSAGES['login.error.disabled'], code: 'USER_DISABLED' });
  });

  it('asks every session for a new password right after a sign-in with the temporary one', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'cache-temporary');
    await warm(user.accessToken);
    await api().put('/api/user/forgot').send({ username: user.username }).expect(200);
    const temporary = temporaryPassword(
      await createInbox(mailUrl).latest(user.username, 'temporary password'),
    );
    await signInAgain(user.username, temporary);
    const blocked = await api()
      .post('/api/user/login-token')
      .set(bearer(user.accessToken))
      .send({})
      .expect(403);
    expect(blocked.body).toEqual({
      message: MESSAGES['password.change.required'],
      code: 'PASSWORD_CHANGE_REQUIRED',
    });
    expect((await api().get('/api/user/').set(bearer(user.accessToken)).expect(200)).body).toMatchObject({
      tempPasswordSet: true,
    });
  });
});
