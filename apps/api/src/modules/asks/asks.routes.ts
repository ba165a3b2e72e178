import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  pendingAskActionSchema,
  pendingAskQuerySchema,
  updatePendingAskRequestSchema,
  updatePendingAskResponseSchema,
} from '@pagewright/shared';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import type { AskService } from './asks.service.js';

const errors = errorResponses(400, 401, 403, 404);

/** The ask dialog (automation spec §7 getPendingAskActionToFill / updatePendingAskAction). */
export const askRoutes: FastifyPluginAsyncZod<{ asks: AskService }> = async (app, { asks }) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/extractor/getPendingAskActionToFill', {
    schema: {
      tags: ['asks'],
      summary: 'The oldest question a run of yours waits on (204 when none)',
      security: bearerSecurity,
      querystring: pendingAskQuerySchema,
      response: { 200: pendingAskActionSchema, 204: z.null().describe('No question is waiting'), ...errors },
    },
    handler: async (request, reply) => {
      const ask = await asks.pending(request.user.id, request.query.extractorType);
      if (!ask) return reply.code(204).send(null);
      return ask;
    },
  });

  app.post('/extractor/updatePendingAskAction', {
    schema: {
      tags: ['asks'],
      summary: 'Answer a waiting question ("CANCELED" stops the run); optionally save it for next runs',
      security: bearerSecurity,
      body: updatePendingAskRequestSchema,
      response: { 200: updatePendingAskResponseSchema, ...errors },
    },
    handler: (request) => asks.answer(request.user.id, request.body),
  });
};
