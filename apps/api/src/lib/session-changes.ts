import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import pg from 'pg';
import type { SessionCallers } from './session-callers.js';

/** The PostgreSQL channel the session triggers notify (migration 20261127170000_session_change_notify). */
const DATABASE_CHANNEL = 'pagewright_session_changed';
/** LISTEN takes the channel's name, not a parameter: one constant statement. */
const LISTEN_STATEMENT = `LISTEN ${DATABASE_CHANNEL}`;
/** How long a lost LISTEN connection waits before it connects again. */
const RECONNECT_DELAY_MS = 1_000;

/** The Redis channel on which API processes announce their own session changes. */
export const sessionChangesChannel = (keyPrefix: string) => `${keyPrefix}session-changed`;

/**
 * How every API process hears that a user's sessions or account changed, so its session cache
 * (session-callers.ts) forgets them. Two channels, both needed before the cache is trusted:
 * - Redis pub/sub, on which the API announces its own writes (logout, password change, …) before it
 *   answers: Redis hands the message to every subscriber before the publisher's reply, so no request
 *   sent after that answer can find the old entry;
 * - PostgreSQL LISTEN, which the triggers on "User" and "RefreshTokenFamily" notify at commit:
 *   every other writer too (an operator disabling an account in SQL, the worker).
 * When either connection drops, the cache stops being trusted until both are back (and starts
 * empty then: what was announced meanwhile was not heard).
 */
export function createSessionChanges(deps: {
  callers: SessionCallers;
  /** A connection of its own: a subscribed Redis connection can do nothing else. */
  subscriber: Redis;
  publisher: Redis;
  keyPrefix: string;
  databaseUrl: string;
  log: FastifyBaseLogger;
}) {
  const { callers, subscriber, publisher, log } = deps;
  const channel = sessionChangesChannel(deps.keyPrefix);
  let isRedisHeard = false;
  let isDatabaseHeard = false;
  let listener: pg.Client | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let isStopped = false;

  function updateTrust(): void {
    callers.setTrusted(isRedisHeard && isDatabaseHeard);
  }

  subscriber.on('message', (from: string, userId: string) => {
    if (from === channel) callers.forgetUser(userId);
  });
  const redisLost = () => {
    if (!isRedisHeard) return;
    isRedisHeard = false;
    updateTrust();
    log.warn('session changes: Redis subscription lost, sessions are checked in PostgreSQL each time');
  };
  subscriber.on('close', redisLost);
  subscriber.on('reconnecting', redisLost);
  subscriber.on('ready', () => {
    // ioredis subscribes again on reconnection; the cache is trusted once Redis confirms it.
    subscriber.subscribe(channel).then(
      () => {
        isRedisHeard = true;
        updateTrust();
      },
      (error: unknown) => log.warn({ err: error }, 'session changes: could not subscribe'),
    );
  });

  function listenLater(): void {
    if (isStopped || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void listen();
    }, RECONNECT_DELAY_MS);
    reconnectTimer.unref();
  }

  async function listen(): Promise<void> {
    const client = new pg.Client({ connectionString: deps.databaseUrl, keepAlive: true });
    listener = client;
    const lost = (error?: unknown) => {
      if (listener !== client) return;
      listener = undefined;
      if (isDatabaseHeard) {
        isDatabaseHeard = false;
        updateTrust();
        log.warn({ err: error }, 'session changes: PostgreSQL LISTEN lost, sessions are checked each time');
      }
      client.end().catch(() => undefined);
      listenLater();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', ({ channel: from, payload }) => {
      if (from === DATABASE_CHANNEL && payload) callers.forgetUser(payload);
    });
    try {
      await client.connect();
      await client.query(LISTEN_STATEMENT);
      if (listener !== client) return;
      isDatabaseHeard = true;
      updateTrust();
    } catch (error) {
      lost(error);
    }
  }

  return {
    /** Connects both channels: the cache is trusted from here on, while both listen. */
    async start(): Promise<void> {
      await subscriber.connect();
      await subscriber.subscribe(channel);
      isRedisHeard = true;
      await listen();
    },
    /**
     * The user's sessions or account changed (already committed): this process forgets them now,
     * and every other one before this returns. A failed publish is logged, not thrown: the change
     * is committed, and the database's notification reaches the others a moment later.
     */
    async announce(userId: string): Promise<void> {
      callers.forgetUser(userId);
      try {
        await publisher.publish(channel, userId);
      } catch (error) {
        log.warn({ err: error }, 'session changes: could not publish to Redis');
      }
    },
    async stop(): Promise<void> {
      isStopped = true;
      clearTimeout(reconnectTimer);
      isRedisHeard = false;
      isDatabaseHeard = false;
      updateTrust();
      subscriber.disconnect();
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
