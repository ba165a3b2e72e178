import { useCallback, useRef, type RefObject } from 'react';

/** One picture of a live page. */
export interface LiveFrame {
  /** JPEG, base64. */
  data: string;
  /** The page viewport the picture shows, in CSS pixels. */
  width: number;
  height: number;
}

interface Pending {
  frame: LiveFrame;
  settle: (isShown: boolean) => void;
}

/**
 * Paints live frames into a canvas (the builder's page view, the screen-share viewer): each
 * frame is decoded off-screen and drawn in one go (no blank picture in between, no remount);
 * frames that arrive while one is decoding replace each other, so a slow tab shows the newest
 * picture instead of falling behind. `paint` (stable for the life of the component) resolves
 * true once its frame is on the canvas, false when a newer one replaced it or it did not decode.
 */
export function useFramePainter(
  canvas: RefObject<HTMLCanvasElement | null>,
): (frame: LiveFrame) => Promise<boolean> {
  const next = useRef<Pending | null>(null);
  const isDrawing = useRef(false);

  const draw = useCallback(async () => {
    if (isDrawing.current) return;
    isDrawing.current = true;
    try {
      for (let pending = next.current; pending; pending = next.current) {
        next.current = null;
        const image = new Image();
        image.src = `data:image/jpeg;base64,${pending.frame.data}`;
        try {
          await image.decode();
        } catch {
          pending.settle(false);
          continue;
        }
        const target = canvas.current;
        const context = target?.getContext('2d');
        if (!target || !context) {
          pending.settle(false);
          continue;
        }
        if (target.width !== image.naturalWidth) target.width = image.naturalWidth;
        if (target.height !== image.naturalHeight) target.height = image.naturalHeight;
        context.drawImage(image, 0, 0);
        pending.settle(true);
      }
    } finally {
      isDrawing.current = false;
    }
  }, [canvas]);

  return useCallback(
    (frame: LiveFrame) =>
      new Promise<boolean>((settle) => {
        next.current?.settle(false);
        next.current = { frame, settle };
        void draw();
      }),
    [draw],
  );
}
