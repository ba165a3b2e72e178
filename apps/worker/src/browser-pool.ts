import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import {
  chromiumLaunchOptions,
  installNavigationGuard,
  type NavigationPolicy,
  type NavigationRefusedError,
} from '@pagewright/automation';

export interface BrowserPoolOptions {
  chromiumPath: string;
  navigationPolicy: NavigationPolicy;
  viewport: { width: number; height: number };
  onNavigationRefused?: (error: NavigationRefusedError) => void;
}

/**
 * One Chromium per worker process, one BrowserContext per live session or run (a context costs
 * ~54 ms, a browser ~244 ms: see shared/notes/performance-floor.md). When Chromium dies, every
 * context it held is reported lost through onBrowserLost and the next request launches a new one.
 */
export function createBrowserPool(options: BrowserPoolOptions) {
  let browser: Promise<Browser> | undefined;
  const lostListeners = new Set<(reason: string) => void>();
  let isClosing = false;

  function launch(): Promise<Browser> {
    const launching = chromium.launch(chromiumLaunchOptions(options.chromiumPath)).then((launched) => {
      launched.on('disconnected', () => {
        if (browser === launching) browser = undefined;
        if (!isClosing) for (const listener of lostListeners) listener('the browser process ended');
      });
      return launched;
    });
    launching.catch(() => {
      if (browser === launching) browser = undefined;
    });
    return launching;
  }

  return {
    async newContext(): Promise<BrowserContext> {
      browser ??= launch();
      const context = await (await browser).newContext({ viewport: options.viewport, acceptDownloads: true });
      await installNavigationGuard(context, options.navigationPolicy, options.onNavigationRefused);
      return context;
    },
    onBrowserLost(listener: (reason: string) => void): () => void {
      lostListeners.add(listener);
      return () => lostListeners.delete(listener);
    },
    /** The running browser's process id, for health checks and the crash tests. */
    async browserPid(): Promise<number | undefined> {
      if (!browser) return undefined;
      const running = await browser;
      // playwright-core exposes the process only through the launch server; the CDP answer has it.
      const session = await running.newBrowserCDPSession();
      try {
        const info = (await session.send('SystemInfo.getProcessInfo')) as {
          processInfo: { type: string; id: number }[];
        };
        return info.processInfo.find((p) => p.type === 'browser')?.id;
      } finally {
        await session.detach();
      }
    },
    async close(): Promise<void> {
      isClosing = true;
      const running = browser;
      browser = undefined;
      if (running) await (await running).close().catch(() => undefined);
    },
  };
}
export type BrowserPool = ReturnType<typeof createBrowserPool>;
