/**
 * The SPA as a browser gets it, next to baselines measured in the same run:
 *  1. initial JavaScript: the scripts apps/web/dist/index.html loads at once (its module script and
 *     modulepreload links), raw and gzip (zlib default level, what a reverse proxy sends), against a
 *     minimal React + ReactDOM page built with the same Vite into a temporary directory (ratio);
 *     and the scripts a cold load really fetched (its resource timing, sizes from dist): the login
 *     page until Sign in shows, with issue 11's goal (≤ 150 KiB gzip), and /dashboard until its
 *     first list is loaded (lazily loaded screens and dialogs included once fetched);
 *  2. dashboard time to interactive in Chromium: the built product (API serving the SPA, worker,
 *     fresh database) with a signed-in user who owns a few extractors, N cold loads of /dashboard
 *     (a new browser context each: empty cache), navigation start → the panels visible, and →
 *     the first list loaded (the Extractors panel has its rows after GET /api/extractor answered);
 *     p50/p95. Baseline: N cold loads of the login page of the same SPA from the same server,
 *     navigation start → the Sign in button on screen.
 * Run: pnpm bench:web  (needs PostgreSQL and Redis; builds nothing: run `pnpm build` first).
 * PW_TEST_WEB_DIST measures another SPA build; BENCH_LOADS sets N (default 10).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { chromium, type Browser } from 'playwright-core';
import { chromiumLaunchOptions } from '@pagewright/automation';
import { createConfirmedUser } from '../tests/support/accounts.js';
import { fromRoot } from '../tests/support/paths.js';
import { startStack } from '../tests/support/stack.js';
import { saveOneAction } from '../tests/support/test-database.js';

const LOADS = Number(process.env.BENCH_LOADS ?? 10);
const LOAD_TIMEOUT_MS = 30_000;
const EXTRACTORS = 5;
/** Issue 11: the login page's JavaScript, gzip. */
const LOGIN_GOAL_GZIP_KIB = 150;
const webDist = process.env.PW_TEST_WEB_DIST ?? fromRoot('apps/web/dist');

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

// ---------------------------------------------------------------------------------------------
// Initial JavaScript.

interface ScriptSize {
  files: string[];
  raw: number;
  gzip: number;
}

/** Raw and gzip sizes of scripts of a build, by their paths on the server (`/assets/…`). */
function scriptSizes(distDir: string, sources: readonly string[]): ScriptSize {
  const files = [...new Set(sources)];
  let raw = 0;
  let gzip = 0;
  for (const source of files) {
    const content = readFileSync(path.join(distDir, source.replace(/^\//, '')));
    raw += content.length;
    gzip += gzipSync(content).length;
  }
  return { files, raw, gzip };
}

/** The scripts an index.html makes the browser fetch before the app runs. */
function initialScripts(distDir: string): ScriptSize {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const sources = [
    ...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g),
    ...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g),
  ].map((match) => match[1]!);
  return scriptSizes(distDir, sources);
}

interface ViteBuild {
  build(config: Record<string, unknown>): Promise<unknown>;
}

/** A hello-world React page built by the SPA's own Vite (the bench package does not depend on it). */
async function buildBaselinePage(): Promise<ScriptSize> {
  const webRequire = createRequire(fromRoot('apps/web/package.json'));
  const vite = (await import(pathToFileURL(webRequire.resolve('vite')).href)) as ViteBuild;
  const root = mkdtempSync(path.join(os.tmpdir(), 'pagewright-bench-web-'));
  try {
    writeFileSync(
      path.join(root, 'index.html'),
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hello</title></head>' +
        '<body><div id="root"></div><script type="module" src="/main.js"></script></body></html>',
    );
    writeFileSync(
      path.join(root, 'main.js'),
      "import { createElement } from 'react';\nimport { createRoot } from 'react-dom/client';\n" +
        "createRoot(document.getElementById('root')).render(createElement('h1', null, 'Hello'));\n",
    );
    await vite.build({
      root,
      configFile: false,
      logLevel: 'warn',
      // The temporary directory has no node_modules: React comes from the SPA's own dependencies.
      resolve: {
        alias: [
          { find: /^react-dom\/client$/, replacement: webRequire.resolve('react-dom/client') },
          { find: /^react$/, replacement: webRequire.resolve('react') },
        ],
      },
      build: { outDir: path.join(root, 'dist'), emptyOutDir: true },
    });
    return initialScripts(path.join(root, 'dist'));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Cold loads in Chromium.

interface Tokens {
  accessToken: string;
  refreshToken: string;
  username: string;
}

interface LoadMarks {
  /** performance.now() (ms since navigation start) when the thing was first on screen. */
  firstAt?: number;
  readyAt?: number;
  /** The paths of the scripts the page had fetched when it was ready. */
  scripts?: string[];
}

/**
 * Runs in the page before its own scripts (a plain script: code compiled for Node may carry
 * helpers the page does not have): stores the session for dashboard loads, then watches the DOM.
 * The dashboard is "first" when a panel exists and "ready" when the Extractors panel shows its rows
 * and no spinner after GET /api/extractor answered; the login page is both once Sign in shows.
 * When ready, it notes the scripts fetched so far.
 */
const WATCH_PAGE = String.raw`
(({ kind, tokens }) => {
  const marks = {};
  window.benchMarks = marks;
  if (kind === 'dashboard') {
    localStorage.setItem('accessToken', tokens.accessToken);
    localStorage.setItem('refreshToken', tokens.refreshToken);
    localStorage.setItem('username', tokens.username);
    sessionStorage.setItem('pagewrightSession', 'true');
  }
  const scriptsFetched = () =>
    performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname).filter((path) => path.endsWith('.js'));
  const listAnswered = () =>
    performance.getEntriesByType('resource').some((entry) => /\/api\/extractor\?extractorType=EXTRACTOR/.test(entry.name));
  const check = () => {
    if (kind === 'login') {
      if (marks.readyAt === undefined && [...document.querySelectorAll('button')].some((b) => b.textContent === 'Sign in')) {
        marks.firstAt = marks.readyAt = performance.now();
        marks.scripts = scriptsFetched();
      }
      return;
    }
    if (marks.firstAt === undefined && document.querySelector('[data-testid^="panel-"]')) marks.firstAt = performance.now();
    const panel = document.querySelector('[data-testid="panel-extractors"]');
    if (marks.readyAt === undefined && panel && !panel.querySelector('[role="progressbar"]') &&
        panel.querySelector('[data-testid^="row-"]') && listAnswered()) {
      marks.readyAt = performance.now();
      marks.scripts = scriptsFetched();
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
})`;

async function coldLoad(
  browser: Browser,
  url: string,
  kind: 'dashboard' | 'login',
  tokens: Tokens,
): Promise<Required<LoadMarks>> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript({ content: `${WATCH_PAGE}(${JSON.stringify({ kind, tokens })});` });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    // Functions, not strings: the page's CSP forbids the eval a string predicate needs. They run
    // in the page, so each reads the marks itself.
    await page.waitForFunction(
      () => (window as unknown as { benchMarks?: LoadMarks }).benchMarks?.readyAt !== undefined,
      undefined,
      { timeout: LOAD_TIMEOUT_MS, polling: 50 },
    );
    return await page.evaluate(() => (window as unknown as { benchMarks: Required<LoadMarks> }).benchMarks);
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------

const product = initialScripts(webDist);
const baseline = await buildBaselinePage();

const stack = await startStack({ useBuild: true, logDirectory: 'bench-logs', env: { WEB_DIST: webDist } });
let browser: Browser | undefined;
try {
  const user = await createConfirmedUser(stack.apiUrl, stack.mailUrl, 'bench-web');
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  for (let i = 1; i <= EXTRACTORS; i++) {
    const response = await fetch(`${stack.apiUrl}/api/extractor/start`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Extractor ${i}`, description: 'Bench', extractorType: 'EXTRACTOR' }),
    });
    if (!response.ok) throw new Error(`POST /api/extractor/start: ${response.status}`);
    // The dashboard lists only saved items; a started draft would leave the panel empty.
    await saveOneAction(db, ((await response.json()) as { id: string }).id);
  }
  await db.end();
  browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
  const dashboardUrl = `${stack.apiUrl}/dashboard`;
  const loginUrl = `${stack.apiUrl}/login`;
  // One unmeasured load of each warms the server (first queries, file cache), not the browser.
  await coldLoad(browser, dashboardUrl, 'dashboard', user);
  await coldLoad(browser, loginUrl, 'login', user);
  const dashboard: Required<LoadMarks>[] = [];
  const login: Required<LoadMarks>[] = [];
  // Interleaved, so both suffer the same background load of this shared machine.
  for (let i = 0; i < LOADS; i++) {
    dashboard.push(await coldLoad(browser, dashboardUrl, 'dashboard', user));
    login.push(await coldLoad(browser, loginUrl, 'login', user));
  }

  const fmt = (v: number) => v.toFixed(0);
  const [load1] = os.loadavg();
  console.log(
    `\nPagewright SPA benchmark: ${LOADS} cold loads each, ${new Date().toISOString()}, load average ${load1?.toFixed(2)}`,
  );
  console.log(`SPA build: ${webDist}`);
  console.log(
    '\n| initial JavaScript (scripts index.html loads) | files | raw KiB | gzip KiB | gzip vs baseline |',
  );
  console.log('|---|---:|---:|---:|---:|');
  console.log(
    `| minimal React + ReactDOM page, same Vite (baseline) | ${baseline.files.length} | ${kb(baseline.raw)} | ${kb(baseline.gzip)} | 1.00 |`,
  );
  console.log(
    `| Pagewright SPA | ${product.files.length} | ${kb(product.raw)} | ${kb(product.gzip)} | ${(product.gzip / baseline.gzip).toFixed(2)} |`,
  );
  const loginScripts = scriptSizes(webDist, login[0]?.scripts ?? []);
  const dashboardScripts = scriptSizes(webDist, dashboard[0]?.scripts ?? []);
  const isLoginGoalMet = loginScripts.gzip / 1024 <= LOGIN_GOAL_GZIP_KIB;
  console.log(
    '\n| JavaScript a cold load fetched (resource timing, sizes from the build) | files | raw KiB | gzip KiB | gzip vs baseline | goal |',
  );
  console.log('|---|---:|---:|---:|---:|---|');
  for (const [name, sizes, goal] of [
    [
      'login page, until Sign in shows',
      loginScripts,
      `≤ ${LOGIN_GOAL_GZIP_KIB} KiB gzip: ${isLoginGoalMet ? 'met' : 'not met'}`,
    ],
    ['/dashboard, until the first list is loaded', dashboardScripts, ''],
  ] as const)
    console.log(
      `| ${name} | ${sizes.files.length} | ${kb(sizes.raw)} | ${kb(sizes.gzip)} | ${(sizes.gzip / baseline.gzip).toFixed(2)} | ${goal} |`,
    );
  console.log(`\nLogin page scripts: ${loginScripts.files.map((file) => path.basename(file)).join(', ')}`);
  const loginReady = login.map((m) => m.readyAt);
  const loginP50 = quantile(loginReady, 0.5);
  console.log('\n| cold load in Chromium (navigation start →) | p50 ms | p95 ms | p50 vs baseline |');
  console.log('|---|---:|---:|---:|');
  for (const [name, times] of [
    ['login page: Sign in button on screen (baseline)', loginReady],
    ['/dashboard: panels on screen', dashboard.map((m) => m.firstAt)],
    ['/dashboard: panels + first list loaded (time to interactive)', dashboard.map((m) => m.readyAt)],
  ] as const)
    console.log(
      `| ${name} | ${fmt(quantile(times, 0.5))} | ${fmt(quantile(times, 0.95))} | ${(quantile(times, 0.5) / loginP50).toFixed(2)} |`,
    );
} finally {
  await browser?.close();
  await stack.stop();
}
