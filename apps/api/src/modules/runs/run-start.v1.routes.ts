import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PUBLIC_API_TAG, idParamSchema, startRunRequestSchema } from '@pagewright/shared';
import { apiKeySecurity, errorResponses } from '../../lib/error-responses.js';
import type { RunService } from './runs.service.js';

const runStartedSchema = z.object({ runId: z.string().uuid(), status: z.literal('EXECUTING') });

/** POST /api/v1/extractors/:id/runs (public API, issue 26): Execute with inputs, by an API key. */
export const runStartV1Routes: FastifyPluginAsyncZod<{ runs: RunService }> = async (app, { runs }) => {
  app.post('/extractors/:id/runs', {
    preHandler: app.requireApiKey('RUN'),
    schema: {
      tags: [PUBLIC_API_TAG],
      summary:
        'Start a run of an extractor with values for its inputs (left out: their defaults); 400 names an input of the wrong type or unknown, 409 while a run of it executes',
      description:
        'Example: `curl -X POST -H "Authorization: Bearer pw_…" -H "content-type: application/json" -d \'{"inputs":{"query":"books"}}\' https://host/api/v1/extractors/{id}/runs`',
      security: apiKeySecurity,
      params: idParamSchema,
      body: startRunRequestSchema,
      response: { 202: runStartedSchema, ...errorResponses(400, 401, 403, 404, 409, 429, 503) },
    },
    handler: async (request, reply) => {
      const started = await runs.execute(request.apiKeyUser.userId, request.params.id, request.body.inputs);
      return reply.code(202).send({ runId: started.runId, status: started.status });
    },
  });
};
