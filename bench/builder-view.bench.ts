/**
 * Frames per second the builder's page view shows while the live page animates, next to what the
 * raw CDP screencast produces on the same page in the same run (the baseline):
 *  - builder view: the built SPA's builder (/extractor?id=) open in Chromium on a builder whose live
 *    page is tests/fixtures/site/pages/animated.html; the page view counts each picture it paints
 *    on `data-frames-shown`, read before and after the window;
 *  - pushed: the `frame` events the API sent over /api/ws in the same window (a second listener);
 *  - baseline: a plain Playwright page on the same animated page with the worker's screencast
 *    settings (JPEG q70, max 1280×800, every frame), frames counted over the same window.
 * Then the builder with 100 action cards (each with its element picture) against the same builder
 * with 5 (the baseline): time from navigation to the last card on screen, and the long tasks
 * (> 50 ms, PerformanceObserver) while the pointer sweeps the page view and the card list scrolls.
 * Run: pnpm bench:builder-view  (needs PostgreSQL and Redis; starts its own API, worker and
 * database; serves apps/web/dist unless PW_TEST_WEB_DIST names another build).
 */
import WebSocket from 'ws';
import { chromium } from 'playwright-core';
import request from 'supertest';
import { chromiumLaunchOptions } from '@pagewright/automation';
import { startFixtureSite } from '../tests/fixtures/site/server.js';
import { createConfirmedUser } from '../tests/support/accounts.js';
import { countPublishedFrames } from '../tests/support/published-frames.js';
import { startStack } from '../tests/support/stack.js';
import { benchNodeArgs } from './support/node-args.js';

const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 10_000);
const VIEWPORT = { width: 1280, height: 800 };
const EXTRACTOR = { extractorType: 'EXTRACTOR' } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const site = await startFixtureSite();
const stack = await startStack({
  nodeArgs: benchNodeArgs('builder-view'),
  useBuild: process.env.BENCH_USE_SOURCE !== '1',
  env: { LOG_LEVEL: 'error' },
  logDirectory: 'bench-logs',
});
const browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
let socket: WebSocket | undefined;

try {
  const user = await createConfirmedUser(stack.apiUrl, stack.mailUrl, 'bench-builder-view');
  const api = () => request(stack.apiUrl);
  const bearer = { Authorization: `Bearer ${user.accessToken}` };
  const created = await api()
    .post('/api/extractor/start')
    .set(bearer)
    .send({ name: 'Animated', description: 'Page view benchmark', extractorType: 'EXTRACTOR' })
    .expect(201);
  const id = (created.body as { id: string }).id;
  await api()
    .post('/api/extractor/')
    .query(EXTRACTOR)
    .set(bearer)
    .send({ type: 'NAVIGATE', textValue: `${site.url}/pages/animated.html` })
    .expect(200);

  // 1. The builder's page view in the built SPA.
  const context = await browser.newContext({ viewport: VIEWPORT, baseURL: stack.apiUrl });
  await context.addInitScript(
    (session) => {
      localStorage.setItem('accessToken', session.accessToken);
      localStorage.setItem('refreshToken', session.refreshToken);
      localStorage.setItem('username', session.username);
      sessionStorage.setItem('pagewrightSession', 'true');
    },
    { accessToken: user.accessToken, refreshToken: user.refreshToken, username: user.username },
  );
  const page = await context.newPage();
  await page.goto(`/extractor?id=${id}`);
  const view = page.getByTestId('page-view');
  await view.waitFor();
  const shown = async () => Number((await view.getAttribute('data-frames-shown')) ?? 0);
  const deadline = Date.now() + 30_000;
  while ((await shown()) < 5) {
    if (Date.now() > deadline) throw new Error('the page view showed no frames within 30 s');
    await sleep(200);
  }

  let pushed = 0;
  await new Promise<void>((resolve, reject) => {
    const url = `${stack.apiUrl.replace(/^http/, 'ws')}/api/ws?accessToken=${encodeURIComponent(user.accessToken)}`;
    socket = new WebSocket(url);
    socket.on('error', reject);
    socket.on('message', (data) => {
      const event = JSON.parse(data.toString()) as { type: string };
      if (event.type === 'ready') resolve();
      if (event.type === 'frame') pushed += 1;
    });
  });
  pushed = 0;
  const shownBefore = await shown();
  const viewStarted = performance.now();
  await sleep(WINDOW_MS);
  const shownAfter = await shown();
  const pushedInWindow = pushed;
  const viewSeconds = (performance.now() - viewStarted) / 1000;
  socket?.close();
  await context.close();

  // 1b. Nobody watching: the builder's tab is closed, a dashboard's socket stays open and says so.
  let userId = '';
  const dashboardSocket = await new Promise<WebSocket>((resolve, reject) => {
    const url = `${stack.apiUrl.replace(/^http/, 'ws')}/api/ws?accessToken=${encodeURIComponent(user.accessToken)}`;
    const opened = new WebSocket(url);
    opened.on('error', reject);
    opened.on('message', (data) => {
      const event = JSON.parse(data.toString()) as { type: string; userId?: string };
      if (event.type !== 'ready') return;
      userId = event.userId ?? '';
      opened.send(JSON.stringify({ watch: [] }));
      resolve(opened);
    });
  });
  await sleep(2000); // the presence message reaches the worker
  const published = await countPublishedFrames(
    process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    stack.redisKeyPrefix,
    userId,
  );
  const unwatchedStarted = performance.now();
  await sleep(WINDOW_MS / 2);
  const unwatchedFrames = published.count();
  const unwatchedSeconds = (performance.now() - unwatchedStarted) / 1000;
  published.stop();
  dashboardSocket.close();
  await api().get('/api/extractor/end').query(EXTRACTOR).set(bearer).expect(200);

  // 2. Baseline: the raw CDP screencast of the same page, no product in between.
  const plain = await browser.newContext({ viewport: VIEWPORT });
  const plainPage = await plain.newPage();
  await plainPage.goto(`${site.url}/pages/animated.html`);
  const cdp = await plain.newCDPSession(plainPage);
  let cast = 0;
  cdp.on('Page.screencastFrame', (event) => {
    cast += 1;
    void cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
  });
  await cdp.send('Page.startScreencast', {
    format: 'jpeg',
    quality: 70,
    maxWidth: VIEWPORT.width,
    maxHeight: VIEWPORT.height,
    everyNthFrame: 1,
  });
  await sleep(1000);
  cast = 0;
  const castStarted = performance.now();
  await sleep(WINDOW_MS);
  const castInWindow = cast;
  const castSeconds = (performance.now() - castStarted) / 1000;
  await cdp.send('Page.stopScreencast');
  await plain.close();

  // 3. Responsiveness with many cards: 100 recorded actions vs 5, same page, same user.
  const cardsRows: string[] = [];
  let baselineMs = 0;
  for (const count of [5, 100]) {
    const made = await api()
      .post('/api/extractor/start')
      .set(bearer)
      .send({ name: `${count} cards`, description: 'Card list benchmark', extractorType: 'EXTRACTOR' })
      .expect(201);
    const itemId = (made.body as { id: string }).id;
    await api()
      .post('/api/extractor/')
      .query(EXTRACTOR)
      .set(bearer)
      .send({ type: 'NAVIGATE', textValue: `${site.url}/pages/login.html` })
      .expect(200);
    for (let index = 1; index < count; index += 1) {
      await api()
        .post('/api/extractor/')
        .query(EXTRACTOR)
        .set(bearer)
        .send({ type: 'GET_TEXT', target: { selectorValue: '#login-title' }, label: `Title ${index}` })
        .expect(200);
    }
    const cardsContext = await browser.newContext({ viewport: VIEWPORT, baseURL: stack.apiUrl });
    await cardsContext.addInitScript(
      (session) => {
        localStorage.setItem('accessToken', session.accessToken);
        localStorage.setItem('refreshToken', session.refreshToken);
        localStorage.setItem('username', session.username);
        sessionStorage.setItem('pagewrightSession', 'true');
        const longTasks: number[] = [];
        (window as unknown as { longTasks: number[] }).longTasks = longTasks;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) longTasks.push(entry.duration);
        }).observe({ type: 'longtask', buffered: true });
      },
      { accessToken: user.accessToken, refreshToken: user.refreshToken, username: user.username },
    );
    const cardsPage = await cardsContext.newPage();
    const opened = performance.now();
    await cardsPage.goto(`/extractor?id=${itemId}`);
    await cardsPage.getByTestId(`action-card-${count * 10}`).waitFor({ timeout: 60_000 });
    const toLastCardMs = performance.now() - opened;
    await cardsPage.getByTestId('page-view').waitFor();
    // Settle, then watch only the interaction.
    await sleep(1000);
    await cardsPage.evaluate(() => {
      (window as unknown as { longTasks: number[] }).longTasks.length = 0;
    });
    const viewBox = await cardsPage.getByTestId('page-view').boundingBox();
    const interactionStarted = performance.now();
    if (viewBox) {
      for (let step = 0; step < 60; step += 1) {
        await cardsPage.mouse.move(
          viewBox.x + ((step * 37) % Math.max(1, viewBox.width - 1)),
          viewBox.y + ((step * 23) % Math.max(1, viewBox.height - 1)),
        );
        await sleep(40);
      }
    }
    await cardsPage.getByTestId(`action-card-${count * 10}`).scrollIntoViewIfNeeded();
    await cardsPage.getByTestId('action-card-10').scrollIntoViewIfNeeded();
    const interactionMs = performance.now() - interactionStarted;
    const longTasks = await cardsPage.evaluate(
      () => (window as unknown as { longTasks: number[] }).longTasks,
    );
    await cardsContext.close();
    await api().get('/api/extractor/end').query(EXTRACTOR).set(bearer).expect(200);
    if (count === 5) baselineMs = toLastCardMs;
    cardsRows.push(
      `| ${count} cards${count === 5 ? ' (baseline)' : ''} | ${toLastCardMs.toFixed(0)} | ${(toLastCardMs / baselineMs).toFixed(2)} | ${(interactionMs / 1000).toFixed(1)} | ${longTasks.length} | ${longTasks.length ? Math.max(...longTasks).toFixed(0) : 0} |`,
    );
  }

  const viewFps = (shownAfter - shownBefore) / viewSeconds;
  const pushedFps = pushedInWindow / viewSeconds;
  const castFps = castInWindow / castSeconds;
  const fixed = (value: number) => value.toFixed(1);
  console.log(`\n## Builder page view (animated page, ${fixed(WINDOW_MS / 1000)} s window)\n`);
  console.log('| measure | frames | fps | vs baseline |');
  console.log('|---|---:|---:|---:|');
  console.log(
    `| baseline: raw CDP screencast (plain Playwright) | ${castInWindow} | ${fixed(castFps)} | 1.00 |`,
  );
  console.log(
    `| frames pushed over /api/ws | ${pushedInWindow} | ${fixed(pushedFps)} | ${(pushedFps / castFps).toFixed(2)} |`,
  );
  console.log(
    `| frames the builder page view painted | ${shownAfter - shownBefore} | ${fixed(viewFps)} | ${(viewFps / castFps).toFixed(2)} |`,
  );
  const unwatchedFps = unwatchedFrames / unwatchedSeconds;
  console.log(
    `| frames the worker published while nobody watched (goal 0) | ${unwatchedFrames} | ${fixed(unwatchedFps)} | ${(unwatchedFps / castFps).toFixed(2)} |`,
  );
  console.log(
    `\nGoals: up to 30 fps while watched: ${fixed(pushedFps)} fps (${pushedFps <= 31 ? 'met' : 'NOT met'}); 0 frames while nobody watches: ${unwatchedFrames} (${unwatchedFrames === 0 ? 'met' : 'NOT met'})`,
  );
  console.log('\n## Builder with many action cards (pointer sweeping the page view, card list scrolled)\n');
  console.log(
    '| builder | navigation → last card ms | vs baseline | interaction s | long tasks > 50 ms | longest ms |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of cardsRows) console.log(row);
} finally {
  socket?.close();
  await browser.close();
  await site.close();
  await stack.stop();
}
