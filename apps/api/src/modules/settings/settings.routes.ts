import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  allSettingsResponseSchema,
  settingParamSchema,
  settingResponseSchema,
  settingValueRequestSchema,
} from '@pagewright/shared';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import type { createSettingsService } from './settings.service.js';

const errors = errorResponses(400, 401, 403, 404);

/** GET /user/settings, GET and PUT /user/settings/:name. */
export const settingsRoutes: FastifyPluginAsyncZod<{
  settings: ReturnType<typeof createSettingsService>;
}> = async (app, { settings }) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/user/settings', {
    config: { allowWhilePasswordChangeRequired: true },
    schema: {
      tags: ['settings'],
      security: bearerSecurity,
      response: { 200: allSettingsResponseSchema, ...errors },
    },
    handler: (request) => settings.getAll(request.user.id),
  });

  app.get('/user/settings/:name', {
    config: { allowWhilePasswordChangeRequired: true },
    schema: {
      tags: ['settings'],
      security: bearerSecurity,
      params: settingParamSchema,
      response: { 200: settingResponseSchema, ...errors },
    },
    handler: (request) => settings.get(request.user.id, request.params.name),
  });

  app.put('/user/settings/:name', {
    schema: {
      tags: ['settings'],
      security: bearerSecurity,
      params: settingParamSchema,
      body: settingValueRequestSchema,
      response: { 200: settingResponseSchema, ...errors },
    },
    handler: (request) => settings.set(request.user.id, request.params.name, request.body.value),
  });
};
