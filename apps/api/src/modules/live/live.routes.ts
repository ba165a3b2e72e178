import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { LIVE_SOCKET_CLOSE, type LiveEvent } from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import type { LiveEventsHub } from './live-events.hub.js';

const HEARTBEAT_MS = 30_000;
const querySchema = z.object({ accessToken: z.string().optional() });

/**
 * GET /ws: the signed-in user's live events (frames, validation progress, run status, asks).
 * Browsers cannot set headers on a WebSocket, so the access token comes as ?accessToken=; it is
 * checked by the same rules as every HTTP call. A socket that stops answering pings is dropped.
 */
export const liveRoutes: FastifyPluginAsync<{ hub: LiveEventsHub }> = async (app, { hub }) => {
  app.get('/ws', { websocket: true, schema: { hide: true } }, async (socket, request) => {
    const { accessToken } = querySchema.parse(request.query);
    let userId: string;
    try {
      userId = (await app.identify(accessToken, false)).id;
    } catch (error) {
      const isPasswordChange = error instanceof AppError && error.code === 'PASSWORD_CHANGE_REQUIRED';
      socket.close(
        isPasswordChange ? LIVE_SOCKET_CLOSE.passwordChangeRequired : LIVE_SOCKET_CLOSE.unauthorized,
        error instanceof AppError ? error.message : 'Unauthorized',
      );
      return;
    }

    hub.add(userId, socket);
    let isAlive = true;
    socket.on('pong', () => (isAlive = true));
    const heartbeat = setInterval(() => {
      if (!isAlive) return socket.terminate();
      isAlive = false;
      socket.ping();
    }, HEARTBEAT_MS);
    socket.on('close', () => {
      clearInterval(heartbeat);
      hub.remove(userId, socket);
    });
    const ready: LiveEvent = { type: 'ready', userId };
    socket.send(JSON.stringify(ready));
  });
};
