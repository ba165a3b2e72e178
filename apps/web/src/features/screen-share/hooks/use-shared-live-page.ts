import { useEffect, useState, useSyncExternalStore, type RefObject } from 'react';
import {
  SCREEN_SHARE_LIVE_POLL_MS,
  SCREEN_SHARE_POLL_AFTER_FAILURE_MS,
  SCREEN_SHARE_POLL_MS,
} from '@pagewright/shared';
import { isApiError } from '../../../lib/api-client';
import { useFramePainter } from '../../../lib/frame-painter';
import { getSharedLiveFrame } from '../api/get-live-frame';

/**
 * `waiting` until the first frame is on the canvas (or the API says there is no live page),
 * `live` while frames are shown, `none` while the shared session has no live page.
 */
export type SharedLivePageState = 'waiting' | 'live' | 'none';

function subscribeToVisibility(onChange: () => void): () => void {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}
const isDocumentVisible = () => document.visibilityState === 'visible';

/**
 * The shared session's live page, painted into `canvas` the way the builder paints its own
 * (issue 22: the latest step's picture is taken as the step ends, before a late page has
 * rendered). The viewer has no account and so no live socket: it reads the latest frame every
 * SCREEN_SHARE_LIVE_POLL_MS while its tab is visible, one read at a time. Read-only: nothing is
 * ever sent to the page. After "no live page" (404) it asks again every SCREEN_SHARE_POLL_MS,
 * after another failure every SCREEN_SHARE_POLL_AFTER_FAILURE_MS, the last frame kept on screen.
 */
export function useSharedLivePage(
  token: string,
  canvas: RefObject<HTMLCanvasElement | null>,
): SharedLivePageState {
  const [state, setState] = useState<SharedLivePageState>('waiting');
  const isVisible = useSyncExternalStore(subscribeToVisibility, isDocumentVisible);
  const paint = useFramePainter(canvas);

  useEffect(() => {
    if (!isVisible) return;
    let isActive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const poll = async () => {
      let nextInMs = SCREEN_SHARE_LIVE_POLL_MS;
      try {
        const frame = await getSharedLiveFrame(token, controller.signal);
        if (!isActive) return;
        void paint({ data: frame.image, width: frame.width, height: frame.height }).then((isShown) => {
          if (isShown && isActive) setState('live');
        });
      } catch (error) {
        if (!isActive) return;
        if (isApiError(error, 404)) {
          setState('none');
          nextInMs = SCREEN_SHARE_POLL_MS;
        } else nextInMs = SCREEN_SHARE_POLL_AFTER_FAILURE_MS;
      }
      timer = setTimeout(() => void poll(), nextInMs);
    };
    void poll();
    return () => {
      isActive = false;
      clearTimeout(timer);
      controller.abort();
    };
  }, [token, isVisible, paint]);

  return state;
}
