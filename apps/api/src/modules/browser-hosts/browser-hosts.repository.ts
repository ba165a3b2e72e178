import type { Redis } from 'ioredis';
import { browserTargetStatusSchema, workerBrowsersKey, type BrowserTier } from '@pagewright/shared';

/** What each live worker last published of its browsers (renewed with its heartbeat, gone with it). */
export function createBrowserHostsRepository(redis: Redis, keyPrefix: string) {
  const pattern = workerBrowsersKey(keyPrefix, '*');
  // `${prefix}worker:<id>:browsers`: the id is what the pattern's '*' matched.
  const [head, tail] = pattern.split('*') as [string, string];
  const workerIdOf = (key: string) => key.slice(head.length, key.length - tail.length);
  return {
    async listWorkers(): Promise<BrowserTier['workers']> {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 200);
        cursor = next;
        keys.push(...found);
      } while (cursor !== '0');
      if (keys.length === 0) return [];
      const values = await redis.mget(...keys);
      return keys.flatMap((key, index) => {
        const parsed = browserTargetStatusSchema.array().safeParse(JSON.parse(values[index] ?? 'null'));
        return parsed.success ? [{ workerId: workerIdOf(key), browsers: parsed.data }] : [];
      });
    },
  };
}
export type BrowserHostsRepository = ReturnType<typeof createBrowserHostsRepository>;
