import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, chromium } from 'playwright-core';
import type { FlowAction } from '@pagewright/shared';
import { chromiumLaunchOptions } from '../chromium.js';
import { PUBLIC_ONLY_POLICY } from '../safety/navigation-guard.js';
import { startEgressProxy } from '../safety/egress-proxy.js';
import { BROWSER_CLOSED_MESSAGE } from './browser-loss.js';
import type { FlowHooks, KeptFile } from './flow-types.js';
import { runFlow } from './run-flow.js';

const LOCAL = { allowPrivateNetworks: false, allowedHosts: ['127.0.0.1'] };
const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** Only so that a broken cap cannot take the machine's memory: far past the 25 MB file cap. */
const ENDLESS_BODY_BOUND = 512 * MB;

/** A chunked body that goes on until the client goes away (or, if it never does, the bound). */
function sendForever(response: ServerResponse, headers: Record<string, string>): void {
  response.writeHead(200, { 'content-type': 'application/octet-stream', ...headers });
  let sent = 0;
  const push = () => {
    while (!response.destroyed && sent < ENDLESS_BODY_BOUND && response.write(CHUNK)) sent += CHUNK.length;
    if (sent >= ENDLESS_BODY_BOUND) response.end();
    else if (!response.destroyed) response.once('drain', push);
  };
  push();
}

let server: Server;
let refusedServer: Server;
let base: string;
let refusedBase: string;
let browser: Browser;

const css = (selectorValue: string) => ({
  selectorType: 'CSS' as const,
  selectorValue,
  framePath: [],
  fallbackLocators: [],
});

function hooks(): FlowHooks & { files: KeptFile[] } {
  const files: KeptFile[] = [];
  return { files, ask: () => Promise.resolve(''), keepFile: async (file) => void files.push(file) };
}

beforeAll(async () => {
  // 127.0.0.2 is loopback too, but not among LOCAL's allowed hosts.
  refusedServer = createServer((_request, response) => response.end('internal service'));
  await new Promise<void>((resolve) => refusedServer.listen(0, '127.0.0.2', resolve));
  refusedBase = `http://127.0.0.2:${(refusedServer.address() as AddressInfo).port}`;
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/forever') return sendForever(response, {});
    if (url.pathname === '/forever-attachment')
      return sendForever(response, { 'content-disposition': 'attachment; filename="big.bin"' });
    if (url.pathname === '/small.csv') {
      response.writeHead(200, { 'content-type': 'text/csv' });
      return response.end('a,b\n1,2\n');
    }
    if (url.pathname === '/to-internal') {
      response.writeHead(302, { location: `${refusedBase}/secret` });
      return response.end();
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<!doctype html><title>files</title>
      <a id="forever" href="/forever">forever</a><a id="small" href="/small.csv">small</a>
      <button id="download" onclick="location.href='/forever-attachment'">download</button>
      <a id="inside" href="/to-internal">inside</a><p id="text">text</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
});

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await new Promise((resolve) => refusedServer?.close(resolve));
});

const open: FlowAction = { sequence: 10, type: 'NAVIGATE', options: { text: '' } };
const openPage = (): FlowAction => ({ ...open, options: { text: `${base}/` } });

describe('downloads stop at the size cap while they stream', () => {
  it.each([
    ['a link (GET_FILE fetches it)', '#forever'],
    ['a button whose click starts a browser download', '#download'],
  ])(
    'ends the step with the size error on an endless body from %s, holding little memory',
    async (_, selector) => {
      const page = await browser.newPage();
      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const startedAt = Date.now();
      const result = await runFlow(
        page,
        [openPage(), { sequence: 20, type: 'GET_FILE', target: css(selector), options: {} }],
        hooks(),
        { navigationPolicy: LOCAL, captureNormalizedHtml: false, limits: { navigationTimeoutMs: 20_000 } },
      );
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(result.status).toBe('ERROR');
      expect(result.error?.code).toBe(100061);
      expect(result.error?.originalMessage).toBe(
        `The file is over the ${25 * MB} bytes limit; the download was stopped there`,
      );
      expect(Date.now() - startedAt).toBeLessThan(15_000);
      expect(peak - rssBefore).toBeLessThan(100 * MB);
      await page.close();
    },
  );

  it('fetches through the egress proxy when the browser uses one', async () => {
    // This proxy refuses loopback; the flow's own policy allows it: only a fetch that really goes
    // through the proxy is refused.
    const refusals: string[] = [];
    const proxy = await startEgressProxy(PUBLIC_ONLY_POLICY, { onRefused: (e) => refusals.push(e.url) });
    const page = await browser.newPage();
    try {
      await page.goto(`${base}/`);
      const flow: FlowAction[] = [{ sequence: 20, type: 'GET_FILE', target: css('#small'), options: {} }];
      const direct = hooks();
      expect((await runFlow(page, flow, direct, { navigationPolicy: LOCAL })).status).toBe('SUCCESS');
      expect(direct.files[0]?.content.toString()).toBe('a,b\n1,2\n');
      const proxied = await runFlow(page, flow, hooks(), {
        navigationPolicy: LOCAL,
        egressProxyUrl: proxy.url,
      });
      expect(result(proxied)).toEqual({ status: 'ERROR', code: 100013 });
      expect(refusals).toEqual([new URL(base).host]);
    } finally {
      await page.close();
      await proxy.close();
    }
  });
});

const result = (flow: { status: string; error?: { code: number } | undefined }) => ({
  status: flow.status,
  code: flow.error?.code,
});

describe('a step value larger than the limit', () => {
  it('fails the step with the limit in its message', async () => {
    const page = await browser.newPage();
    const big: FlowAction = {
      sequence: 20,
      type: 'SCRIPT',
      options: { script: { script: "return 'x'.repeat(2 * 1024 * 1024);", returnType: 'TEXT' } },
    };
    const flow = await runFlow(page, [big], hooks(), { navigationPolicy: LOCAL });
    expect(result(flow)).toEqual({ status: 'ERROR', code: 100061 });
    expect(flow.error?.originalMessage).toMatch(
      /^The step's value is at least 2097154 bytes, over the limit of 1048576 bytes for one step's value \(STEP_VALUE_MAX_BYTES\)$/u,
    );
    // Under the limit in UTF-16 units, over it in UTF-8 bytes: measured exactly.
    const accented = await runFlow(
      page,
      [{ ...big, options: { script: { script: "return 'é'.repeat(600 * 1024);", returnType: 'TEXT' } } }],
      hooks(),
      { navigationPolicy: LOCAL },
    );
    expect(accented.error?.originalMessage).toMatch(
      /^The step's value is 1228802 bytes, over the limit of 1048576 bytes for one step's value \(STEP_VALUE_MAX_BYTES\)$/u,
    );
    const raised = await runFlow(page, [big], hooks(), {
      navigationPolicy: LOCAL,
      limits: { stepValueMaxBytes: 3 * MB },
    });
    expect(raised.status).toBe('SUCCESS');
    await page.close();
  });

  it('is refused in the page: a 100 MB script result never reaches the worker', async () => {
    const page = await browser.newPage();
    const heapBefore = process.memoryUsage().heapUsed;
    const flow = await runFlow(
      page,
      [
        {
          sequence: 20,
          type: 'SCRIPT',
          options: { script: { script: "return 'x'.repeat(100 * 1024 * 1024);", returnType: 'TEXT' } },
        },
      ],
      hooks(),
      { navigationPolicy: LOCAL },
    );
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    expect(result(flow)).toEqual({ status: 'ERROR', code: 100061 });
    expect(flow.error?.originalMessage).toMatch(
      /^The step's value is at least 104857602 bytes, over the limit of 1048576 bytes for one step's value \(STEP_VALUE_MAX_BYTES\)$/u,
    );
    // Transferred, the string alone would take 100 MB of this process's heap.
    expect(heapGrowth).toBeLessThan(50 * MB);
    await page.close();
  });
});

describe('a navigation to a refused address', () => {
  it('fails a NAVIGATE redirected there, and a click that leads there, with 100061', async () => {
    const page = await browser.newPage();
    const redirected = await runFlow(
      page,
      [{ sequence: 10, type: 'NAVIGATE', options: { text: `${base}/to-internal` } }],
      hooks(),
      { navigationPolicy: LOCAL },
    );
    expect(result(redirected)).toEqual({ status: 'ERROR', code: 100061 });
    expect(redirected.error?.originalMessage).toBe(
      `Navigation to ${refusedBase}/secret refused: 127.0.0.2 resolves to the non-public address 127.0.0.2`,
    );
    const clicked = await runFlow(
      page,
      [openPage(), { sequence: 20, type: 'CLICK', target: css('#inside'), options: {} }],
      hooks(),
      { navigationPolicy: LOCAL },
    );
    expect(result(clicked)).toEqual({ status: 'ERROR', code: 100061 });
    expect(clicked.error?.sequence).toBe(20);
    await page.close();
  });
});

describe('a browser that dies mid-step', () => {
  it('ends the step at once with 100006 saying the browser closed', async () => {
    const own = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
    const page = await own.newPage();
    const session = await own.newBrowserCDPSession();
    const info = (await session.send('SystemInfo.getProcessInfo')) as {
      processInfo: { type: string; id: number }[];
    };
    const pid = info.processInfo.find((p) => p.type === 'browser')?.id;
    expect(pid).toBeDefined();
    let killedAt = 0;
    const running = runFlow(
      page,
      [
        openPage(),
        { sequence: 20, type: 'WAIT', options: { number: 30 } },
        { sequence: 30, type: 'GET_TEXT', target: css('#text'), options: {} },
      ],
      {
        ask: () => Promise.resolve(''),
        onStepStart: (action) => {
          if (action.sequence !== 20) return;
          killedAt = Date.now();
          process.kill(pid!, 'SIGKILL');
        },
      },
      { navigationPolicy: LOCAL },
    );
    const flow = await running;
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    expect(result(flow)).toEqual({ status: 'ERROR', code: 100006 });
    expect(flow.error?.originalMessage).toBe(BROWSER_CLOSED_MESSAGE);
    expect(flow.error?.sequence).toBe(20);
  });
});
