import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import { MESSAGES } from '@pagewright/shared';
import { AppError } from './app-error.js';

/** A draft as read, with the version an update must still find to write over it. */
export interface Versioned<T> {
  value: T;
  version: number;
}

/**
 * Reads a draft and renews its expiry. A draft written before versions (a plain JSON string)
 * becomes a hash of version 0 in place, so a deploy ends no wizard.
 */
const READ = `
local kind = redis.call('TYPE', KEYS[1]).ok
if kind == 'none' then return false end
if kind == 'string' then
  local raw = redis.call('GET', KEYS[1])
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'value', raw, 'version', '0')
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return redis.call('HMGET', KEYS[1], 'value', 'version')`;

/** Replaces the draft whatever it was (a wizard opened anew); its version still grows. */
const PUT = `
if redis.call('TYPE', KEYS[1]).ok ~= 'hash' then redis.call('DEL', KEYS[1]) end
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'value', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return version`;

/** Compare-and-set: writes only over the version that was read; 0 when another write came first. */
const WRITE_IF_VERSION = `
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'value', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return version`;

/** Deletes the draft only if it is still the version that was read. */
const DROP_IF_VERSION = `
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])`;

/** A Lua script run by its SHA (loaded again after a Redis restart). */
function luaScript(redis: Redis, lua: string) {
  const sha = createHash('sha1').update(lua).digest('hex');
  return async (key: string, args: (string | number)[]): Promise<unknown> => {
    try {
      return await redis.evalsha(sha, 1, key, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(lua, 1, key, ...args);
    }
  };
}

export interface DraftStoreOptions<T> {
  schema: z.ZodType<T>;
  /** A draft left alone this long is forgotten; every read and write renews it. */
  ttlMs: number;
  /** What a caller is told when there is no draft (it ended, or was never opened). */
  missing: () => Error;
  /** What a caller is told when the draft at `key` no longer reads (a deploy changed its shape). */
  unreadable: (key: string, issues: readonly { path: readonly PropertyKey[]; code: string }[]) => Error;
}

/**
 * A wizard's draft in Redis under a key of the caller's (docs/decisions.md, issue 24): a hash of
 * the JSON value and a version. `update` is read, change, compare-and-set on the version read; a
 * write that came in between (a second tab, a double click) makes it read and change again, once,
 * so neither edit is lost; a second conflict answers 409 in a sentence rather than drop one.
 */
export function createDraftStore<T>(redis: Redis, options: DraftStoreOptions<T>) {
  const { schema, ttlMs } = options;
  const read = luaScript(redis, READ);
  const put = luaScript(redis, PUT);
  const writeIfVersion = luaScript(redis, WRITE_IF_VERSION);
  const dropIfVersion = luaScript(redis, DROP_IF_VERSION);

  function parse(raw: string) {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return { issues: [{ path: [], code: 'invalid_json' }] };
    }
    const parsed = schema.safeParse(json);
    return parsed.success ? { value: parsed.data } : { issues: parsed.error.issues };
  }

  /** The stored draft, renewed, parsed or with where it does not read. */
  async function readParsed(key: string) {
    const found = (await read(key, [ttlMs])) as [string | null, string | null] | null;
    if (!found?.[0]) return null;
    return { ...parse(found[0]), version: Number(found[1] ?? 0) };
  }

  async function get(key: string): Promise<Versioned<T> | null> {
    const found = await readParsed(key);
    if (!found) return null;
    if (!('value' in found)) throw options.unreadable(key, found.issues);
    return { value: found.value as T, version: found.version };
  }

  return {
    get,

    /** Writes a new draft over whatever was there (opening a wizard). */
    async put(key: string, value: T): Promise<void> {
      await put(key, [JSON.stringify(value), ttlMs]);
    },

    /**
     * Changes the draft with `change` (which may check, and throw) and writes the result only over
     * the version it read; returns what was written. On a conflict it reads and changes again once.
     */
    async update(key: string, change: (current: T) => T | Promise<T>): Promise<T> {
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        const current = await get(key);
        if (!current) throw options.missing();
        const next = await change(current.value);
        const written = await writeIfVersion(key, [current.version, JSON.stringify(next), ttlMs]);
        if (Number(written) > 0) return next;
      }
      throw new AppError('CONFLICT', MESSAGES['draft.changed.meanwhile']);
    },

    async drop(key: string): Promise<void> {
      await redis.del(key);
    },

    /**
     * Drops the draft if `isDoomed` says so of the version read (and it is unchanged since); one that
     * does not read is left for its owner's next call to refuse.
     */
    async dropIf(key: string, isDoomed: (value: T) => boolean): Promise<void> {
      const current = await readParsed(key);
      if (current && 'value' in current && isDoomed(current.value as T))
        await dropIfVersion(key, [current.version]);
    },
  };
}
