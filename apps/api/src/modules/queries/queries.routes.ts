import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGES,
  chooseQueryDatasetRequestSchema,
  createQueryRequestSchema,
  createQueryResponseSchema,
  exportQueryQuerySchema,
  extractorActionDataQuerySchema,
  idParamSchema,
  messageResponseSchema,
  queryDatasetSchema,
  queryDtoSchema,
  queryEditResponseSchema,
  queryFieldStepResponseSchema,
  queryFileResponseSchema,
  queryFilterListRequestSchema,
  queryFilterListResponseSchema,
  queryFilterRequestSchema,
  queryFilterStepResponseSchema,
  queryIdQuerySchema,
  queryOperatorSchema,
  queryResultPageSchema,
  queryResultSchema,
  removeQueryFieldQuerySchema,
  removeQueryFieldResponseSchema,
  renameQueryRequestSchema,
  saveQueryResponseSchema,
  selectQueryFieldsRequestSchema,
} from '@pagewright/shared';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import type { QueryService } from './queries.service.js';
import type { QueryResultService } from './query-results.service.js';
import { attachmentDisposition } from '../../lib/content-disposition.js';

const errors = errorResponses(400, 401, 404, 409);
const tags = ['query'];
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function sendWorkbook(
  reply: FastifyReply,
  exported: { fileName: string; totalOfRows: number; stream: Readable },
) {
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', attachmentDisposition(exported.fileName))
    .header('cache-control', 'private, no-store')
    .header('x-total-rows', String(exported.totalOfRows))
    .send(exported.stream);
}

/** The /query calls (data spec §7): the wizard on the caller's draft, results, export, list, rename, delete. */
export const queryRoutes: FastifyPluginAsyncZod<{
  queries: QueryService;
  results: QueryResultService;
}> = async (app, { queries, results }) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/query/querydashboard', {
    schema: {
      tags,
      summary: "The caller's queries for the dashboard panel",
      security: bearerSecurity,
      response: { 200: z.array(queryDtoSchema), ...errors },
    },
    handler: (request) => queries.dashboard(request.user.id),
  });

  app.post('/query/createquery', {
    schema: {
      tags,
      summary: 'Open the wizard on a new query (nothing is stored before save; 409 on a used name)',
      security: bearerSecurity,
      body: createQueryRequestSchema,
      response: { 201: createQueryResponseSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await queries.create(request.user.id, request.body)),
  });

  app.get('/query/datasetquery', {
    schema: {
      tags,
      summary: "Step 1: the caller's datasets, each with whether it holds rows yet",
      security: bearerSecurity,
      response: { 200: z.array(queryDatasetSchema), ...errors },
    },
    handler: (request) => queries.datasets(request.user.id),
  });

  app.post('/query/dataset', {
    schema: {
      tags,
      summary: "Step 1 → 2: the draft's dataset (another one clears the chosen fields and filters)",
      security: bearerSecurity,
      body: chooseQueryDatasetRequestSchema,
      response: { 200: queryDatasetSchema, ...errors },
    },
    handler: (request) => queries.chooseDataset(request.user.id, request.body.datasetId),
  });

  app.post('/query/datasetfieldquery', {
    schema: {
      tags,
      summary: "Step 2: the dataset's fields and the draft's chosen ones",
      security: bearerSecurity,
      response: { 200: queryFieldStepResponseSchema, ...errors },
    },
    handler: (request) => queries.fieldStep(request.user.id),
  });

  app.post('/query/fieldselected', {
    schema: {
      tags,
      summary: 'Step 2 → 3: the chosen fields in column order, with order type and sequence',
      security: bearerSecurity,
      body: selectQueryFieldsRequestSchema,
      response: { 200: queryFieldStepResponseSchema, ...errors },
    },
    handler: (request) => queries.selectFields(request.user.id, request.body),
  });

  app.post('/query/datasetfieldqueryForFilter', {
    schema: {
      tags,
      summary: "Step 3: the fields that can be filtered and the draft's filters",
      security: bearerSecurity,
      response: { 200: queryFilterStepResponseSchema, ...errors },
    },
    handler: (request) => queries.filterStep(request.user.id),
  });

  app.get('/query/datasetoperator', {
    schema: {
      tags,
      summary: 'The filter operators (ids 1–28), with the field types each applies to',
      security: bearerSecurity,
      response: { 200: z.array(queryOperatorSchema), ...errors },
    },
    handler: () => queries.operators(),
  });

  app.post('/query/fieldoperatorinputvalue', {
    schema: {
      tags,
      summary: 'Add a filter to the draft (or, with its id, change it)',
      security: bearerSecurity,
      body: queryFilterRequestSchema,
      response: { 200: queryFilterListResponseSchema, ...errors },
    },
    handler: (request) => queries.putFilter(request.user.id, request.body),
  });

  app.post('/query/filterinputvalue', {
    schema: {
      tags,
      summary: "Step 3 → 4: the draft's whole filter list",
      security: bearerSecurity,
      body: queryFilterListRequestSchema,
      response: { 200: queryFilterListResponseSchema, ...errors },
    },
    handler: (request) => queries.setFilters(request.user.id, request.body.filters),
  });

  app.delete('/query/removefield', {
    schema: {
      tags,
      summary: 'Remove a chosen field or a filter from the draft',
      security: bearerSecurity,
      querystring: removeQueryFieldQuerySchema,
      response: { 200: removeQueryFieldResponseSchema, ...errors },
    },
    handler: (request) => queries.remove(request.user.id, request.query),
  });

  app.get('/query/showqueryresult', {
    schema: {
      tags,
      summary: "Step 4: a page of the draft's result (page from 0) and totalOfRows",
      security: bearerSecurity,
      querystring: queryResultPageSchema,
      response: { 200: queryResultSchema, ...errors },
    },
    handler: (request) => results.result(request.user.id, request.query),
  });

  app.get('/query/showextractoractiondata', {
    schema: {
      tags,
      summary: "A page of a dataset's rows as extracted (every field; the draft's dataset by default)",
      security: bearerSecurity,
      querystring: extractorActionDataQuerySchema,
      response: { 200: queryResultSchema, ...errors },
    },
    handler: (request) => results.datasetRows(request.user.id, request.query),
  });

  app.get('/query/save', {
    schema: {
      tags,
      summary: 'Save the draft of this query (query, fields and filters in one transaction)',
      security: bearerSecurity,
      querystring: queryIdQuerySchema,
      response: { 200: saveQueryResponseSchema, ...errors },
    },
    handler: async (request) => ({
      ...(await queries.save(request.user.id, request.query.queryId)),
      message: MESSAGES['query.saved'],
    }),
  });

  app.get('/query/editquery', {
    schema: {
      tags,
      summary: 'Open the wizard on a saved query (409 unless CUSTOM)',
      security: bearerSecurity,
      querystring: queryIdQuerySchema,
      response: { 200: queryEditResponseSchema, ...errors },
    },
    handler: (request) => queries.edit(request.user.id, request.query.queryId),
  });

  app.get('/query/export/excel', {
    schema: {
      tags,
      summary: "Every row of the draft's result (or a saved query's) as {query name}.xlsx, streamed",
      description:
        'The header X-Total-Rows gives the number of rows before the file arrives. 503 when the ' +
        'exports this process runs at once (QUERY_EXPORTS_MAX_RUNNING) are all taken.',
      security: bearerSecurity,
      querystring: exportQueryQuerySchema,
      produces: [XLSX_TYPE],
      response: errorResponses(400, 401, 404, 409, 503),
    },
    handler: async (request, reply) =>
      sendWorkbook(reply, await results.export(request.user.id, request.query.queryId)),
  });

  app.get('/query/file/:id', {
    schema: {
      tags,
      summary: "A FILE cell's stored file (name and base64 content)",
      security: bearerSecurity,
      params: idParamSchema,
      response: { 200: queryFileResponseSchema, ...errors },
    },
    handler: (request) => results.file(request.user.id, request.params.id),
  });

  app.put('/query/cancelquery', {
    schema: {
      tags,
      summary: "Drop the caller's draft (a saved query stays as it was)",
      security: bearerSecurity,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await queries.cancel(request.user.id);
      return { message: MESSAGES['query.canceled'] };
    },
  });

  app.delete('/query/:id', {
    schema: {
      tags,
      summary: 'Delete a query',
      security: bearerSecurity,
      params: idParamSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await queries.delete(request.user.id, request.params.id);
      return { message: MESSAGES['query.deleted'] };
    },
  });

  app.post('/query/rename', {
    schema: {
      tags,
      summary: 'Rename (name and description)',
      security: bearerSecurity,
      body: renameQueryRequestSchema,
      response: { 200: queryDtoSchema.extend({ message: z.string() }), ...errors },
    },
    handler: async (request) => ({
      ...(await queries.rename(request.user.id, request.body)),
      message: MESSAGES['query.renamed'],
    }),
  });
};
