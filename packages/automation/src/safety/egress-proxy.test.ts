import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../chromium.js';
import { type EgressProxy, type ResolveAll, startEgressProxy } from './egress-proxy.js';
import { type NavigationPolicy, PUBLIC_ONLY_POLICY, installNavigationGuard } from './navigation-guard.js';

/**
 * The navigation policy at connection time, in real Chromium. Each case first shows the hole
 * with the route guard alone, then that the egress proxy closes it.
 */

const FIXTURE_ONLY: NavigationPolicy = { allowPrivateNetworks: false, allowedHosts: ['127.0.0.1'] };
const REBINDING_HOST = 'rebind.pagewright.test';

let internal: http.Server;
let port: number;

/** An internal service on loopback: a page and a WebSocket endpoint. */
function startInternalService(): Promise<void> {
  internal = http.createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end('<h1>internal</h1>');
  });
  internal.on('upgrade', (request, socket) => {
    const accept = createHash('sha1')
      .update(`${String(request.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64');
    socket.end(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
  });
  return new Promise((resolve) => internal.listen(0, '127.0.0.1', resolve));
}

/** Whether a WebSocket from the page to `url` opens. */
function webSocketOpens(page: Page, url: string): Promise<boolean> {
  return page.evaluate(
    (target) =>
      new Promise<boolean>((resolve) => {
        const socket = new WebSocket(target);
        socket.onopen = () => resolve(true);
        socket.onerror = () => resolve(false);
      }),
    url,
  );
}

beforeAll(async () => {
  await startInternalService();
  port = (internal.address() as AddressInfo).port;
});
afterAll(() => {
  internal.close();
});

describe('a name whose DNS answer changes after the check (DNS rebinding)', () => {
  // The name looked public when the route guard checked it; when the browser connects it is loopback.
  const rebound: ResolveAll = async () => [{ address: '127.0.0.1', family: 4 }];
  let unguarded: Browser;
  let guarded: Browser;
  let proxy: EgressProxy;
  const refusals: string[] = [];

  beforeAll(async () => {
    const launch = chromiumLaunchOptions(process.env.CHROMIUM_PATH);
    unguarded = await chromium.launch({
      ...launch,
      args: [...launch.args, `--host-resolver-rules=MAP ${REBINDING_HOST} 127.0.0.1`],
    });
    proxy = await startEgressProxy(PUBLIC_ONLY_POLICY, {
      resolveAll: rebound,
      onRefused: (error) => refusals.push(error.reason),
    });
    guarded = await chromium.launch({ ...launch, proxy: { server: proxy.url } });
  });
  afterAll(async () => {
    await unguarded?.close();
    await guarded?.close();
    await proxy?.close();
  });

  it('reaches the internal service past the route guard alone', async () => {
    const context = await unguarded.newContext();
    // The guard's own lookup finds nothing for the name and leaves the browser to fail; the browser's
    // answer (the rebinding) is loopback.
    await installNavigationGuard(context, PUBLIC_ONLY_POLICY);
    const page = await context.newPage();
    await page.goto(`http://${REBINDING_HOST}:${port}/`);
    expect(await page.textContent('h1')).toBe('internal');
    await context.close();
  });

  it('is refused by the egress proxy, which connects only to the address it checked', async () => {
    const context = await guarded.newContext();
    await installNavigationGuard(context, PUBLIC_ONLY_POLICY);
    const page = await context.newPage();
    const response = await page.goto(`http://${REBINDING_HOST}:${port}/`).catch(() => null);
    expect(response?.ok() ?? false).toBe(false);
    expect(await page.locator('h1', { hasText: 'internal' }).count()).toBe(0);
    expect(refusals).toContain(`${REBINDING_HOST} resolves to the non-public address 127.0.0.1`);
    await context.close();
  });
});

describe('a page of an allowed host', () => {
  let unguarded: Browser;
  let guarded: Browser;
  let proxy: EgressProxy;

  beforeAll(async () => {
    const launch = chromiumLaunchOptions(process.env.CHROMIUM_PATH);
    unguarded = await chromium.launch(launch);
    proxy = await startEgressProxy(FIXTURE_ONLY);
    guarded = await chromium.launch({ ...launch, proxy: { server: proxy.url } });
  });
  afterAll(async () => {
    await unguarded?.close();
    await guarded?.close();
    await proxy?.close();
  });

  async function openAllowedPage(browser: Browser): Promise<Page> {
    const context = await browser.newContext();
    await installNavigationGuard(context, FIXTURE_ONLY);
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    expect(await page.textContent('h1')).toBe('internal');
    return page;
  }

  it('opens a WebSocket to a refused host past the route guard alone', async () => {
    const page = await openAllowedPage(unguarded);
    // Route interception does not see WebSockets.
    expect(await webSocketOpens(page, `ws://localhost:${port}/`)).toBe(true);
    await page.context().close();
  });

  it('cannot open it through the egress proxy, and still loads what is allowed', async () => {
    const page = await openAllowedPage(guarded);
    expect(await webSocketOpens(page, `ws://localhost:${port}/`)).toBe(false);
    expect(await webSocketOpens(page, `ws://127.0.0.1:${port}/`)).toBe(true);
    await page.context().close();
  });

  it('answers 403 to a request for a private IP literal', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const { port: proxyPort } = new URL(proxy.url);
      http
        .get({ host: '127.0.0.1', port: Number(proxyPort), path: 'http://169.254.169.254/latest/meta-data' })
        .on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(status).toBe(403);
  });
});
