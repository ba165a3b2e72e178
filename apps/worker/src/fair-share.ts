import { hostname } from 'node:os';
import { DelayedError } from 'bullmq';
import {
  FAIR_SHARE_RETRY_MS,
  admitFairly,
  leaseFairly,
  type FairQueue,
  type FairShareRedis,
} from '@pagewright/shared';

/**
 * Fair shares of this worker's slots (issue 24, packages/shared/src/fair-share.ts): a job starts
 * only once admitted; one whose user already holds its share of the worker while another user
 * waits goes back to wait a moment (BullMQ's manual delay: moveToDelayed, then DelayedError).
 */

/** The worker process a slot belongs to: this process, or (a sandboxed child) its parent. */
export function slotOwnerOf(pid: number): string {
  return `${hostname()}:${pid}`;
}

/** What fairness needs of a job: a BullMQ Job, or the proxy a sandboxed processor gets. */
export interface FairlyRunJob {
  id?: string;
  data: unknown;
  moveToDelayed(timestamp: number, token?: string): Promise<void>;
}

export interface FairShareDeps {
  redis: FairShareRedis;
  keyPrefix: string;
  queue: FairQueue;
  /** This worker process (slotOwnerOf). */
  slotOwner: string;
  /** The slots of this worker one user keeps while others wait (userShareOf(concurrency)). */
  share: number;
  /** How long a slot stays taken without renewal (renewed every third of it while the job runs). */
  leaseMs: number;
  /** Admission could not be checked (Redis away): the job runs anyway. */
  onError: (error: unknown) => void;
}

/** The job's owner, from its payload (jobs queued before issue 24 carry none: they just run). */
function ownerOf(data: unknown): string | undefined {
  const userId = (data as { userId?: unknown } | null)?.userId;
  return typeof userId === 'string' ? userId : undefined;
}

/** Wraps a processor: the job runs in its user's fair share of this worker's slots. */
export function fairly<J extends FairlyRunJob, T>(
  deps: FairShareDeps,
  processor: (job: J, token?: string) => Promise<T>,
): (job: J, token?: string) => Promise<T> {
  const { redis, keyPrefix, queue, slotOwner, share, leaseMs, onError } = deps;
  return async (job, token) => {
    const userId = ownerOf(job.data);
    if (!userId || !job.id) return processor(job, token);
    const slot = { userId, jobId: job.id, slotOwner };
    let isAdmitted = true;
    try {
      isAdmitted = await admitFairly(redis, keyPrefix, queue, { ...slot, share, leaseMs });
    } catch (error) {
      onError(error);
    }
    if (!isAdmitted) {
      await job.moveToDelayed(Date.now() + FAIR_SHARE_RETRY_MS, token);
      throw new DelayedError();
    }
    const renewal = setInterval(
      () => void leaseFairly(redis, keyPrefix, queue, { ...slot, leaseMs }).catch(onError),
      leaseMs / 3,
    );
    try {
      return await processor(job, token);
    } finally {
      clearInterval(renewal);
      await leaseFairly(redis, keyPrefix, queue, { ...slot, leaseMs: 0 }).catch(onError);
    }
  };
}
