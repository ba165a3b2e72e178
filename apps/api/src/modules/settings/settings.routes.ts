import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  allSettingsResponseSchema,
  errorResponseSchema,
  settingParamSchema,
  settingResponseSchema,
  settingValueRequestSchema,
} from '@pagewright/shared';
import type { createSettingsService } from './settings.service.js';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};
const bearer = [{ bearerAuth: [] }];

/** GET /user/settings, GET and PUT /user/settings/:name. */
export const settingsRoutes: FastifyPluginAsyncZod<{
  settings: ReturnType<typeof createSettingsService>;
}> = async (app, { settings }) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/user/settings', {
    config: { allowWhilePasswordChangeRequired: true },
    schema: { tags: ['settings'], security: bearer, response: { 200: allSettingsResponseSchema, ...errors } },
    handler: (request) => settings.getAll(request.user.id),
  });

  app.get('/user/settings/:name', {
    config: { allowWhilePasswordChangeRequired: true },
    schema: {
      tags: ['settings'],
      security: bearer,
      params: settingParamSchema,
      response: { 200: settingResponseSchema, ...errors },
    },
    handler: (request) => settings.get(request.user.id, request.params.name),
  });

  app.put('/user/settings/:name', {
    schema: {
      tags: ['settings'],
      security: bearer,
      params: settingParamSchema,
      body: settingValueRequestSchema,
      response: { 200: settingResponseSchema, ...errors },
    },
    handler: (request) => settings.set(request.user.id, request.params.name, request.body.value),
  });
};
