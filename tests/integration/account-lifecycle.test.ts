import { describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { MESSAGES } from '@pagewright/shared';
import { GOOD_PASSWORD, OTHER_GOOD_PASSWORD, createConfirmedUser, uniqueEmail } from '../support/accounts.js';
import { confirmationLink, createInbox, temporaryPassword } from '../support/inbox.js';
import { withDatabase } from '../support/test-database.js';

const apiUrl = inject('apiUrl');
const api = () => request(apiUrl);
const inbox = createInbox(inject('mailUrl'));
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Moves a refresh token's rotation into the past, as if it were replayed `seconds` later. */
const ageRefreshTokenUse = (token: string, seconds: number) =>
  withDatabase(inject('databaseUrl'), (db) =>
    db.query(
      `UPDATE "RefreshToken" SET "usedAt" = "usedAt" - make_interval(secs => $2) WHERE "tokenHash" = encode(sha256($1::bytea), 'hex')`,
      [token, seconds],
    ),
  );

describe('account lifecycle over HTTP, Postgres and the SMTP catcher', () => {
  it('signs up, confirms by e-mail, rotates refresh tokens, detects replay, recovers a password and logs out', async () => {
    const username = uniqueEmail('lifecycle');

    // Sign-up sends a confirmation e-mail; signing in before confirming is refused.
    const signUp = await api()
      .post('/api/user')
      .send({ username, password: GOOD_PASSWORD, firstName: 'Grace', lastName: 'Hopper' })
      .expect(201);
    expect(signUp.body).toEqual({ message: MESSAGES['signup.check.email'] });
    const unconfirmed = await api().post('/api/auth').send({ username, password: GOOD_PASSWORD }).expect(403);
    expect(unconfirmed.body).toMatchObject({
      code: 'EMAIL_NOT_CONFIRMED',
      message: MESSAGES['login.error.not.confirmed'],
    });
    expect(
      (
        await api()
          .get(`/api/user/isEmailValid/${encodeURIComponent(username)}`)
          .expect(200)
      ).body,
    ).toBe(false);

    // The link in the e-mail confirms the account, once.
    const link = confirmationLink(await inbox.latest(username, 'Confirm'));
    expect(link.startsWith(`${apiUrl}/user/confirmation/`)).toBe(true);
    const token = link.split('/').at(-1)!;
    const confirmed = await api().get('/api/user/confirmation').query({ token }).expect(200);
    // A plain string, as the spec gives it (issue 23), not a JSON object.
    expect(confirmed.type).toBe('text/plain');
    expect(confirmed.text).toBe(MESSAGES['confirmation.success']);
    expect(confirmed.text).toContain('Success! Please try to login now.');
    const again = await api().get('/api/user/confirmation').query({ token }).expect(400);
    expect(again.body).toMatchObject({ message: MESSAGES['login.error.invalid.token'] });

    // Login answers every field of the spec's login response.
    const login = await api().post('/api/auth').send({ username, password: GOOD_PASSWORD }).expect(200);
    expect(login.body).toMatchObject({
      username,
      tempPasswordSet: false,
      enabled: true,
      daysToExpire: 90,
      viewerEmail: null,
    });
    expect(login.body.accessToken.split('.')).toHaveLength(3);
    const me = await api().get('/api/user/').set(bearer(login.body.accessToken)).expect(200);
    expect(me.body).toMatchObject({ username, firstName: 'Grace', lastName: 'Hopper' });

    // Refresh rotates: the new pair works, the old refresh token is spent.
    const first = login.body.refreshToken as string;
    const rotated = await api().put('/api/auth').send({ refreshToken: first }).expect(200);
    expect(rotated.body.username).toBe(username);
    expect(rotated.body.refreshToken).not.toBe(first);
    await api().get('/api/user/').set(bearer(rotated.body.accessToken)).expect(200);
    const second = rotated.body.refreshToken as string;

    // Presented again at once (the client lost the answer): a fresh token, the session goes on.
    const lostAnswer = await api().put('/api/auth').send({ refreshToken: first }).expect(200);
    expect(lostAnswer.body.refreshToken).not.toBe(second);

    // Replayed later (a copied token): refused, and the whole family is revoked, newest tokens too.
    await ageRefreshTokenUse(first, 60);
    const replay = await api().put('/api/auth').send({ refreshToken: first }).expect(401);
    expect(replay.body).toMatchObject({
      code: 'SESSION_EXPIRED',
      message: MESSAGES['login.error.session.expired'],
    });
    await api().put('/api/auth').send({ refreshToken: second }).expect(401);
    await api().put('/api/auth').send({ refreshToken: lostAnswer.body.refreshToken }).expect(401);

    // Forgot password e-mails a temporary password; the old password keeps working until it is used.
    const forgot = await api().put('/api/user/forgot').send({ username }).expect(200);
    expect(forgot.body).toEqual({ message: MESSAGES['forgot.check.email'] });
    const temporary = temporaryPassword(await inbox.latest(username, 'temporary password'));
    const tempLogin = await api().post('/api/auth').send({ username, password: temporary }).expect(200);
    expect(tempLogin.body.tempPasswordSet).toBe(true);
    const tempAuth = bearer(tempLogin.body.accessToken);

    // Until the password is changed, only the change-password calls are open.
    const blocked = await api()
      .put('/api/user/settings/readOnlyEdit')
      .set(tempAuth)
      .send({ value: 'true' })
      .expect(403);
    expect(blocked.body.code).toBe('PASSWORD_CHANGE_REQUIRED');
    expect((await api().get('/api/user/').set(tempAuth).expect(200)).body.tempPasswordSet).toBe(true);

    const changed = await api()
      .put('/api/user/password')
      .set(tempAuth)
      .send({ password: OTHER_GOOD_PASSWORD })
      .expect(200);
    expect(changed.body).toEqual({ message: MESSAGES['password.changed'] });
    await api().put('/api/user/settings/readOnlyEdit').set(tempAuth).send({ value: 'true' }).expect(200);
    await api().post('/api/auth').send({ username, password: GOOD_PASSWORD }).expect(401);
    await api().post('/api/auth').send({ username, password: temporary }).expect(401);
    const fresh = await api().post('/api/auth').send({ username, password: OTHER_GOOD_PASSWORD }).expect(200);
    expect(fresh.body.tempPasswordSet).toBe(false);

    // Logout ends that session: its refresh token no longer refreshes.
    await api()
      .post('/api/user/logout')
      .set(bearer(fresh.body.accessToken))
      .send({ refreshToken: fresh.body.refreshToken })
      .expect(200);
    await api().put('/api/auth').send({ refreshToken: fresh.body.refreshToken }).expect(401);
  });

  it('a password change ends the other sign-in sessions but keeps the current one', async () => {
    const laptop = await createConfirmedUser(apiUrl, inject('mailUrl'), 'sessions');
    const phone = (
      await api().post('/api/auth').send({ username: laptop.username, password: GOOD_PASSWORD }).expect(200)
    ).body;

    await api()
      .put('/api/user/password')
      .set(bearer(laptop.accessToken))
      .send({ password: OTHER_GOOD_PASSWORD })
      .expect(200);
    await api().put('/api/auth').send({ refreshToken: phone.refreshToken }).expect(401);
    await api().put('/api/auth').send({ refreshToken: laptop.refreshToken }).expect(200);
  });

  it('signs in once with a one-time login token', async () => {
    const login = await createConfirmedUser(apiUrl, inject('mailUrl'), 'token');
    const username = login.username;

    const issued = await api()
      .post('/api/user/login-token')
      .set(bearer(login.accessToken))
      .send({})
      .expect(200);
    expect(issued.body.token.length).toBeGreaterThanOrEqual(43);
    const byToken = await api().post(`/api/auth/login-token/${issued.body.token}`).expect(200);
    expect(byToken.body.username).toBe(username);
    const reused = await api().post(`/api/auth/login-token/${issued.body.token}`).expect(400);
    expect(reused.body).toMatchObject({ message: MESSAGES['login.error.invalid.token'] });
  });
});
