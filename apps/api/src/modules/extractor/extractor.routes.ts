import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGES,
  copyExtractorResponseSchema,
  extractorListItemSchema,
  extractorTypeQuerySchema,
  idParamSchema,
  messageResponseSchema,
  renameExtractorRequestSchema,
  savedExtractorSchema,
  startExtractorRequestSchema,
} from '@pagewright/shared';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import { sendJsonUnlessUnchanged } from '../../lib/etag.js';
import type { ExtractorService } from './extractor.service.js';

const errors = errorResponses(400, 401, 403, 404, 409);
const toExtractor = (row: z.input<typeof savedExtractorSchema>) => savedExtractorSchema.parse(row);

/** The /extractor calls shared by extractors, insertors and navigators (automation spec §7). */
export const extractorRoutes: FastifyPluginAsyncZod<{
  extractors: ExtractorService;
  /** Opens the caller's builder on an item (the builder module's; app.ts wires it in). */
  openBuilder: (userId: string, extractorId: string) => Promise<unknown>;
}> = async (app, { extractors, openBuilder }) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/extractor', {
    schema: {
      tags: ['extractor'],
      summary: "The caller's extractors of one type, with errors not yet shown",
      security: bearerSecurity,
      querystring: extractorTypeQuerySchema,
      response: { 200: z.array(extractorListItemSchema), ...errors },
    },
    /**
     * The list is the most polled call (every open tab, again on each run status). It is written as
     * the service built it, without zod checking every item again: the service builds each item
     * field by field from typed columns (nothing else can slip in), and re-checking them cost an
     * eighth of the route's CPU; the schema still documents the answer. A poll that finds the same
     * list gets 304 without it (ETag).
     */
    handler: async (request, reply) => {
      const list = await extractors.list(request.user.id, request.query.extractorType);
      return sendJsonUnlessUnchanged(request, reply, JSON.stringify(list));
    },
  });

  app.post('/extractor/start', {
    schema: {
      tags: ['extractor'],
      summary: 'Create an extractor, insertor or navigator (409 when the name is used)',
      security: bearerSecurity,
      body: startExtractorRequestSchema,
      response: { 201: savedExtractorSchema, ...errors },
    },
    handler: async (request, reply) => {
      // The new item becomes the caller's current builder of its type (the builder opens next).
      const created = await extractors.start(request.user.id, request.body, (id) =>
        openBuilder(request.user.id, id),
      );
      return reply.status(201).send(toExtractor(created));
    },
  });

  app.post('/extractor/copy/:id', {
    schema: {
      tags: ['extractor'],
      summary: 'Copy one of your items with its whole flow, named "<name> (copy)", "(copy 2)"…',
      security: bearerSecurity,
      params: idParamSchema,
      response: { 201: copyExtractorResponseSchema, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(201).send(await extractors.copy(request.user.id, request.params.id)),
  });

  app.post('/extractor/rename', {
    schema: {
      tags: ['extractor'],
      summary: 'Rename (name and description; the viewer e-mail stays)',
      security: bearerSecurity,
      body: renameExtractorRequestSchema,
      response: { 200: savedExtractorSchema, ...errors },
    },
    handler: async (request) => toExtractor(await extractors.rename(request.user.id, request.body)),
  });

  app.delete('/extractor/:id', {
    schema: {
      tags: ['extractor'],
      summary: 'Delete (refused while executing or while a dataset uses it)',
      security: bearerSecurity,
      params: idParamSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await extractors.delete(request.user.id, request.params.id);
      return { message: MESSAGES['extractor.deleted'] };
    },
  });

  app.put('/extractor/clearShowErrorMessage/:id', {
    schema: {
      tags: ['extractor'],
      summary: 'Mark the errors shown in the list as seen',
      security: bearerSecurity,
      params: idParamSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await extractors.clearShownErrors(request.user.id, request.params.id);
      return { message: MESSAGES['extractor.error.cleared'] };
    },
  });
};
