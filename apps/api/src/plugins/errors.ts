import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { MESSAGES, type ApiErrorCode, type ErrorResponse, type MessageKey } from '@pagewright/shared';
import { AppError } from '../lib/app-error.js';
import { isRedisUnavailable } from '../lib/redis-fail-fast.js';

/** Fastify's own client errors, each as the product's code and text (never Fastify's wording). */
const FASTIFY_CLIENT_ERRORS: Readonly<Record<string, { code: ApiErrorCode; message: MessageKey }>> = {
  FST_ERR_MAX_PARAM_LENGTH: { code: 'URI_TOO_LONG', message: 'error.uri.too.long' },
  FST_ERR_BAD_URL: { code: 'VALIDATION_ERROR', message: 'error.bad.url' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'error.payload.too.large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'error.unsupported.media.type' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'VALIDATION_ERROR', message: 'error.malformed.body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'VALIDATION_ERROR', message: 'error.malformed.body' },
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a body over this route's limit is told, instead of the general 'The request is too large.'. */
    bodyTooLargeMessage?: string;
  }
}

/** A 4xx raised by Fastify or a plugin, in the product's shape with the status it came with. */
function clientErrorBody(error: FastifyError, status: number, request?: FastifyRequest): ErrorResponse {
  const tooLarge = request?.routeOptions.config.bodyTooLargeMessage;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && tooLarge) {
    return { message: tooLarge, code: 'PAYLOAD_TOO_LARGE' };
  }
  const known = FASTIFY_CLIENT_ERRORS[error.code];
  if (known) return { message: MESSAGES[known.message], code: known.code };
  const code =
    status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_ERROR';
  return { message: MESSAGES['error.bad.request'], code };
}

/**
 * Errors Fastify meets while routing, before any route or error handler runs (a path parameter over
 * maxParamLength, a malformed percent-encoding): passed to Fastify as `frameworkErrors`.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  // Fastify neither awaits nor reads what this returns; the reply's promise only says it was sent.
  void reply.status(status).send(clientErrorBody(error, status));
}

/**
 * The one place where errors become HTTP answers: `{ message, code, field? }` with the status of the
 * code. Request validation names the first failing field; 5xx details stay in the log. Unknown routes
 * answer the same shape from the SPA plugin's not-found handler (it also serves index.html).
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
    if (isRedisUnavailable(error)) {
      request.log.error({ err: error }, 'Redis unavailable');
      const body: ErrorResponse = {
        message: MESSAGES['error.service.unavailable'],
        code: 'SERVICE_UNAVAILABLE',
      };
      return reply.status(503).send(body);
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ message: MESSAGES['error.internal'], code: 'INTERNAL_ERROR' });
    }
    // Fastify's own 4xx (malformed JSON, body too large, unsupported media type...).
    return reply.status(status).send(clientErrorBody(error, status, request));
  });
});
