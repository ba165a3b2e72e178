import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import WebSocket from 'ws';
import { createPrismaClient } from '@pagewright/db';
import {
  LIVE_SOCKET_CLOSE,
  MESSAGES,
  PASSWORD_MAX_LENGTH,
  type FileDownloadLink,
  type LiveEvent,
} from '@pagewright/shared';
import { GOOD_PASSWORD, OTHER_GOOD_PASSWORD, createConfirmedUser, uniqueEmail } from '../support/accounts.js';
import { statementPdf, statementValues } from '../support/statement-pdfs.js';
import { confirmationLink, createInbox } from '../support/inbox.js';
import { waitFor } from '../support/ports.js';
import { startStack, type TestStack } from '../support/stack.js';
import { withDatabase } from '../support/test-database.js';
import { resultWithin } from '../support/wait.js';

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
/** The API's default LOGIN_ADDRESS_FAILURE_MAX (the suite's stack raises it; this one keeps it). */
const LOGIN_ADDRESS_FAILURE_MAX = 30;
let own: TestStack;

beforeAll(async () => {
  own = await startStack({
    useBuild: process.env.PW_TEST_USE_BUILD === '1',
    env: {
      // Every request is logged at info: the log test reads what a production API writes.
      LOG_LEVEL: 'info',
      ACCOUNT_EMAIL_RATE_LIMIT_MAX: String(OWN_EMAIL_RATE_LIMIT),
      JWT_SECRET: OWN_JWT_SECRET,
      LOGIN_ADDRESS_FAILURE_MAX: String(LOGIN_ADDRESS_FAILURE_MAX),
      // No TRUST_PROXY: the default, nobody's forwarding headers are believed.
    },
  });
}, 240_000);

afterAll(async () => {
  await own?.stop();
});

/** What became of a WebSocket opened with this token: 'ready' when accepted, else its close code. */
function socketOutcome(baseUrl: string, token: string): Promise<'ready' | number> {
  const socket = new WebSocket(
    `${baseUrl.replace(/^http/, 'ws')}/api/ws?accessToken=${encodeURIComponent(token)}`,
  );
  return new Promise((resolve, reject) => {
    socket.on('message', (data) => {
      if ((JSON.parse(data.toString()) as LiveEvent).type !== 'ready') return;
      resolve('ready');
      socket.close();
    });
    socket.on('close', (code) => resolve(code));
    socket.on('error', reject);
  });
}

/** An HS256 JWT signed with `secret`, claims exactly as given. */
function signJwt(claims: Record<string, unknown>, secret: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

const sha256 = (value: string | Buffer) => createHash('sha256').update(value).digest('hex');

/**
 * A navigator of `email` with one finished run whose step 10 downloaded a file, and a screen-share
 * link to it, minted the way the service mints them (the builder mints them once it opens a page).
 */
async function arrangeScreenShare(databaseUrl: string, email: string): Promise<string> {
  const db = createPrismaClient(databaseUrl);
  try {
    const user = await db.user.findUniqueOrThrow({ where: { email: email.toLowerCase() } });
    const content = Buffer.from('%PDF-1.4 statement');
    const file = await db.storedFile.create({
      data: {
        userId: user.id,
        name: 'statement.pdf',
        mimeType: 'application/pdf',
        size: content.length,
        content: new Uint8Array(content),
        sha256: sha256(content),
      },
    });
    const navigator = await db.extractor.create({
      data: {
        userId: user.id,
        name: 'Statements',
        description: 'Screen Share',
        extractorType: 'NAVIGATOR',
        viewerEmail: 'viewer@example.com',
      },
    });
    const run = await db.run.create({
      data: { extractorId: navigator.id, userId: user.id, status: 'SUCCESS', trigger: 'MANUAL' },
    });
    await db.runStep.create({
      data: { runId: run.id, sequence: 10, actionType: 'GET_FILE', timestamp: new Date(), fileId: file.id },
    });
    const token = randomBytes(32).toString('base64url');
    await db.screenShareToken.create({
      data: {
        extractorId: navigator.id,
        runId: run.id,
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    return token;
  } finally {
    await db.$disconnect();
  }
}

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

describe('Security 2: the API log holds no secret', () => {
  it('after sign-up, confirmation, sign-in, refresh, WebSocket, login token, screen share and file download', async () => {
    const ownApi = () => request(own.apiUrl);
    const username = uniqueEmail('log');
    await ownApi()
      .post('/api/user')
      .send({ username, password: GOOD_PASSWORD, firstName: 'Log', lastName: 'Reader' })
      .expect(201);
    const link = confirmationLink(await createInbox(own.mailUrl).latest(username, 'Confirm'));
    const confirmationToken = link.split('/').at(-1)!;
    // The e-mailed link opens the SPA's page, which confirms through the API.
    await ownApi().get(`/user/confirmation/${confirmationToken}`);
    await ownApi().get('/api/user/confirmation').query({ token: confirmationToken }).expect(200);

    const login = (await ownApi().post('/api/auth').send({ username, password: GOOD_PASSWORD }).expect(200))
      .body as { accessToken: string; refreshToken: string };
    const refreshed = (await ownApi().put('/api/auth').send({ refreshToken: login.refreshToken }).expect(200))
      .body as { accessToken: string; refreshToken: string };
    expect(await socketOutcome(own.apiUrl, refreshed.accessToken)).toBe('ready');

    const loginToken = (
      await ownApi().post('/api/user/login-token').set(bearer(refreshed.accessToken)).send({}).expect(200)
    ).body.token as string;
    const byLoginToken = (await ownApi().post(`/api/auth/login-token/${loginToken}`).expect(200)).body as {
      accessToken: string;
      refreshToken: string;
    };

    const shareToken = await arrangeScreenShare(own.databaseUrl, username);
    await ownApi().get(`/screen-share/${shareToken}`);
    await ownApi().get(`/api/extractor/token/${shareToken}`).expect(200);
    const download = (await ownApi().get(`/api/extractor/token/${shareToken}/step/10/file`).expect(200))
      .body as FileDownloadLink;
    await ownApi().get(download.url);
    await ownApi().get(`/api${download.url}`).expect(200);

    const cookie = randomBytes(16).toString('hex');
    await ownApi()
      .get('/api/user/')
      .set(bearer(refreshed.accessToken))
      .set('Cookie', `sid=${cookie}`)
      .expect(200);
    await ownApi()
      .post('/api/user/logout')
      .set(bearer(byLoginToken.accessToken))
      .send({ refreshToken: byLoginToken.refreshToken })
      .expect(200);

    const lastRequest = `log-check-${randomBytes(4).toString('hex')}`;
    await ownApi().get('/api/user/isEmailValid/last%40example.com').set('x-request-id', lastRequest);
    const log = await waitFor(async () => {
      const text = readFileSync(own.apiLogFile, 'utf8');
      return text.includes(lastRequest) ? text : undefined;
    }, 'the last request in the API log');

    // The requests were logged, with their secrets replaced.
    expect(log).toContain('"/api/extractor/token/[redacted]/step/10/file"');
    expect(log).toContain('"/api/ws?accessToken=[redacted]"');
    const secrets = {
      password: GOOD_PASSWORD,
      confirmationToken,
      accessToken: login.accessToken,
      refreshToken: login.refreshToken,
      rotatedAccessToken: refreshed.accessToken,
      rotatedRefreshToken: refreshed.refreshToken,
      loginToken,
      loginTokenAccessToken: byLoginToken.accessToken,
      loginTokenRefreshToken: byLoginToken.refreshToken,
      shareToken,
      fileToken: download.token,
      cookie,
    };
    const workerLog = readFileSync(own.worker.logFile, 'utf8');
    for (const [name, secret] of Object.entries(secrets)) {
      expect(log.includes(secret), `${name} in api.log`).toBe(false);
      expect(workerLog.includes(secret), `${name} in worker.log`).toBe(false);
    }
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

describe('Security 6: a session that ended stops working at once', () => {
  it('refuses the access token of a logged-out session, over HTTP and on the WebSocket', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'logout');
    await api().get('/api/user/').set(bearer(user.accessToken)).expect(200);
    expect(await socketOutcome(apiUrl, user.accessToken)).toBe('ready');

    await api()
      .post('/api/user/logout')
      .set(bearer(user.accessToken))
      .send({ refreshToken: user.refreshToken })
      .expect(200);

    const after = await api().get('/api/user/').set(bearer(user.accessToken)).expect(401);
    expect(after.body).toMatchObject({ code: 'SESSION_EXPIRED' });
    expect(await socketOutcome(apiUrl, user.accessToken)).toBe(LIVE_SOCKET_CLOSE.unauthorized);
    await api().put('/api/auth').send({ refreshToken: user.refreshToken }).expect(401);
  });

  it('closes a WebSocket opened before the logout within a heartbeat', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'logout-open-socket');
    const socket = new WebSocket(
      `${apiUrl.replace(/^http/, 'ws')}/api/ws?accessToken=${encodeURIComponent(user.accessToken)}`,
    );
    await new Promise<void>((resolve, reject) => {
      socket.on('message', () => resolve());
      socket.on('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));

    await api()
      .post('/api/user/logout')
      .set(bearer(user.accessToken))
      .send({ refreshToken: user.refreshToken })
      .expect(200);
    // The test stack beats every 5 s (LIVE_SOCKET_HEARTBEAT_SECONDS); production every 30 s.
    const code = await resultWithin(closed, 15_000, 'open');
    socket.terminate();
    expect(code).toBe(LIVE_SOCKET_CLOSE.unauthorized);
  });

  it('logs out only with the caller’s own refresh token', async () => {
    const a = await createConfirmedUser(apiUrl, mailUrl, 'logout-a');
    const b = await createConfirmedUser(apiUrl, mailUrl, 'logout-b');
    const refused = await api()
      .post('/api/user/logout')
      .set(bearer(a.accessToken))
      .send({ refreshToken: b.refreshToken })
      .expect(400);
    expect(refused.body).toEqual({
      code: 'INVALID_TOKEN',
      field: 'refreshToken',
      message: MESSAGES['login.error.invalid.token'],
    });
    await api().post('/api/user/logout').send({ refreshToken: b.refreshToken }).expect(401);

    await api().get('/api/user/').set(bearer(b.accessToken)).expect(200);
    await api().put('/api/auth').send({ refreshToken: b.refreshToken }).expect(200);
    await api().get('/api/user/').set(bearer(a.accessToken)).expect(200);
  });

  it('logs out with an expired access token of the same user (a tab left open)', async () => {
    const user = await createConfirmedUser(own.apiUrl, own.mailUrl, 'logout-expired');
    const now = Math.floor(Date.now() / 1000);
    const expired = signJwt(
      { ...claimsOf(user.accessToken), iat: now - 3600, exp: now - 60 },
      OWN_JWT_SECRET,
    );
    await request(own.apiUrl).get('/api/user/').set(bearer(expired)).expect(401);
    await request(own.apiUrl)
      .post('/api/user/logout')
      .set(bearer(expired))
      .send({ refreshToken: user.refreshToken })
      .expect(200);
    await request(own.apiUrl).put('/api/auth').send({ refreshToken: user.refreshToken }).expect(401);
  });

  it('refuses an access token without an expiry, even signed with the right secret', async () => {
    const user = await createConfirmedUser(own.apiUrl, own.mailUrl, 'no-exp');
    const { exp, ...claims } = claimsOf(user.accessToken);
    expect(typeof exp).toBe('number');
    // The same claims re-signed with an expiry are accepted: only the missing exp differs below.
    const withExp = signJwt({ ...claims, exp }, OWN_JWT_SECRET);
    await request(own.apiUrl).get('/api/user/').set(bearer(withExp)).expect(200);
    const forever = signJwt(claims, OWN_JWT_SECRET);
    await request(own.apiUrl).get('/api/user/').set(bearer(forever)).expect(401);
    expect(await socketOutcome(own.apiUrl, forever)).toBe(LIVE_SOCKET_CLOSE.unauthorized);
  });
});

describe('Builder state 5: a password change ends the other sessions in the same transaction', () => {
  it('keeps the changing session and ends every other one', async () => {
    const here = await createConfirmedUser(apiUrl, mailUrl, 'change-password');
    const elsewhere = (
      await api().post('/api/auth').send({ username: here.username, password: here.password }).expect(200)
    ).body as { accessToken: string; refreshToken: string };

    await api()
      .put('/api/user/password')
      .set(bearer(here.accessToken))
      .send({ password: OTHER_GOOD_PASSWORD })
      .expect(200);

    await api().put('/api/auth').send({ refreshToken: elsewhere.refreshToken }).expect(401);
    await api().get('/api/user/').set(bearer(elsewhere.accessToken)).expect(401);
    await api().get('/api/user/').set(bearer(here.accessToken)).expect(200);
    await api().put('/api/auth').send({ refreshToken: here.refreshToken }).expect(200);
  });

  it('leaves the old password in place when the other sessions cannot be ended', async () => {
    const ownApi = () => request(own.apiUrl);
    const here = await createConfirmedUser(own.apiUrl, own.mailUrl, 'change-atomic');
    await ownApi().post('/api/auth').send({ username: here.username, password: here.password }).expect(200);
    // A fault in the second half of the change: ending this user's other sessions fails.
    const trigger = `refuse_${randomBytes(4).toString('hex')}`;
    await withDatabase(own.databaseUrl, async (db) => {
      const { rows } = await db.query<{ id: string }>(`SELECT id FROM "User" WHERE email = $1`, [
        here.username.toLowerCase(),
      ]);
      await db.query(
        `CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$`,
      );
      await db.query(
        `CREATE TRIGGER ${trigger} BEFORE UPDATE ON "RefreshTokenFamily" FOR EACH ROW
         WHEN (OLD."userId" = '${rows[0]!.id}'::uuid) EXECUTE FUNCTION ${trigger}()`,
      );
    });
    try {
      await ownApi()
        .put('/api/user/password')
        .set(bearer(here.accessToken))
        .send({ password: OTHER_GOOD_PASSWORD })
        .expect(500);
    } finally {
      await withDatabase(own.databaseUrl, async (db) => {
        await db.query(`DROP TRIGGER ${trigger} ON "RefreshTokenFamily"`);
        await db.query(`DROP FUNCTION ${trigger}()`);
      });
    }
    await ownApi()
      .post('/api/auth')
      .send({ username: here.username, password: OTHER_GOOD_PASSWORD })
      .expect(401);
    await ownApi().post('/api/auth').send({ username: here.username, password: here.password }).expect(200);
  });
});

describe('Security 7: browser headers on the SPA, the API and the API docs', () => {
  it.each(['/', '/login', '/api/health', '/api/docs', '/api/docs/json', '/api/nowhere'])(
    '%s carries CSP, frame, sniffing and referrer protection',
    async (path) => {
      const answer = await api().get(path);
      const csp = answer.headers['content-security-policy'] ?? '';
      const directives = Object.fromEntries(
        csp.split(';').map((d: string) => {
          const [name = '', ...values] = d.trim().split(/\s+/);
          return [name, values.join(' ')];
        }),
      );
      expect(directives['default-src']).toBe("'self'");
      expect(directives['frame-ancestors']).toBe("'none'");
      expect(directives['script-src']).toBe("'self'");
      expect(directives['style-src']).toBe("'self' 'unsafe-inline'");
      expect(directives['img-src']).toBe("'self' data: blob:");
      expect(directives['connect-src']).toContain("'self'");
      expect(directives['object-src']).toBe("'none'");
      expect(directives).not.toHaveProperty('upgrade-insecure-requests');
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    },
  );

  it('serves a release-note PDF without the page policy, so the browser’s PDF viewer may show it', async () => {
    const answer = await api().get('/help/extractor-release-notes.pdf').expect(200);
    expect(answer.headers['content-type']).toMatch(/^application\/pdf/u);
    expect(answer.headers).not.toHaveProperty('content-security-policy');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-frame-options']).toBe('DENY');
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
    // Declared, not sent: the API refuses on the length alone (sending 2 MB races its answer).
    const answer = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const outgoing = http.request(`${apiUrl}/api/auth`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': 2 * 1024 * 1024 },
      });
      outgoing.on('response', (incoming) => {
        let text = '';
        incoming.on('data', (chunk: Buffer) => (text += chunk.toString()));
        incoming.on('end', () => {
          resolve({ status: incoming.statusCode ?? 0, body: JSON.parse(text) });
          outgoing.destroy();
        });
      });
      outgoing.on('error', reject);
      outgoing.flushHeaders();
    });
    expect(answer).toEqual({
      status: 413,
      body: { code: 'PAYLOAD_TOO_LARGE', message: MESSAGES['error.payload.too.large'] },
    });
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

/**
 * A JSON POST to the second stack sent from `localAddress`: every 127.x.y.z address is this
 * machine, so a test can be a client address of its own, counted apart from every other test's
 * 127.0.0.1 (sign-ups there are already at this stack's low e-mail limit).
 */
function postFrom(
  localAddress: string,
  path: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      `${own.apiUrl}${path}`,
      {
        method: 'POST',
        localAddress,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(payload)),
        },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: answer.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
        answer.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

const signInFrom = (localAddress: string, username: string, password: string, headers = {}) =>
  postFrom(localAddress, '/api/auth', { username, password }, headers);

/** A confirmed account of the second stack, signed up and signed in from `localAddress`. */
async function confirmedUserFrom(localAddress: string, label: string) {
  const username = uniqueEmail(label);
  const signUp = await postFrom(localAddress, '/api/user', {
    username,
    password: GOOD_PASSWORD,
    firstName: 'Ada',
    lastName: 'Lovelace',
  });
  expect(signUp.status, JSON.stringify(signUp.body)).toBe(201);
  const token = confirmationLink(await createInbox(own.mailUrl).latest(username, 'Confirm'))
    .split('/')
    .at(-1)!;
  await request(own.apiUrl).get('/api/user/confirmation').query({ token }).expect(200);
  const signIn = await signInFrom(localAddress, username, GOOD_PASSWORD);
  expect(signIn.status).toBe(200);
  return {
    username,
    password: GOOD_PASSWORD,
    accessToken: (signIn.body as { accessToken: string }).accessToken,
  };
}

describe('Issue 24, 10: password spraying meets a ceiling per address across accounts', () => {
  it(`answers 429 once one address failed ${LOGIN_ADDRESS_FAILURE_MAX} sign-ins, whatever the accounts`, async () => {
    const victim = await confirmedUserFrom('127.0.24.2', 'spray-victim');
    const sprayer = '127.0.24.1';
    const statuses: number[] = [];
    for (let account = 1; account <= LOGIN_ADDRESS_FAILURE_MAX + 10; account++) {
      statuses.push((await signInFrom(sprayer, uniqueEmail(`spray-${account}`), 'Spring2026!!')).status);
    }
    expect(statuses.slice(0, LOGIN_ADDRESS_FAILURE_MAX)).toEqual(Array(LOGIN_ADDRESS_FAILURE_MAX).fill(401));
    expect(statuses.slice(LOGIN_ADDRESS_FAILURE_MAX)).toEqual(Array(10).fill(429));

    // The right password from the spraying address is refused too: the answer tells no guess apart.
    expect(await signInFrom(sprayer, victim.username, victim.password)).toEqual({
      status: 429,
      body: { code: 'RATE_LIMITED', message: MESSAGES['login.error.too.many.attempts'] },
    });
    // Another address is not held back, nor is the account.
    expect((await signInFrom('127.0.24.2', victim.username, victim.password)).status).toBe(200);
  });

  it('counts the connection’s peer, whatever X-Forwarded-For claims (no TRUST_PROXY)', async () => {
    const statuses: number[] = [];
    for (let account = 1; account <= LOGIN_ADDRESS_FAILURE_MAX + 1; account++) {
      const forwarded = { 'x-forwarded-for': `198.51.100.${account}` };
      statuses.push(
        (await signInFrom('127.0.24.3', uniqueEmail(`xff-spray-${account}`), 'Spring2026!!', forwarded))
          .status,
      );
    }
    expect(statuses.at(-2)).toBe(401);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('Issue 24, 13: signed template-image addresses reach the API log without their signature', () => {
  it('logs GET .../image/uuid/:imageUuid with signature=[redacted]', async () => {
    const ownApi = () => request(own.apiUrl);
    const user = await confirmedUserFrom('127.0.24.4', 'signed-image');
    const template = (
      await ownApi()
        .put('/api/statement-recognition-template/')
        .set(bearer(user.accessToken))
        .send({ templateName: 'Signed' })
        .expect(200)
    ).body as { id: string };
    await ownApi()
      .post(`/api/statement-recognition-template/upload-pdf/${template.id}`)
      .set(bearer(user.accessToken))
      .attach('file', Buffer.from(await statementPdf(statementValues(0))), 'sample.pdf')
      .expect(202);
    const image = await waitFor(
      async () => {
        const listed = (
          await ownApi()
            .get(`/api/statement-recognition-template/images/template/${template.id}`)
            .set(bearer(user.accessToken))
            .expect(200)
        ).body as { url: string }[];
        return listed[0];
      },
      'a rendered page image',
      60_000,
    );
    const signature = new URL(image.url, own.apiUrl).searchParams.get('signature') ?? '';
    expect(signature.length).toBeGreaterThan(10);
    const marker = `signed-image-${randomBytes(4).toString('hex')}`;
    await ownApi().get(image.url).set('x-request-id', marker).expect(200);

    const logged = await waitFor(async () => {
      const lines = readFileSync(own.apiLogFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes(marker) && line.includes('/image/uuid/'));
      return lines.length > 0 ? lines.join('\n') : undefined;
    }, 'the image request in the API log');
    expect(logged).toContain('signature=[redacted]');
    expect(readFileSync(own.apiLogFile, 'utf8').includes(signature), 'signature in api.log').toBe(false);
  });
});

describe('Issue 24, 15: single-line names and subjects refuse line breaks', () => {
  const refused = (field: string, message: string) => ({ code: 'VALIDATION_ERROR', field, message });
  const nameRefused = (field: string) => refused(field, MESSAGES['error.name.line.break']);

  it('answers 400 naming the field for CR or LF in the names of extractors, datasets, queries, schedulers, templates and people', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'line-breaks');
    const as = bearer(user.accessToken);
    const description = 'One line';

    const extractor = await api()
      .post('/api/extractor/start')
      .set(as)
      .send({ name: 'Bank\r\nBcc: x@example.com', description, extractorType: 'EXTRACTOR' });
    expect([extractor.status, extractor.body]).toEqual([400, nameRefused('name')]);

    const dataset = await api()
      .post('/api/dataset/createdataset')
      .set(as)
      .send({ name: 'Sales\nQ1', description });
    expect([dataset.status, dataset.body]).toEqual([400, nameRefused('name')]);

    const query = await api().post('/api/query/createquery').set(as).send({ name: 'Top\rten', description });
    expect([query.status, query.body]).toEqual([400, nameRefused('name')]);

    const scheduler = await api()
      .put('/api/extractor/scheduler/')
      .set(as)
      .send({
        name: 'Night\nly',
        description,
        extractorIds: [randomUUID()],
        scheduleType: 'MINUTE_INTERVAL',
        minuteInterval: 5,
      });
    expect([scheduler.status, scheduler.body]).toEqual([400, nameRefused('name')]);

    const template = await api()
      .put('/api/statement-recognition-template/')
      .set(as)
      .send({ templateName: 'KYC\u2028form' });
    expect([template.status, template.body]).toEqual([400, nameRefused('templateName')]);

    const signUp = await api()
      .post('/api/user')
      .send({
        username: uniqueEmail('line-break'),
        password: GOOD_PASSWORD,
        firstName: 'Ada\nX',
        lastName: 'L',
      });
    expect([signUp.status, signUp.body]).toEqual([400, nameRefused('firstName')]);

    // A line break at either end is trimmed away like other white space: the name is one line.
    await api()
      .post('/api/extractor/start')
      .set(as)
      .send({ name: '\r\nBank\n', description, extractorType: 'EXTRACTOR' })
      .expect(201);
  });

  it('answers 400 for a message subject with CR or LF', async () => {
    const sender = await createConfirmedUser(apiUrl, mailUrl, 'subject-sender');
    const recipient = uniqueEmail('subject-recipient');
    for (const subject of ['Hello\r\nBcc: victim@example.com', 'Hello\nworld', 'Hello\rworld']) {
      const answer = await api()
        .post('/api/message/add')
        .set(bearer(sender.accessToken))
        .send({ to: recipient, subject, body: 'Body' });
      expect([answer.status, answer.body]).toEqual([
        400,
        refused('subject', MESSAGES['message.subject.line.break']),
      ]);
    }
  });
});
