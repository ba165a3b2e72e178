import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PUBLIC_API_TAG,
  bulkRunItemPageSchema,
  bulkRunItemQuerySchema,
  bulkRunParamsSchema,
  bulkRunSchema,
  createBulkRunSchema,
  idParamSchema,
} from '@pagewright/shared';
import { apiKeySecurity, errorResponses } from '../../lib/error-responses.js';
import { BULK_RUN_BODY_LIMIT } from './bulk-runs.routes.js';
import type { BulkRunService } from './bulk-runs.service.js';

/** Bulk runs in the public API (issue 26): made and retried with a run key, read with any key. */
export const bulkRunV1Routes: FastifyPluginAsyncZod<{ bulkRuns: BulkRunService }> = async (
  app,
  { bulkRuns },
) => {
  app.post('/extractors/:id/bulk-runs', {
    preHandler: app.requireApiKey('RUN'),
    bodyLimit: BULK_RUN_BODY_LIMIT,
    schema: {
      tags: [PUBLIC_API_TAG],
      summary: 'Run an extractor over many inputs: CSV text, lines, or a dataset or query (at most 10,000)',
      description:
        'Example: `curl -X POST -H "Authorization: Bearer pw_…" -H "content-type: application/json" -d "{\\"source\\":\\"CSV\\",\\"fileName\\":\\"products.csv\\",\\"csv\\":$(jq -Rs . products.csv)}" https://host/api/v1/extractors/{id}/bulk-runs`. One row of the wrong type refuses the whole bulk run (400 naming the row and input).',
      security: apiKeySecurity,
      params: idParamSchema,
      body: createBulkRunSchema,
      response: { 201: bulkRunSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await bulkRuns.create(request.apiKeyUser.userId, request.params.id, request.body)),
  });

  app.get('/bulk-runs/:bulkRunId', {
    preHandler: app.requireApiKey('READ'),
    schema: {
      tags: [PUBLIC_API_TAG],
      summary: "A bulk run's progress: items per status",
      security: apiKeySecurity,
      params: bulkRunParamsSchema,
      response: { 200: bulkRunSchema, ...errorResponses(400, 401, 404, 429) },
    },
    handler: (request) => bulkRuns.get(request.apiKeyUser.userId, request.params.bulkRunId),
  });

  app.get('/bulk-runs/:bulkRunId/items', {
    preHandler: app.requireApiKey('READ'),
    schema: {
      tags: [PUBLIC_API_TAG],
      summary:
        "A bulk run's rows with their status and run (read each run's results at /runs/{runId}); paged by `after`",
      security: apiKeySecurity,
      params: bulkRunParamsSchema,
      querystring: bulkRunItemQuerySchema,
      response: { 200: bulkRunItemPageSchema, ...errorResponses(400, 401, 404, 429) },
    },
    handler: (request) => bulkRuns.items(request.apiKeyUser.userId, request.params.bulkRunId, request.query),
  });

  app.post('/bulk-runs/:bulkRunId/retry', {
    preHandler: app.requireApiKey('RUN'),
    schema: {
      tags: [PUBLIC_API_TAG],
      summary: 'Run every failed or stopped row of a bulk run again',
      security: apiKeySecurity,
      params: bulkRunParamsSchema,
      response: { 200: bulkRunSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
    handler: (request) => bulkRuns.retry(request.apiKeyUser.userId, request.params.bulkRunId),
  });
};
