import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBrowserPool, type BrowserPool } from '../browser-pool.js';
import { createLiveSessionRegistry, type SessionEndReason } from './live-session-registry.js';
import { DEFAULT_CHROMIUM_PATH, type PageFrame, pageFrames } from '@pagewright/automation';

const ANIMATED = `<body style="margin:0"><div id="box" style="width:100px;height:100px;background:#e65100"></div>
<script>let x = 0; setInterval(() => { x = (x + 7) % 600; box.style.marginLeft = x + 'px'; }, 16);</script></body>`;

let server: http.Server;
let siteUrl: string;
let pool: BrowserPool;

beforeAll(async () => {
  server = http.createServer((req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(req.url === '/animated' ? ANIMATED : '<h1>static</h1>'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pool = createBrowserPool({
    chromiumPath: process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH,
    navigationPolicy: { allowPrivateNetworks: false, allowedHosts: ['127.0.0.1'] },
    viewport: { width: 1280, height: 800 },
  });
});

afterAll(async () => {
  await pool.close();
  server.close();
});

describe('live sessions', () => {
  it('belong to their owner only', async () => {
    const registry = createLiveSessionRegistry({ pool, idleTimeoutMs: 60_000 });
    const session = await registry.open('user-a');
    await session.page.goto(`${siteUrl}/`);
    expect(registry.use(session.id, 'user-a')?.page.url()).toBe(`${siteUrl}/`);
    expect(registry.use(session.id, 'user-b')).toBeUndefined();
    expect(await registry.close(session.id, 'user-b')).toBe(false);
    expect(await registry.close(session.id, 'user-a')).toBe(true);
    expect(registry.count()).toBe(0);
  });

  it('refuse navigation to a private address the policy does not list', async () => {
    // A service really answers there: the page must never get its content.
    const internal = http.createServer((_request, response) => response.end('internal service'));
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.2', resolve));
    const internalUrl = `http://127.0.0.2:${(internal.address() as AddressInfo).port}/`;
    const registry = createLiveSessionRegistry({ pool, idleTimeoutMs: 60_000 });
    const session = await registry.open('user-a');
    try {
      // The worker's egress proxy refuses the connection (403), as it does every request there.
      const answer = await session.page.goto(internalUrl).catch(() => null);
      expect(answer?.status() ?? 403).toBe(403);
      expect(await session.page.content()).not.toContain('internal service');
    } finally {
      await registry.close(session.id, 'user-a');
      internal.close();
    }
  });

  it('close after being idle too long', async () => {
    const ended: SessionEndReason[] = [];
    const registry = createLiveSessionRegistry({
      pool,
      idleTimeoutMs: 50,
      onSessionEnded: (_s, reason) => ended.push(reason),
    });
    const session = await registry.open('user-a');
    // Idle is measured from its last activity: still open at the timeout, closed just past it.
    expect(await registry.closeIdle(session.lastActivityAt + 50)).toBe(0);
    expect(await registry.closeIdle(session.lastActivityAt + 51)).toBe(1);
    expect(ended).toEqual(['idle']);
    expect(registry.use(session.id, 'user-a')).toBeUndefined();
  });

  it("close when idle however often a viewer reads them (peek is not the owner's activity)", async () => {
    const registry = createLiveSessionRegistry({ pool, idleTimeoutMs: 50 });
    const session = await registry.open('user-a');
    expect(registry.peek(session.id, 'user-b')).toBeUndefined();
    // Read right before each look for idle sessions: were a read activity, none would ever close.
    await vi.waitFor(async () => {
      expect(registry.peek(session.id, 'user-a')).toBe(session);
      expect(await registry.closeIdle()).toBe(1);
    }, 5_000);
    expect(registry.peek(session.id, 'user-a')).toBeUndefined();
  });

  it('are reported lost when Chromium dies, and the next session gets a new browser', async () => {
    const ended: SessionEndReason[] = [];
    const registry = createLiveSessionRegistry({
      pool,
      idleTimeoutMs: 60_000,
      onSessionEnded: (_s, reason) => ended.push(reason),
    });
    await registry.open('user-a');
    await registry.open('user-b');
    const pid = await pool.browserPid();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    await vi.waitFor(() => expect(ended).toHaveLength(2), { timeout: 10_000 });
    expect(ended).toEqual(['lost', 'lost']);
    expect(registry.count()).toBe(0);

    const fresh = await registry.open('user-a');
    await fresh.page.goto(`${siteUrl}/`);
    expect(await fresh.page.textContent('h1')).toBe('static');
    expect(await pool.browserPid()).not.toBe(pid);
    await registry.close(fresh.id, 'user-a');
  });
});

describe('screencast', () => {
  it('streams JPEG frames of a changing page and stops on request', async () => {
    const registry = createLiveSessionRegistry({ pool, idleTimeoutMs: 60_000 });
    const session = await registry.open('user-a');
    await session.page.goto(`${siteUrl}/animated`);
    const frames: PageFrame[] = [];
    const source = pageFrames(session.page);
    const stopListening = source.onFrame((frame) => frames.push(frame));
    const release = source.hold();
    // An animated page keeps sending frames; a busy machine sends them more slowly, not fewer.
    await expect.poll(() => frames.length, { timeout: 15_000 }).toBeGreaterThan(5);
    await release();
    const countAtStop = frames.length;
    // Frames still on their way while it stopped are not kept as the page's latest picture: the
    // image command would answer that picture, however the page changed afterwards (issue 22).
    expect(source.latestFrame()).toBeUndefined();
    expect(Buffer.from(frames[0]!.data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(frames[0]!.width).toBe(1280);
    // Nothing marks a frame that does not come; the page painting twenty more does: a screencast
    // still on would have sent some of them.
    await session.page.evaluate(
      'new Promise((resolve) => { let left = 20; const next = () => (--left === 0 ? resolve() : requestAnimationFrame(next)); requestAnimationFrame(next); })',
    );
    expect(frames.length).toBe(countAtStop);
    stopListening();
    await registry.close(session.id, 'user-a');
  });
});
