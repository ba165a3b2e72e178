import { createHash, timingSafeEqual } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { availableParallelism, freemem, loadavg } from 'node:os';
import { chromium, type BrowserServer } from 'playwright-core';
import {
  type EgressProxy,
  type NavigationPolicy,
  type NavigationRefusedError,
  chromiumLaunchOptions,
  startEgressProxy,
} from '@pagewright/automation';
import { BROWSER_HOST_PLAYWRIGHT_PATH, type BrowserHostHealth } from '@pagewright/shared';

export interface BrowserHostOptions {
  chromiumPath: string;
  /** The same egress policy a worker applies: the host's Chromium reaches the web only through it. */
  navigationPolicy: NavigationPolicy;
  bind: string;
  port: number;
  /** Workers present it as `Authorization: Bearer <token>` on the health check and the connection. */
  token: string;
  onNavigationRefused?: (error: NavigationRefusedError) => void;
}

export interface BrowserHost {
  /** Where workers connect: `ws://bind:port/playwright`. */
  readonly url: string;
  readonly port: number;
  /** The Chromium process, for the tests that kill it. */
  readonly chromiumPid: number | undefined;
  close(): Promise<void>;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request carries the host's token (compared in constant time). */
function isAuthorized(request: IncomingMessage, expected: Buffer): boolean {
  const header = request.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  return token.length > 0 && timingSafeEqual(digest(token), expected);
}

/**
 * A browser for workers on other machines (issue 27): Playwright's own browser server
 * (`chromium.launchServer`), listening on loopback only, behind a front door that demands the
 * host's token. Playwright's server has no authentication of its own (only an unguessable path),
 * so the front door checks the token on the WebSocket upgrade and pipes the connection through.
 *
 * The host runs the worker's egress proxy in front of its Chromium: a remote browser reaches
 * exactly what a worker's own browser may (private addresses refused unless allowed), whoever
 * drives it. Its policy is in the health answer, and a worker with a stricter policy refuses it.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const expectedToken = digest(options.token);
  const proxy: EgressProxy | undefined = options.navigationPolicy.allowPrivateNetworks
    ? undefined
    : await startEgressProxy(options.navigationPolicy, { onRefused: options.onNavigationRefused });
  let browserServer: BrowserServer;
  try {
    browserServer = await chromium.launchServer({
      ...chromiumLaunchOptions(options.chromiumPath),
      host: '127.0.0.1',
      port: 0,
      ...(proxy ? { proxy: { server: proxy.url } } : {}),
    });
  } catch (error) {
    await proxy?.close();
    throw error;
  }
  const inner = new URL(browserServer.wsEndpoint());
  const sockets = new Set<Socket>();
  const version = await chromiumVersion(browserServer);

  const server: Server = createServer((request, response) => {
    if (!isAuthorized(request, expectedToken)) {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'This browser host needs its token.' }));
      return;
    }
    if (request.method !== 'GET' || request.url !== '/health') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'Not found' }));
      return;
    }
    void healthOf(browserServer, version, options.navigationPolicy, sockets.size / 2).then(
      (health) => {
        response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        response.end(JSON.stringify(health));
      },
      () => {
        response.writeHead(503, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: 'The browser host cannot read its own state.' }));
      },
    );
  });

  server.on('upgrade', (request: IncomingMessage, client: Socket, head: Buffer) => {
    if (request.url !== BROWSER_HOST_PLAYWRIGHT_PATH || !isAuthorized(request, expectedToken)) {
      client.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(Number(inner.port), '127.0.0.1');
    sockets.add(client).add(upstream);
    const forget = () => {
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', forget).on('close', forget);
    upstream.on('error', forget).on('close', forget);
    upstream.on('connect', () => {
      // The upgrade request again, to Playwright's secret path; the token stays at the front door.
      const headers: string[] = [];
      for (let i = 0; i < request.rawHeaders.length; i += 2) {
        const name = request.rawHeaders[i]!;
        if (name.toLowerCase() === 'authorization' || name.toLowerCase() === 'host') continue;
        headers.push(`${name}: ${request.rawHeaders[i + 1]!}`);
      }
      headers.push(`Host: 127.0.0.1:${inner.port}`);
      upstream.write(`GET ${inner.pathname} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.bind, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = options.bind === '0.0.0.0' || options.bind === '::' ? '127.0.0.1' : options.bind;

  return {
    url: `ws://${shownHost}:${port}${BROWSER_HOST_PLAYWRIGHT_PATH}`,
    port,
    chromiumPid: browserServer.process().pid,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await browserServer.close().catch(() => undefined);
      await proxy?.close().catch(() => undefined);
    },
  };
}

async function chromiumVersion(browserServer: BrowserServer): Promise<string> {
  const browser = await chromium.connect(browserServer.wsEndpoint());
  try {
    return browser.version();
  } finally {
    await browser.close();
  }
}

async function healthOf(
  browserServer: BrowserServer,
  version: string,
  policy: NavigationPolicy,
  connections: number,
): Promise<BrowserHostHealth> {
  const pid = browserServer.process().pid;
  return {
    status: 'ok',
    chromiumVersion: version,
    renderers: pid === undefined ? 0 : await rendererCount(pid),
    connections,
    loadAverage: loadavg()[0] ?? 0,
    cores: availableParallelism(),
    freeMemoryMb: Math.round(freemem() / 1024 / 1024),
    policy: { allowPrivateNetworks: policy.allowPrivateNetworks, allowedHosts: [...policy.allowedHosts] },
  };
}

/**
 * Chromium's renderer processes on the host, whichever worker's pages they draw (Playwright's
 * server lists no contexts of other connections). Shown in Settings; not an exact page count (a
 * page has two or three, plus a spare), so workers weigh the machine's load and memory instead.
 * Linux /proc; elsewhere 0.
 */
async function rendererCount(browserPid: number): Promise<number> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return 0;
  }
  const parents = new Map<number, number>();
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (entry) => {
        try {
          const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
          // "pid (comm) state ppid …": comm may hold spaces and parentheses; ppid follows the last ')'.
          const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
          parents.set(Number(entry), ppid);
        } catch {
          // The process ended while we looked.
        }
      }),
  );
  const isDescendant = (pid: number): boolean => {
    for (let current = parents.get(pid), hops = 0; current !== undefined && hops < 16; hops += 1) {
      if (current === browserPid) return true;
      current = parents.get(current);
    }
    return false;
  };
  let renderers = 0;
  await Promise.all(
    [...parents.keys()].filter(isDescendant).map(async (pid) => {
      try {
        const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8');
        if (commandLine.includes('--type=renderer') && !commandLine.includes('--extension-process'))
          renderers += 1;
      } catch {
        // Ended meanwhile.
      }
    }),
  );
  return renderers;
}
