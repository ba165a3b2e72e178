import { describe, expect, inject, it } from 'vitest';
import request from 'supertest';

const api = () => request(inject('apiUrl'));

describe('API conventions', () => {
  it('health checks the database, Redis and the live workers', async () => {
    // A test file before this one may have killed the worker; its replacement may still be starting.
    await expect
      .poll(async () => (await api().get('/api/health').expect(200)).body as unknown, { timeout: 30_000 })
      .toMatchObject({
        status: 'ok',
        version: '0.15.1',
        checks: { database: 'ok', redis: 'ok', workers: 'ok' },
        workers: 1,
        reasons: [],
      });
  });

  it('serves OpenAPI generated from the shared contracts at /api/docs', async () => {
    const spec = await api().get('/api/docs/json').expect(200);
    expect(spec.body.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/auth',
      '/api/user/',
      '/api/user/forgot',
      '/api/user/settings/{name}',
      '/api/health',
    ]) {
      expect(Object.keys(spec.body.paths)).toContain(path);
    }
    expect(spec.body.paths['/api/auth'].post.requestBody.content['application/json'].schema.required).toEqual(
      ['username', 'password'],
    );
    await api().get('/api/docs').redirects(1).expect(200);
  });

  it('answers every error with {message, code, field?} and never a bare 500', async () => {
    const malformed = await api()
      .post('/api/auth')
      .set('content-type', 'application/json')
      .send('{"username":')
      .expect(400);
    expect(malformed.body).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(typeof malformed.body.message).toBe('string');
    const missing = await api().get('/api/no-such-call').expect(404);
    expect(missing.body).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
    const wrongType = await api()
      .post('/api/auth')
      .send({ username: 42, password: ['x'] })
      .expect(400);
    expect(wrongType.body.field).toBe('username');
  });

  it('tags every answer with a request id, keeping a caller-supplied one', async () => {
    const generated = await api().get('/api/health');
    expect(generated.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
    const supplied = await api().get('/api/health').set('x-request-id', 'trace-abc-123');
    expect(supplied.headers['x-request-id']).toBe('trace-abc-123');
  });
});
