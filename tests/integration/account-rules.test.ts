import { describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { MESSAGES } from '@pagewright/shared';
import { GOOD_PASSWORD, OTHER_GOOD_PASSWORD, createConfirmedUser, uniqueEmail } from '../support/accounts.js';
import { withDatabase } from '../support/test-database.js';

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const databaseUrl = inject('databaseUrl');
const api = () => request(apiUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const RULE = MESSAGES['signup.password.rule'];

const setUser = (email: string, assignments: string) =>
  withDatabase(databaseUrl, (db) => db.query(`UPDATE "User" SET ${assignments} WHERE email = $1`, [email]));

describe('sign-up rules and texts (data spec §5)', () => {
  const valid = () => ({
    username: uniqueEmail('rules'),
    password: GOOD_PASSWORD,
    firstName: 'Ann',
    lastName: 'Lee',
  });

  it.each([
    ['first name missing', { firstName: '  ' }, 'firstName', MESSAGES['signup.first.name.required']],
    ['last name missing', { lastName: '' }, 'lastName', MESSAGES['signup.last.name.required']],
    ['e-mail not an address', { username: 'not-an-email' }, 'username', MESSAGES['signup.email.invalid']],
    ['password too short', { password: 'ab12!cd3' }, 'password', RULE],
    ['only three digits', { password: 'abcdefg123!' }, 'password', RULE],
    ['only three letters', { password: 'abc12345!' }, 'password', RULE],
    ['no special character', { password: 'abcd12345' }, 'password', RULE],
    ['white space', { password: 'abcd 1234!' }, 'password', RULE],
    ['plus sign', { password: 'abcd1234+x' }, 'password', RULE],
  ])('refuses %s with the spec text on the field', async (_case, change, field, message) => {
    const response = await api()
      .post('/api/user')
      .send({ ...valid(), ...change })
      .expect(400);
    expect(response.body).toEqual({ message, code: 'VALIDATION_ERROR', field });
  });

  it('refuses an e-mail that already has an account, and isEmailValid says so', async () => {
    const body = valid();
    expect(
      (
        await api()
          .get(`/api/user/isEmailValid/${encodeURIComponent(body.username)}`)
          .expect(200)
      ).body,
    ).toBe(true);
    await api().post('/api/user').send(body).expect(201);
    const duplicate = await api()
      .post('/api/user')
      .send({ ...body, username: body.username.toUpperCase() })
      .expect(409);
    expect(duplicate.body).toEqual({
      message: MESSAGES['signup.email.exists'],
      code: 'EMAIL_EXISTS',
      field: 'username',
    });
    expect(
      (
        await api()
          .get(`/api/user/isEmailValid/${encodeURIComponent(body.username)}`)
          .expect(200)
      ).body,
    ).toBe(false);
    expect((await api().get('/api/user/isEmailValid/not-an-email').expect(200)).body).toBe(false);
  });
});

describe('login rules and texts (data spec §5, §8)', () => {
  it('asks for the e-mail and the password', async () => {
    const noEmail = await api().post('/api/auth').send({ username: ' ', password: 'x' }).expect(400);
    expect(noEmail.body).toMatchObject({ message: MESSAGES['login.email.required'], field: 'username' });
    const noPassword = await api().post('/api/auth').send({ username: 'a@b.co', password: '' }).expect(400);
    expect(noPassword.body).toMatchObject({
      message: MESSAGES['login.password.required'],
      field: 'password',
    });
  });

  it('answers the same for a wrong password and an unknown user', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'wrongpw');
    const wrong = await api()
      .post('/api/auth')
      .send({ username: user.username, password: 'nope1234!x' })
      .expect(401);
    const unknown = await api()
      .post('/api/auth')
      .send({ username: uniqueEmail('ghost'), password: 'nope1234!x' })
      .expect(401);
    expect(wrong.body).toEqual({ message: MESSAGES['login.error.credentials'], code: 'INVALID_CREDENTIALS' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('rate-limits repeated attempts on one account', async () => {
    const username = uniqueEmail('ratelimit');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (
          await api()
            .post('/api/auth')
            .send({ username, password: `wrong${i}` })
        ).status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    const limited = await api().post('/api/auth').send({ username, password: 'wrong' }).expect(429);
    expect(limited.body).toMatchObject({
      code: 'RATE_LIMITED',
      message: MESSAGES['login.error.too.many.attempts'],
    });
    // Another account from the same address is not locked out.
    await api()
      .post('/api/auth')
      .send({ username: uniqueEmail('other'), password: 'x' })
      .expect(401);
  });

  it('a disabled account cannot sign in, refresh, or use a token it already holds', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'disabled');
    await setUser(user.username, 'enabled = false');
    const login = await api()
      .post('/api/auth')
      .send({ username: user.username, password: user.password })
      .expect(403);
    expect(login.body).toEqual({ message: MESSAGES['login.error.disabled'], code: 'USER_DISABLED' });
    await api().get('/api/user/').set(bearer(user.accessToken)).expect(403);
    await api().put('/api/auth').send({ refreshToken: user.refreshToken }).expect(403);
  });

  it('rejects missing and forged access tokens', async () => {
    expect((await api().get('/api/user/').expect(401)).body.code).toBe('UNAUTHORIZED');
    const forged = await api().get('/api/user/').set(bearer('a.b.c')).expect(401);
    expect(forged.body).toEqual({
      message: MESSAGES['login.error.session.expired'],
      code: 'SESSION_EXPIRED',
    });
  });
});

describe('password expiry (default 90 days, warning at 14 or fewer, forced change at 0)', () => {
  it.each([
    [0, 90],
    [76, 14],
    [89, 1],
  ])('after %i days the login says %i days to expire', async (age, days) => {
    const user = await createConfirmedUser(apiUrl, mailUrl, `expiry${age}`);
    await setUser(user.username, `"passwordChangedAt" = now() - interval '${age} days'`);
    const login = await api()
      .post('/api/auth')
      .send({ username: user.username, password: user.password })
      .expect(200);
    expect(login.body.daysToExpire).toBe(days);
  });

  it('an expired password signs in with daysToExpire 0 and must be changed before anything else', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'expired');
    await setUser(user.username, `"passwordChangedAt" = now() - interval '91 days'`);
    const login = await api()
      .post('/api/auth')
      .send({ username: user.username, password: user.password })
      .expect(200);
    expect(login.body.daysToExpire).toBe(0);
    const auth = bearer(login.body.accessToken);
    const blocked = await api().post('/api/user/login-token').set(auth).send({}).expect(403);
    expect(blocked.body).toEqual({
      message: MESSAGES['password.change.required'],
      code: 'PASSWORD_CHANGE_REQUIRED',
    });
    await api().put('/api/user/password').set(auth).send({ password: OTHER_GOOD_PASSWORD }).expect(200);
    expect((await api().get('/api/user/').set(auth).expect(200)).body.daysToExpire).toBe(90);
    await api().post('/api/user/login-token').set(auth).send({}).expect(200);
  });
});

describe('forgot and change password texts (both specs §8)', () => {
  it('forgot password: invalid e-mail, unknown e-mail', async () => {
    const invalid = await api().put('/api/user/forgot').send({ username: 'nope' }).expect(400);
    expect(invalid.body).toMatchObject({ message: MESSAGES['signup.email.invalid'], field: 'username' });
    const unknown = await api()
      .put('/api/user/forgot')
      .send({ username: uniqueEmail('nobody') })
      .expect(400);
    expect(unknown.body).toMatchObject({ message: 'E-mail not found', code: 'EMAIL_NOT_FOUND' });
  });

  it('change password: 400 for a password breaking the rule, 422 for the current one', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'change');
    const auth = bearer(user.accessToken);
    const invalid = await api().put('/api/user/password').set(auth).send({ password: 'short1!' }).expect(400);
    expect(invalid.body).toMatchObject({
      message: 'The new password is not valid.',
      code: 'PASSWORD_NOT_VALID',
    });
    const same = await api()
      .put('/api/user/password')
      .set(auth)
      .send({ password: GOOD_PASSWORD })
      .expect(422);
    expect(same.body).toMatchObject({ message: MESSAGES['password.same.as.current'] });
    // A refused change leaves the old password in place.
    await api().post('/api/auth').send({ username: user.username, password: GOOD_PASSWORD }).expect(200);
  });
});
