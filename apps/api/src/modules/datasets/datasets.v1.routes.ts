import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PUBLIC_API_TAG, v1DatasetSchema } from '@pagewright/shared';
import { apiKeySecurity, errorResponses } from '../../lib/error-responses.js';
import type { DatasetV1Service } from './datasets.v1.service.js';

/** GET /api/v1/datasets (public API, issue 26); rows are read at /datasets/:id/rows (queries module). */
export const datasetV1Routes: FastifyPluginAsyncZod<{ datasets: DatasetV1Service }> = async (
  app,
  { datasets },
) => {
  app.get('/datasets', {
    preHandler: app.requireApiKey('READ'),
    schema: {
      tags: [PUBLIC_API_TAG],
      summary: "The key owner's datasets with their fields and row counts",
      security: apiKeySecurity,
      response: { 200: z.array(v1DatasetSchema), ...errorResponses(401, 403, 429) },
    },
    handler: (request) => datasets.list(request.apiKeyUser.userId),
  });
};
