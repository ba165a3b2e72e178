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
