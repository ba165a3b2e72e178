import type { Page } from 'playwright-core';

export interface ScreencastFrame {
  /** JPEG, base64, as CDP delivers it. */
  data: string;
  width: number;
  height: number;
  timestamp: number;
}

export interface ScreencastOptions {
  quality: number;
  maxWidth: number;
  maxHeight: number;
  /**
   * Send every Nth frame. Keep 1 for live views: a one-off change (a click toggling a colour)
   * produces a single frame, which skipping would hide from the viewer. CPU is bounded instead by
   * size and quality, and by Chromium sending frames only when the page changes.
   */
  everyNthFrame: number;
}

export const DEFAULT_SCREENCAST: ScreencastOptions = {
  quality: 70,
  maxWidth: 1280,
  maxHeight: 800,
  everyNthFrame: 1,
};

/**
 * Streams the page's frames through CDP for as long as the session's page lives (watched or not:
 * see docs/automation-runtime.md, open points). Chromium sends a frame only when the page changes,
 * so a static page costs nothing. Returns the function that stops it.
 */
export async function startScreencast(
  page: Page,
  onFrame: (frame: ScreencastFrame) => void,
  options: ScreencastOptions = DEFAULT_SCREENCAST,
): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Page.screencastFrame', (event) => {
    void cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
    onFrame({
      data: event.data,
      width: Math.round(event.metadata.deviceWidth),
      height: Math.round(event.metadata.deviceHeight),
      timestamp: event.metadata.timestamp ?? Date.now() / 1000,
    });
  });
  await cdp.send('Page.startScreencast', {
    format: 'jpeg',
    quality: options.quality,
    maxWidth: options.maxWidth,
    maxHeight: options.maxHeight,
    everyNthFrame: options.everyNthFrame,
  });
  return async () => {
    await cdp.send('Page.stopScreencast').catch(() => undefined);
    await cdp.detach().catch(() => undefined);
  };
}
