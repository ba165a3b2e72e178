import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { ExtractorType } from '@pagewright/shared';
import { useFramePainter, type LiveFrame } from '../../../lib/frame-painter';
import { useLiveEvents } from '../../../lib/live-events';
import { getLiveImage } from '../api/page-calls';

export interface FrameSize {
  /** The page viewport in CSS pixels (what points sent to the API are measured in). */
  width: number;
  height: number;
}

/** How long the page must stay still after a burst of frames before its areas are read again. */
const SETTLED_AFTER_MS = 1_000;

/**
 * Paints the live page into a canvas: pushed `frame` events first, polling GET
 * /extractor/getImageNavigator before the first frame and whenever none came for `pollAfterMs`.
 * Frames are drawn by `useFramePainter` (decoded off-screen, the newest one wins). Counts the
 * frames shown on `data-frames-shown` of `counter` (the builder-view benchmark reads it) without
 * re-rendering React.
 */
export function useLiveFrames(options: {
  extractorType: ExtractorType;
  canvas: RefObject<HTMLCanvasElement | null>;
  counter: RefObject<HTMLElement | null>;
  pollAfterMs: number;
  /** Called once the page has stopped changing after a burst of frames. */
  onSettled: () => void;
}) {
  const { extractorType, canvas, counter, pollAfterMs } = options;
  const [frameSize, setFrameSize] = useState<FrameSize | null>(null);
  const [hasPollFailed, setHasPollFailed] = useState(false);
  const lastFrameAt = useRef(0);
  const shown = useRef(0);
  const sizeRef = useRef<FrameSize | null>(null);
  const settledTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onSettled = useRef(options.onSettled);
  useEffect(() => {
    onSettled.current = options.onSettled;
  }, [options.onSettled]);

  const paint = useFramePainter(canvas);

  const show = useCallback(
    async (frame: LiveFrame) => {
      lastFrameAt.current = Date.now();
      if (!(await paint(frame))) return;
      shown.current += 1;
      counter.current?.setAttribute('data-frames-shown', String(shown.current));
      const size = sizeRef.current;
      if (!size || size.width !== frame.width || size.height !== frame.height) {
        sizeRef.current = { width: frame.width, height: frame.height };
        setFrameSize(sizeRef.current);
      }
    },
    [paint, counter],
  );

  // The user's other builders (another tab, another kind) push frames on the same socket: only
  // this builder's session is shown. Its id comes with every polled picture, so after a lost
  // session the next poll (frames of the new one are ignored until then) picks up the new id.
  const sessionId = useRef<string | null>(null);
  useLiveEvents(['frame'], (event) => {
    if (sessionId.current !== null && event.sessionId !== sessionId.current) return;
    void show({ data: event.data, width: event.width, height: event.height });
    clearTimeout(settledTimer.current);
    settledTimer.current = setTimeout(() => onSettled.current(), SETTLED_AFTER_MS);
  });

  useEffect(() => () => clearTimeout(settledTimer.current), []);

  // The fallback poll: at once (before any frame), then whenever the pushed frames went quiet.
  useEffect(() => {
    let isActive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const poll = async () => {
      if (Date.now() - lastFrameAt.current >= pollAfterMs) {
        try {
          const image = await getLiveImage(extractorType, controller.signal);
          if (!isActive) return;
          sessionId.current = image.sessionId;
          if (Date.now() - lastFrameAt.current >= pollAfterMs)
            void show({ data: image.image, width: image.width, height: image.height });
          setHasPollFailed(false);
        } catch {
          if (isActive) setHasPollFailed(true);
        }
      }
      if (isActive) timer = setTimeout(() => void poll(), pollAfterMs);
    };
    void poll();
    return () => {
      isActive = false;
      clearTimeout(timer);
      controller.abort();
    };
  }, [extractorType, pollAfterMs, show]);

  return { frameSize, hasPollFailed };
}
