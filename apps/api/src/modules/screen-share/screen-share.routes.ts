import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SCREEN_SHARE_MESSAGES,
  fileDownloadLinkSchema,
  screenShareLiveFrameSchema,
  screenShareStepParamSchema,
  screenShareTokenParamSchema,
  screenShareViewSchema,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { attachmentDisposition } from '../../lib/content-disposition.js';
import { errorResponses } from '../../lib/error-responses.js';
import type { ScreenShareService, SharedFileContent } from './screen-share.service.js';

const errors = errorResponses(400, 404, 429);

const tooManyRequests = () => new AppError('RATE_LIMITED', SCREEN_SHARE_MESSAGES.tooManyRequests);
/**
 * Per client address. The view polls every 3 s and opens a screenshot per action it shows, so the
 * screen-share calls share one generous budget; a download link is spent at once, so few are needed.
 */
const viewRateLimit = {
  max: 300,
  timeWindow: 60_000,
  groupId: 'screen-share',
  errorResponseBuilder: tooManyRequests,
};
/** The live page is read twice a second while the viewer's tab is visible: a budget of its own. */
const liveRateLimit = {
  max: 300,
  timeWindow: 60_000,
  groupId: 'screen-share-live',
  errorResponseBuilder: tooManyRequests,
};
const downloadRateLimit = { max: 30, timeWindow: 60_000, errorResponseBuilder: tooManyRequests };

/** Bytes recorded from other sites: never sniffed, never run as a page of this origin. */
function sendUntrusted(reply: FastifyReply, contentType: string, body: Buffer | string) {
  return reply
    .type(contentType)
    .header('cache-control', 'private, no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', 'sandbox')
    .send(body);
}

function sendAttachment(reply: FastifyReply, file: SharedFileContent) {
  reply.header('content-disposition', attachmentDisposition(file.name));
  return sendUntrusted(reply, file.mimeType, file.content);
}

/**
 * The read-only screen-share view of a navigator run and its one-time file links (automation spec
 * §2, §7 GET /extractor/token/:token, route /file/:token). No session: the token is the credential.
 */
export const screenShareRoutes: FastifyPluginAsyncZod<{ screenShares: ScreenShareService }> = async (
  app,
  { screenShares },
) => {
  app.get('/extractor/token/:token', {
    config: { rateLimit: viewRateLimit },
    schema: {
      tags: ['screen-share'],
      summary: 'The navigator run a screen-share link shows (404 once the link expired or was withdrawn)',
      params: screenShareTokenParamSchema,
      response: { 200: screenShareViewSchema, ...errors },
    },
    handler: (request) => screenShares.view(request.params.token),
  });

  app.get('/extractor/token/:token/live', {
    config: { rateLimit: liveRateLimit },
    schema: {
      tags: ['screen-share'],
      summary:
        "The shared session's page as it looks now (its latest frame), read-only; 404 while it has no live page",
      params: screenShareTokenParamSchema,
      response: { 200: screenShareLiveFrameSchema, ...errors },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return screenShares.liveFrame(request.params.token);
    },
  });

  app.get('/extractor/token/:token/step/:sequence/screen', {
    config: { rateLimit: viewRateLimit },
    schema: {
      tags: ['screen-share'],
      summary: 'The page screenshot a shared step kept',
      params: screenShareStepParamSchema,
      produces: ['image/jpeg', 'image/png'],
      response: errors,
    },
    handler: async (request, reply) => {
      const file = await screenShares.screen(request.params.token, request.params.sequence);
      return sendUntrusted(reply, file.mimeType, file.content);
    },
  });

  app.get('/extractor/token/:token/step/:sequence/html', {
    config: { rateLimit: viewRateLimit },
    schema: {
      tags: ['screen-share'],
      summary: "A shared step's normalized page HTML, as text (never rendered as a page)",
      params: screenShareStepParamSchema,
      produces: ['text/plain'],
      response: { 200: z.string(), ...errors },
    },
    handler: async (request, reply) => {
      const html = await screenShares.normalizedHtml(request.params.token, request.params.sequence);
      return sendUntrusted(reply, 'text/plain; charset=utf-8', html);
    },
  });

  app.get('/extractor/token/:token/step/:sequence/file', {
    config: { rateLimit: viewRateLimit },
    schema: {
      tags: ['screen-share'],
      summary: "A one-time link (/file/:token, 10 minutes) to a shared step's downloaded file",
      params: screenShareStepParamSchema,
      response: { 200: fileDownloadLinkSchema, ...errors },
    },
    handler: (request) => screenShares.fileLink(request.params.token, request.params.sequence),
  });

  app.get('/file/:token', {
    config: { rateLimit: downloadRateLimit },
    schema: {
      tags: ['screen-share'],
      summary: 'Download the file of a one-time link (a second use is 404)',
      params: screenShareTokenParamSchema,
      produces: ['application/octet-stream'],
      response: errors,
    },
    handler: async (request, reply) =>
      sendAttachment(reply, await screenShares.download(request.params.token)),
  });
};
