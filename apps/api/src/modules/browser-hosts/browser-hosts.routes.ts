import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { browserTierSchema } from '@pagewright/shared';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import type { BrowserHostsService } from './browser-hosts.service.js';

const errors = errorResponses(401, 403);

/** GET /browser-hosts: the browsers each live worker uses, with their health (docs/scaling.md). */
export const browserHostRoutes: FastifyPluginAsyncZod<{ browserHosts: BrowserHostsService }> = async (
  app,
  { browserHosts },
) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/browser-hosts', {
    schema: {
      tags: ['settings'],
      summary:
        "The browser tier: each live worker's browsers (its own Chromium, browser hosts) and their state",
      security: bearerSecurity,
      response: { 200: browserTierSchema, ...errors },
    },
    handler: () => browserHosts.tier(),
  });
};
