import { generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, exportJWK, type JWTPayload } from 'jose';
import { MESSAGES } from '@pagewright/shared';
import { createConfirmedUser, uniqueEmail } from '../support/accounts.js';
import { createInbox } from '../support/inbox.js';
import { startFileStack, type RunningApi, type TestStack } from '../support/stack.js';
import { withDatabase } from '../support/test-database.js';

/**
 * Remote-engine mode (issue 25, item 5) over HTTP: the F-engine's signed JWT is exchanged for a
 * normal Pagewright session. The file's stack verifies HS256 with a shared secret; more API
 * processes on the same database verify RS256 with a PEM key, ES256 from a JWKS, or have no key.
 */
const ISSUER = 'https://engine.test.example';
const AUDIENCE = 'pagewright-test';
const SECRET = randomBytes(32).toString('hex');
const secretKey = new TextEncoder().encode(SECRET);
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const otherEc = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const JWKS_KID = 'engine-key-1';
const rsaPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();

const stack: TestStack = await startFileStack({
  env: {
    LOG_LEVEL: 'info',
    FENGINE_JWT_SECRET: SECRET,
    FENGINE_JWT_ISSUER: ISSUER,
    FENGINE_JWT_AUDIENCE: AUDIENCE,
    // Every exchange here comes from 127.0.0.1.
    LOGIN_RATE_LIMIT_MAX: '1000',
  },
});
let rsaApi: RunningApi;
let jwksApi: RunningApi;
let unconfiguredApi: RunningApi;
let jwksServer: http.Server;
/** Every token a test made: none may reach a log. */
const issuedTokens: string[] = [];

beforeAll(async () => {
  const jwk = { ...(await exportJWK(ec.publicKey)), kid: JWKS_KID, alg: 'ES256', use: 'sig' };
  jwksServer = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/.well-known/jwks.json`;
  [rsaApi, jwksApi, unconfiguredApi] = await Promise.all([
    stack.startApi({ FENGINE_JWT_SECRET: '', FENGINE_JWT_PUBLIC_KEY: rsaPem }),
    stack.startApi({ FENGINE_JWT_SECRET: '', FENGINE_JWKS_URL: jwksUrl }),
    stack.startApi({ FENGINE_JWT_SECRET: '' }),
  ]);
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => jwksServer?.close(resolve));
});

interface TokenOptions {
  key?: Uint8Array | KeyObject;
  alg?: string;
  kid?: string;
  issuer?: string | null;
  audience?: string | null;
  /** Seconds from now; null leaves exp out. */
  expiresIn?: number | null;
}

async function engineToken(claims: JWTPayload, options: TokenOptions = {}): Promise<string> {
  const {
    key = secretKey,
    alg = 'HS256',
    kid,
    issuer = ISSUER,
    audience = AUDIENCE,
    expiresIn = 300,
  } = options;
  const jwt = new SignJWT(claims).setProtectedHeader(kid ? { alg, kid } : { alg }).setIssuedAt();
  if (issuer !== null) jwt.setIssuer(issuer);
  if (audience !== null) jwt.setAudience(audience);
  if (expiresIn !== null) jwt.setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn);
  const token = await jwt.sign(key);
  issuedTokens.push(token);
  return token;
}

const engineUser = (label = 'engine') => ({ sub: `engine-user-${randomUUID()}`, email: uniqueEmail(label) });

async function exchange(token: string, baseUrl = stack.apiUrl, requestId = randomUUID()) {
  issuedTokens.push(token);
  const response = await fetch(`${baseUrl}/api/auth/fengine/exchange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify({ token }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function currentUser(accessToken: string, baseUrl = stack.apiUrl) {
  const response = await fetch(`${baseUrl}/api/user/`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { id: string; username: string; firstName: string; lastName: string };
}

async function expectRefused(token: string, baseUrl = stack.apiUrl): Promise<void> {
  const answer = await exchange(token, baseUrl);
  expect(answer.status).toBe(401);
  expect(answer.body.message).toBe(MESSAGES['error.invalid.token.parameter']);
  expect(answer.body).not.toHaveProperty('accessToken');
}

const userRow = (email: string) =>
  withDatabase(stack.databaseUrl, async (client) => {
    const { rows } = await client.query<{
      id: string;
      emailConfirmedAt: Date | null;
      tempPasswordSet: boolean;
      enabled: boolean;
    }>('SELECT id, "emailConfirmedAt", "tempPasswordSet", enabled FROM "User" WHERE email = $1', [
      email.toLowerCase(),
    ]);
    return rows[0];
  });

/** The lines of an API log that name a refused engine token, of one request or of all. */
const refusalLines = (logFile = stack.apiLogFile, requestId?: string) =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes('remote-engine token refused'))
    .filter((line) => requestId === undefined || line.includes(`"reqId":"${requestId}"`));

describe('a valid engine token', () => {
  it('becomes a session whose access token reads the user and whose refresh works', async () => {
    const user = { ...engineUser(), given_name: 'Grace', family_name: 'Hopper' };
    const answer = await exchange(await engineToken(user));
    expect(answer.status).toBe(200);
    const { accessToken, refreshToken } = answer.body as { accessToken: string; refreshToken: string };
    expect(answer.body).toMatchObject({
      username: user.email.toLowerCase(),
      tempPasswordSet: false,
      enabled: true,
    });
    expect(await currentUser(accessToken)).toMatchObject({
      username: user.email.toLowerCase(),
      firstName: 'Grace',
      lastName: 'Hopper',
    });

    const refreshed = await fetch(`${stack.apiUrl}/api/auth`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { accessToken: string; refreshToken: string };
    expect(next.refreshToken).not.toBe(refreshToken);
    expect((await currentUser(next.accessToken)).username).toBe(user.email.toLowerCase());
  });

  it('creates the account confirmed, without a confirmation e-mail or a temporary password', async () => {
    const user = engineUser('created');
    expect((await exchange(await engineToken(user))).status).toBe(200);
    const row = await userRow(user.email);
    expect(row?.emailConfirmedAt).toBeInstanceOf(Date);
    expect(row?.tempPasswordSet).toBe(false);
    expect(await createInbox(stack.mailUrl).count(user.email)).toBe(0);
  });

  it('signs the same engine user in to the same account, even after its e-mail changed', async () => {
    const user = engineUser('same');
    const first = await exchange(await engineToken(user));
    const second = await exchange(await engineToken({ ...user, email: uniqueEmail('changed') }));
    expect(second.status).toBe(200);
    const firstUser = await currentUser(first.body.accessToken as string);
    const secondUser = await currentUser(second.body.accessToken as string);
    expect(secondUser.id).toBe(firstUser.id);
    expect(secondUser.username).toBe(user.email.toLowerCase());
  });

  it('links an existing account by its e-mail on first use', async () => {
    const account = await createConfirmedUser(stack.apiUrl, stack.mailUrl, 'existing');
    const own = await currentUser(account.accessToken);
    const answer = await exchange(
      await engineToken({ sub: `engine-${randomUUID()}`, email: account.username }),
    );
    expect(answer.status).toBe(200);
    expect((await currentUser(answer.body.accessToken as string)).id).toBe(own.id);
  });

  it('refuses a disabled account', async () => {
    const user = engineUser('disabled');
    expect((await exchange(await engineToken(user))).status).toBe(200);
    await withDatabase(stack.databaseUrl, (client) =>
      client.query('UPDATE "User" SET enabled = false WHERE email = $1', [user.email.toLowerCase()]),
    );
    const answer = await exchange(await engineToken(user));
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(MESSAGES['login.error.disabled']);
  });

  it("keeps working past the account's password expiry, which still holds for a password sign-in", async () => {
    const account = await createConfirmedUser(stack.apiUrl, stack.mailUrl, 'expired-password');
    await withDatabase(stack.databaseUrl, (client) =>
      client.query(`UPDATE "User" SET "passwordChangedAt" = now() - interval '400 days' WHERE email = $1`, [
        account.username.toLowerCase(),
      ]),
    );
    const answer = await exchange(
      await engineToken({ sub: `engine-${randomUUID()}`, email: account.username }),
    );
    expect(answer.status).toBe(200);
    // A route a forced password change closes (the profile itself stays open).
    const extractors = (accessToken: string) =>
      fetch(`${stack.apiUrl}/api/extractor?extractorType=NAVIGATOR`, {
        headers: { Authorization: `Bearer ${accessToken}` },
      });
    expect((await extractors(answer.body.accessToken as string)).status).toBe(200);
    expect((await extractors(account.accessToken)).status).toBe(403);
  });

  it('is accepted up to 30 s past its expiry (clock tolerance)', async () => {
    expect((await exchange(await engineToken(engineUser(), { expiresIn: -10 }))).status).toBe(200);
  });
});

describe('a refused engine token answers 401 with the invalid-token text', () => {
  it('with a tampered signature', async () => {
    const token = await engineToken(engineUser());
    const [header, payload] = token.split('.');
    const forged = await engineToken(engineUser(), { key: new TextEncoder().encode('f'.repeat(64)) });
    await expectRefused(`${header}.${payload}.${forged.split('.')[2]}`);
  });

  it('with a changed payload', async () => {
    const [header, , signature] = (await engineToken(engineUser())).split('.');
    const payload = Buffer.from(
      JSON.stringify({
        ...engineUser(),
        iss: ISSUER,
        aud: AUDIENCE,
        exp: Math.floor(Date.now() / 1000) + 300,
      }),
    ).toString('base64url');
    await expectRefused(`${header}.${payload}.${signature}`);
  });

  it('expired', async () => {
    await expectRefused(await engineToken(engineUser(), { expiresIn: -120 }));
  });

  it('without an expiry', async () => {
    await expectRefused(await engineToken(engineUser(), { expiresIn: null }));
  });

  it('for another audience', async () => {
    await expectRefused(await engineToken(engineUser(), { audience: 'another-product' }));
  });

  it('from another issuer', async () => {
    await expectRefused(await engineToken(engineUser(), { issuer: 'https://other-engine.example' }));
  });

  it('without an e-mail, with an invalid e-mail, or without a subject', async () => {
    await expectRefused(await engineToken({ sub: 'engine-user-no-email' }));
    await expectRefused(await engineToken({ sub: 'engine-user-bad-email', email: 'not an address' }));
    await expectRefused(await engineToken({ email: uniqueEmail('nosub') }));
  });

  it('with two parts, or as garbage', async () => {
    const [header, payload] = (await engineToken(engineUser())).split('.');
    await expectRefused(`${header}.${payload}`);
    await expectRefused('not-a-token');
  });

  it("with alg 'none'", async () => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = { ...engineUser(), iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 300 };
    const unsigned = `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}`;
    await expectRefused(`${unsigned}.`);
    await expectRefused(`${unsigned}.${Buffer.from('x').toString('base64url')}`);
  });

  it('logs one warning naming the reason for each refusal, and never the token', async () => {
    const requestId = randomUUID();
    const answer = await exchange(
      await engineToken(engineUser(), { audience: 'another-product' }),
      stack.apiUrl,
      requestId,
    );
    expect(answer.status).toBe(401);
    await expect.poll(() => refusalLines(stack.apiLogFile, requestId)).toHaveLength(1);
    expect(refusalLines(stack.apiLogFile, requestId)[0]).toMatch(/"level":40.*wrong audience/);
    const logs = [stack.apiLogFile, rsaApi.logFile, jwksApi.logFile, unconfiguredApi.logFile]
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    expect(logs).toContain('/api/auth/fengine/exchange');
    for (const token of issuedTokens) {
      expect(logs).not.toContain(token);
      // A real signature (not the one-letter stand-ins of the alg-none tokens) is in no log either.
      const signature = token.split('.')[2] ?? '';
      if (signature.length > 20) expect(logs).not.toContain(signature);
    }
  });
});

describe('RS256 with a PEM public key', () => {
  it('accepts a token signed with the private key', async () => {
    const answer = await exchange(
      await engineToken(engineUser(), { key: rsa.privateKey, alg: 'RS256' }),
      rsaApi.url,
    );
    expect(answer.status).toBe(200);
    await currentUser(answer.body.accessToken as string, rsaApi.url);
  });

  it('refuses HS256, even signed with the public key as the secret (algorithm confusion)', async () => {
    await expectRefused(
      await engineToken(engineUser(), { key: new TextEncoder().encode(rsaPem), alg: 'HS256' }),
      rsaApi.url,
    );
    await expectRefused(await engineToken(engineUser()), rsaApi.url);
  });

  it('refuses a token signed by another key', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await expectRefused(await engineToken(engineUser(), { key: other.privateKey, alg: 'RS256' }), rsaApi.url);
  });
});

describe('ES256 from a JWKS address', () => {
  it('accepts a token signed with the key the JWKS lists', async () => {
    const token = await engineToken(engineUser(), { key: ec.privateKey, alg: 'ES256', kid: JWKS_KID });
    expect((await exchange(token, jwksApi.url)).status).toBe(200);
  });

  it('refuses a token signed by a key the JWKS does not list', async () => {
    await expectRefused(
      await engineToken(engineUser(), { key: otherEc.privateKey, alg: 'ES256', kid: JWKS_KID }),
      jwksApi.url,
    );
    await expectRefused(
      await engineToken(engineUser(), { key: otherEc.privateKey, alg: 'ES256', kid: 'unknown-key' }),
      jwksApi.url,
    );
  });
});

describe('without any F-engine key configured', () => {
  it('refuses every token and logs that remote-engine sign-in is not configured', async () => {
    await expectRefused(await engineToken(engineUser()), unconfiguredApi.url);
    await expect
      .poll(() => refusalLines(unconfiguredApi.logFile).at(-1) ?? '')
      .toMatch(/remote-engine sign-in is not configured/);
  });
});
