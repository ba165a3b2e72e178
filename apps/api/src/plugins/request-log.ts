import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request at info, when it is answered (method, URL, status, time, request id),
 * instead of Fastify's two (incoming, then completed): at LOG_LEVEL=info, serialising and writing
 * two lines per request was ~15 % of the API's CPU on a cheap authenticated call
 * (docs/performance.md). The incoming line is still written at debug, and at info for a WebSocket
 * upgrade, which is never "answered" (its socket lives on).
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    if (request.headers.upgrade) request.log.info({ req: request }, 'incoming request');
    else request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
