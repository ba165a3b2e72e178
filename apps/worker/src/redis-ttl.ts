import type { Job, QueueBase } from 'bullmq';
import type { Redis } from 'ioredis';

/**
 * Every key the worker leaves in Redis expires (docs/automation-runtime.md "Redis memory"): a
 * job's hash, which holds its payload and answer (previous step values, screenshots), and the
 * keys of the worker's own session queue, which nobody uses once the worker is gone.
 */

/** A finished session command's job: the API reads the answer within a minute of the finish. */
export const SESSION_JOB_TTL_SECONDS = 5 * 60;
/** A finished run's job: the run lives in the database; the job matters only while it executes. */
export const RUN_JOB_TTL_SECONDS = 60 * 60;
/**
 * What the worker's own queue, and a job it is processing, outlive the worker by: both are
 * renewed with every heartbeat while it lives.
 */
export const LEASE_TTL_SECONDS = 10 * 60;

/** Key types BullMQ gives an expiry of its own (rate limits, the stalled-check pause). */
const OWN_EXPIRY = new Set(['', 'stalled-check', 'limiter']);

export function createKeyExpiry(redis: Redis) {
  const processing = new Set<string>();
  const expire = (key: string, seconds: number) => redis.expire(key, seconds).catch(() => 0);

  return {
    /**
     * A finished job's hash expires `ttlSeconds` later: for jobs BullMQ runs in child processes
     * (their processor cannot be wrapped), called from the worker's completed and failed events.
     */
    async expireFinished(job: Job | undefined, ttlSeconds: number): Promise<void> {
      if (job?.id) await expire(`${job.queueQualifiedName}:${job.id}`, ttlSeconds);
    },

    /**
     * Wraps a BullMQ processor: while the job runs its hash is leased (renew), then it expires
     * `ttlSeconds` after the job ended. BullMQ writes the result into the hash afterwards with
     * HSET, which keeps a key's expiry. A job whose worker dies lapses with its lease.
     */
    expiringJobs<T>(ttlSeconds: number, processor: (job: Job) => Promise<T>): (job: Job) => Promise<T> {
      return async (job) => {
        const key = `${job.queueQualifiedName}:${job.id ?? ''}`;
        processing.add(key);
        await expire(key, LEASE_TTL_SECONDS);
        try {
          return await processor(job);
        } finally {
          processing.delete(key);
          await expire(key, ttlSeconds);
        }
      };
    },

    /** Renews the leases: the jobs being processed and every key of the worker's own queues. */
    async renew(ownQueues: readonly QueueBase[]): Promise<void> {
      const pipeline = redis.pipeline();
      for (const key of processing) pipeline.expire(key, LEASE_TTL_SECONDS);
      for (const queue of ownQueues)
        for (const [type, key] of Object.entries(queue.keys))
          if (!OWN_EXPIRY.has(type)) pipeline.expire(key, LEASE_TTL_SECONDS);
      await pipeline.exec();
    },
  };
}
