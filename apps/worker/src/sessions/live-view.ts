import type { Redis } from 'ioredis';
import type { Page } from 'playwright-core';
import type { Logger } from 'pino';
import { type PageFrame, pageFrames } from '@pagewright/automation';
import { countLiveWatchers, livePresenceChannel, publishLiveEvent } from '@pagewright/shared';
import type { LiveSession } from './live-session-registry.js';

/**
 * Frames go out at most this often per session (~30 fps). The first frame after a quiet spell
 * goes out at once (click-to-frame latency stays one frame); a burst (an animation) is thinned,
 * the last frame always sent, so the viewer never stays on a stale picture.
 */
const MIN_FRAME_INTERVAL_MS = 33;
/**
 * Watcher leases run out when an API process dies without saying so: the watched state of every
 * user with a session here is read again this often, besides on every presence message.
 */
const PRESENCE_RECHECK_MS = 10_000;

interface View {
  session: LiveSession;
  page: Page;
  stopListening: () => void;
  /** Set while the owner watches: lets go of the page's screencast. */
  release?: (() => Promise<void>) | undefined;
  trailing?: NodeJS.Timeout | undefined;
  lastSentAt: number;
}

/**
 * The live picture of each session: the frames of its page (one screencast, shared with the step
 * pictures of a validation) published to the owner's live channel as `frame` events, and the
 * latest frame answering image polls (getImageNavigator) without a screenshot.
 *
 * A page is streamed only while its owner watches: some socket of theirs, on any API process,
 * asks for frames (liveWatchersKey). The API publishes on livePresenceChannel when that changes;
 * with nobody watching there is no screencast and no frame (a running flow still holds the
 * screencast for its own step pictures, but nothing is published).
 */
export function createLiveViews(deps: { redis: Redis; keyPrefix: string; log: Logger }) {
  const views = new Map<string, View>();
  const presence = deps.redis.duplicate({ lazyConnect: true });
  let recheck: NodeJS.Timeout | undefined;

  function publish(view: View, frame: PageFrame): void {
    view.lastSentAt = Date.now();
    void publishLiveEvent(deps.redis, deps.keyPrefix, view.session.userId, {
      type: 'frame',
      sessionId: view.session.id,
      data: frame.data,
      width: frame.width,
      height: frame.height,
    }).catch((error: unknown) => deps.log.warn({ err: error }, 'could not publish a frame'));
  }

  function onFrame(view: View, frame: PageFrame): void {
    if (!view.release) return; // nobody watches: the frames are a flow's, for its pictures
    clearTimeout(view.trailing);
    const wait = MIN_FRAME_INTERVAL_MS - (Date.now() - view.lastSentAt);
    if (wait <= 0) publish(view, frame);
    else
      view.trailing = setTimeout(() => {
        const latest = pageFrames(view.page).latestFrame();
        if (latest && view.release) publish(view, latest);
      }, wait);
  }

  function setWatched(view: View, isWatched: boolean): void {
    if (isWatched && !view.release) {
      view.release = pageFrames(view.page).hold();
      deps.log.info({ sessionId: view.session.id }, 'live view streaming');
    } else if (!isWatched && view.release) {
      deps.log.info({ sessionId: view.session.id }, 'live view paused: nobody watches');
      const release = view.release;
      view.release = undefined;
      clearTimeout(view.trailing);
      void release();
    }
  }

  async function refresh(userId: string): Promise<void> {
    const own = [...views.values()].filter((view) => view.session.userId === userId);
    if (own.length === 0) return;
    const watchers = await countLiveWatchers(deps.redis, deps.keyPrefix, userId).catch((error: unknown) => {
      deps.log.warn({ err: error }, 'could not read live watchers');
      return 1; // unknown: keep streaming rather than leave a watcher on a frozen picture
    });
    for (const view of own) if (views.get(view.session.id) === view) setWatched(view, watchers > 0);
  }

  async function detach(sessionId: string): Promise<void> {
    const view = views.get(sessionId);
    views.delete(sessionId);
    if (!view) return;
    view.stopListening();
    clearTimeout(view.trailing);
    await view.release?.();
  }

  return {
    /** Listens to presence changes (call once, at worker start). */
    async start(): Promise<void> {
      presence.on('message', (_channel: string, userId: string) => void refresh(userId));
      await presence.connect();
      await presence.subscribe(livePresenceChannel(deps.keyPrefix));
      recheck = setInterval(() => {
        for (const userId of new Set([...views.values()].map((view) => view.session.userId)))
          void refresh(userId);
      }, PRESENCE_RECHECK_MS);
    },
    async stop(): Promise<void> {
      clearInterval(recheck);
      for (const sessionId of [...views.keys()]) await detach(sessionId);
      presence.disconnect();
    },
    /** A session got a page (opened, or its context replaced by a validation). */
    async attach(session: LiveSession): Promise<void> {
      await detach(session.id);
      const view: View = {
        session,
        page: session.page,
        stopListening: () => undefined,
        lastSentAt: 0,
      };
      view.stopListening = pageFrames(session.page).onFrame((frame) => onFrame(view, frame));
      views.set(session.id, view);
      await refresh(session.userId);
    },
    detach,
    /** The last frame the page painted, while its screencast runs. */
    latestFrame(sessionId: string): PageFrame | undefined {
      const view = views.get(sessionId);
      return view ? pageFrames(view.page).latestFrame() : undefined;
    },
    /** Whether the session's page is streamed now (its owner watches). */
    isStreaming(sessionId: string): boolean {
      return Boolean(views.get(sessionId)?.release);
    },
  };
}
export type LiveViews = ReturnType<typeof createLiveViews>;
