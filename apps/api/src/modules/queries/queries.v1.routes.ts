import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PUBLIC_API_TAG, idParamSchema, v1RowsPageSchema, v1RowsQuerySchema } from '@pagewright/shared';
import { attachmentDisposition } from '../../lib/content-disposition.js';
import { apiKeySecurity, errorResponses } from '../../lib/error-responses.js';
import type { QueryV1Service } from './queries.v1.service.js';

const errors = errorResponses(400, 401, 403, 404, 429);

type Read = Awaited<ReturnType<QueryV1Service['datasetRows']>>;

function answer(reply: FastifyReply, read: Read) {
  if (read.format === 'json') return reply.send(read.page);
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', attachmentDisposition(read.fileName))
    .header('cache-control', 'private, no-store')
    .send(read.stream);
}

const description =
  'JSON: a page of `limit` rows (1–1000, default 100) and `nextCursor` (null on the last page); pass it ' +
  'back as `cursor` for the next page. `format=csv` streams every row from the cursor on as CSV ' +
  '(RFC 4180, a header line of column names; `limit` does not apply).';

/** GET /api/v1/datasets/:id/rows and /api/v1/queries/:id/results (public API, issue 26). */
export const queryV1Routes: FastifyPluginAsyncZod<{ rows: QueryV1Service }> = async (app, { rows }) => {
  app.get('/datasets/:id/rows', {
    preHandler: app.requireApiKey('READ'),
    schema: {
      tags: [PUBLIC_API_TAG],
      summary: "A dataset's rows as stored (every field, in row order), paged by cursor; JSON or CSV",
      description,
      security: apiKeySecurity,
      params: idParamSchema,
      querystring: v1RowsQuerySchema,
      produces: ['application/json', 'text/csv'],
      response: { 200: v1RowsPageSchema, ...errors },
    },
    handler: async (request, reply) =>
      answer(reply, await rows.datasetRows(request.apiKeyUser.userId, request.params.id, request.query)),
  });

  app.get('/queries/:id/results', {
    preHandler: app.requireApiKey('READ'),
    schema: {
      tags: [PUBLIC_API_TAG],
      summary: "A saved query's results (its columns, filters and sort), paged by cursor; JSON or CSV",
      description,
      security: apiKeySecurity,
      params: idParamSchema,
      querystring: v1RowsQuerySchema,
      produces: ['application/json', 'text/csv'],
      response: { 200: v1RowsPageSchema, ...errors },
    },
    handler: async (request, reply) =>
      answer(reply, await rows.queryResults(request.apiKeyUser.userId, request.params.id, request.query)),
  });
};
