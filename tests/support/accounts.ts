import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { confirmationLink, createInbox } from './inbox.js';

export const GOOD_PASSWORD = 'abcd1234!x';
export const OTHER_GOOD_PASSWORD = 'wxyz9876#q';

export function uniqueEmail(label = 'user'): string {
  return `${label}.${Date.now()}.${randomBytes(3).toString('hex')}@example.com`;
}

/** Signs up and confirms through the real e-mail link, then signs in; returns the login answer. */
export async function createConfirmedUser(apiUrl: string, mailUrl: string, label = 'user') {
  const username = uniqueEmail(label);
  const api = request(apiUrl);
  await api
    .post('/api/user')
    .send({ username, password: GOOD_PASSWORD, firstName: 'Ada', lastName: 'Lovelace' })
    .expect(201);
  const mail = await createInbox(mailUrl).latest(username, 'Confirm');
  const token = confirmationLink(mail).split('/').at(-1)!;
  await api.get('/api/user/confirmation').query({ token }).expect(200);
  const login = await api.post('/api/auth').send({ username, password: GOOD_PASSWORD }).expect(200);
  return {
    username,
    password: GOOD_PASSWORD,
    ...(login.body as { accessToken: string; refreshToken: string }),
  };
}

/** A confirmed, signed-in user with the id tests need to arrange rows for them. */
export interface SignedInUser {
  id: string;
  token: string;
  /** Lower-case, as stored. */
  email: string;
}

/** createConfirmedUser, plus the user's id read from the database the stack uses. */
export async function createSignedInUser(
  db: { user: { findUniqueOrThrow(args: { where: { email: string } }): Promise<{ id: string }> } },
  apiUrl: string,
  mailUrl: string,
  label: string,
): Promise<SignedInUser> {
  const account = await createConfirmedUser(apiUrl, mailUrl, label);
  const email = account.username.toLowerCase();
  const row = await db.user.findUniqueOrThrow({ where: { email } });
  return { id: row.id, token: account.accessToken, email };
}

/**
 * Signs the user in again (a fresh access token in `user.token`): for a test that outlasts the
 * 15-minute token, as a long wait on a busy machine can.
 */
export async function signInAgain(apiUrl: string, user: SignedInUser): Promise<void> {
  const login = await request(apiUrl)
    .post('/api/auth')
    .send({ username: user.email, password: GOOD_PASSWORD })
    .expect(200);
  user.token = (login.body as { accessToken: string }).accessToken;
}
