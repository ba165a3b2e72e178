import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { liveEventSchema, userEventsChannel } from '@pagewright/shared';

/**
 * Routes live events from Redis to the sockets of the user they belong to. One pattern
 * subscription per API process; workers publish with publishLiveEvent (any process can).
 */
export function createLiveEventsHub(subscriber: Redis, keyPrefix: string, log: FastifyBaseLogger) {
  const socketsByUser = new Map<string, Set<WebSocket>>();
  const channelPrefix = userEventsChannel(keyPrefix, '');

  subscriber.on('pmessage', (_pattern: string, channel: string, message: string) => {
    const sockets = socketsByUser.get(channel.slice(channelPrefix.length));
    if (!sockets) return;
    let json: unknown;
    try {
      json = JSON.parse(message);
    } catch {
      json = undefined;
    }
    const parsed = liveEventSchema.safeParse(json);
    if (!parsed.success) {
      log.warn({ channel, issues: parsed.error.issues }, 'dropped a malformed live event');
      return;
    }
    const payload = JSON.stringify(parsed.data);
    for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.send(payload);
  });

  return {
    async start(): Promise<void> {
      await subscriber.psubscribe(`${channelPrefix}*`);
    },
    add(userId: string, socket: WebSocket): void {
      const sockets = socketsByUser.get(userId) ?? new Set<WebSocket>();
      sockets.add(socket);
      socketsByUser.set(userId, sockets);
    },
    remove(userId: string, socket: WebSocket): void {
      const sockets = socketsByUser.get(userId);
      sockets?.delete(socket);
      if (sockets?.size === 0) socketsByUser.delete(userId);
    },
    connectedSockets(): number {
      let count = 0;
      for (const sockets of socketsByUser.values()) count += sockets.size;
      return count;
    },
  };
}
export type LiveEventsHub = ReturnType<typeof createLiveEventsHub>;
