import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { publishLiveEvent } from '@pagewright/shared';
import type { LiveSession } from './live-session-registry.js';
import { startScreencast, type ScreencastFrame } from './screencast.js';

/**
 * Frames go out at most this often per session. The first frame after a quiet spell goes out at
 * once (click-to-frame latency stays one frame); a burst (an animation) is thinned to ~10 fps with
 * the last frame always sent, so the viewer never stays on a stale picture.
 */
const MIN_FRAME_INTERVAL_MS = 100;

interface View {
  stop: () => Promise<void>;
  latest?: ScreencastFrame;
}

/**
 * The live picture of each session: a CDP screencast of its page whose frames are published to the
 * owner's live channel (`frame` events) and whose latest frame answers image polls
 * (getImageNavigator) without taking a screenshot.
 */
export function createLiveViews(deps: { redis: Redis; keyPrefix: string; log: Logger }) {
  const views = new Map<string, View>();

  async function attach(session: LiveSession): Promise<void> {
    await detach(session.id);
    const view: View = { stop: () => Promise.resolve() };
    views.set(session.id, view);
    let lastSentAt = 0;
    let trailing: NodeJS.Timeout | undefined;
    const send = (frame: ScreencastFrame) => {
      lastSentAt = Date.now();
      void publishLiveEvent(deps.redis, deps.keyPrefix, session.userId, {
        type: 'frame',
        sessionId: session.id,
        data: frame.data,
        width: frame.width,
        height: frame.height,
      }).catch((error: unknown) => deps.log.warn({ err: error }, 'could not publish a frame'));
    };
    try {
      const stopScreencast = await startScreencast(session.page, (frame) => {
        view.latest = frame;
        clearTimeout(trailing);
        const wait = MIN_FRAME_INTERVAL_MS - (Date.now() - lastSentAt);
        if (wait <= 0) send(frame);
        else trailing = setTimeout(() => view.latest && send(view.latest), wait);
      });
      view.stop = async () => {
        clearTimeout(trailing);
        await stopScreencast();
      };
    } catch (error) {
      deps.log.warn({ err: error, sessionId: session.id }, 'screencast did not start');
    }
  }

  async function detach(sessionId: string): Promise<void> {
    const view = views.get(sessionId);
    views.delete(sessionId);
    await view?.stop();
  }

  return {
    attach,
    detach,
    /** The last frame the page painted, if it painted since the view started. */
    latestFrame(sessionId: string): ScreencastFrame | undefined {
      return views.get(sessionId)?.latest;
    },
  };
}
export type LiveViews = ReturnType<typeof createLiveViews>;
