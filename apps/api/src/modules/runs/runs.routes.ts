import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  messageResponseSchema,
  executeExtractorResponseSchema,
  idParamSchema,
  runDetailSchema,
  runIdParamSchema,
  runStepFileQuerySchema,
  runStepParamSchema,
  runStepScreenshotQuerySchema,
  startRunRequestSchema,
} from '@pagewright/shared';
import { attachmentDisposition } from '../../lib/content-disposition.js';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import type { RunService, StoredFileContent } from './runs.service.js';

const errors = errorResponses(400, 401, 403, 404, 409, 503);

function sendFile(reply: FastifyReply, file: StoredFileContent, asAttachment: boolean) {
  reply.header('content-type', file.mimeType).header('cache-control', 'private, no-store');
  if (asAttachment) reply.header('content-disposition', attachmentDisposition(file.name));
  return reply.send(file.content);
}

/** Execute and run inspection (automation spec §7 GET /extractor/execute/:id). */
export const runRoutes: FastifyPluginAsyncZod<{ runs: RunService }> = async (app, { runs }) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/extractor/execute/:id', {
    schema: {
      tags: ['runs'],
      summary: 'Run an extractor now (409 while it runs or while one of its asks waits for an answer)',
      security: bearerSecurity,
      params: idParamSchema,
      response: { 200: executeExtractorResponseSchema, ...errors },
    },
    handler: (request) => runs.execute(request.user.id, request.params.id),
  });

  app.post('/extractor/execute/:id', {
    schema: {
      tags: ['runs'],
      summary:
        'Run an extractor now with values for its inputs (`{ "inputs": { "name": "value" } }`; left out: the defaults). 400 names an input of the wrong type or unknown',
      security: bearerSecurity,
      params: idParamSchema,
      body: startRunRequestSchema,
      response: { 200: executeExtractorResponseSchema, ...errors },
    },
    handler: (request) => runs.execute(request.user.id, request.params.id, request.body.inputs),
  });

  app.get('/extractor/run/:runId', {
    schema: {
      tags: ['runs'],
      summary: 'A run and its steps in sequence order',
      security: bearerSecurity,
      params: runIdParamSchema,
      response: { 200: runDetailSchema, ...errors },
    },
    handler: (request) => runs.get(request.user.id, request.params.runId),
  });

  app.get('/extractor/run/:runId/step/:sequence/screenshot', {
    schema: {
      tags: ['runs'],
      summary: 'The page (viewport) or element JPEG a step kept',
      security: bearerSecurity,
      params: runStepParamSchema,
      querystring: runStepScreenshotQuerySchema,
      produces: ['image/jpeg'],
      response: errors,
    },
    handler: async (request, reply) => {
      const { runId, sequence } = request.params;
      return sendFile(
        reply,
        await runs.screenshot(request.user.id, runId, sequence, request.query.kind),
        false,
      );
    },
  });

  app.post('/extractor/run/:runId/step/:sequence/locator', {
    schema: {
      tags: ['runs'],
      summary:
        'Use the locator a fallback found in this run as the step’s own from now on (the run said its recorded selector no longer matched)',
      security: bearerSecurity,
      params: runStepParamSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      const { runId, sequence } = request.params;
      return { message: await runs.adoptLocator(request.user.id, runId, sequence) };
    },
  });

  app.get('/extractor/run/:runId/step/:sequence/html', {
    schema: {
      tags: ['runs'],
      summary: "The page's normalized HTML after the step, as text (never rendered as a page)",
      security: bearerSecurity,
      params: runStepParamSchema,
      produces: ['text/plain'],
      response: { 200: z.string(), ...errors },
    },
    handler: async (request, reply) => {
      const { runId, sequence } = request.params;
      const html = await runs.normalizedHtml(request.user.id, runId, sequence);
      // Untrusted page content: plain text, sandboxed, never sniffed into HTML.
      return reply
        .type('text/plain; charset=utf-8')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', 'sandbox')
        .send(html);
    },
  });

  app.get('/extractor/run/:runId/step/:sequence/file', {
    schema: {
      tags: ['runs'],
      summary:
        'The file a step kept (GET_FILE, GET_IMAGE), or with ?row=&column= the file of one FILE cell of a GET_TABLE step',
      security: bearerSecurity,
      params: runStepParamSchema,
      querystring: runStepFileQuerySchema,
      produces: ['application/octet-stream'],
      response: errors,
    },
    handler: async (request, reply) => {
      const { runId, sequence } = request.params;
      const { row, column } = request.query;
      const cell = row !== undefined && column !== undefined ? { row, column } : undefined;
      return sendFile(reply, await runs.file(request.user.id, runId, sequence, cell), true);
    },
  });
};
