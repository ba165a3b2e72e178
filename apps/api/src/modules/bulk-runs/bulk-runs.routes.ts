import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BULK_RUN_CSV_MAX_BYTES,
  bulkRunItemPageSchema,
  bulkRunItemParamsSchema,
  bulkRunItemQuerySchema,
  bulkRunListQuerySchema,
  bulkRunListSchema,
  bulkRunParamsSchema,
  bulkRunSchema,
  createBulkRunSchema,
  idParamSchema,
} from '@pagewright/shared';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import type { BulkRunService } from './bulk-runs.service.js';

const tags = ['bulk runs'];
const errors = errorResponses(400, 401, 403, 404, 409);
/** A CSV of BULK_RUN_CSV_MAX_BYTES, JSON-escaped, fits. */
export const BULK_RUN_BODY_LIMIT = BULK_RUN_CSV_MAX_BYTES * 2;

/**
 * Bulk runs from the screens (issue 26, item 4): made from an extractor's page, followed on their
 * own page (progress, results table), failed rows retried one by one or together.
 */
export const bulkRunRoutes: FastifyPluginAsyncZod<{ bulkRuns: BulkRunService }> = async (
  app,
  { bulkRuns },
) => {
  app.addHook('onRequest', app.authenticate);

  app.post('/extractor/:id/bulk-runs', {
    bodyLimit: BULK_RUN_BODY_LIMIT,
    schema: {
      tags,
      security: bearerSecurity,
      description:
        'Runs the extractor once per input row of a CSV (a header of input names), pasted lines, or a dataset or query. Every row is checked first: one bad row refuses the whole bulk run, naming it.',
      params: idParamSchema,
      body: createBulkRunSchema,
      response: { 201: bulkRunSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await bulkRuns.create(request.user.id, request.params.id, request.body)),
  });

  app.get('/bulk-runs', {
    schema: {
      tags,
      security: bearerSecurity,
      querystring: bulkRunListQuerySchema,
      response: { 200: bulkRunListSchema, ...errors },
    },
    handler: async (request) => ({
      bulkRuns: await bulkRuns.list(request.user.id, request.query.extractorId),
    }),
  });

  app.get('/bulk-runs/:bulkRunId', {
    schema: {
      tags,
      security: bearerSecurity,
      params: bulkRunParamsSchema,
      response: { 200: bulkRunSchema, ...errors },
    },
    handler: (request) => bulkRuns.get(request.user.id, request.params.bulkRunId),
  });

  app.get('/bulk-runs/:bulkRunId/items', {
    schema: {
      tags,
      security: bearerSecurity,
      params: bulkRunParamsSchema,
      querystring: bulkRunItemQuerySchema,
      response: { 200: bulkRunItemPageSchema, ...errors },
    },
    handler: (request) => bulkRuns.items(request.user.id, request.params.bulkRunId, request.query),
  });

  app.post('/bulk-runs/:bulkRunId/retry', {
    schema: {
      tags,
      security: bearerSecurity,
      description: 'Runs every failed or stopped row again.',
      params: bulkRunParamsSchema,
      response: { 200: bulkRunSchema, ...errors },
    },
    handler: (request) => bulkRuns.retry(request.user.id, request.params.bulkRunId),
  });

  app.post('/bulk-runs/:bulkRunId/items/:position/retry', {
    schema: {
      tags,
      security: bearerSecurity,
      description: 'Runs one failed or stopped row again.',
      params: bulkRunItemParamsSchema,
      response: { 200: bulkRunSchema, ...errors },
    },
    handler: (request) => bulkRuns.retry(request.user.id, request.params.bulkRunId, request.params.position),
  });

  app.post('/bulk-runs/:bulkRunId/cancel', {
    schema: {
      tags,
      security: bearerSecurity,
      description: 'Cancels the rows not started yet; runs already going finish.',
      params: bulkRunParamsSchema,
      response: { 200: bulkRunSchema, ...errors },
    },
    handler: (request) => bulkRuns.cancel(request.user.id, request.params.bulkRunId),
  });
};
