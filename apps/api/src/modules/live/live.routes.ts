import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { LIVE_SOCKET_CLOSE, MESSAGES, liveClientMessageSchema, type LiveEvent } from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import type { AuthenticatedUser } from '../../plugins/auth.js';
import type { LiveEventsHub } from './live-events.hub.js';

const querySchema = z.object({ accessToken: z.string().optional() });

/**
 * GET /ws: the signed-in user's live events (frames, validation progress, run status, asks).
 * Browsers cannot set headers on a WebSocket, so the access token comes as ?accessToken=; it is
 * checked by the same rules as every HTTP call. A socket that stops answering pings is dropped.
 * The client may send `{ "watch": ["frame"] }` or `{ "watch": [] }` at any time (frames are on
 * until it does): a page is streamed only while some socket watches it.
 */
export const liveRoutes: FastifyPluginAsync<{ hub: LiveEventsHub }> = async (app, { hub }) => {
  const heartbeatMs = app.config.LIVE_SOCKET_HEARTBEAT_SECONDS * 1000;
  app.get('/ws', { websocket: true, schema: { hide: true } }, async (socket, request) => {
    const { accessToken } = querySchema.parse(request.query);
    let caller: AuthenticatedUser;
    try {
      caller = await app.identify(accessToken, false);
    } catch (error) {
      const isPasswordChange = error instanceof AppError && error.code === 'PASSWORD_CHANGE_REQUIRED';
      socket.close(
        isPasswordChange ? LIVE_SOCKET_CLOSE.passwordChangeRequired : LIVE_SOCKET_CLOSE.unauthorized,
        error instanceof AppError ? error.message : 'Unauthorized',
      );
      return;
    }

    const userId = caller.id;
    hub.add(userId, socket);
    // The client says which optional events it wants (frames only while a live view shows).
    socket.on('message', (data) => {
      let json: unknown;
      try {
        // ws gives a message as one Buffer (binaryType 'nodebuffer'); nothing else is a watch.
        json = JSON.parse(Buffer.isBuffer(data) ? data.toString() : '');
      } catch {
        json = undefined;
      }
      const parsed = liveClientMessageSchema.safeParse(json);
      if (parsed.success) hub.watch(userId, socket, parsed.data.watch.includes('frame'));
    });
    let isAlive = true;
    socket.on('pong', () => (isAlive = true));
    // The token was checked once, at connect: each beat also checks that its session still runs
    // (one primary-key read), so a socket of a session that ended (logout, password change,
    // revoked family, disabled account) is closed within a beat, in whichever API process holds it.
    const heartbeat = setInterval(() => {
      if (!isAlive) return socket.terminate();
      isAlive = false;
      socket.ping();
      hub.renew(userId, socket);
      app.isSessionLive(caller).then(
        (isLive) => {
          if (!isLive) socket.close(LIVE_SOCKET_CLOSE.unauthorized, MESSAGES['login.error.session.expired']);
        },
        (error: unknown) => request.log.warn({ err: error }, 'live socket: session check failed'),
      );
    }, heartbeatMs);
    socket.on('close', () => {
      clearInterval(heartbeat);
      hub.remove(userId, socket);
    });
    const ready: LiveEvent = { type: 'ready', userId };
    socket.send(JSON.stringify(ready));
  });
};
