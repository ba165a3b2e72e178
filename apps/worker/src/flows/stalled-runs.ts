import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { publishLiveEvent, RUN_MESSAGES, WORKER_STOPPED_ERROR_CODE } from '@pagewright/shared';
import type { RunStore } from './run-store.js';

export interface StalledRunsDeps {
  store: RunStore;
  redis: Redis;
  keyPrefix: string;
  log: Logger;
}

/**
 * Ends a run whose job failed outside the flow (its processor threw, or BullMQ's stalled check
 * found its worker gone): ERROR with RUN_MESSAGES.workerStopped, the extractor's status and error
 * message, and a run-status event. Nothing happens when the run had already ended. Runs whose
 * worker died while no other worker runs are ended by the API's stopped-run sweep.
 */
export async function failStoppedRun(deps: StalledRunsDeps, runId: string): Promise<void> {
  const hasEnded = await deps.store.finishRun(runId, {
    status: 'ERROR',
    errorCode: WORKER_STOPPED_ERROR_CODE,
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
