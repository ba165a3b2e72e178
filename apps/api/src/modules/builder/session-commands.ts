import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import {
  BUILDER_MESSAGES,
  SESSION_COMMANDS,
  SESSION_QUEUES,
  addJob,
  parseJobResult,
  queuePrefix,
  validateProgressSchema,
  workerHeartbeatKey,
  type SessionCommand,
  type SessionCommandName,
  type SessionCommandResult,
  type ValidateProgress,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';

/**
 * Session command answers carry screenshots (base64 JPEG); the events stream that delivers them
 * is kept short so it never holds more than a few MB.
 */
const EVENTS_MAX_LEN = 200;
/** How often a long command checks that its worker still lives. */
const HEARTBEAT_CHECK_MS = 2_000;
/** An `open` nobody takes means no worker runs. */
const OPEN_TIMEOUT_MS = 20_000;
/**
 * A channel nobody used for this long is closed (it opens again on the next command): worker ids
 * are new per process, so the channels of workers that were replaced must not pile up.
 */
const CHANNEL_IDLE_MS = 5 * 60_000;
const CHANNEL_SWEEP_EVERY_MS = 60_000;
/**
 * What a dead worker's queue outlives it by: the worker renews its queue's keys with this lease
 * while it lives (apps/worker/src/redis-ttl.ts); keys the API wrote after its death lapse too.
 */
const DEAD_QUEUE_TTL_SECONDS = 10 * 60;
/**
 * How long a cancelled command's worker is given to stop before the caller goes on (and releases
 * the builder's lock): a flow stops between steps, and a step is bounded by its own timeouts.
 */
const STOP_GRACE_MS = 5_000;
/** Key types BullMQ gives an expiry of its own. */
const OWN_EXPIRY = new Set(['', 'stalled-check', 'limiter']);

export class SessionLostError extends Error {
  constructor(message: string = BUILDER_MESSAGES.sessionLost) {
    super(message);
    this.name = 'SessionLostError';
  }
}

interface SendOptions {
  workerId?: string;
  onProgress?: (progress: ValidateProgress) => void;
  /** Cancels the wait: `stop` tells the worker, then the signal's reason is thrown. */
  signal?: AbortSignal;
  stop?: () => Promise<unknown>;
}

interface QueueChannel {
  name: string;
  queue: Queue;
  events: QueueEvents;
  ready: Promise<unknown>;
  /** Commands waiting on it now: a channel closes only once none is. */
  inFlight: number;
  lastUsedAt: number;
  /** Taken out of use (its worker is gone, or it idled): closes when the last command ends. */
  isRetired: boolean;
}

/**
 * Sends commands to the worker that owns a live session and waits for its answer (BullMQ job round
 * trip, ~2 ms here). A worker that stopped (its queue lost its consumer, or its heartbeat lapsed)
 * answers SessionLostError instead of a hang.
 */
export function createSessionCommandClient(deps: {
  connection: Redis;
  keyPrefix: string;
  log: FastifyBaseLogger;
}) {
  const prefix = queuePrefix(deps.keyPrefix);
  const channels = new Map<string, QueueChannel>();

  /** The channel to a queue, opened on first use; the caller releases it when its command ends. */
  function acquire(name: string): QueueChannel {
    let found = channels.get(name);
    if (!found) {
      const queue = new Queue(name, {
        connection: deps.connection,
        prefix,
        streams: { events: { maxLen: EVENTS_MAX_LEN } },
      });
      // QueueEvents blocks on its stream: BullMQ gives it a duplicate of the connection (named
      // `<prefix>:<base64 queue name>:qe` in CLIENT LIST), closed with it.
      const events = new QueueEvents(name, { connection: deps.connection, prefix });
      events.on('error', (error) => deps.log.warn({ err: error, queue: name }, 'queue events error'));
      found = {
        name,
        queue,
        events,
        ready: events.waitUntilReady(),
        inFlight: 0,
        lastUsedAt: Date.now(),
        isRetired: false,
      };
      channels.set(name, found);
    }
    found.inFlight += 1;
    found.lastUsedAt = Date.now();
    return found;
  }

  async function closeChannel({ name, queue, events }: QueueChannel): Promise<void> {
    await events.close().catch(() => undefined);
    await queue.close().catch(() => undefined);
    deps.log.debug({ queue: name }, 'session command channel closed');
  }

  function release(channel: QueueChannel): void {
    channel.inFlight -= 1;
    channel.lastUsedAt = Date.now();
    if (channel.isRetired && channel.inFlight === 0) void closeChannel(channel);
  }

  /** Takes a channel out of use; the next command to that queue opens a new one. */
  function retire(channel: QueueChannel): void {
    if (channels.get(channel.name) === channel) channels.delete(channel.name);
    if (channel.isRetired) return;
    channel.isRetired = true;
    if (channel.inFlight === 0) void closeChannel(channel);
  }

  /**
   * A worker that is gone: its channel closes, and what the API wrote into its queue after its
   * death (a job's marker, the events stream) lapses like the rest of the queue. A worker that is
   * alive after all renews the lease on its next heartbeat.
   */
  async function forgetWorker(workerId: string): Promise<void> {
    const channel = channels.get(SESSION_QUEUES.ofWorker(workerId));
    if (!channel) return;
    const pipeline = deps.connection.pipeline();
    for (const [type, key] of Object.entries(channel.queue.keys))
      if (!OWN_EXPIRY.has(type)) pipeline.expire(key, DEAD_QUEUE_TTL_SECONDS);
    await pipeline
      .exec()
      .catch((error: unknown) => deps.log.warn({ err: error }, 'could not expire a queue'));
    retire(channel);
  }

  const sweep = setInterval(() => {
    const idleSince = Date.now() - CHANNEL_IDLE_MS;
    for (const channel of channels.values())
      if (channel.inFlight === 0 && channel.lastUsedAt < idleSince) retire(channel);
  }, CHANNEL_SWEEP_EVERY_MS);
  sweep.unref();

  async function isWorkerAlive(workerId: string): Promise<boolean> {
    return (await deps.connection.exists(workerHeartbeatKey(deps.keyPrefix, workerId))) === 1;
  }

  async function send(
    queueName: string,
    command: SessionCommand,
    timeoutMs: number,
    options: SendOptions = {},
  ): Promise<unknown> {
    const channel = acquire(queueName);
    try {
      return await sendOn(channel, command, timeoutMs, options);
    } finally {
      release(channel);
    }
  }

  async function sendOn(
    { queue, events, ready }: QueueChannel,
    command: SessionCommand,
    timeoutMs: number,
    options: SendOptions,
  ): Promise<unknown> {
    await ready;
    options.signal?.throwIfAborted();
    const jobId = randomUUID();
    const onProgress = ({ jobId: id, data }: { jobId: string; data: unknown }) => {
      const progress = id === jobId ? validateProgressSchema.safeParse(data) : undefined;
      if (progress?.success) options.onProgress?.(progress.data);
    };
    if (options.onProgress) events.on('progress', onProgress);
    let watch: NodeJS.Timeout | undefined;
    let finished: Promise<unknown> | undefined;
    let onAbort: (() => void) | undefined;
    try {
      const job = await addJob(queue, SESSION_COMMANDS[command.command], command, { jobId });
      finished = job.waitUntilFinished(events, timeoutMs);
      const workerId = options.workerId;
      const workerGone = workerId
        ? new Promise<never>((_, reject) => {
            let checksWithoutConsumer = 0;
            watch = setInterval(() => {
              void Promise.all([isWorkerAlive(workerId), queue.getWorkersCount().catch(() => 1)]).then(
                ([alive, consumers]) => {
                  // A killed worker's Redis connections close at once, long before its heartbeat
                  // lapses; two checks in a row rule out a living worker that is reconnecting.
                  checksWithoutConsumer = consumers === 0 ? checksWithoutConsumer + 1 : 0;
                  if (!alive || checksWithoutConsumer >= 2) reject(new SessionLostError());
                },
              );
            }, HEARTBEAT_CHECK_MS);
          })
        : undefined;
      const { signal } = options;
      const cancelled = signal
        ? new Promise<never>((_, reject) => {
            // The caller's reason (an AppError): the catch below knows the abort by it.
            onAbort = () => reject(signal.reason as Error);
            if (signal.aborted) onAbort();
            else signal.addEventListener('abort', onAbort, { once: true });
          })
        : undefined;
      return await Promise.race([
        finished,
        ...(workerGone ? [workerGone] : []),
        ...(cancelled ? [cancelled] : []),
      ]);
    } catch (error) {
      if (options.signal?.aborted && error === options.signal.reason) {
        // The worker stops the command; the caller goes on once it did (or the grace ran out).
        await options
          .stop?.()
          .catch((stopError: unknown) =>
            deps.log.warn({ err: stopError }, 'could not stop a session command'),
          );
        await Promise.race([
          finished?.catch(() => undefined),
          new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref()),
        ]);
        throw error;
      }
      if (error instanceof SessionLostError) {
        await queue.remove(jobId).catch(() => undefined);
        throw error;
      }
      const message = error instanceof Error ? error.message : String(error);
      if (/timed out|ttl/i.test(message)) {
        await queue.remove(jobId).catch(() => undefined);
        if (!options.workerId) throw new AppError('SERVICE_UNAVAILABLE', BUILDER_MESSAGES.noWorker);
        throw new SessionLostError();
      }
      throw error;
    } finally {
      clearInterval(watch);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
      if (options.onProgress) events.off('progress', onProgress);
    }
  }

  return {
    /** Opens a live session on whichever worker takes the job. */
    async open(userId: string): Promise<{ workerId: string; sessionId: string }> {
      const answer = parseJobResult(
        SESSION_COMMANDS.open,
        await send(SESSION_QUEUES.open, { command: 'open', userId }, OPEN_TIMEOUT_MS),
      );
      if (!answer.ok) throw new Error(`The worker opened no live session: ${answer.message}`);
      return { workerId: answer.workerId, sessionId: answer.sessionId };
    },

    /**
     * A command to the session's worker. SESSION_LOST answers (and a dead worker) throw
     * SessionLostError; other failures come back as a SessionFailure for the caller to word. An
     * aborted `signal` stops the command on the worker and throws the signal's reason.
     */
    async command<C extends Exclude<SessionCommand, { command: 'open' }>>(
      workerId: string,
      command: C,
      timeoutMs: number,
      onProgress?: (progress: ValidateProgress) => void,
      signal?: AbortSignal,
    ): Promise<SessionCommandResult<C['command']>> {
      if (!(await isWorkerAlive(workerId))) {
        await forgetWorker(workerId);
        throw new SessionLostError();
      }
      const { sessionId, userId } = command;
      let raw: unknown;
      try {
        raw = await send(SESSION_QUEUES.ofWorker(workerId), command, timeoutMs, {
          workerId,
          ...(onProgress ? { onProgress } : {}),
          ...(signal
            ? {
                signal,
                stop: () =>
                  send(SESSION_QUEUES.ofWorker(workerId), { command: 'stop', sessionId, userId }, 10_000, {
                    workerId,
                  }),
              }
            : {}),
        });
      } catch (error) {
        if (error instanceof SessionLostError) await forgetWorker(workerId);
        throw error;
      }
      const name: C['command'] = command.command;
      const answer = parseJobResult(SESSION_COMMANDS[name], raw);
      const outcome: SessionCommandResult<SessionCommandName> = answer;
      if (!outcome.ok && outcome.reason === 'SESSION_LOST') throw new SessionLostError();
      return answer;
    },

    /** Best effort: a session whose worker is gone is already closed. */
    async close(workerId: string, sessionId: string, userId: string): Promise<void> {
      if (!(await isWorkerAlive(workerId))) return forgetWorker(workerId);
      await send(SESSION_QUEUES.ofWorker(workerId), { command: 'close', sessionId, userId }, 10_000, {
        workerId,
      }).catch((error: unknown) => deps.log.warn({ err: error }, 'could not close a live session'));
    },

    async shutdown(): Promise<void> {
      clearInterval(sweep);
      for (const channel of channels.values()) await closeChannel(channel);
      channels.clear();
    },
  };
}
export type SessionCommandClient = ReturnType<typeof createSessionCommandClient>;
