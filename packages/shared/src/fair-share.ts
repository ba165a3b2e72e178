/**
 * Fair shares of a queue's worker slots between users (issue 24). BullMQ has no per-group
 * concurrency, so the product keeps its own tally in Redis, per queue:
 *
 * - `fair:<queue>:running:<userId>`: the user's jobs being processed, a sorted set of
 *   `<slotOwner>|<jobId>` scored by the time (ms) their lease ends (a worker that died drops out
 *   by itself);
 * - `fair:<queue>:waiting:<userId>`: the user's jobs queued and not yet admitted, scored by when
 *   they stop counting (a job whose caller went away and that nobody took lapses);
 * - `fair:<queue>:waiters`: the users who may have a job waiting.
 *
 * At enqueue a job gets a BullMQ priority from its user's jobs in flight (running and waiting),
 * so a newcomer's first job goes before another user's tenth. At start a worker admits the job
 * unless its user already holds the user's share of this worker's slots (its concurrency less
 * one) while another user has a job waiting: that job goes back to wait a moment. Alone on the
 * instance, a user still takes every slot.
 */

/** The queues shared this way. */
export type FairQueue = 'runs' | 'recognition';

/** What the tally needs of a Redis client (ioredis fits; shared stays free of a Redis dependency). */
export interface FairShareRedis {
  eval(script: string, numkeys: number, ...args: (string | number)[]): Promise<unknown>;
}

/** How long a queued run counts as waiting (runs may wait long behind a thousand firings). */
export const RUN_WAIT_TTL_MS = 60 * 60 * 1000;
/** How long a job that was not admitted waits before a worker takes it again. */
export const FAIR_SHARE_RETRY_MS = 500;
/** BullMQ's highest priority number (the lowest priority). */
const PRIORITY_LIMIT = 2_097_151;

function keysOf(keyPrefix: string, queue: FairQueue, userId: string) {
  const base = `${keyPrefix}fair:${queue}:`;
  return {
    running: `${base}running:${userId}`,
    waiting: `${base}waiting:${userId}`,
    waiters: `${base}waiters`,
    waitingOf: `${base}waiting:`,
  };
}

/** The share of a worker's slots one user keeps while others wait: all but one (at least one). */
export function userShareOf(concurrency: number): number {
  return Math.max(1, concurrency - 1);
}

// KEYS: running, waiting, waiters. ARGV: jobId, now, waitTtlMs, userId.
const ENQUEUE_SCRIPT = `
local now = tonumber(ARGV[2])
local expires = now + tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZADD', KEYS[2], expires, ARGV[1])
redis.call('PEXPIREAT', KEYS[2], expires)
redis.call('SADD', KEYS[3], ARGV[4])
redis.call('PEXPIREAT', KEYS[3], expires)
return redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[2])`;

/**
 * Records a job about to be queued; answers its BullMQ priority (1 = first): the number of its
 * user's jobs in flight, this one included.
 */
export async function enqueueFairly(
  redis: FairShareRedis,
  keyPrefix: string,
  queue: FairQueue,
  job: { userId: string; jobId: string; waitTtlMs: number },
): Promise<number> {
  const keys = keysOf(keyPrefix, queue, job.userId);
  const inFlight = Number(
    await redis.eval(
      ENQUEUE_SCRIPT,
      3,
      keys.running,
      keys.waiting,
      keys.waiters,
      job.jobId,
      Date.now(),
      job.waitTtlMs,
      job.userId,
    ),
  );
  return Math.min(PRIORITY_LIMIT, Math.max(1, inFlight));
}

// KEYS: running, waiting, waiters. ARGV: jobId, now, leaseMs, share, userId, slotOwner, waitingOf.
// Answers 1 (admitted) or 0 (another user waits and this one holds its share of the worker).
const ADMIT_SCRIPT = `
local now = tonumber(ARGV[2])
local member = ARGV[6] .. '|' .. ARGV[1]
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local mine = 0
local ownerPrefix = ARGV[6] .. '|'
for _, held in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if held ~= member and string.sub(held, 1, #ownerPrefix) == ownerPrefix then mine = mine + 1 end
end
if mine >= tonumber(ARGV[4]) then
  for _, other in ipairs(redis.call('SMEMBERS', KEYS[3])) do
    if other ~= ARGV[5] then
      local waiting = ARGV[7] .. other
      redis.call('ZREMRANGEBYSCORE', waiting, '-inf', now)
      if redis.call('ZCARD', waiting) > 0 then return 0 end
      redis.call('SREM', KEYS[3], other)
    end
  end
end
redis.call('ZREM', KEYS[2], ARGV[1])
local leaseEnd = now + tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], leaseEnd, member)
local latest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], latest[2])
return 1`;

export interface FairJob {
  userId: string;
  jobId: string;
  /** The worker process whose slot the job takes (its share is counted per worker). */
  slotOwner: string;
}

/**
 * At a job's start: admits it (its lease runs `leaseMs`) unless its user holds `share` of this
 * worker's slots while another user's job waits.
 */
export async function admitFairly(
  redis: FairShareRedis,
  keyPrefix: string,
  queue: FairQueue,
  job: FairJob & { share: number; leaseMs: number },
): Promise<boolean> {
  const keys = keysOf(keyPrefix, queue, job.userId);
  const admitted = await redis.eval(
    ADMIT_SCRIPT,
    3,
    keys.running,
    keys.waiting,
    keys.waiters,
    job.jobId,
    Date.now(),
    job.leaseMs,
    job.share,
    job.userId,
    job.slotOwner,
    keys.waitingOf,
  );
  return Number(admitted) === 1;
}

// KEYS: running. ARGV: member, leaseEnd (0: remove).
const LEASE_SCRIPT = `
if ARGV[2] == '0' then
  redis.call('ZREM', KEYS[1], ARGV[1])
elseif redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) - tonumber(ARGV[3]) then
    redis.call('PEXPIREAT', KEYS[1], ARGV[2])
  end
end
return 1`;

/** Renews an admitted job's lease (a long run), or (`leaseMs` 0) gives its slot back. */
export async function leaseFairly(
  redis: FairShareRedis,
  keyPrefix: string,
  queue: FairQueue,
  job: FairJob & { leaseMs: number },
): Promise<void> {
  const keys = keysOf(keyPrefix, queue, job.userId);
  const now = Date.now();
  await redis.eval(
    LEASE_SCRIPT,
    1,
    keys.running,
    `${job.slotOwner}|${job.jobId}`,
    job.leaseMs === 0 ? 0 : now + job.leaseMs,
    now,
  );
}
