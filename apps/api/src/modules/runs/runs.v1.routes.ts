import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PUBLIC_API_TAG,
  idParamSchema,
  runStepFileQuerySchema,
  v1RunFileParamSchema,
  v1RunQuerySchema,
  v1RunSchema,
} from '@pagewright/shared';
import { attachmentDisposition } from '../../lib/content-disposition.js';
import { apiKeySecurity, errorResponses } from '../../lib/error-responses.js';
import type { RunService } from './runs.service.js';
import type { RunV1Service } from './runs.v1.service.js';

const errors = errorResponses(400, 401, 403, 404, 429, 503);

/** GET /api/v1/runs/:id (with ?wait=) and the files of its steps (public API, issue 26). */
export const runV1Routes: FastifyPluginAsyncZod<{ runs: RunService; runsV1: RunV1Service }> = async (
  app,
  { runs, runsV1 },
) => {
  app.get('/runs/:id', {
    preHandler: app.requireApiKey('READ'),
    schema: {
      tags: [PUBLIC_API_TAG],
      summary: 'A run: status, steps and results (rows of each Get table, values, file links)',
      description:
        '`wait` (0–30 seconds): while the run is EXECUTING, answer only once it has ended or the wait is over (long polling). Without it the answer is immediate.',
      security: apiKeySecurity,
      params: idParamSchema,
      querystring: v1RunQuerySchema,
      response: { 200: v1RunSchema, ...errors },
    },
    handler: (request, reply) => {
      // A caller that goes away ends its wait.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      return runsV1.get(request.apiKeyUser.userId, request.params.id, request.query.wait, gone.signal);
    },
  });

  app.get('/runs/:id/steps/:sequence/file', {
    preHandler: app.requireApiKey('READ'),
    schema: {
      tags: [PUBLIC_API_TAG],
      summary:
        'The file a step kept (GET_FILE, GET_IMAGE), or with ?row=&column= the file of one FILE cell of a Get table',
      security: apiKeySecurity,
      params: v1RunFileParamSchema,
      querystring: runStepFileQuerySchema,
      produces: ['application/octet-stream'],
      response: errors,
    },
    handler: async (request, reply) => {
      const { id, sequence } = request.params;
      const { row, column } = request.query;
      const cell = row !== undefined && column !== undefined ? { row, column } : undefined;
      const file = await runs.file(request.apiKeyUser.userId, id, sequence, cell);
      return (reply as FastifyReply)
        .header('content-type', file.mimeType)
        .header('cache-control', 'private, no-store')
        .header('content-disposition', attachmentDisposition(file.name))
        .send(file.content);
    },
  });
};
