import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import type { BrowserPool } from '../browser-pool.js';

export interface LiveSession {
  id: string;
  userId: string;
  context: BrowserContext;
  page: Page;
  lastActivityAt: number;
}

export type SessionEndReason = 'closed' | 'idle' | 'lost';

export interface LiveSessionRegistryOptions {
  pool: BrowserPool;
  idleTimeoutMs: number;
  onSessionEnded?: (session: LiveSession, reason: SessionEndReason) => void;
}

/**
 * The live builder and navigator sessions this worker owns. A session is looked up together with
 * its owner, so one user's command can never reach another user's page. Sessions idle for longer
 * than idleTimeoutMs are closed; when Chromium dies they end as 'lost' instead of hanging.
 */
export function createLiveSessionRegistry({
  pool,
  idleTimeoutMs,
  onSessionEnded,
}: LiveSessionRegistryOptions) {
  const sessions = new Map<string, LiveSession>();

  function end(session: LiveSession, reason: SessionEndReason): void {
    if (!sessions.delete(session.id)) return;
    onSessionEnded?.(session, reason);
  }

  pool.onBrowserLost(() => {
    for (const session of [...sessions.values()]) end(session, 'lost');
  });

  return {
    async open(userId: string): Promise<LiveSession> {
      const context = await pool.newContext();
      const page = await context.newPage();
      const session: LiveSession = { id: randomUUID(), userId, context, page, lastActivityAt: Date.now() };
      sessions.set(session.id, session);
      // A context closed underneath us (crash of its renderer, pool shutdown) ends the session.
      context.on('close', () => end(session, 'lost'));
      return session;
    },
    /** The session if it exists and belongs to userId; marks it active. */
    use(sessionId: string, userId: string): LiveSession | undefined {
      const session = sessions.get(sessionId);
      if (!session || session.userId !== userId) return undefined;
      session.lastActivityAt = Date.now();
      return session;
    },
    async close(sessionId: string, userId: string): Promise<boolean> {
      const session = sessions.get(sessionId);
      if (!session || session.userId !== userId) return false;
      end(session, 'closed');
      await session.context.close().catch(() => undefined);
      return true;
    },
    async closeIdle(now = Date.now()): Promise<number> {
      const idle = [...sessions.values()].filter((s) => now - s.lastActivityAt > idleTimeoutMs);
      for (const session of idle) {
        end(session, 'idle');
        await session.context.close().catch(() => undefined);
      }
      return idle.length;
    },
    count(): number {
      return sessions.size;
    },
  };
}
export type LiveSessionRegistry = ReturnType<typeof createLiveSessionRegistry>;
