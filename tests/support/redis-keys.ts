import type { Redis } from 'ioredis';

/**
 * Keys a deployment keeps for as long as it runs: the bookkeeping of its shared queues (a few
 * small keys each, bounded by BullMQ's own trimming), the maintenance queue's schedule, the mail
 * outbox's re-queue schedule and the job
 * schedulers of users' schedulers (one per scheduler, removed with it). Everything else a builder
 * or a run writes must expire.
 */
const PERMANENT = [
  /^bull:pagewright-maintenance:/u,
  /^bull:pagewright-(runs|session-open|schedules|mail|recognition|fengine-import|webhooks|bulk-runs):(meta|id|events|completed|failed|wait|active|paused|prioritized|delayed|stalled|marker|pc|de)$/u,
  /^bull:pagewright-schedules:repeat(:scheduler:[0-9a-f-]+(:\d+)?)?$/u,
  // The message outbox's periodic re-queue (issue 24), a job scheduler on the mail queue.
  /^bull:pagewright-mail:repeat(:requeue-pending-message-mails(:\d+)?)?$/u,
  // The F-engine import sweep (issue 25), a job scheduler on the import queue.
  /^bull:pagewright-fengine-import:repeat(:fengine-import-sweep(:\d+)?)?$/u,
  // The bulk-run sweep (issue 26), a job scheduler on the bulk-run queue.
  /^bull:pagewright-bulk-runs:repeat(:sweep-bulk-runs(:\d+)?)?$/u,
];

/** Keys under `prefix` that have no expiry (TTL -1), besides the permanent ones above. */
export async function keysWithoutExpiry(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  const lasting: string[] = [];
  for (const key of keys) {
    const name = key.slice(prefix.length);
    if (PERMANENT.some((pattern) => pattern.test(name))) continue;
    if ((await redis.ttl(key)) === -1) lasting.push(name);
  }
  return lasting.sort();
}

/** Test key prefixes older than this are left from a run that was killed (as test-database.ts). */
const LEFTOVER_PREFIX_AFTER_MS = 12 * 60 * 60 * 1000;
/** A stack's prefix is `pagewright-test:<its database>:`, the database named with its creation time. */
const TEST_PREFIX = /^pagewright-test:pagewright_(?:test|unit)_(\d{13})_[0-9a-f]{6}:/u;
let leftoverPrefixesSwept = false;

async function deleteMatching(redis: Redis, pattern: string, keep: (key: string) => boolean): Promise<void> {
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    const doomed = batch.filter((key) => !keep(key));
    if (doomed.length > 0) await redis.unlink(...doomed);
  } while (cursor !== '0');
}

/**
 * Deletes a stopped stack's keys, and once per process the keys of stacks a killed run left:
 * Redis keeps them in memory, and a machine that runs the suite every day would fill up (the
 * databases beside them are swept the same way). Best effort: the stack's Redis may be gone.
 */
export async function deleteStackKeys(redisUrl: string, prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await deleteMatching(redis, `${prefix}*`, () => false);
    if (!leftoverPrefixesSwept) {
      leftoverPrefixesSwept = true;
      await deleteMatching(redis, 'pagewright-test:pagewright_*', (key) => {
        const createdAt = TEST_PREFIX.exec(key)?.[1];
        return createdAt === undefined || Date.now() - Number(createdAt) <= LEFTOVER_PREFIX_AFTER_MS;
      });
    }
  } catch {
    // A stack with a Redis of its own has usually stopped it already: nothing to delete.
  } finally {
    redis.disconnect();
  }
}
