import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGES,
  RECOGNITION_PDF_MAX_BYTES,
  findRecognizedRequestSchema,
  findRecognizedResponseSchema,
  recognitionResultSchema,
  textToCsvConsolidatedRequestSchema,
  textToCsvRequestSchema,
} from '@pagewright/shared';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import { readOnePdf } from '../../lib/multipart-file.js';
import type { RecognitionService } from './statement-recognition.service.js';

const errors = errorResponses(400, 401, 404, 413, 422, 503);
const tags = ['statement recognition'];

/** The /statement-recognition calls (data spec §7). */
export const recognitionRoutes: FastifyPluginAsyncZod<{ recognition: RecognitionService }> = async (
  app,
  { recognition },
) => {
  await app.register(multipart, { limits: { fileSize: RECOGNITION_PDF_MAX_BYTES, files: 1 } });
  app.addHook('onRequest', app.authenticate);

  app.post('/statement-recognition/pdf-to-text/:templateId', {
    schema: {
      tags,
      summary:
        'Read one PDF (multipart field `file`) with a template: its text and a token for the CSV calls',
      security: bearerSecurity,
      consumes: ['multipart/form-data'],
      params: z.object({
        templateId: z
          .string({ error: MESSAGES['recognition.no.template'] })
          .uuid(MESSAGES['recognition.no.template']),
      }),
      response: { 200: recognitionResultSchema, ...errors },
    },
    handler: async (request) => {
      const file = await readOnePdf(request, MESSAGES['recognition.not.pdf']);
      return recognition.pdfToText(request.user.id, request.params.templateId, file);
    },
  });

  app.post('/statement-recognition/text-to-csv', {
    schema: {
      tags,
      summary: "One processed file's values as CSV (filename, page, label, value; line breaks as __NL__)",
      security: bearerSecurity,
      body: textToCsvRequestSchema,
      response: { 200: z.string(), ...errors },
    },
    handler: async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .send(await recognition.textToCsv(request.user.id, request.body.token)),
  });

  app.post('/statement-recognition/text-to-csv-consolidated', {
    schema: {
      tags,
      summary: 'The values of up to 100 processed files as one CSV',
      security: bearerSecurity,
      body: textToCsvConsolidatedRequestSchema,
      response: { 200: z.string(), ...errors },
    },
    handler: async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .send(await recognition.consolidatedCsv(request.user.id, request.body.tokenList)),
  });

  app.post('/statement-recognition/find', {
    schema: {
      tags,
      summary: 'The values of up to 100 processed files as rows (filename, page, label, value)',
      security: bearerSecurity,
      body: findRecognizedRequestSchema,
      response: { 200: findRecognizedResponseSchema, ...errors },
    },
    handler: (request) => recognition.find(request.user.id, request.body.tokenList),
  });
};
