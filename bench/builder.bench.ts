/**
 * The action builder through the whole product (API, queue, worker, WebSocket), next to plain
 * Playwright measured in the same run on the same fixture site (the baseline):
 *  1. a 20-step extractor recorded through the API, then GET /api/extractor/validate timed N times
 *     (median) against the same 20 steps as a plain Playwright script in a new context of one
 *     already-launched browser (median), and the ratio;
 *  1b. a "real-app-like" flow (issue 22), modelled on what recording Adminer and a shop met: a
 *     name-only login form with a native select, a table read over its 3 pages, a submit that asks
 *     confirm() (answered by a recorded Answer dialog), and a background save checked with Check
 *     text; validated N times against the same flow written by hand in Playwright;
 *  2. a click on the live view (POST /api/extractor/ with a MOUSE_CLICK at an element's centre,
 *     opening then closing a modal) until the next `frame` event on /api/ws: p50/p95, misses
 *     (no frame within 2 s of the request start), and the HTTP round trip alone (p50).
 * Run: pnpm bench:builder  (needs PostgreSQL and Redis; starts its own API, worker and database).
 * BENCH_USE_SOURCE=1 runs the TypeScript sources instead of the build.
 */
import WebSocket from 'ws';
import { chromium, type Browser } from 'playwright-core';
import request from 'supertest';
import { chromiumLaunchOptions } from '@pagewright/automation';
import type { AddActionInput, NormalizedPage, ValidationResult } from '@pagewright/shared';
import { FIXTURE_PASSWORD, startFixtureSite } from '../tests/fixtures/site/server.js';
import { createConfirmedUser } from '../tests/support/accounts.js';
import { startStack } from '../tests/support/stack.js';
import { benchNodeArgs } from './support/node-args.js';

const VALIDATIONS = Number(process.env.BENCH_VALIDATIONS ?? 5);
const CLICKS = Number(process.env.BENCH_CLICKS ?? 20);
const FRAME_TIMEOUT_MS = 2000;
const EXTRACTOR = { extractorType: 'EXTRACTOR' } as const;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dollars = {
  beforePositive: '$',
  afterPositive: '',
  beforeNegative: '-',
  afterNegative: '',
  decimalSeparator: '.',
  groupSeparator: ',',
};
const target = (selectorValue: string) => ({ selectorValue });

function twentySteps(siteUrl: string): AddActionInput[] {
  const page = (name: string) => `${siteUrl}/pages/${name}`;
  return [
    { type: 'NAVIGATE', textValue: page('login.html') },
    { type: 'TYPE_TEXT', target: target('#username'), textValue: 'ops-user' },
    { type: 'TYPE_PASSWORD', target: target('#password'), credentials: FIXTURE_PASSWORD },
    { type: 'CLICK', target: target('#login-submit') },
    { type: 'GET_TEXT', label: 'Welcome', target: target('#welcome') },
    { type: 'NAVIGATE', textValue: page('table.html') },
    {
      type: 'GET_NUMBER',
      label: 'First amount',
      target: target('#statement-rows tr:first-child td:nth-child(2)'),
      options: { numberFormat: dollars },
    },
    {
      type: 'GET_DATE',
      label: 'First date',
      target: target('#statement-rows tr:first-child td:nth-child(3)'),
      options: { datetimeFormat: { mask: 'MM/dd/yyyy', gmt: 'Etc/GMT0' } },
    },
    {
      type: 'GET_TABLE',
      options: {
        table: {
          name: 'Statements',
          tableSelector: '#statements',
          rowSelector: '#statement-rows tr',
          columns: [
            { label: 'Name', selector: 'td:nth-child(1)', type: 'TEXT' },
            { label: 'Amount', selector: 'td:nth-child(2)', type: 'NUMBER', numberMask: dollars },
          ],
          maxPages: 1,
        },
      },
    },
    { type: 'SCROLL_DOWN' },
    { type: 'SCROLL_TOP' },
    { type: 'NAVIGATE', textValue: page('select.html') },
    { type: 'CLICK_SELECT', target: target('#plan'), options: { select: { option: 'pro', options: [] } } },
    { type: 'GET_TEXT', label: 'Plan', target: target('#plan-result') },
    { type: 'NAVIGATE', textValue: page('search.html') },
    { type: 'TYPE_TEXT', target: target('#query'), textValue: 'ap' },
    { type: 'CLICK', target: target('#search-button') },
    { type: 'GET_TEXT', label: 'Count', target: target('#result-count') },
    { type: 'NAVIGATE', textValue: page('dialog.html') },
    { type: 'GET_TEXT', label: 'Dialog', target: target('#dialog-result') },
  ];
}

const STATEMENT_COLUMNS = [
  { label: 'Name', selector: 'td:nth-child(1)', type: 'TEXT' as const },
  { label: 'Amount', selector: 'td:nth-child(2)', type: 'NUMBER' as const, numberMask: dollars },
];

/** The real-app-like flow before its dialog (recorded through the API as the builder would). */
function realAppSteps(siteUrl: string): AddActionInput[] {
  const page = (name: string) => `${siteUrl}/pages/${name}`;
  return [
    { type: 'NAVIGATE', textValue: page('admin-login.html') },
    {
      type: 'CLICK_SELECT',
      target: target('select[name="auth[driver]"]'),
      options: { select: { option: 'server', options: [] } },
    },
    { type: 'TYPE_TEXT', target: target('#username'), textValue: 'ops-user' },
    { type: 'TYPE_PASSWORD', target: target('input[name="password"]'), credentials: FIXTURE_PASSWORD },
    { type: 'CLICK', target: target('input[type="submit"]') },
    { type: 'GET_TEXT', label: 'Welcome', target: target('#welcome') },
    { type: 'NAVIGATE', textValue: page('table.html') },
    {
      type: 'GET_TABLE',
      options: {
        table: {
          name: 'Statements',
          tableSelector: '#statements',
          rowSelector: '#statement-rows tr',
          columns: STATEMENT_COLUMNS,
          nextPageSelector: '#next-page',
          maxPages: 3,
        },
      },
    },
    { type: 'NAVIGATE', textValue: page('order.html') },
  ];
}

/** After the confirm() the click raises: the order's outcome, then a background save checked. */
function realAppStepsAfterDialog(siteUrl: string): AddActionInput[] {
  return [
    { type: 'GET_TEXT', label: 'Order', target: target('#order-result') },
    { type: 'NAVIGATE', textValue: `${siteUrl}/pages/edit-item.html` },
    { type: 'TYPE_TEXT', target: target('#item-name'), textValue: 'Gizmo' },
    { type: 'CLICK', target: target('#item-save') },
    { type: 'CHECK_TEXT', textValue: 'Item has been updated.', options: { timeoutMs: 5_000 } },
  ];
}

/** The real-app-like flow written by hand in Playwright, in a fresh context. */
async function plainRealApp(browser: Browser, siteUrl: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const at = (name: string) => page.goto(`${siteUrl}/pages/${name}`);
    await at('admin-login.html');
    await page.selectOption('select[name="auth[driver]"]', 'server');
    await page.fill('#username', 'ops-user');
    await page.fill('input[name="password"]', FIXTURE_PASSWORD);
    await page.click('input[type="submit"]');
    const welcome = await page.locator('#welcome').textContent();
    await at('table.html');
    const rows: (string | null)[][] = [];
    for (let pageNumber = 1; pageNumber <= 3; pageNumber++) {
      rows.push(
        ...(await page.$$eval('#statement-rows tr', (trs) =>
          trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent)),
        )),
      );
      const next = page.locator('#next-page');
      if (pageNumber === 3 || (await next.isDisabled())) break;
      const before = await page.textContent('#statement-rows tr:first-child td');
      await next.click();
      await page.waitForFunction(
        (first) => document.querySelector('#statement-rows tr:first-child td')?.textContent !== first,
        before,
      );
    }
    await at('order.html');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('#place-order');
    await page.getByText('Order placed').waitFor();
    const order = await page.textContent('#order-result');
    await at('edit-item.html');
    await page.fill('#item-name', 'Gizmo');
    await page.click('#item-save');
    await page.getByText('Item has been updated.').waitFor({ timeout: 5_000 });
    const got = { welcome, rows: rows.length, order };
    const expected = { welcome: 'Welcome, ops-user', rows: 15, order: 'Order placed: Widget' };
    if (JSON.stringify(got) !== JSON.stringify(expected))
      throw new Error(`plain real-app flow read ${JSON.stringify(got)}`);
  } finally {
    await context.close();
  }
}

/** The same 20 steps as a hand-written Playwright script, in a fresh context. */
async function plainTwentySteps(browser: Browser, siteUrl: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const at = (name: string) => page.goto(`${siteUrl}/pages/${name}`);
    await at('login.html');
    await page.fill('#username', 'ops-user');
    await page.fill('#password', FIXTURE_PASSWORD);
    await page.click('#login-submit');
    const welcome = await page.locator('#welcome').textContent();
    await at('table.html');
    const amount = Number(
      (await page.textContent('#statement-rows tr:first-child td:nth-child(2)'))?.replace(/[$,]/g, ''),
    );
    await page.textContent('#statement-rows tr:first-child td:nth-child(3)');
    const rows = await page.$$eval('#statement-rows tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent)),
    );
    await page.mouse.wheel(0, 800);
    await page.evaluate(() => window.scrollTo(0, 0));
    await at('select.html');
    await page.selectOption('#plan', 'pro');
    const plan = await page.textContent('#plan-result');
    await at('search.html');
    await page.fill('#query', 'ap');
    await page.click('#search-button');
    const count = await page.textContent('#result-count');
    await at('dialog.html');
    await page.textContent('#dialog-result');
    const got = { welcome, amount, rows: rows.length, plan, count };
    const expected = {
      welcome: 'Welcome, ops-user',
      amount: 1234.5,
      rows: 5,
      plan: 'Selected: Pro',
      count: '3 results',
    };
    if (JSON.stringify(got) !== JSON.stringify(expected))
      throw new Error(`plain flow read ${JSON.stringify(got)}`);
  } finally {
    await context.close();
  }
}

const site = await startFixtureSite();
const stack = await startStack({
  nodeArgs: benchNodeArgs('builder'),
  useBuild: process.env.BENCH_USE_SOURCE !== '1',
  env: { LOG_LEVEL: 'error' },
  logDirectory: 'bench-logs',
});
const browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
let socket: WebSocket | undefined;
let token = '';
const api = () => request(stack.apiUrl);
const bearer = () => ({ Authorization: `Bearer ${token}` });
const startBuilder = (name: string) =>
  api()
    .post('/api/extractor/start')
    .set(bearer())
    .send({ name, description: `${name} (benchmark)`, extractorType: 'EXTRACTOR' })
    .expect(201);
const add = async (body: AddActionInput) => {
  const answer = await api().post('/api/extractor/').query(EXTRACTOR).set(bearer()).send(body);
  if (answer.status !== 200)
    throw new Error(`${body.type}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`);
  return answer;
};
const endBuilder = () => api().get('/api/extractor/end').query(EXTRACTOR).set(bearer()).expect(200);

try {
  token = (await createConfirmedUser(stack.apiUrl, stack.mailUrl, 'bench-builder')).accessToken;

  // 1. Validation of a 20-step flow vs the plain script.
  await startBuilder('Twenty steps');
  for (const step of twentySteps(site.url)) await add(step);
  const validate = async () => {
    const answer = await api().get('/api/extractor/validate').query(EXTRACTOR).set(bearer()).buffer(true);
    const last = answer.text.trim().split('\n').pop() ?? '';
    const result = JSON.parse(last) as ValidationResult;
    if (answer.status !== 200 || result.error !== null)
      throw new Error(`validation failed (${answer.status}): ${last.slice(0, 1000)}`);
  };
  /**
   * Times `plain` and `ours` VALIDATIONS times each after a warm-up of both, interleaved, so that
   * whatever else loads the machine weighs on both alike.
   */
  const interleaved = async (plain: () => Promise<void>, ours: () => Promise<void>) => {
    const times = { plain: [] as number[], ours: [] as number[] };
    await plain();
    await ours();
    for (let round = 0; round < VALIDATIONS; round++) {
      for (const [name, run] of [['plain', plain] as const, ['ours', ours] as const]) {
        const started = performance.now();
        await run();
        times[name].push(performance.now() - started);
      }
    }
    return times;
  };
  const twentyStepTimes = await interleaved(() => plainTwentySteps(browser, site.url), validate);
  const plainTimes = twentyStepTimes.plain;
  const validateTimes = twentyStepTimes.ours;
  await endBuilder();

  // 1b. The real-app-like flow: its confirm() is answered over the page view while recording.
  await startBuilder('Real-app-like');
  for (const step of realAppSteps(site.url)) await add(step);
  const clicked = add({ type: 'CLICK', target: target('#place-order') });
  for (;;) {
    const answered = await api()
      .post('/api/extractor/dialog')
      .query(EXTRACTOR)
      .set(bearer())
      .send({ accept: true });
    if (answered.status === 200) break;
    await sleep(100);
  }
  await clicked;
  for (const step of realAppStepsAfterDialog(site.url)) await add(step);
  const realAppTimes = await interleaved(() => plainRealApp(browser, site.url), validate);
  const plainRealTimes = realAppTimes.plain;
  const validateRealTimes = realAppTimes.ours;
  await endBuilder();

  // 2. Click on the live view → next frame over the WebSocket.
  let waiting: ((at: number) => void) | undefined;
  let frames = 0;
  await new Promise<void>((resolve, reject) => {
    const wsUrl = `${stack.apiUrl.replace(/^http/, 'ws')}/api/ws?accessToken=${encodeURIComponent(token)}`;
    socket = new WebSocket(wsUrl);
    socket.on('error', reject);
    socket.on('message', (data) => {
      const event = JSON.parse(data.toString()) as { type: string };
      if (event.type === 'ready') resolve();
      if (event.type === 'frame') {
        frames++;
        waiting?.(performance.now());
      }
    });
  });
  await startBuilder('Click to frame');
  await add({ type: 'NAVIGATE', textValue: `${site.url}/pages/dialog.html` });
  const centreOf = async (selectorPart: string) => {
    const page = (await api().post('/api/extractor/normalized').query(EXTRACTOR).set(bearer()).expect(200))
      .body as NormalizedPage;
    const area = page.areas.find((a) => a.selector.includes(selectorPart) && a.width > 0);
    if (!area) throw new Error(`no area for ${selectorPart} among ${page.areas.length}`);
    return { x: area.x + area.width / 2, y: area.y + area.height / 2 };
  };
  const openPoint = await centreOf('open-modal');
  await add({ type: 'MOUSE_CLICK', options: { point: openPoint } });
  const cancelPoint = await centreOf('modal-cancel');
  await add({ type: 'MOUSE_CLICK', options: { point: cancelPoint } });
  await sleep(500);

  const clickToFrame: number[] = [];
  const roundTrips: number[] = [];
  let framesBeforeAnswer = 0;
  for (let i = 0; i < CLICKS; i++) {
    const point = i % 2 === 0 ? openPoint : cancelPoint;
    const started = performance.now();
    const frame = new Promise<number>((resolve) => {
      waiting = resolve;
      setTimeout(() => resolve(Number.NaN), FRAME_TIMEOUT_MS);
    });
    await add({ type: 'MOUSE_CLICK', options: { point } });
    const answeredAt = performance.now();
    roundTrips.push(answeredAt - started);
    const frameAt = await frame;
    waiting = undefined;
    if (frameAt < answeredAt) framesBeforeAnswer++;
    clickToFrame.push(frameAt - started);
    await sleep(300); // quiet spell, so the next click's frame is not a trailing one
  }
  const state = await add({ type: 'GET_TEXT', target: target('#dialog-result') });
  const missed = clickToFrame.filter(Number.isNaN).length;
  const delivered = clickToFrame.filter((t) => !Number.isNaN(t));
  await endBuilder();

  const fmt = (v: number) => v.toFixed(0);
  const plainMedian = quantile(plainTimes, 0.5);
  const validateMedian = quantile(validateTimes, 0.5);
  console.log(
    `\nPagewright builder benchmark: ${VALIDATIONS} validations, ${CLICKS} clicks, ${new Date().toISOString()}`,
  );
  console.log('| what | median ms | min ms | max ms | vs plain Playwright |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, times] of [
    ['plain Playwright, 20 steps, new context (baseline)', plainTimes],
    ['GET /api/extractor/validate, 20-step extractor', validateTimes],
  ] as const)
    console.log(
      `| ${name} | ${fmt(quantile(times, 0.5))} | ${fmt(Math.min(...times))} | ${fmt(Math.max(...times))} | ${(quantile(times, 0.5) / plainMedian).toFixed(2)} |`,
    );
  console.log(`validate / plain ratio: ${(validateMedian / plainMedian).toFixed(2)}`);
  const plainRealMedian = quantile(plainRealTimes, 0.5);
  console.log(
    '\n| real-app-like flow (login by field names, 3-page table, confirm(), Check text) | median ms | min ms | max ms | vs plain Playwright |',
  );
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, times] of [
    ['plain Playwright, same flow, new context (baseline)', plainRealTimes],
    ['GET /api/extractor/validate, same flow (16 steps)', validateRealTimes],
  ] as const)
    console.log(
      `| ${name} | ${fmt(quantile(times, 0.5))} | ${fmt(Math.min(...times))} | ${fmt(Math.max(...times))} | ${(quantile(times, 0.5) / plainRealMedian).toFixed(2)} |`,
    );
  console.log(
    `real-app-like validate / plain ratio: ${(quantile(validateRealTimes, 0.5) / plainRealMedian).toFixed(2)}`,
  );
  console.log('\n| click on the live view (MOUSE_CLICK, open/close modal) | p50 ms | p95 ms | missed |');
  console.log('|---|---:|---:|---:|');
  console.log(
    `| request start → first frame event on /api/ws | ${fmt(quantile(delivered, 0.5))} | ${fmt(quantile(delivered, 0.95))} | ${missed} of ${CLICKS} (no frame within ${FRAME_TIMEOUT_MS} ms) |`,
  );
  console.log(
    `| HTTP round trip of POST /api/extractor/ alone | ${fmt(quantile(roundTrips, 0.5))} | ${fmt(quantile(roundTrips, 0.95))} | |`,
  );
  console.log(
    `frames received: ${frames} in all; ${framesBeforeAnswer} of ${CLICKS} clicks got their first frame before the HTTP answer; ` +
      `page state after the clicks: ${JSON.stringify((state.body as { value?: unknown }).value)}`,
  );
} finally {
  socket?.close();
  await browser.close();
  await stack.stop();
  await site.close();
}
