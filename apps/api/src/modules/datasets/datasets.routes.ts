import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGES,
  createDatasetRequestSchema,
  createDatasetResponseSchema,
  datasetDtoSchema,
  datasetEditResponseSchema,
  datasetFieldListRequestSchema,
  datasetFieldListResponseSchema,
  datasetIdQuerySchema,
  datasetLabelColumnResponseSchema,
  labelColumnSelectionRequestSchema,
  labelColumnSelectionResponseSchema,
  messageResponseSchema,
  removeDatasetFieldQuerySchema,
  renameDatasetRequestSchema,
  saveDatasetRequestSchema,
  saveDatasetResponseSchema,
} from '@pagewright/shared';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import type { DatasetService } from './datasets.service.js';

const errors = errorResponses(400, 401, 404, 409);
const tags = ['dataset'];

/** The /dataset calls (data spec §7): the wizard on the caller's draft, the list, rename, delete. */
export const datasetRoutes: FastifyPluginAsyncZod<{ datasets: DatasetService }> = async (
  app,
  { datasets },
) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/dataset/datasetdashboard', {
    schema: {
      tags,
      summary: "The caller's datasets for the dashboard panel (dirty flag, row count)",
      security: bearerSecurity,
      response: { 200: z.array(datasetDtoSchema), ...errors },
    },
    handler: (request) => datasets.dashboard(request.user.id),
  });

  app.post('/dataset/createdataset', {
    schema: {
      tags,
      summary: 'Open the wizard on a new dataset (nothing is stored before save; 409 on a used name)',
      security: bearerSecurity,
      body: createDatasetRequestSchema,
      response: { 201: createDatasetResponseSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await datasets.create(request.user.id, request.body)),
  });

  app.post('/dataset/datasetfield', {
    schema: {
      tags,
      summary: "Step 1: the draft's whole field list",
      security: bearerSecurity,
      body: datasetFieldListRequestSchema,
      response: { 200: datasetFieldListResponseSchema, ...errors },
    },
    handler: async (request) => ({
      datasetFieldDtoList: await datasets.setFields(request.user.id, request.body),
    }),
  });

  app.get('/dataset/datasetfieldlist', {
    schema: {
      tags,
      summary: "The draft's fields",
      security: bearerSecurity,
      response: { 200: datasetFieldListResponseSchema, ...errors },
    },
    handler: async (request) => ({ datasetFieldDtoList: await datasets.fieldList(request.user.id) }),
  });

  app.get('/dataset/datasetlabelcolumn', {
    schema: {
      tags,
      summary: "Step 2: every label and table column of the caller's extractors, and the draft's choice",
      security: bearerSecurity,
      response: { 200: datasetLabelColumnResponseSchema, ...errors },
    },
    handler: (request) => datasets.labelColumns(request.user.id),
  });

  app.post('/dataset/labeltablecolumnlist', {
    schema: {
      tags,
      summary: 'Step 2 → 3: the chosen rows, each with a check box per field',
      security: bearerSecurity,
      body: labelColumnSelectionRequestSchema,
      response: { 200: labelColumnSelectionResponseSchema, ...errors },
    },
    handler: async (request) => ({
      labelAndTableColumnDtoList: await datasets.selectLabelColumns(request.user.id, request.body.rows),
    }),
  });

  app.post('/dataset/save', {
    schema: {
      tags,
      summary: "Step 3: save the draft's fields, mappings and table in one transaction",
      security: bearerSecurity,
      querystring: datasetIdQuerySchema,
      body: saveDatasetRequestSchema,
      response: { 200: saveDatasetResponseSchema, ...errors },
    },
    handler: async (request) => ({
      ...(await datasets.save(request.user.id, request.query.datasetId, request.body)),
      message: MESSAGES['dataset.saved'],
    }),
  });

  app.get('/dataset/canceldataset', {
    schema: {
      tags,
      summary: "Drop the caller's draft (a saved dataset stays as it was)",
      security: bearerSecurity,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await datasets.cancel(request.user.id);
      return { message: MESSAGES['dataset.canceled'] };
    },
  });

  app.get('/dataset/edit', {
    schema: {
      tags,
      summary: 'Open the wizard on a saved dataset',
      security: bearerSecurity,
      querystring: datasetIdQuerySchema,
      response: { 200: datasetEditResponseSchema, ...errors },
    },
    handler: (request) => datasets.edit(request.user.id, request.query.datasetId),
  });

  app.get('/dataset/verifyDatasetHasData', {
    schema: {
      tags,
      summary: 'Whether the dataset holds rows',
      security: bearerSecurity,
      querystring: datasetIdQuerySchema,
      response: { 200: z.boolean(), ...errors },
    },
    handler: (request) => datasets.hasData(request.user.id, request.query.datasetId),
  });

  app.get('/dataset/deletedataset', {
    schema: {
      tags,
      summary: 'Delete a dataset and its rows (409 while a query uses it)',
      security: bearerSecurity,
      querystring: datasetIdQuerySchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await datasets.delete(request.user.id, request.query.datasetId);
      return { message: MESSAGES['dataset.deleted'] };
    },
  });

  app.delete('/dataset/removedatasetfield/', {
    schema: {
      tags,
      summary: 'Remove a field from the draft (409 while a query uses it; the column goes at save)',
      security: bearerSecurity,
      querystring: removeDatasetFieldQuerySchema,
      response: { 200: datasetFieldListResponseSchema, ...errors },
    },
    handler: async (request) => ({
      datasetFieldDtoList: await datasets.removeField(request.user.id, request.query),
    }),
  });

  app.post('/dataset/rename', {
    schema: {
      tags,
      summary: 'Rename (name and description)',
      security: bearerSecurity,
      body: renameDatasetRequestSchema,
      response: { 200: datasetDtoSchema.extend({ message: z.string() }), ...errors },
    },
    handler: async (request) => ({
      ...(await datasets.rename(request.user.id, request.body)),
      message: MESSAGES['dataset.renamed'],
    }),
  });
};
