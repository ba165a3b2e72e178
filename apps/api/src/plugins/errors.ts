import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { MESSAGES, type ErrorResponse } from '@pagewright/shared';
import { AppError } from '../lib/app-error.js';

/**
 * The one place where errors become HTTP answers: `{ message, code, field? }` with the status of the
 * code. Request validation names the first failing field; 5xx details stay in the log.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      const body: ErrorResponse = { message: error.message, code: error.code };
      if (error.field) body.field = error.field;
      if (error.statusCode >= 500) request.log.error({ err: error }, error.message);
      return reply.status(error.statusCode).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const path = first?.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const body: ErrorResponse = {
        message: first?.message ?? MESSAGES['error.invalid.value'],
        code: 'VALIDATION_ERROR',
      };
      if (path) body.field = path;
      return reply.status(400).send(body);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return reply.status(500).send({ message: MESSAGES['error.internal'], code: 'INTERNAL_ERROR' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ message: MESSAGES['error.internal'], code: 'INTERNAL_ERROR' });
    }
    // Fastify's own 4xx (malformed JSON, body too large, unsupported media type...).
    const code =
      status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_ERROR';
    return reply.status(status).send({ message: error.message, code });
  });
});
