import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BUILDER_MESSAGES,
  MESSAGES,
  actionNormalizedResponseSchema,
  addActionRequestSchema,
  addActionResponseSchema,
  answerPageDialogRequestSchema,
  lookAroundRequestSchema,
  allScreenshotsResponseSchema,
  builderActionSchema,
  builderQuerySchema,
  builderViewSchema,
  changeActionRequestSchema,
  changeSequenceQuerySchema,
  dateMaskPreviewRequestSchema,
  evaluatePointRequestSchema,
  evaluatePointResponseSchema,
  idParamSchema,
  liveImageResponseSchema,
  maskPreviewResponseSchema,
  messageResponseSchema,
  normalizedPageSchema,
  numberMaskPreviewRequestSchema,
  resequenceResponseSchema,
  saveBuilderRequestSchema,
  screenshotResponseSchema,
  sequenceQuerySchema,
  timezonesResponseSchema,
  validationResultSchema,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import type { BuilderService } from './builder.service.js';
import { timeZones } from './time-zones.js';

/** A line stream goes out as it is written (the route's typed reply expects JSON bodies). */
function sendLines(reply: FastifyReply, stream: PassThrough) {
  return (
    reply
      .type('text/plain; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      // Proxies must pass each line on as it comes, not when the validation ends.
      .header('X-Accel-Buffering', 'no')
      .send(stream)
  );
}

const errors = errorResponses(400, 401, 403, 404, 409, 422, 503);
const tags = ['builder'];

/**
 * The action builder's calls (automation spec §7). They carry no extractor id: they act on the
 * caller's current builder of `extractorType`, opened by POST /extractor/start or
 * GET /extractor/edit/:id (docs/automation-runtime.md "Builder sessions").
 */
export const builderRoutes: FastifyPluginAsyncZod<{ builder: BuilderService }> = async (app, { builder }) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/extractor/edit/:id', {
    schema: {
      tags,
      summary: 'Open a saved extractor in the builder (its flow becomes the draft)',
      security: bearerSecurity,
      params: idParamSchema,
      response: { 200: builderViewSchema, ...errors },
    },
    handler: (request) => builder.open(request.user.id, request.params.id),
  });

  app.get('/extractor/current', {
    schema: {
      tags,
      summary: 'The current builder of this type, with its draft',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      response: { 200: builderViewSchema, ...errors },
    },
    handler: (request) => builder.current(request.user.id, request.query.extractorType),
  });

  app.post('/extractor/', {
    schema: {
      tags,
      summary: 'Add an action and execute it on the live page (422 with the automation error)',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      body: addActionRequestSchema,
      response: { 200: addActionResponseSchema, ...errors },
    },
    handler: (request) => builder.addAction(request.user.id, request.query.extractorType, request.body),
  });

  app.post('/extractor/dialog', {
    schema: {
      tags,
      summary:
        'Answer the JavaScript dialog the live page shows while an action runs (recorded as an Answer dialog action)',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      body: answerPageDialogRequestSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => ({
      message: await builder.answerDialog(request.user.id, request.query.extractorType, request.body),
    }),
  });

  app.post('/extractor/scroll', {
    schema: {
      tags,
      summary:
        'Turn the wheel over the live page while picking an element: the page moves, no action is recorded',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      body: lookAroundRequestSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await builder.lookAround(request.user.id, request.query.extractorType, request.body);
      return { message: BUILDER_MESSAGES.lookedAround };
    },
  });

  app.post('/extractor/action', {
    schema: {
      tags,
      summary: 'Change an action (it needs validating again)',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      body: changeActionRequestSchema,
      response: { 200: builderActionSchema, ...errors },
    },
    handler: (request) => builder.changeAction(request.user.id, request.query.extractorType, request.body),
  });

  app.delete('/extractor/action', {
    schema: {
      tags,
      summary: 'Remove an action (never the first)',
      security: bearerSecurity,
      querystring: sequenceQuerySchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => ({
      message: await builder.deleteAction(
        request.user.id,
        request.query.extractorType,
        request.query.sequence,
      ),
    }),
  });

  app.put('/extractor/sequence', {
    schema: {
      tags,
      summary: 'Move one action to a new sequence (never the first, never before it)',
      security: bearerSecurity,
      querystring: changeSequenceQuerySchema,
      response: { 200: builderViewSchema, ...errors },
    },
    handler: (request) => {
      const { extractorType, currentSequence, newSequence } = request.query;
      return builder.changeSequence(request.user.id, extractorType, currentSequence, newSequence);
    },
  });

  app.get('/extractor/resequence', {
    schema: {
      tags,
      summary: 'Renumber the actions after the first in steps of ten',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      response: { 200: resequenceResponseSchema, ...errors },
    },
    handler: (request) => builder.resequence(request.user.id, request.query.extractorType),
  });

  app.post('/extractor/evaluate/point', {
    schema: {
      tags,
      summary: 'The element at a point of the live page: type, selector, XPath, fallbacks',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      body: evaluatePointRequestSchema,
      response: { 200: evaluatePointResponseSchema, ...errors },
    },
    handler: (request) => builder.evaluatePoint(request.user.id, request.query.extractorType, request.body),
  });

  app.post('/extractor/normalized', {
    schema: {
      tags,
      summary: 'The page element areas of the live page',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      response: { 200: normalizedPageSchema, ...errors },
    },
    handler: (request) => builder.normalized(request.user.id, request.query.extractorType, false),
  });

  app.get('/extractor/normalized/current', {
    schema: {
      tags,
      summary: 'The page element areas of the live page as it is',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      response: { 200: normalizedPageSchema, ...errors },
    },
    handler: (request) => builder.normalized(request.user.id, request.query.extractorType, false),
  });

  app.get('/extractor/normalized/reload', {
    schema: {
      tags,
      summary: 'Reload the live page, then its screenshot and element areas',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      response: { 200: normalizedPageSchema, ...errors },
    },
    handler: (request) => builder.normalized(request.user.id, request.query.extractorType, true),
  });

  app.get('/extractor/edit/normalized', {
    schema: {
      tags,
      summary: 'The page and element an action last saw (for editing it)',
      security: bearerSecurity,
      querystring: sequenceQuerySchema,
      response: { 200: actionNormalizedResponseSchema, ...errors },
    },
    handler: (request) =>
      builder.actionPage(request.user.id, request.query.extractorType, request.query.sequence),
  });

  app.get('/extractor/screenshot', {
    schema: {
      tags,
      summary: "An action's page and element screenshots (base64 JPEG)",
      security: bearerSecurity,
      querystring: sequenceQuerySchema,
      response: { 200: screenshotResponseSchema, ...errors },
    },
    handler: (request) =>
      builder.screenshot(request.user.id, request.query.extractorType, request.query.sequence),
  });

  app.get('/extractor/screenshot/all', {
    schema: {
      tags,
      summary: 'Element screenshots of every action, by sequence',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      response: { 200: allScreenshotsResponseSchema, ...errors },
    },
    handler: (request) => builder.allScreenshots(request.user.id, request.query.extractorType),
  });

  app.get('/extractor/getImageNavigator', {
    schema: {
      tags,
      summary: 'The live page as it looks now (for clients that poll instead of the WebSocket)',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      response: { 200: liveImageResponseSchema, ...errors },
    },
    handler: (request) => builder.liveImage(request.user.id, request.query.extractorType),
  });

  app.post('/extractor/number/mask', {
    schema: {
      tags,
      summary: 'Preview a number mask on the element it reads',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      body: numberMaskPreviewRequestSchema,
      response: { 200: maskPreviewResponseSchema, ...errors },
    },
    handler: (request) => {
      const { selectorValue, xpathValue: _xpath, ...numberMask } = request.body;
      return builder.maskPreview(request.user.id, request.query.extractorType, selectorValue, { numberMask });
    },
  });

  app.post('/extractor/dateTime/mask', {
    schema: {
      tags,
      summary: 'Preview a date mask (gmt, mask, selectorValue) on the element it reads',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      body: dateMaskPreviewRequestSchema,
      response: { 200: maskPreviewResponseSchema, ...errors },
    },
    handler: (request) => {
      const { selectorValue, ...dateMask } = request.body;
      return builder.maskPreview(request.user.id, request.query.extractorType, selectorValue, { dateMask });
    },
  });

  app.get('/extractor/dateTime/timezones', {
    schema: {
      tags,
      summary: 'Time zones a date mask can use (IANA names, Etc/GMT0 first)',
      security: bearerSecurity,
      response: { 200: timezonesResponseSchema, ...errors },
    },
    handler: () => timeZones(),
  });

  app.get('/extractor/validate', {
    schema: {
      tags,
      summary:
        'Run the draft from a fresh browser: streams `progress|type` lines, then one JSON line with error and data.sequence',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      produces: ['text/plain'],
      // 200 is a text stream (progress|type lines, then a ValidationResult JSON line): not serialized.
      response: errors,
    },
    handler: async (request, reply) => {
      const { extractorType } = request.query;
      const view = await builder.current(request.user.id, extractorType);
      if (view.actions.length === 0) throw AppError.validation(MESSAGES['extractor.validate.empty']);
      await builder.assertEditable(request.user.id, extractorType);
      const stream = new PassThrough();
      // A client that goes away stops the validation on its worker and frees the builder, instead
      // of holding it until the flow (and its asks) end.
      const requestClosed = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished)
          requestClosed.abort(new AppError('CONFLICT', BUILDER_MESSAGES.validationCancelled));
      });
      const validation = builder
        .validate(
          request.user.id,
          extractorType,
          (progress, actionType) => {
            stream.write(`${Math.round(progress)}|${actionType}\n`);
          },
          requestClosed.signal,
        )
        .then((result) => validationResultSchema.parse(result))
        .catch((error: unknown) => {
          if (!(error instanceof AppError)) request.log.error({ err: error }, 'validation failed');
          return {
            error: error instanceof AppError ? error.message : MESSAGES['extractor.execute.error'],
            code: null,
            data: { sequence: null, actions: [] },
          };
        })
        .then((result) => {
          stream.end(`${JSON.stringify(result)}\n`);
        });
      void validation;
      return sendLines(reply, stream);
    },
  });

  app.put('/extractor/edit', {
    schema: {
      tags,
      summary: 'Save the validated draft (one transaction; a failed save keeps the old flow)',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      body: saveBuilderRequestSchema,
      response: { 200: builderViewSchema, ...errors },
    },
    handler: (request) => builder.save(request.user.id, request.query.extractorType, request.body),
  });

  app.get('/extractor/end', {
    schema: {
      tags,
      summary: 'Close the builder and its live browser',
      security: bearerSecurity,
      querystring: builderQuerySchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await builder.end(request.user.id, request.query.extractorType);
      return { message: BUILDER_MESSAGES.ended };
    },
  });
};
