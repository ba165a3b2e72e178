import request from 'supertest';

/** POST /api/extractor/start: a new extractor with its builder open; answers the extractor's id. */
export async function startExtractorBuilder(apiUrl: string, token: string, name: string): Promise<string> {
  const created = await request(apiUrl)
    .post('/api/extractor/start')
    .set({ Authorization: `Bearer ${token}` })
    .send({ name, description: `${name} flow`, extractorType: 'EXTRACTOR' })
    .expect(201);
  return (created.body as { id: string }).id;
}
