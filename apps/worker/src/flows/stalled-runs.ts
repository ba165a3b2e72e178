import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { publishLiveEvent, RUN_MESSAGES } from '@pagewright/shared';
import type { RunStore } from './run-store.js';

/** A run younger than this may have its row but not yet its job (the API writes the row first). */
const QUEUEING_GRACE_MS = 10_000;

export interface StalledRunsDeps {
  store: RunStore;
  queue: Queue;
  redis: Redis;
  keyPrefix: string;
  log: Logger;
}

/**
 * Ends a run whose worker stopped before it finished: ERROR with RUN_MESSAGES.workerStopped, the
 * extractor's status and error message, and a run-status event. Nothing happens when the run had
 * already ended.
 */
export async function failStoppedRun(deps: StalledRunsDeps, runId: string): Promise<void> {
  const hasEnded = await deps.store.finishRun(runId, {
    status: 'ERROR',
    errorMessage: RUN_MESSAGES.workerStopped,
  });
  if (!hasEnded) return;
  deps.log.warn({ runId }, 'run ended ERROR: its worker stopped before it finished');
  const owner = await deps.store.findRunOwner(runId);
  if (!owner) return;
  await publishLiveEvent(deps.redis, deps.keyPrefix, owner.userId, {
    type: 'run-status',
    extractorId: owner.extractorId,
    runId,
    status: 'ERROR',
    errorMessage: RUN_MESSAGES.workerStopped,
  });
}

/**
 * The sweep behind "never EXECUTING forever": a run still EXECUTING whose job is gone, failed,
 * completed, or active without a lock (its worker died and the lock expired, before BullMQ's own
 * stalled check fails it) is ended by failStoppedRun. Runs on every worker at start and then
 * periodically, so a dead worker's runs are ended by whichever worker is alive.
 */
export async function sweepStoppedRuns(deps: StalledRunsDeps): Promise<number> {
  const candidates = await deps.store.executingQueuedRuns(new Date(Date.now() - QUEUEING_GRACE_MS));
  let ended = 0;
  for (const run of candidates) {
    const jobId = run.jobId ?? run.id;
    const job = await deps.queue.getJob(jobId);
    const state = job ? await job.getState() : 'missing';
    let isStopped = state === 'missing' || state === 'failed' || state === 'completed' || state === 'unknown';
    if (state === 'active') {
      // BullMQ's lock key (`<queue key>:<job id>:lock`) exists while a live worker renews it.
      isStopped = (await deps.redis.exists(deps.queue.toKey(`${jobId}:lock`))) === 0;
    }
    if (!isStopped) continue;
    await failStoppedRun(deps, run.id);
    ended += 1;
  }
  return ended;
}
