import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import {
  type EgressProxy,
  chromiumLaunchOptions,
  installNavigationGuard,
  startEgressProxy,
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
 *
 * The navigation policy: unless private networks are allowed, all of Chromium's traffic goes
 * through this worker's egress proxy, which judges the address each connection is actually made
 * to (DNS rebinding, WebSockets, every subresource), and runFlow judges every top-level navigation
 * itself for a clear error (navigation-watch.ts). A route guard on the context as well would send
 * every request of the page through this process for a verdict the proxy gives anyway (it cost a
 * Node round trip per request); it is installed only where no proxy runs, to keep refusing the
 * schemes a browser should not load (file:, chrome:).
 */
export function createBrowserPool(options: BrowserPoolOptions) {
  let browser: Promise<Browser> | undefined;
  let egressProxy: Promise<EgressProxy | undefined> | undefined;
  const lostListeners = new Set<(reason: string) => void>();
  let isClosing = false;

  function startProxy(): Promise<EgressProxy | undefined> {
    if (options.navigationPolicy.allowPrivateNetworks) return Promise.resolve(undefined);
    const starting = startEgressProxy(options.navigationPolicy, { onRefused: options.onNavigationRefused });
    starting.catch(() => {
      if (egressProxy === starting) egressProxy = undefined;
    });
    return starting;
  }

  async function launchChromium(): Promise<Browser> {
    const proxy = await (egressProxy ??= startProxy());
    return chromium.launch({
      ...chromiumLaunchOptions(options.chromiumPath),
      ...(proxy ? { proxy: { server: proxy.url } } : {}),
    });
  }

  function launch(): Promise<Browser> {
    const launching = launchChromium().then((launched) => {
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
      const proxy = await (egressProxy ??= startProxy());
      if (!proxy)
        await installNavigationGuard(context, options.navigationPolicy, options.onNavigationRefused);
      return context;
    },
    /** The egress proxy Chromium goes through (undefined while private networks are allowed). */
    async egressProxyUrl(): Promise<string | undefined> {
      return (await (egressProxy ??= startProxy()))?.url;
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
      const proxy = await egressProxy?.catch(() => undefined);
      egressProxy = undefined;
      await proxy?.close().catch(() => undefined);
    },
  };
}
export type BrowserPool = ReturnType<typeof createBrowserPool>;
