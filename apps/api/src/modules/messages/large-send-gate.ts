import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';

/**
 * Large message sends take a slot before their body is read (issue 24): a 25 MB send holds about
 * 100 MB of heap while it is parsed, decoded and written, so this process reads only `maxRunning`
 * of them at once, and one user (or client address, for a link holder without a session) only
 * `maxPerUser`. One more is answered 429 at once, its body unread (the connection closes).
 * A body that declares more than the route's limit is left to the 413 that follows.
 */
export function createLargeSendGate(options: {
  largeBytes: number;
  bodyLimitBytes: number;
  maxRunning: number;
  maxPerUser: number;
  /** The account behind the call's session, if any. */
  accountOf: (request: FastifyRequest) => Promise<string | null>;
}) {
  const { largeBytes, bodyLimitBytes, maxRunning, maxPerUser, accountOf } = options;
  let running = 0;
  const perUser = new Map<string, number>();

  function release(key: string) {
    running -= 1;
    const left = (perUser.get(key) ?? 1) - 1;
    if (left > 0) perUser.set(key, left);
    else perUser.delete(key);
  }

  /** Who the send is counted against: the account, else the client address (a link holder). */
  async function keyOf(request: FastifyRequest): Promise<string> {
    const accountId = await accountOf(request);
    return accountId ? `user:${accountId}` : `address:${request.ip}`;
  }

  /** An onRequest hook (after authentication): takes a slot for a large body, or refuses it. */
  return async function gate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const declared = request.headers['content-length'];
    const length = declared === undefined ? Number.POSITIVE_INFINITY : Number(declared);
    if (Number.isFinite(length) && (length <= largeBytes || length > bodyLimitBytes)) return;
    const key = await keyOf(request);
    const refuse = (message: string) => {
      // Its body is never read: the connection closes after the answer instead of draining it.
      reply.header('connection', 'close');
      throw new AppError('RATE_LIMITED', message);
    };
    if ((perUser.get(key) ?? 0) >= maxPerUser) refuse(MESSAGES['message.large.busy.user']);
    if (running >= maxRunning) refuse(MESSAGES['message.large.busy']);
    running += 1;
    perUser.set(key, (perUser.get(key) ?? 0) + 1);
    let isReleased = false;
    reply.raw.once('close', () => {
      if (isReleased) return;
      isReleased = true;
      release(key);
    });
  };
}
