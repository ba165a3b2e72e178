import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import type { DialogAnswer, PageDialog } from '@pagewright/shared';
import type { BrowserPool } from '../browser-pool.js';
import type { EngineSession } from '../fengine/engine-session.js';

export interface LiveSession {
  id: string;
  userId: string;
  context: BrowserContext;
  page: Page;
  lastActivityAt: number;
  /** Set while one long command (a validation) owns the page: the idle sweep leaves it alone. */
  isBusy: boolean;
  /** The JavaScript dialog the page shows while a recorded step waits for the operator's answer. */
  pendingDialog?: { dialog: PageDialog; answer: (answer: DialogAnswer | undefined) => void } | undefined;
  /** The F-engine the recording signed in to (its sign-in asks), kept while the session lives. */
  engine?: EngineSession | undefined;
}

export type SessionEndReason = 'closed' | 'idle' | 'lost';

export interface LiveSessionRegistryOptions {
  pool: BrowserPool;
  idleTimeoutMs: number;
  onSessionEnded?: (session: LiveSession, reason: SessionEndReason) => void;
  /** A session got a page (opened, or its context replaced): start watching it. */
  onPageAttached?: (session: LiveSession) => void;
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
  onPageAttached,
}: LiveSessionRegistryOptions) {
  const sessions = new Map<string, LiveSession>();

  function end(session: LiveSession, reason: SessionEndReason): void {
    if (!sessions.delete(session.id)) return;
    session.pendingDialog?.answer(undefined);
    onSessionEnded?.(session, reason);
  }

  function watchContext(session: LiveSession, context: BrowserContext): void {
    // A context closed underneath us (renderer crash, pool shutdown) ends the session; a context
    // the session replaced on purpose does not.
    context.on('close', () => {
      if (session.context === context) end(session, 'lost');
    });
  }

  // Only the sessions in the browser that went away: the worker's other browsers (hosts) go on.
  pool.onBrowserLost((_reason, browser) => {
    for (const session of [...sessions.values()])
      if (session.context.browser() === browser) end(session, 'lost');
  });

  return {
    async open(userId: string): Promise<LiveSession> {
      const context = await pool.newContext();
      const page = await context.newPage();
      const session: LiveSession = {
        id: randomUUID(),
        userId,
        context,
        page,
        lastActivityAt: Date.now(),
        isBusy: false,
      };
      sessions.set(session.id, session);
      watchContext(session, context);
      onPageAttached?.(session);
      return session;
    },
    /**
     * Gives the session a fresh context and page (a validation ran the flow from scratch in it)
     * and closes the old one; the session id, and so the builder, stays the same.
     */
    async replaceContext(session: LiveSession, context: BrowserContext, page: Page): Promise<void> {
      const previous = session.context;
      session.context = context;
      session.page = page;
      watchContext(session, context);
      onPageAttached?.(session);
      await previous.close().catch(() => undefined);
    },
    /** The session if it exists and belongs to userId; marks it active. */
    use(sessionId: string, userId: string): LiveSession | undefined {
      const session = sessions.get(sessionId);
      if (!session || session.userId !== userId) return undefined;
      session.lastActivityAt = Date.now();
      return session;
    },
    /**
     * The session if it exists and belongs to userId, without marking it active: a screen-share
     * viewer's reads must not keep a page its owner left from closing when idle.
     */
    peek(sessionId: string, userId: string): LiveSession | undefined {
      const session = sessions.get(sessionId);
      return session && session.userId === userId ? session : undefined;
    },
    async close(sessionId: string, userId: string): Promise<boolean> {
      const session = sessions.get(sessionId);
      if (!session || session.userId !== userId) return false;
      end(session, 'closed');
      await session.context.close().catch(() => undefined);
      return true;
    },
    async closeIdle(now = Date.now()): Promise<number> {
      const idle = [...sessions.values()].filter((s) => !s.isBusy && now - s.lastActivityAt > idleTimeoutMs);
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
