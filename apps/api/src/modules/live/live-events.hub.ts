import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { liveEventSchema, liveWatchersKey, livePresenceChannel, userEventsChannel } from '@pagewright/shared';

interface Subscriber {
  /** This socket's member in the user's watcher set (unique across API processes). */
  id: string;
  watchesFrames: boolean;
}

/** Cheap look at an event's type without parsing a frame's megabyte of base64 twice. */
const FRAME_PREFIX = '{"type":"frame"';

/**
 * Routes live events from Redis to the sockets of the user they belong to. One pattern
 * subscription per API process; workers publish with publishLiveEvent (any process can).
 *
 * It also keeps the user's frame watchers in Redis (liveWatchersKey), so a worker streams a page
 * only while some socket, on any API process, shows it: a socket watches frames until its client
 * says otherwise, with a lease the socket's heartbeat renews (`leaseMs`).
 */
export function createLiveEventsHub(deps: {
  subscriber: Redis;
  redis: Redis;
  keyPrefix: string;
  log: FastifyBaseLogger;
  leaseMs: number;
}) {
  const { subscriber, redis, keyPrefix, log } = deps;
  const socketsByUser = new Map<string, Map<WebSocket, Subscriber>>();
  const channelPrefix = userEventsChannel(keyPrefix, '');
  const instance = randomUUID();
  /** In-process listeners of runs' ends (the public API's `?wait=`), by run id. */
  const runEndListeners = new Map<string, Set<() => void>>();

  subscriber.on('pmessage', (_pattern: string, channel: string, message: string) => {
    const sockets = socketsByUser.get(channel.slice(channelPrefix.length));
    const isFrame = message.startsWith(FRAME_PREFIX);
    if (!sockets && (isFrame || runEndListeners.size === 0)) return;
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
    if (parsed.data.type === 'run-status' && parsed.data.status !== 'EXECUTING')
      for (const listener of runEndListeners.get(parsed.data.runId) ?? []) listener();
    if (!sockets) return;
    const payload = isFrame ? message : JSON.stringify(parsed.data);
    for (const [socket, subscription] of sockets) {
      if (socket.readyState !== socket.OPEN) continue;
      if (parsed.data.type === 'frame' && !subscription.watchesFrames) continue;
      socket.send(payload);
    }
  });

  /** Renews (or drops) one socket's lease, then tells the workers the user's watchers changed. */
  async function publishWatch(userId: string, subscription: Subscriber, isWatching: boolean): Promise<void> {
    const key = liveWatchersKey(keyPrefix, userId);
    const now = Date.now();
    const pipeline = redis.pipeline();
    if (isWatching) pipeline.zadd(key, now + deps.leaseMs, subscription.id);
    else pipeline.zrem(key, subscription.id);
    pipeline.zremrangebyscore(key, '-inf', now);
    pipeline.pexpire(key, deps.leaseMs * 2);
    pipeline.publish(livePresenceChannel(keyPrefix), userId);
    await pipeline.exec();
  }

  function report(error: unknown) {
    log.warn({ err: error }, 'live watchers: could not update Redis');
  }

  return {
    async start(): Promise<void> {
      await subscriber.psubscribe(`${channelPrefix}*`);
    },
    add(userId: string, socket: WebSocket): void {
      const sockets = socketsByUser.get(userId) ?? new Map<WebSocket, Subscriber>();
      const subscription = { id: `${instance}:${randomUUID()}`, watchesFrames: true };
      sockets.set(socket, subscription);
      socketsByUser.set(userId, sockets);
      publishWatch(userId, subscription, true).catch(report);
    },
    /** The client chose the optional events it wants (today: frames or not). */
    watch(userId: string, socket: WebSocket, watchesFrames: boolean): void {
      const subscription = socketsByUser.get(userId)?.get(socket);
      if (!subscription || subscription.watchesFrames === watchesFrames) return;
      subscription.watchesFrames = watchesFrames;
      publishWatch(userId, subscription, watchesFrames).catch(report);
    },
    /** A heartbeat: the socket still lives, so its lease goes on. */
    renew(userId: string, socket: WebSocket): void {
      const subscription = socketsByUser.get(userId)?.get(socket);
      if (subscription?.watchesFrames)
        redis
          .zadd(liveWatchersKey(keyPrefix, userId), Date.now() + deps.leaseMs, subscription.id)
          .catch(report);
    },
    remove(userId: string, socket: WebSocket): void {
      const sockets = socketsByUser.get(userId);
      const subscription = sockets?.get(socket);
      sockets?.delete(socket);
      if (sockets?.size === 0) socketsByUser.delete(userId);
      if (subscription?.watchesFrames) publishWatch(userId, subscription, false).catch(report);
    },
    /**
     * Calls `listener` when a worker says the run ended (any API process hears it). A hint, not a
     * promise: an end published before this call, or by the API's own sweep, is not heard, so the
     * caller still reads the run's status now and then. Answers the function that stops listening.
     */
    onRunEnded(runId: string, listener: () => void): () => void {
      const listeners = runEndListeners.get(runId) ?? new Set<() => void>();
      listeners.add(listener);
      runEndListeners.set(runId, listeners);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) runEndListeners.delete(runId);
      };
    },
    connectedSockets(): number {
      let count = 0;
      for (const sockets of socketsByUser.values()) count += sockets.size;
      return count;
    },
  };
}
export type LiveEventsHub = ReturnType<typeof createLiveEventsHub>;
