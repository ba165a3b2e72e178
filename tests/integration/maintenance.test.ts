import { describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { createPrismaClient } from '@pagewright/db';
import { purgeExpiredSessions } from '@pagewright/worker';
import { GOOD_PASSWORD, createConfirmedUser, uniqueEmail } from '../support/accounts.js';

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const DAY = 24 * 60 * 60 * 1000;

describe('worker: purge expired sessions', () => {
  it('deletes ended sessions and stale sign-ups, keeps live sessions and recent sign-ups', async () => {
    const db = createPrismaClient(inject('databaseUrl'));
    try {
      const user = await createConfirmedUser(apiUrl, mailUrl, 'purge');
      const ended = await createConfirmedUser(apiUrl, mailUrl, 'purge-ended');
      await request(apiUrl)
        .post('/api/user/logout')
        .set('Authorization', `Bearer ${ended.accessToken}`)
        .send({ refreshToken: ended.refreshToken })
        .expect(200);
      const endedUser = await db.user.findUniqueOrThrow({ where: { email: ended.username } });
      await db.refreshTokenFamily.updateMany({
        where: { userId: endedUser.id },
        data: { revokedAt: new Date(Date.now() - 30 * DAY) },
      });
      const staleEmail = uniqueEmail('stale');
      await request(apiUrl)
        .post('/api/user')
        .send({ username: staleEmail, password: GOOD_PASSWORD, firstName: 'S', lastName: 'T' })
        .expect(201);
      await db.user.update({
        where: { email: staleEmail },
        data: { createdAt: new Date(Date.now() - 10 * DAY) },
      });

      const result = await purgeExpiredSessions(db, { retentionDays: 7 }, 7);
      expect(result.refreshTokenFamilies).toBeGreaterThanOrEqual(1);
      expect(result.unconfirmedUsers).toBeGreaterThanOrEqual(1);
      expect(await db.refreshTokenFamily.count({ where: { userId: endedUser.id } })).toBe(0);
      expect(await db.user.findUnique({ where: { email: staleEmail } })).toBeNull();
      // The live session still refreshes.
      await request(apiUrl).put('/api/auth').send({ refreshToken: user.refreshToken }).expect(200);
    } finally {
      await db.$disconnect();
    }
  });
});
