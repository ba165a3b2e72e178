import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PUBLIC_API_TAG, v1ExtractorSchema } from '@pagewright/shared';
import { apiKeySecurity, errorResponses } from '../../lib/error-responses.js';
import type { ExtractorV1Service } from './extractor.v1.service.js';

/** GET /api/v1/extractors (public API, issue 26). */
export const extractorV1Routes: FastifyPluginAsyncZod<{ extractors: ExtractorV1Service }> = async (
  app,
  { extractors },
) => {
  app.get('/extractors', {
    preHandler: app.requireApiKey('READ'),
    schema: {
      tags: [PUBLIC_API_TAG],
      summary: "The key owner's extractors, insertors and navigators, each with its latest run",
      security: apiKeySecurity,
      response: { 200: z.array(v1ExtractorSchema), ...errorResponses(401, 403, 429) },
    },
    handler: (request) => extractors.list(request.apiKeyUser.userId),
  });
};
