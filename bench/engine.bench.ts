/**
 * The automation engine against plain Playwright, measured in the same run on the same page:
 *  1. a 20-step flow through runFlow (with and without per-step page screenshots) vs the same steps
 *     as a hand-written Playwright script, on a warm context: median/p95 and the overhead ratio;
 *  2. click on a point of the live view (elementAtPoint + raw mouse click) until the next
 *     screencast frame arrives: p50/p95. (Through the whole product this adds the API, the queue
 *     and the WebSocket: a later benchmark measures that path.)
 * Run: pnpm bench:engine
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Page } from 'playwright-core';
import {
  chromiumLaunchOptions,
  elementAtPoint,
  pageFrames,
  runFlow,
  startEgressProxy,
  type FlowHooks,
} from '@pagewright/automation';
import type { FlowAction } from '@pagewright/shared';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const CLICKS = Number(process.env.BENCH_CLICKS ?? 40);

const tableRows = Array.from(
  { length: 50 },
  (_, i) =>
    `<tr><td>Item ${i}</td><td>${(i * 13.5).toFixed(2)}</td><td>2025-0${(i % 9) + 1}-15</td><td>ok</td></tr>`,
).join('');
const PAGE = `<!doctype html><html><body style="height:4000px">
<form>${[1, 2, 3, 4, 5].map((i) => `<label>Field ${i} <input id="f${i}"></label>`).join('')}
<select id="pick"><option value="a">A</option><option value="b">B</option></select>
<button type="button" id="go" onclick="setTimeout(() => { result.hidden = false; }, 200)">Go</button></form>
<div id="result" hidden>Done</div>
${[1, 2, 3, 4, 5].map((i) => `<p id="t${i}">Text ${i}</p>`).join('')}
<table id="tbl"><tbody>${tableRows}</tbody></table>
<button id="flip" style="width:200px;height:60px" onclick="this.style.background = this.style.background === 'orange' ? 'teal' : 'orange'">Flip</button>
</body></html>`;

const css = (selectorValue: string) => ({
  selectorType: 'CSS' as const,
  selectorValue,
  framePath: [],
  fallbackLocators: [],
});

function flowFor(url: string): FlowAction[] {
  const steps: Omit<FlowAction, 'sequence'>[] = [
    { type: 'NAVIGATE', options: { text: url } },
    ...[1, 2, 3, 4, 5].map((i) => ({
      type: 'TYPE_TEXT' as const,
      target: css(`#f${i}`),
      options: { text: `v${i}` },
    })),
    { type: 'CLICK_SELECT', target: css('#pick'), options: { select: { option: 'b', options: [] } } },
    { type: 'CLICK', target: css('#go'), options: {} },
    { type: 'WAIT_UNTIL_DISPLAYED', target: css('#result'), options: { timeoutMs: 5000 } },
    ...[1, 2, 3, 4, 5].map((i) => ({ type: 'GET_TEXT' as const, target: css(`#t${i}`), options: {} })),
    {
      type: 'GET_TABLE',
      options: {
        table: {
          name: 'items',
          tableSelector: '#tbl',
          rowSelector: 'tr',
          columns: ['1', '2', '3', '4'].map((n) => ({
            label: `c${n}`,
            selector: `td:nth-child(${n})`,
            type: 'TEXT' as const,
          })),
          maxPages: 1,
        },
      },
    },
    { type: 'SCROLL_DOWN', options: {} },
    { type: 'SCROLL_DOWN', options: {} },
    { type: 'SCROLL_DOWN', options: {} },
    {
      type: 'SCRIPT',
      options: { script: { script: 'return document.title.length;', returnType: 'NUMBER' } },
    },
  ];
  return steps.map((step, i) => ({ ...step, sequence: (i + 1) * 10 }));
}

async function plainScript(page: Page, url: string): Promise<void> {
  await page.goto(url);
  for (const i of [1, 2, 3, 4, 5]) await page.fill(`#f${i}`, `v${i}`);
  await page.selectOption('#pick', 'b');
  await page.click('#go');
  await page.waitForSelector('#result', { state: 'visible' });
  for (const i of [1, 2, 3, 4, 5]) await page.textContent(`#t${i}`);
  await page.$$eval('#tbl tr', (rows) =>
    rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)),
  );
  for (let i = 0; i < 3; i++) await page.mouse.wheel(0, 800);
  await page.evaluate(() => document.title.length);
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

async function timeRounds(run: () => Promise<void>): Promise<number[]> {
  await run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times;
}

/** A page of 30 pictures and scripts, to weigh the egress proxy on a page with subresources. */
const SUBRESOURCES = 30;
const RICH_PAGE = `<!doctype html><body>${Array.from({ length: SUBRESOURCES }, (_, i) =>
  i % 2 ? `<img src="/asset/${i}.svg">` : `<script src="/asset/${i}.js"></script>`,
).join('')}</body>`;
const server = http.createServer((req, res) => {
  if (req.url === '/rich') return res.writeHead(200, { 'content-type': 'text/html' }).end(RICH_PAGE);
  if (req.url?.endsWith('.svg'))
    return res
      .writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' })
      .end('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>');
  if (req.url?.endsWith('.js'))
    return res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' }).end('1;');
  return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await context.newPage();
const hooks: FlowHooks = { ask: async () => 'CANCELED' };
const policy = { allowPrivateNetworks: false, allowedHosts: ['127.0.0.1'] };
const flow = flowFor(url);

try {
  const plain = await timeRounds(() => plainScript(page, url));
  const runFlowTimes = (capturePageScreenshots: boolean, captureElementScreenshots: boolean) =>
    timeRounds(async () => {
      const result = await runFlow(page, flow, hooks, {
        navigationPolicy: policy,
        capturePageScreenshots,
        captureElementScreenshots,
      });
      if (result.status !== 'SUCCESS')
        throw new Error(`flow ended ${result.status}: ${result.error?.message}`);
    });
  const engineLean = await runFlowTimes(false, false);
  const engineElements = await runFlowTimes(false, true);
  const engineFull = await runFlowTimes(true, true);

  // Click-to-frame: the live view's click path at engine level.
  await page.goto(url);
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = (await page.locator('#flip').boundingBox())!;
  await page.evaluate((y) => window.scrollTo(0, y - 100), box.y);
  const flip = (await page.locator('#flip').boundingBox())!;
  const point = { x: flip.x + flip.width / 2, y: flip.y + flip.height / 2 };
  let waiting: ((t: number) => void) | undefined;
  const stopListening = pageFrames(page).onFrame(() => waiting?.(performance.now()));
  const releaseFrames = pageFrames(page).hold();
  const stop = async () => {
    stopListening();
    await releaseFrames();
  };
  await new Promise((r) => setTimeout(r, 300));
  const clickToFrame: number[] = [];
  for (let i = 0; i < CLICKS; i++) {
    // A frame that never comes counts as a miss after 2 s rather than hanging the benchmark.
    const frame = new Promise<number>((resolve) => {
      waiting = resolve;
      setTimeout(() => resolve(Number.NaN), 2000);
    });
    const started = performance.now();
    const target = await elementAtPoint(page, point);
    if (target?.selectorValue !== '#flip') throw new Error(`clicked ${target?.selectorValue}`);
    await page.mouse.click(point.x, point.y);
    clickToFrame.push((await frame) - started);
    waiting = undefined;
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  // The egress proxy (every worker's Chromium sends its traffic through it): page loads with and without.
  const proxy = await startEgressProxy(policy);
  const proxied = await chromium.launch({
    ...chromiumLaunchOptions(process.env.CHROMIUM_PATH),
    proxy: { server: proxy.url },
  });
  const proxiedPage = await proxied.newPage();
  const loadRich = (onPage: Page) => async () => {
    await onPage.goto(`${url}rich`, { waitUntil: 'load' });
  };
  const directLoads = await timeRounds(loadRich(page));
  const proxiedLoads = await timeRounds(loadRich(proxiedPage));
  await proxied.close();
  await proxy.close();

  const missed = clickToFrame.filter(Number.isNaN).length;
  const delivered = clickToFrame.filter((t) => !Number.isNaN(t));

  const fmt = (v: number) => v.toFixed(0);
  const plainMedian = quantile(plain, 0.5);
  console.log(
    `\nPagewright engine benchmark: ${ROUNDS} rounds, ${CLICKS} clicks, ${new Date().toISOString()}`,
  );
  console.log('| what | median ms | p95 ms | vs plain Playwright |');
  console.log('|---|---:|---:|---:|');
  for (const [name, times] of [
    ['plain Playwright script, 20 steps (baseline)', plain],
    ['runFlow, 20 steps, no screenshots', engineLean],
    ['runFlow, 20 steps, element screenshots', engineElements],
    ['runFlow, 20 steps, element + page screenshot per step (product default)', engineFull],
  ] as const) {
    console.log(
      `| ${name} | ${fmt(quantile(times, 0.5))} | ${fmt(quantile(times, 0.95))} | ${(quantile(times, 0.5) / plainMedian).toFixed(2)} |`,
    );
  }
  const directMedian = quantile(directLoads, 0.5);
  for (const [name, times] of [
    [`page load with ${SUBRESOURCES} subresources, direct (baseline for the proxy)`, directLoads],
    [`page load with ${SUBRESOURCES} subresources, through the egress proxy`, proxiedLoads],
  ] as const) {
    console.log(
      `| ${name} | ${fmt(quantile(times, 0.5))} | ${fmt(quantile(times, 0.95))} | ${(quantile(times, 0.5) / directMedian).toFixed(2)} vs direct |`,
    );
  }
  console.log(
    `| click at a point (elementAtPoint + mouse) to next screencast frame (${missed} of ${CLICKS} missed) | ${fmt(quantile(delivered, 0.5))} | ${fmt(quantile(delivered, 0.95))} | |`,
  );
} finally {
  await browser.close();
  server.close();
}
