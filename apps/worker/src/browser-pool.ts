import { availableParallelism, freemem, loadavg } from 'node:os';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import {
  type EgressProxy,
  chromiumLaunchOptions,
  describeBrowserLoss,
  giveUpBrowser,
  installNavigationGuard,
  startEgressProxy,
  type NavigationPolicy,
  type NavigationRefusedError,
} from '@pagewright/automation';
import {
  LOCAL_BROWSER_NAME,
  browserHostHealthSchema,
  type BrowserHostHealth,
  type BrowserTargetState,
  type BrowserTargetStatus,
} from '@pagewright/shared';
import type { BrowserEndpoint } from './config.js';

export interface BrowserPoolOptions {
  chromiumPath: string;
  navigationPolicy: NavigationPolicy;
  viewport: { width: number; height: number };
  onNavigationRefused?: (error: NavigationRefusedError) => void;
  /** Browser hosts on other machines (issue 27); none: only this worker's own Chromium. */
  endpoints?: readonly BrowserEndpoint[];
  /** Whether this worker launches its own Chromium too (always, when it has no endpoints). */
  useLocalBrowser?: boolean;
  /** How often each host's health is read; two misses in a row take it out. */
  healthIntervalMs?: number;
  /** A host that went away or came back (for the log). */
  onTargetStateChanged?: (status: BrowserTargetStatus) => void;
}

/** One browser this worker can open contexts in: its own Chromium or a browser host. */
interface BrowserTarget {
  readonly name: string;
  readonly endpoint: BrowserEndpoint | undefined;
  browser: Promise<Browser> | undefined;
  state: BrowserTargetState;
  reason: string | null;
  /** Contexts this worker holds in it now. */
  contexts: number;
  /** Its machine at the last check: load, cores, free memory, and (a host's) renderer processes. */
  loadAverage: number;
  cores: number;
  freeMemoryMb: number;
  renderers: number | null;
  missedChecks: number;
  checkedAt: Date;
}

const HEALTH_TIMEOUT_MS = 5_000;
/** A machine whose 1-minute load is above this many times its cores, or with less free memory, is busy. */
const BUSY_LOAD_PER_CORE = 2;
const BUSY_FREE_MEMORY_MB = 512;

function isBusy(target: Pick<BrowserTarget, 'loadAverage' | 'cores' | 'freeMemoryMb'>): boolean {
  return target.loadAverage > BUSY_LOAD_PER_CORE * target.cores || target.freeMemoryMb < BUSY_FREE_MEMORY_MB;
}
const CONNECT_TIMEOUT_MS = 15_000;
/** Checks missed in a row before a host is taken out (its connection closed, its runs ended ERROR). */
const MISSED_CHECKS_TO_DOWN = 2;

/**
 * The browsers of one worker process: its own Chromium (one per worker, one BrowserContext per
 * live session or run: a context costs ~54 ms, a browser ~244 ms, shared/notes/performance-floor.md)
 * and, when BROWSER_ENDPOINTS lists any, browser hosts on other machines reached through
 * Playwright's browser server protocol (`chromium.connect`, issue 27, docs/scaling.md).
 *
 * A new context goes to the browser whose machine is not under pressure (load, free memory at
 * its last health check) with the fewest of this worker's contexts; ties rotate so that an idle
 * tier fills evenly. A host whose connection drops, or that misses two health checks in a row, is
 * DOWN: its connection is closed, so every run on it ends ERROR naming the host (browser-loss.ts),
 * and new contexts go elsewhere until a check finds it healthy again. A host whose egress policy
 * judges addresses differently from this worker is REFUSED and never used.
 *
 * The navigation policy: unless private networks are allowed, all of the local Chromium's traffic
 * goes through this worker's egress proxy, which judges the address each connection is actually
 * made to (DNS rebinding, WebSockets, every subresource), and runFlow judges every top-level
 * navigation itself for a clear error (navigation-watch.ts). A browser host runs the same proxy in
 * front of its Chromium. A route guard on the context as well would send every request of the page
 * through this process for a verdict the proxy gives anyway (it cost a Node round trip per
 * request); it is installed only where no proxy runs, to keep refusing the schemes a browser
 * should not load (file:, chrome:).
 */
export function createBrowserPool(options: BrowserPoolOptions) {
  const endpoints = options.endpoints ?? [];
  const healthIntervalMs = options.healthIntervalMs ?? 10_000;
  let egressProxy: Promise<EgressProxy | undefined> | undefined;
  const lostListeners = new Set<(reason: string, browser: Browser) => void>();
  const targetOfContext = new WeakMap<BrowserContext, BrowserTarget>();
  let isClosing = false;
  let rotation = 0;
  let healthTimer: NodeJS.Timeout | undefined;

  const newTarget = (name: string, endpoint: BrowserEndpoint | undefined): BrowserTarget => ({
    name,
    endpoint,
    browser: undefined,
    // A host is used once a check has found it healthy; the worker's own Chromium at once.
    state: endpoint ? 'DOWN' : 'UP',
    reason: endpoint ? 'not checked yet' : null,
    contexts: 0,
    loadAverage: 0,
    cores: 1,
    freeMemoryMb: Number.MAX_SAFE_INTEGER,
    renderers: endpoint ? 0 : null,
    missedChecks: 0,
    checkedAt: new Date(),
  });
  const targets: BrowserTarget[] = [
    ...(options.useLocalBrowser === false && endpoints.length > 0
      ? []
      : [newTarget(LOCAL_BROWSER_NAME, undefined)]),
    ...endpoints.map((endpoint) => newTarget(endpoint.name, endpoint)),
  ];

  function startProxy(): Promise<EgressProxy | undefined> {
    if (options.navigationPolicy.allowPrivateNetworks) return Promise.resolve(undefined);
    const starting = startEgressProxy(options.navigationPolicy, { onRefused: options.onNavigationRefused });
    starting.catch(() => {
      if (egressProxy === starting) egressProxy = undefined;
    });
    return starting;
  }

  function statusOf(target: BrowserTarget): BrowserTargetStatus {
    return {
      name: target.name,
      url: target.endpoint?.url ?? null,
      state: target.state,
      reason: target.reason,
      contexts: target.contexts,
      busy: isBusy(target),
      loadAverage: target.loadAverage,
      cores: target.cores,
      renderers: target.renderers,
      checkedAt: target.checkedAt.toISOString(),
    };
  }

  function setState(target: BrowserTarget, state: BrowserTargetState, reason: string | null): void {
    const changed = target.state !== state;
    target.state = state;
    target.reason = reason;
    if (changed) options.onTargetStateChanged?.(statusOf(target));
  }

  async function openBrowser(target: BrowserTarget): Promise<Browser> {
    if (!target.endpoint) {
      const proxy = await (egressProxy ??= startProxy());
      return chromium.launch({
        ...chromiumLaunchOptions(options.chromiumPath),
        ...(proxy ? { proxy: { server: proxy.url } } : {}),
      });
    }
    const connected = await chromium.connect(target.endpoint.url, {
      headers: { Authorization: `Bearer ${target.endpoint.token}` },
      timeout: CONNECT_TIMEOUT_MS,
    });
    describeBrowserLoss(
      connected,
      `The browser host "${target.name}" (${target.endpoint.url}) went away while the step ran`,
    );
    return connected;
  }

  function browserOf(target: BrowserTarget): Promise<Browser> {
    if (target.browser) return target.browser;
    const opening = openBrowser(target).then((opened) => {
      opened.on('disconnected', () => {
        if (target.browser === opening) target.browser = undefined;
        if (isClosing) return;
        const reason = target.endpoint
          ? `the browser host "${target.name}" closed the connection`
          : 'the browser process ended';
        // The worker's own Chromium is launched again on the next request; a host waits for a check.
        // A host taken out by its health check keeps the reason it was taken out for.
        if (target.endpoint && target.state === 'UP') setState(target, 'DOWN', reason);
        for (const listener of lostListeners) listener(reason, opened);
      });
      return opened;
    });
    opening.catch(() => {
      if (target.browser === opening) target.browser = undefined;
    });
    target.browser = opening;
    return opening;
  }

  /**
   * The next browser for a context: a machine under pressure last, then the fewest of this
   * worker's contexts, ties taken in turn. Every worker spreading its own contexts evenly spreads
   * them all; a host other workers fill shows it in its load and memory.
   */
  function candidates(): BrowserTarget[] {
    const usable = targets.filter((target) => target.state === 'UP');
    const start = rotation++ % Math.max(1, targets.length);
    const rank = (target: BrowserTarget) => (isBusy(target) ? 1_000_000 : 0) + target.contexts;
    return usable
      .map((target) => ({
        target,
        order: (targets.indexOf(target) - start + targets.length) % targets.length,
      }))
      .sort((a, b) => rank(a.target) - rank(b.target) || a.order - b.order)
      .map(({ target }) => target);
  }

  async function contextIn(target: BrowserTarget): Promise<BrowserContext> {
    const browser = await browserOf(target);
    const context = await browser.newContext({ viewport: options.viewport, acceptDownloads: true });
    target.contexts += 1;
    targetOfContext.set(context, target);
    context.on('close', () => {
      target.contexts = Math.max(0, target.contexts - 1);
    });
    // A host's Chromium goes through the host's own egress proxy (its health answer says which policy).
    const proxy = target.endpoint ? undefined : await (egressProxy ??= startProxy());
    const hostHasProxy = target.endpoint !== undefined && !options.navigationPolicy.allowPrivateNetworks;
    if (!proxy && !hostHasProxy)
      await installNavigationGuard(context, options.navigationPolicy, options.onNavigationRefused);
    return context;
  }

  /**
   * Why a host's egress policy differs from this worker's, or undefined when it is the same. A
   * flow must not reach more, or less, depending on the browser it lands in: the worker's own
   * check of each navigation (its clear error) and the host's proxy must judge alike.
   */
  function policyMismatch(health: BrowserHostHealth): string | undefined {
    const own = options.navigationPolicy;
    if (own.allowPrivateNetworks !== health.policy.allowPrivateNetworks)
      return own.allowPrivateNetworks
        ? 'its browser may not reach private networks and this worker allows them (NAVIGATION_ALLOW_PRIVATE_NETWORKS)'
        : 'its browser may reach private networks and this worker forbids them (NAVIGATION_ALLOW_PRIVATE_NETWORKS)';
    if (own.allowPrivateNetworks) return undefined;
    const extra = health.policy.allowedHosts.filter((host) => !own.allowedHosts.includes(host));
    const missing = own.allowedHosts.filter((host) => !health.policy.allowedHosts.includes(host));
    if (extra.length > 0)
      return `it allows hosts this worker does not: ${extra.join(', ')} (NAVIGATION_ALLOWED_HOSTS)`;
    if (missing.length > 0)
      return `it refuses hosts this worker allows: ${missing.join(', ')} (NAVIGATION_ALLOWED_HOSTS)`;
    return undefined;
  }

  async function checkHost(target: BrowserTarget): Promise<void> {
    const endpoint = target.endpoint;
    if (!endpoint) {
      // The worker's own Chromium shares this machine.
      target.loadAverage = loadavg()[0] ?? 0;
      target.cores = availableParallelism();
      target.freeMemoryMb = Math.round(freemem() / 1024 / 1024);
      target.checkedAt = new Date();
      return;
    }
    const healthUrl = new URL('/health', endpoint.url.replace(/^ws/, 'http'));
    let health: BrowserHostHealth | undefined;
    let failure: string | undefined;
    try {
      const response = await fetch(healthUrl, {
        headers: { Authorization: `Bearer ${endpoint.token}` },
        signal: AbortSignal.timeout(Math.min(HEALTH_TIMEOUT_MS, healthIntervalMs)),
      });
      if (response.status === 401) failure = 'it refused the token';
      else if (!response.ok) failure = `its health check answered ${response.status}`;
      else {
        const parsed = browserHostHealthSchema.safeParse(await response.json());
        if (parsed.success) health = parsed.data;
        else failure = 'its health check answered something that is not a Pagewright browser host';
      }
    } catch (error) {
      failure =
        error instanceof Error && error.name === 'TimeoutError'
          ? `its health check did not answer within ${Math.min(HEALTH_TIMEOUT_MS, healthIntervalMs) / 1000} s`
          : 'it cannot be reached';
    }
    target.checkedAt = new Date();
    if (isClosing) return;
    if (health) {
      target.missedChecks = 0;
      target.renderers = health.renderers;
      target.loadAverage = health.loadAverage;
      target.cores = health.cores;
      target.freeMemoryMb = health.freeMemoryMb;
      const mismatch = policyMismatch(health);
      if (mismatch) {
        setState(target, 'REFUSED', `Not used: ${mismatch}.`);
        disconnect(target);
      } else setState(target, 'UP', null);
      return;
    }
    target.missedChecks += 1;
    if (target.state === 'UP' && target.missedChecks < MISSED_CHECKS_TO_DOWN) return;
    setState(
      target,
      'DOWN',
      `The browser host "${target.name}" is not used: ${failure ?? 'it did not answer'}.`,
    );
    // A host that stopped answering may still hold its connection open: closing it ends its runs
    // now (ERROR, naming the host) instead of when their steps time out.
    disconnect(target);
  }

  function disconnect(target: BrowserTarget): void {
    const connected = target.browser;
    if (!connected) return;
    void connected
      .then((browser) => {
        giveUpBrowser(browser);
        return browser.close();
      })
      .catch(() => undefined);
  }

  async function checkAllHosts(): Promise<void> {
    await Promise.all(targets.map((target) => checkHost(target)));
  }

  function scheduleChecks(): void {
    if (isClosing) return;
    healthTimer = setTimeout(() => {
      void checkAllHosts().finally(scheduleChecks);
    }, healthIntervalMs);
    healthTimer.unref();
  }

  return {
    /** Reads every host's health once (awaited at start-up), then keeps checking in the background. */
    async start(): Promise<void> {
      await checkAllHosts();
      scheduleChecks();
    },
    async newContext(): Promise<BrowserContext> {
      const failures: string[] = [];
      for (const target of candidates()) {
        try {
          return await contextIn(target);
        } catch (error) {
          const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
          failures.push(`${target.name}: ${message}`);
          // A host that cannot open a context waits for its next good check; the own Chromium
          // is launched again on the next request.
          if (target.endpoint) setState(target, 'DOWN', `Opening a browser there failed: ${message}`);
        }
      }
      throw new Error(
        failures.length > 0
          ? `No browser could open a page (${failures.join('; ')})`
          : `No browser is available: ${targets.map((target) => `${target.name}: ${target.reason ?? target.state}`).join('; ')}`,
      );
    },
    /** Which browser a context is in ("local" or a host's name), for the run's record. */
    browserNameOf(context: BrowserContext): string | undefined {
      return targetOfContext.get(context)?.name;
    },
    /** Every browser of this worker as the Settings card shows it. */
    status(): BrowserTargetStatus[] {
      return targets.map(statusOf);
    },
    /** The egress proxy the local Chromium goes through (undefined while private networks are allowed). */
    async egressProxyUrl(): Promise<string | undefined> {
      return (await (egressProxy ??= startProxy()))?.url;
    },
    /** A browser went away (its process ended, or its host's connection closed). */
    onBrowserLost(listener: (reason: string, browser: Browser) => void): () => void {
      lostListeners.add(listener);
      return () => lostListeners.delete(listener);
    },
    /** The local browser's process id, for health checks and the crash tests. */
    async browserPid(): Promise<number | undefined> {
      const local = targets.find((target) => !target.endpoint);
      if (!local?.browser) return undefined;
      const running = await local.browser;
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
      clearTimeout(healthTimer);
      await Promise.all(
        targets.map(async (target) => {
          const running = target.browser;
          target.browser = undefined;
          await running?.then((browser) => browser.close()).catch(() => undefined);
        }),
      );
      const proxy = await egressProxy?.catch(() => undefined);
      egressProxy = undefined;
      await proxy?.close().catch(() => undefined);
    },
  };
}
export type BrowserPool = ReturnType<typeof createBrowserPool>;
