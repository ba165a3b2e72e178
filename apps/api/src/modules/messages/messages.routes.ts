import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGES,
  MESSAGE_TOKEN_HEADER,
  formatMessage,
  messageAttachmentContentSchema,
  messageDtoSchema,
  messageIdParamsSchema,
  messageListQuerySchema,
  messageListResponseSchema,
  messageResponseSchema,
  messageTokenParamsSchema,
  sendMessageRequestSchema,
  sendMessageResponseSchema,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { attachmentDisposition } from '../../lib/content-disposition.js';
import { bearerSecurity, errorResponses } from '../../lib/error-responses.js';
import { bearerToken } from '../../plugins/auth.js';
import { createLargeSendGate } from './large-send-gate.js';
import type { MessageAccount, MessageService } from './messages.service.js';

const errors = errorResponses(400, 401, 403, 404, 413, 429, 503);
const tags = ['messages'];
/** A session, or the header a link holder's page sends. */
const sessionOrLink = [...bearerSecurity, { messageToken: [] }];

/**
 * The /message calls (data spec §7). The viewer's calls work without a session (data spec §5): a
 * link holder's page sends its token in the x-message-token header. Sending needs a session, except
 * a reply written through a link (its token as `from`).
 */
export const messageRoutes: FastifyPluginAsyncZod<{
  messages: MessageService;
  bodyLimitMb: number;
  sendsPerMinute: number;
  /** Large sends (issue 24): over `largeBodyMb`, this many read at once per process and per user. */
  largeSends: { largeBodyMb: number; maxRunning: number; maxPerUser: number };
}> = async (app, { messages, bodyLimitMb, sendsPerMinute, largeSends }) => {
  /** The signed-in caller if the call carries a session; an expired one still answers 401 (refresh). */
  async function accountOf(request: FastifyRequest): Promise<MessageAccount | null> {
    const token = bearerToken(request);
    if (!token) return null;
    const user = await app.identify(token, false);
    return { id: user.id, username: user.username };
  }
  const linkToken = (request: FastifyRequest) => {
    const value = request.headers[MESSAGE_TOKEN_HEADER];
    return typeof value === 'string' && value.length > 0 ? value : undefined;
  };
  const signedIn = (request: FastifyRequest): MessageAccount => ({
    id: request.user.id,
    username: request.user.username,
  });
  const authenticated = { onRequest: app.authenticate };
  const largeSendGate = createLargeSendGate({
    largeBytes: Math.round(largeSends.largeBodyMb * 1024 * 1024),
    bodyLimitBytes: Math.round(bodyLimitMb * 1024 * 1024),
    maxRunning: largeSends.maxRunning,
    maxPerUser: largeSends.maxPerUser,
    accountOf: async (request) => {
      if (request.user?.id) return request.user.id;
      return (await accountOf(request).catch(() => null))?.id ?? null;
    },
  });

  // Attached files travel as base64 inside the JSON (spec), so these two take larger bodies.
  const sendOptions = {
    bodyLimit: Math.round(bodyLimitMb * 1024 * 1024),
    config: {
      bodyTooLargeMessage: formatMessage('message.too.large', { mb: bodyLimitMb }),
      // Every message e-mails its recipients: the product must not become a relay for bulk mail.
      rateLimit: {
        max: sendsPerMinute,
        timeWindow: 60_000,
        errorResponseBuilder: () => new AppError('RATE_LIMITED', MESSAGES['message.too.many']),
      },
    },
  };

  app.post('/message/add', {
    // Signed in first, then a slot for a large body: both before the body is read.
    onRequest: [app.authenticate, largeSendGate],
    ...sendOptions,
    schema: {
      tags,
      summary: 'Send a new message (its e-mails go out through the mail queue)',
      security: bearerSecurity,
      body: sendMessageRequestSchema,
      response: { 200: sendMessageResponseSchema, ...errors },
    },
    handler: async (request) => messages.send(signedIn(request), request.body),
  });

  app.post('/message/reply', {
    onRequest: largeSendGate,
    ...sendOptions,
    schema: {
      tags,
      summary: 'Reply in a thread: as the signed-in account, or as a link holder (`from` = their token)',
      security: sessionOrLink,
      body: sendMessageRequestSchema,
      response: { 200: sendMessageResponseSchema, ...errors },
    },
    handler: async (request) => messages.reply(await accountOf(request), request.body),
  });

  app.get('/message/token/:token', {
    schema: {
      tags,
      summary: "The message an e-mailed link was sent with (no session; emailToken is the link's token)",
      params: messageTokenParamsSchema,
      response: { 200: messageDtoSchema, ...errors },
    },
    handler: (request) => messages.readByToken(request.params.token),
  });

  app.get('/message/id/:id', {
    schema: {
      tags,
      summary: 'A message, for those who took part in it (or a link of its thread); 404 for anyone else',
      security: sessionOrLink,
      params: messageIdParamsSchema,
      response: { 200: messageDtoSchema, ...errors },
    },
    handler: async (request) =>
      messages.readById(await accountOf(request), linkToken(request), request.params.id),
  });

  app.get('/message/reply-of/:id', {
    schema: {
      tags,
      summary: "The replies of a message's thread, newest first",
      security: sessionOrLink,
      params: messageIdParamsSchema,
      response: { 200: z.array(messageDtoSchema), ...errors },
    },
    handler: async (request) =>
      messages.replies(await accountOf(request), linkToken(request), request.params.id),
  });

  app.get('/message/user-id/:id', {
    ...authenticated,
    schema: {
      tags,
      summary: "The caller's received messages (only their own id; another user's id answers 404)",
      security: bearerSecurity,
      params: messageIdParamsSchema,
      querystring: messageListQuerySchema,
      response: { 200: messageListResponseSchema, ...errors },
    },
    handler: async (request) => {
      const account = signedIn(request);
      if (account.id !== request.params.id) throw AppError.notFound(MESSAGES['message.list.error']);
      return messages.received(account, request.query.limit, request.query.before);
    },
  });

  app.get('/message/received', {
    ...authenticated,
    schema: {
      tags,
      summary: "The caller's received messages, newest first (a page; ?before= the last page's nextCursor)",
      security: bearerSecurity,
      querystring: messageListQuerySchema,
      response: { 200: messageListResponseSchema, ...errors },
    },
    handler: async (request) =>
      messages.received(signedIn(request), request.query.limit, request.query.before),
  });

  // The spec's call for the sent list is GET /message/ (data spec §7); /message/sent stays as an alias.
  for (const url of ['/message/', '/message/sent']) {
    app.get(url, {
      ...authenticated,
      schema: {
        tags,
        summary: "The caller's sent messages, newest first (a page; ?before= the last page's nextCursor)",
        security: bearerSecurity,
        querystring: messageListQuerySchema,
        response: { 200: messageListResponseSchema, ...errors },
      },
      handler: async (request) => messages.sent(signedIn(request), request.query.limit, request.query.before),
    });
  }

  app.delete('/message/:id', {
    ...authenticated,
    schema: {
      tags,
      summary: "Remove a message from the caller's own lists (the other side keeps theirs)",
      security: bearerSecurity,
      params: messageIdParamsSchema,
      response: { 200: messageResponseSchema, ...errors },
    },
    handler: async (request) => {
      await messages.delete(signedIn(request), request.params.id);
      return { message: MESSAGES['message.deleted'] };
    },
  });

  app.get('/message/attachment/:id', {
    schema: {
      tags,
      summary:
        'An attached file: its bytes under its own name, or {name, content} in base64 with Accept: application/json',
      security: sessionOrLink,
      params: messageIdParamsSchema,
      response: { 200: messageAttachmentContentSchema.or(z.any()), ...errors },
    },
    handler: async (request, reply) => {
      const file = await messages.attachment(await accountOf(request), linkToken(request), request.params.id);
      reply.header('cache-control', 'private, no-store');
      if (request.headers.accept?.includes('application/json')) {
        return { name: file.name, content: file.content.toString('base64') };
      }
      // Whatever it holds, it is a download: never shown, sniffed or run as a page of this origin.
      return reply
        .type('application/octet-stream')
        .header('content-disposition', attachmentDisposition(file.name))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', 'sandbox')
        .send(file.content);
    },
  });
};
