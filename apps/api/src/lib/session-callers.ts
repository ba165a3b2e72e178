import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SessionCaller, SessionLookup } from './session-lookup.js';

interface CachedCaller {
  caller: SessionCaller;
  /** Date.now() past which the entry is read again: its TTL, or its session's end if sooner. */
  freshUntil: number;
}

/**
 * The session check of every request (`findLiveSessionCaller`), remembered for `ttlMs` per session
 * (user, refresh-token family) while the change feed (session-changes.ts) is connected: every write
 * that changes what the check reads forgets the user's entries in every API process at once, so an
 * ended session, a disabled account or a changed password state still takes effect on the next
 * request. While the feed is down nothing is remembered (`setTrusted(false)`): each request reads
 * PostgreSQL, as before the cache, because a change announced meanwhile would not be heard.
 */
export function createSessionCallers(deps: {
  sessions: SessionLookup;
  ttlMs: number;
  /** At most this many sessions are remembered; the oldest users' go first. */
  maxEntries: number;
}) {
  const { sessions, ttlMs, maxEntries } = deps;
  const byUser = new Map<string, Map<string, CachedCaller>>();
  let entries = 0;
  let isTrusted = false;
  /**
   * Counts forgets: a read that started before one may hold what the change replaced, so it is
   * answered but not remembered.
   */
  let generation = 0;

  function forgetAll(): void {
    byUser.clear();
    entries = 0;
    generation += 1;
  }

  function remember(userId: string, familyId: string, caller: SessionCaller): void {
    if (!byUser.get(userId)?.has(familyId)) {
      while (entries >= maxEntries) {
        const oldest = byUser.entries().next().value;
        if (!oldest) break;
        byUser.delete(oldest[0]);
        entries -= oldest[1].size;
      }
      entries += 1;
    }
    const families = byUser.get(userId) ?? new Map<string, CachedCaller>();
    byUser.set(userId, families);
    families.set(familyId, {
      caller,
      freshUntil: Math.min(Date.now() + ttlMs, caller.sessionEndsAt.getTime()),
    });
  }

  return {
    /** The caller behind a live session, or null once it ended (never remembered). */
    async find(userId: string, familyId: string): Promise<SessionCaller | null> {
      const cached = isTrusted ? byUser.get(userId)?.get(familyId) : undefined;
      if (cached && cached.freshUntil > Date.now()) {
        const seenGeneration = generation;
        // A forget another process published before this request was sent may sit unread in this
        // process's socket; one turn of the event loop reads every socket that is ready.
        await nextTurn();
        if (generation === seenGeneration) return cached.caller;
      }
      const startedAt = generation;
      const caller = await sessions.findLiveSessionCaller(userId, familyId);
      if (caller && isTrusted && generation === startedAt && ttlMs > 0) remember(userId, familyId, caller);
      return caller;
    },
    /** A change of the user's sessions or account was heard: the next check reads PostgreSQL. */
    forgetUser(userId: string): void {
      const families = byUser.get(userId);
      if (families) {
        byUser.delete(userId);
        entries -= families.size;
      }
      generation += 1;
    },
    /** Whether changes are heard now; every change of state forgets everything. */
    setTrusted(isHeard: boolean): void {
      isTrusted = isHeard;
      forgetAll();
    },
    isTrusted(): boolean {
      return isTrusted;
    },
    size(): number {
      return entries;
    },
  };
}
export type SessionCallers = ReturnType<typeof createSessionCallers>;
