import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { MESSAGES } from '@pagewright/shared';

/**
 * Serves the built SPA on the API's origin. Unknown GETs outside /api get index.html so client-side
 * routes (and the SPA's own not-found screen) work on reload; unknown /api paths get a JSON 404.
 */
export const spaPlugin = fp(async (app: FastifyInstance) => {
  const root = path.resolve(app.config.WEB_DIST);
  const hasSpa = existsSync(path.join(root, 'index.html'));
  if (hasSpa) {
    await app.register(fastifyStatic, { root, wildcard: false, index: false, maxAge: '1h' });
  } else {
    app.log.warn({ root }, 'no built SPA found; only /api is served');
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    if (!isApi && hasSpa && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', root);
    }
    return reply.status(404).send({ message: MESSAGES['error.not.found'], code: 'NOT_FOUND' });
  });
});
