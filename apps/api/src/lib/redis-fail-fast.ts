import type { RedisOptions } from 'ioredis';

/**
 * Options of the API's request-time Redis connections: while Redis is down a command fails at
 * once (no offline queue holding it until Redis returns) and one that gets no answer fails after
 * 1.5 s, so a request is answered 503 within 2 s instead of hanging. Only connections that block by
 * design (BullMQ workers, waiting on a job's answer) keep ioredis's patient defaults.
 */
export const FAIL_FAST_REDIS_OPTIONS = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 1_500,
  connectTimeout: 2_000,
} as const satisfies RedisOptions;

/** ioredis's errors for a Redis it cannot reach in time (they carry no class or code of their own). */
const UNAVAILABLE_MESSAGES: ReadonlySet<string> = new Set([
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Command timed out',
  'Connection is closed.',
]);

/** Whether `error` says Redis cannot be reached now (the error handler answers it 503). */
export function isRedisUnavailable(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'MaxRetriesPerRequestError' || UNAVAILABLE_MESSAGES.has(error.message))
  );
}
