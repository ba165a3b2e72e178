import type { CDPSession, Page } from 'playwright-core';

/** One picture of the page as Chromium painted it (a CDP screencast frame). */
export interface PageFrame {
  /** JPEG, base64, as CDP delivers it. */
  data: string;
  /** The viewport the frame shows, in CSS pixels. */
  width: number;
  height: number;
  /**
   * When it reached this process (Date.now()). Chromium's own frame timestamp is no help in
   * ordering frames against the flow: here it ran up to 100 ms off either way.
   */
  receivedAt: number;
}

/** JPEG quality of frames: the live view and the step pictures share them. */
export const FRAME_JPEG_QUALITY = 70;

type Waiter = { after: number; onFrame: (frame: PageFrame) => void; timer: NodeJS.Timeout };

/**
 * The frames Chromium paints for a page, from one CDP screencast shared by everyone who needs
 * them (the live view while someone watches, a flow for its step pictures). It runs while at
 * least one holder holds it, and Chromium sends a frame only when the page changes, so a static
 * page costs nothing. Frames are acknowledged at once: a frame held back would be dropped, not
 * queued, and the last change before a quiet spell would never arrive.
 */
export class PageFrames {
  private holders = 0;
  /** Counts starts and stops: a session's close handler acts only for its own start. */
  private generation = 0;
  private session: Promise<CDPSession | undefined> | undefined;
  private latest: PageFrame | undefined;
  /** How long a changed page's frame took to arrive after a mark, smoothed (ms). */
  private typicalDelayMs = 10;
  private readonly listeners = new Set<(frame: PageFrame) => void>();
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly page: Page) {}

  /** Starts the screencast if it is not running; the returned function lets go of it. */
  hold(): () => Promise<void> {
    this.holders += 1;
    this.session ??= this.start();
    let isHeld = true;
    return async () => {
      if (!isHeld) return;
      isHeld = false;
      this.holders -= 1;
      if (this.holders === 0) await this.stop();
    };
  }

  /** Whether the screencast runs (someone holds it). */
  get isRunning(): boolean {
    return this.holders > 0;
  }

  /** The newest frame since the screencast started; undefined before the first or once stopped. */
  latestFrame(): PageFrame | undefined {
    return this.latest;
  }

  /** Calls `listener` with every frame from now on; returns the function that stops it. */
  onFrame(listener: (frame: PageFrame) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The first frame received at or after `after` (Date.now() time), or undefined when none comes
   * in time: the page did not change, or its frame is late (a busy machine), and the caller
   * captures the page instead of showing a frame older than the step. "In time" is learnt from
   * this page: a few times the delay its frames took to arrive after earlier marks, within
   * `bounds`, so a static page is not waited on for longer than a changing one needs to show it.
   */
  frameAfter(after: number, bounds: { minMs: number; maxMs: number }): Promise<PageFrame | undefined> {
    if (this.latest && this.latest.receivedAt >= after) return Promise.resolve(this.latest);
    const waitMs = Math.min(bounds.maxMs, Math.max(bounds.minMs, this.typicalDelayMs * 3));
    return new Promise((resolve) => {
      const done = (frame?: PageFrame) => {
        clearTimeout(waiter.timer);
        this.waiters.delete(waiter);
        if (frame) this.typicalDelayMs = this.typicalDelayMs * 0.8 + (frame.receivedAt - after) * 0.2;
        resolve(frame);
      };
      const waiter: Waiter = { after, onFrame: done, timer: setTimeout(() => done(), waitMs) };
      this.waiters.add(waiter);
    });
  }

  private receive(frame: PageFrame): void {
    this.latest = frame;
    for (const waiter of [...this.waiters]) if (frame.receivedAt >= waiter.after) waiter.onFrame(frame);
    for (const listener of [...this.listeners]) listener(frame);
  }

  private async start(): Promise<CDPSession | undefined> {
    if (this.page.isClosed()) return undefined;
    this.generation += 1;
    const generation = this.generation;
    try {
      const session = await this.page.context().newCDPSession(this.page);
      session.on('Page.screencastFrame', (event) => {
        void session.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
        // Frames still on their way while it stops are dropped: kept as `latest`, one would be
        // answered as the page's picture long after the page changed (issue 22: the shared
        // session's live page stayed blank after a page that renders late).
        if (this.generation !== generation) return;
        this.receive({
          data: event.data,
          width: Math.round(event.metadata.deviceWidth),
          height: Math.round(event.metadata.deviceHeight),
          receivedAt: Date.now(),
        });
      });
      // A renderer swap or crash can end the session under us: start over while still held.
      session.once('close', () => {
        if (this.generation === generation) {
          this.session = undefined;
          this.latest = undefined;
          if (this.holders > 0 && !this.page.isClosed()) this.session = this.start();
        }
      });
      const viewport = this.page.viewportSize();
      await session.send('Page.startScreencast', {
        format: 'jpeg',
        quality: FRAME_JPEG_QUALITY,
        ...(viewport ? { maxWidth: viewport.width, maxHeight: viewport.height } : {}),
        everyNthFrame: 1,
      });
      return session;
    } catch {
      return undefined;
    }
  }

  private async stop(): Promise<void> {
    this.generation += 1;
    const running = this.session;
    this.session = undefined;
    this.latest = undefined;
    const session = await running;
    if (!session) return;
    await session.send('Page.stopScreencast').catch(() => undefined);
    await session.detach().catch(() => undefined);
  }
}

const framesByPage = new WeakMap<Page, PageFrames>();

/** The page's one frame source. */
export function pageFrames(page: Page): PageFrames {
  let frames = framesByPage.get(page);
  if (!frames) {
    frames = new PageFrames(page);
    framesByPage.set(page, frames);
  }
  return frames;
}
