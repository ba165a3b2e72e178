import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { MESSAGES, PASSWORD_MAX_LENGTH } from '@pagewright/shared';
import { GOOD_PASSWORD, createConfirmedUser, uniqueEmail } from '../support/accounts.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Issue 10's API hardening, tried as an attacker would: over HTTP and WebSockets against the real
 * stack. Most checks use the suite's stack; the ones that need the request log, a low e-mail limit
 * or the JWT secret use a second stack of this file's own.
 */
const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const api = () => request(apiUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

const OWN_JWT_SECRET = randomBytes(32).toString('hex');
const OWN_EMAIL_RATE_LIMIT = 5;
/** The API's default LOGIN_RATE_LIMIT_MAX, which the second stack keeps. */
const LOGIN_RATE_LIMIT = 10;
let own: TestStack;

beforeAll(async () => {
  own = await startStack({
    useBuild: process.env.PW_TEST_USE_BUILD === '1',
    env: {
      // Every request is logged at info: the log test reads what a production API writes.
      LOG_LEVEL: 'info',
      ACCOUNT_EMAIL_RATE_LIMIT_MAX: String(OWN_EMAIL_RATE_LIMIT),
      JWT_SECRET: OWN_JWT_SECRET,
      // No TRUST_PROXY: the default, nobody's forwarding headers are believed.
    },
  });
}, 240_000);

afterAll(async () => {
  await own?.stop();
});

describe('Security 1: forwarding headers count only from configured proxies', () => {
  it('still limits sign-in attempts when each one claims another X-Forwarded-For', async () => {
    const username = uniqueEmail('xff-login');
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= LOGIN_RATE_LIMIT + 2; attempt++) {
      const answer = await request(own.apiUrl)
        .post('/api/auth')
        .set('X-Forwarded-For', `203.0.113.${attempt}`)
        .send({ username, password: `wrong-${attempt}` });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, LOGIN_RATE_LIMIT)).toEqual(Array(LOGIN_RATE_LIMIT).fill(401));
    expect(statuses.slice(LOGIN_RATE_LIMIT)).toEqual([429, 429]);
  });

  it('still limits password-recovery requests when each one claims another X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= OWN_EMAIL_RATE_LIMIT + 2; attempt++) {
      const answer = await request(own.apiUrl)
        .put('/api/user/forgot')
        .set('X-Forwarded-For', `198.51.100.${attempt}`)
        .send({ username: uniqueEmail('xff-forgot') });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, OWN_EMAIL_RATE_LIMIT)).toEqual(Array(OWN_EMAIL_RATE_LIMIT).fill(400));
    expect(statuses.slice(OWN_EMAIL_RATE_LIMIT)).toEqual([429, 429]);
  });
});

describe('Security 5: strings the database cannot hold are refused by the contract', () => {
  const refusedFor = (field: string) => ({
    code: 'VALIDATION_ERROR',
    field,
    message: MESSAGES['error.unsafe.characters'],
  });

  it('answers 400 naming the field for a NUL on sign-in, sign-up, forgot-password and extractor start', async () => {
    const nulEmail = `nul\u0000${uniqueEmail('nul')}`;
    const signIn = await api().post('/api/auth').send({ username: nulEmail, password: GOOD_PASSWORD });
    expect([signIn.status, signIn.body]).toEqual([400, refusedFor('username')]);
    const nulPassword = await api()
      .post('/api/auth')
      .send({ username: uniqueEmail('nul'), password: `${GOOD_PASSWORD}\u0000` });
    expect([nulPassword.status, nulPassword.body]).toEqual([400, refusedFor('password')]);

    const signUp = await api()
      .post('/api/user')
      .send({ username: nulEmail, password: GOOD_PASSWORD, firstName: 'Nul', lastName: 'Byte' });
    expect([signUp.status, signUp.body]).toEqual([400, refusedFor('username')]);

    const forgot = await api().put('/api/user/forgot').send({ username: nulEmail });
    expect([forgot.status, forgot.body]).toEqual([400, refusedFor('username')]);

    const user = await createConfirmedUser(apiUrl, mailUrl, 'nul-extractor');
    const start = await api()
      .post('/api/extractor/start')
      .set(bearer(user.accessToken))
      .send({ name: 'Bank\u0000', description: 'Statements', extractorType: 'EXTRACTOR' });
    expect([start.status, start.body]).toEqual([400, refusedFor('name')]);
  });

  it('answers 400 naming the field for a lone UTF-16 surrogate', async () => {
    const signUp = await api()
      .post('/api/user')
      .send({
        username: uniqueEmail('surrogate'),
        password: GOOD_PASSWORD,
        firstName: 'Ada\uD800',
        lastName: 'L',
      });
    expect([signUp.status, signUp.body]).toEqual([400, refusedFor('firstName')]);

    const user = await createConfirmedUser(apiUrl, mailUrl, 'surrogate-extractor');
    const start = await api()
      .post('/api/extractor/start')
      .set(bearer(user.accessToken))
      .send({ name: 'Bank', description: '\uDC00 statements', extractorType: 'EXTRACTOR' });
    expect([start.status, start.body]).toEqual([400, refusedFor('description')]);
    // A surrogate pair (an emoji) is a character like any other.
    await api()
      .post('/api/extractor/start')
      .set(bearer(user.accessToken))
      .send({ name: 'Bank 🏦', description: 'Statements', extractorType: 'EXTRACTOR' })
      .expect(201);
  });

  it('refuses a 1 MB password before any hashing, on sign-in, sign-up and password change', async () => {
    const huge = `${GOOD_PASSWORD}${'x'.repeat(1_000_000)}`;
    const tooLong = { code: 'VALIDATION_ERROR', field: 'password', message: MESSAGES['password.too.long'] };
    const signIn = await api()
      .post('/api/auth')
      .send({ username: uniqueEmail('huge'), password: huge });
    expect([signIn.status, signIn.body]).toEqual([400, tooLong]);
    const signUp = await api()
      .post('/api/user')
      .send({ username: uniqueEmail('huge'), password: huge, firstName: 'Big', lastName: 'Word' });
    expect([signUp.status, signUp.body]).toEqual([400, tooLong]);
    const user = await createConfirmedUser(apiUrl, mailUrl, 'huge-change');
    const change = await api()
      .put('/api/user/password')
      .set(bearer(user.accessToken))
      .send({ password: huge });
    expect([change.status, change.body]).toEqual([400, tooLong]);
    // The cap itself is a password like any other.
    const longest = `${GOOD_PASSWORD}${'y'.repeat(PASSWORD_MAX_LENGTH - GOOD_PASSWORD.length)}`;
    await api()
      .put('/api/user/password')
      .set(bearer(user.accessToken))
      .send({ password: longest })
      .expect(200);
  });
});

describe('Security 9: Fastify’s own errors answer in the product’s shape', () => {
  const expectShape = (answer: request.Response, status: number, code: string, message: string) => {
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ code, message });
  };

  it('414 for a path parameter over the length limit', async () => {
    expectShape(
      await api().get(`/api/extractor/token/${'a'.repeat(200)}`),
      414,
      'URI_TOO_LONG',
      MESSAGES['error.uri.too.long'],
    );
  });

  it('400 for an address that is not valid', async () => {
    expectShape(
      await api().get('/api/extractor/token/%E0%A4%A'),
      400,
      'VALIDATION_ERROR',
      MESSAGES['error.bad.url'],
    );
  });

  it('415 for a body type the API does not read', async () => {
    expectShape(
      await api().post('/api/auth').set('Content-Type', 'application/xml').send('<auth/>'),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      MESSAGES['error.unsupported.media.type'],
    );
  });

  it('413 for a body over the limit', async () => {
    expectShape(
      await api()
        .post('/api/auth')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ username: 'x', password: 'y'.repeat(2 * 1024 * 1024) })),
      413,
      'PAYLOAD_TOO_LARGE',
      MESSAGES['error.payload.too.large'],
    );
  });

  it('400 for a body that is not JSON', async () => {
    expectShape(
      await api().post('/api/auth').set('Content-Type', 'application/json').send('{"username":'),
      400,
      'VALIDATION_ERROR',
      MESSAGES['error.malformed.body'],
    );
  });

  it('404 for an unknown API route, whatever the method', async () => {
    expectShape(await api().get('/api/nowhere'), 404, 'NOT_FOUND', MESSAGES['error.not.found']);
    expectShape(await api().delete('/api/health'), 404, 'NOT_FOUND', MESSAGES['error.not.found']);
  });
});
