import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { RUN_MESSAGES, WORKER_STOPPED_ERROR_CODE, publishLiveEvent } from '@pagewright/shared';
import type { RunsQueue } from '../../plugins/queues.js';
import type { RunRepository } from './runs.repository.js';

/** A run younger than this may have its row but not yet its job (execute writes the row first). */
const QUEUEING_GRACE_MS = 10_000;

/**
 * The sweep behind "never EXECUTING forever", in the API so that it runs while no worker does: a
 * run still EXECUTING whose job failed or completed, or is active without its lock (BullMQ's
 * `<job>:lock` lives only while a live worker renews it), ends ERROR with RUN_MESSAGES.workerStopped;
 * one whose job is gone from Redis altogether ends ERROR with RUN_MESSAGES.queueLost (no worker
 * stopped: Redis lost the job). Either way its extractor can be executed again. A run whose job
 * waits in the queue is left alone: it starts when a worker does.
 */
export function createStoppedRunSweep(deps: {
  runs: RunRepository;
  queue: RunsQueue;
  redis: Redis;
  keyPrefix: string;
  /**
   * How often to look (STOPPED_RUN_SWEEP_SECONDS). A dead worker's lock lapses within the worker's
   * RUN_LOCK_SECONDS (30 s by default), so its run ends ERROR within about 40 s.
   */
  sweepEveryMs: number;
  log: FastifyBaseLogger;
}) {
  const { runs, queue, redis, keyPrefix, sweepEveryMs, log } = deps;

  /** Why the run of this job can no longer finish, or undefined while it still can. */
  async function stopReason(jobId: string): Promise<string | undefined> {
    const job = await queue.getJob(jobId);
    if (!job) return RUN_MESSAGES.queueLost;
    const state = await job.getState();
    const hasStopped =
      state === 'active'
        ? (await redis.exists(queue.toKey(`${jobId}:lock`))) === 0
        : state === 'failed' || state === 'completed' || state === 'unknown';
    return hasStopped ? RUN_MESSAGES.workerStopped : undefined;
  }

  /** One pass; answers how many runs it ended. */
  async function sweep(): Promise<number> {
    const candidates = await runs.executingQueuedRuns(new Date(Date.now() - QUEUEING_GRACE_MS));
    let ended = 0;
    for (const run of candidates) {
      const reason = await stopReason(run.jobId ?? run.id);
      if (reason === undefined) continue;
      if (!(await runs.endRunInError(run.id, WORKER_STOPPED_ERROR_CODE, reason))) continue;
      ended += 1;
      log.warn({ runId: run.id, extractorId: run.extractorId, reason }, 'run ended ERROR: it cannot finish');
      await publishLiveEvent(redis, keyPrefix, run.userId, {
        type: 'run-status',
        extractorId: run.extractorId,
        runId: run.id,
        status: 'ERROR',
        errorMessage: reason,
      }).catch((error: unknown) => log.warn({ err: error, runId: run.id }, 'could not publish a run status'));
    }
    return ended;
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  return {
    sweep,
    start() {
      timer = setInterval(() => {
        // A pass slower than the interval (Redis or PostgreSQL struggling) is not doubled up.
        running ??= sweep()
          .catch((error: unknown) => log.error({ err: error }, 'stopped-run sweep failed'))
          .finally(() => (running = undefined));
      }, sweepEveryMs);
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
