import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiKeySchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
  idParamSchema,
  messageResponseSchema,
} from '@pagewright/shared';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import type { ApiKeyService } from './api-keys.service.js';

const errors = errorResponses(400, 401, 403, 404, 409);
const tags = ['settings'];

/** GET and POST /user/api-keys, DELETE /user/api-keys/:id: the Settings card, with the session. */
export const apiKeyRoutes: FastifyPluginAsyncZod<{ apiKeys: ApiKeyService }> = async (app, { apiKeys }) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/user/api-keys', {
    schema: {
      tags,
      summary: "The caller's API keys (never the keys themselves), newest first",
      security: bearerSecurity,
      response: { 200: z.array(apiKeySchema), ...errors },
    },
    handler: (request) => apiKeys.list(request.user.id),
  });

  app.post('/user/api-keys', {
    schema: {
      tags,
      summary: 'Create an API key for /api/v1; the answer holds the key, shown this once',
      security: bearerSecurity,
      body: createApiKeyRequestSchema,
      response: { 201: createdApiKeySchema, ...errors },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.status(201).send(await apiKeys.create(request.user.id, request.body));
    },
  });

  app.delete('/user/api-keys/:id', {
    schema: {
      tags,
      summary: 'Revoke an API key: it is refused from the next call on',
      security: bearerSecurity,
      params: idParamSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => ({ message: await apiKeys.revoke(request.user.id, request.params.id) }),
  });
};
