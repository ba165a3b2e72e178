import { afterAll, describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { createPrismaClient } from '@pagewright/db';
import { MESSAGES } from '@pagewright/shared';
import { createConfirmedUser } from '../support/accounts.js';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('executing an extractor whose draft was never saved (issue 10, faults 4)', () => {
  const apiUrl = inject('apiUrl');
  const db = createPrismaClient(inject('databaseUrl'));
  afterAll(() => db.$disconnect());

  it('is refused with 409 and a message saying to save it first, and starts no run', async () => {
    const user = await createConfirmedUser(apiUrl, inject('mailUrl'), 'faults-unsaved');
    // Creating an item opens its builder: a draft exists, but nothing is saved.
    const created = await request(apiUrl)
      .post('/api/extractor/start')
      .set(bearer(user.accessToken))
      .send({ name: 'Never saved', description: 'draft only' })
      .expect(201);
    const extractorId = (created.body as { id: string }).id;

    const refused = await request(apiUrl)
      .get(`/api/extractor/execute/${extractorId}`)
      .set(bearer(user.accessToken))
      .expect(409);
    expect(refused.body).toEqual({ message: MESSAGES['extractor.execute.no.actions'], code: 'CONFLICT' });
    expect(await db.run.count({ where: { extractorId } })).toBe(0);
    const extractor = await db.extractor.findUniqueOrThrow({ where: { id: extractorId } });
    expect(extractor.status).toBeNull();
  });
});
