/**
 * Runs through the whole product (issue acceptance: "10 concurrent executions of a 10-step flow on
 * this 2-core machine: runs/min, failures, peak memory"), next to the same 10 steps as a plain
 * Playwright script measured in the same run on the same fixture site (the baseline):
 *  1. baseline: 10 plain Playwright flows at once, one browser, one context each;
 *  2. product: GET /api/extractor/execute/:id for 10 extractors at once over HTTP, polled through
 *     GET /api/extractor/run/:runId until done; runs/min, failures, p50/p95 of each run's
 *     startedAt → finishedAt (queue wait included), peak RSS/PSS of the worker process tree;
 *  3. product: the same 10 executions one after another;
 *  4. product with a second worker process on the same Redis and Postgres: the 10 executions at
 *     once again, spread by BullMQ over both; memory of both worker trees, runs per worker (on a
 *     2-core machine this shows correctness and overhead, not speed-up).
 * Run: pnpm bench:runs  (needs PostgreSQL and Redis; starts its own API, worker and database).
 * BENCH_USE_SOURCE=1 runs the TypeScript sources instead of the build; BENCH_BUILD=1 rebuilds first;
 * BENCH_RUN_CONCURRENCY sets the worker's WORKER_RUN_CONCURRENCY (else the product default).
 * Its processes log to .pagewright/bench-logs/, so the test suite running meanwhile neither reads
 * its worker's log nor kills that worker (the figures then only suffer the shared CPU: the header
 * prints the load average).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { chromiumLaunchOptions } from '@pagewright/automation';
import type { RunDetail } from '@pagewright/shared';
import { actionSecretContext, createPrismaClient, createSecretBox, type Prisma } from '@pagewright/db';
import { FIXTURE_PASSWORD, startFixtureSite } from '../tests/fixtures/site/server.js';
import { createConfirmedUser } from '../tests/support/accounts.js';
import { fromRoot } from '../tests/support/paths.js';
import type { RunningProcess } from '../tests/support/processes.js';
import { startStack } from '../tests/support/stack.js';
import { benchNodeArgs } from './support/node-args.js';

const FLOWS = Number(process.env.BENCH_FLOWS ?? 10);
const SAMPLE_EVERY_MS = 200;
const RUN_TIMEOUT_MS = 5 * 60_000;
const useBuild = process.env.BENCH_USE_SOURCE !== '1';

// ---------------------------------------------------------------------------------------------
// Memory of a process tree, from /proc.

/** Every process's parent, read from /proc/<pid>/stat (the field after the command name). */
function parentsByPid(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  return children;
}

function treeOf(roots: number[], children = parentsByPid()): number[] {
  const seen = new Set<number>();
  const queue = [...roots];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return [...seen];
}

interface Memory {
  rssKb: number;
  /** Undefined when a process's smaps_rollup could not be read (not when it ended meanwhile). */
  pssKb: number | undefined;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

function memoryOf(pids: number[]): Memory {
  let rssKb = 0;
  let pssKb: number | undefined = 0;
  for (const pid of pids) {
    let rollup: string;
    try {
      rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ESRCH') continue; // ended meanwhile
      pssKb = undefined;
      try {
        rssKb += Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      } catch {
        // ended meanwhile
      }
      continue;
    }
    // A zombie (exited, not yet reaped) has an empty rollup and no memory left.
    rssKb += Number(/^Rss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
    const pss = /^Pss:\s+(\d+) kB/m.exec(rollup)?.[1];
    if (pss !== undefined && pssKb !== undefined) pssKb += Number(pss);
  }
  return { rssKb, pssKb };
}

/**
 * Samples the summed memory of the tree under roots() every 200 ms; stop() gives the peaks. The
 * PSS peak is over the samples where every process's PSS could be read (n/a when none could).
 */
function sampleMemory(roots: () => number[]) {
  let peakRssKb = 0;
  let peakPssKb: number | undefined;
  let peakProcesses = 0;
  let samples = 0;
  let samplesWithoutPss = 0;
  const sample = () => {
    const pids = treeOf(roots());
    const { rssKb, pssKb } = memoryOf(pids);
    samples += 1;
    peakRssKb = Math.max(peakRssKb, rssKb);
    if (pssKb === undefined) samplesWithoutPss += 1;
    else peakPssKb = Math.max(peakPssKb ?? 0, pssKb);
    peakProcesses = Math.max(peakProcesses, pids.length);
  };
  sample();
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { peakRssKb, peakPssKb, peakProcesses, samples, samplesWithoutPss };
    },
  };
}
type MemoryPeaks = ReturnType<ReturnType<typeof sampleMemory>['stop']>;

// ---------------------------------------------------------------------------------------------
// The worker's own account of itself.

/** How many runs each worker log says it started. */
function runsStartedIn(logFile: string, runIds: ReadonlySet<string>): number {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"run started"'))
    .filter((line) => {
      try {
        return runIds.has((JSON.parse(line) as { runId?: string }).runId ?? '');
      } catch {
        return false;
      }
    }).length;
}

/** The "worker ready" lines of a worker log: pid and run concurrency of each worker it names. */
function readyWorkers(logFile: string): { pid?: number; runConcurrency?: number }[] {
  let log: string;
  try {
    log = readFileSync(logFile, 'utf8');
  } catch {
    return [];
  }
  return log
    .split('\n')
    .filter((line) => line.includes('worker ready'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { pid?: number; runConcurrency?: number }];
      } catch {
        return [];
      }
    });
}

// ---------------------------------------------------------------------------------------------
// The build the stack runs.

function ensureBuild(): void {
  if (!useBuild) return;
  const outputs = ['apps/api/dist/server.js', 'apps/worker/dist/main.js', 'apps/web/dist/index.html'];
  if (process.env.BENCH_BUILD === '1' || outputs.some((file) => !existsSync(fromRoot(file)))) {
    console.log('building (pnpm build)…');
    const built = spawnSync('pnpm', ['build'], { cwd: fromRoot(), stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`pnpm build failed (${built.status})`);
    return;
  }
  const builtAt = Math.min(...outputs.slice(0, 2).map((file) => statSync(fromRoot(file)).mtimeMs));
  const newer = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name !== 'node_modules' && newer(full);
      return /\.tsx?$/.test(entry.name) && statSync(full).mtimeMs > builtAt;
    });
  const sources = [
    'apps/api/src',
    'apps/worker/src',
    ...['automation', 'db', 'shared'].map((p) => `packages/${p}/src`),
  ];
  const stale = sources.filter((dir) => newer(fromRoot(dir)));
  if (stale.length > 0)
    console.log(
      `note: the build is older than ${stale.join(', ')}: measuring the last build (BENCH_BUILD=1 rebuilds)`,
    );
}

// ---------------------------------------------------------------------------------------------
// The flow: 10 steps against the fixture site, as stored actions and as a plain script.

const EXPECTED = { welcome: 'Welcome, ops-user', firstAmount: 1234.5, rows: 5, indicator: 'Page 1 of 3' };

type ActionRow = Omit<Prisma.ExtractorActionCreateWithoutExtractorInput, 'id'> & { secret?: string };

function storedFlow(siteUrl: string): ActionRow[] {
  const dollars = { beforePositive: '$', beforeNegative: '-' };
  return [
    { sequence: 10, type: 'NAVIGATE', textValue: `${siteUrl}/pages/login.html` },
    { sequence: 20, type: 'TYPE_TEXT', selectorValue: '#username', textValue: 'ops-user' },
    { sequence: 30, type: 'TYPE_PASSWORD', selectorValue: '#password', secret: FIXTURE_PASSWORD },
    { sequence: 40, type: 'CLICK', selectorValue: '#login-submit' },
    { sequence: 50, type: 'WAIT_UNTIL_DISPLAYED', selectorValue: '#welcome', options: { timeoutMs: 10_000 } },
    { sequence: 60, type: 'GET_TEXT', label: 'Welcome', selectorValue: '#welcome' },
    { sequence: 70, type: 'NAVIGATE', textValue: `${siteUrl}/pages/table.html` },
    {
      sequence: 80,
      type: 'GET_TABLE',
      options: { table: { maxPages: 1 } },
      getTable: {
        create: {
          name: 'Statements',
          tableSelector: '#statements',
          rowSelector: '#statement-rows tr',
          columns: {
            create: [
              { sequence: 1, label: 'Name', selector: 'td:nth-child(1)', type: 'TEXT' },
              {
                sequence: 2,
                label: 'Amount',
                selector: 'td:nth-child(2)',
                type: 'NUMBER',
                options: { numberMask: dollars },
              },
              { sequence: 3, label: 'Date', selector: 'td:nth-child(3)', type: 'TEXT' },
            ],
          },
        },
      },
    },
    {
      sequence: 90,
      type: 'GET_NUMBER',
      label: 'First amount',
      selectorValue: '#statement-rows tr:first-child td:nth-child(2)',
      numberMask: { create: dollars },
    },
    { sequence: 100, type: 'GET_TEXT', label: 'Page', selectorValue: '#page-indicator' },
  ];
}

/** What a finished run got wrong, or undefined when it is a SUCCESS with the expected values. */
function problemOf(run: RunDetail): string | undefined {
  if (run.status !== 'SUCCESS')
    return `${run.status} at ${run.errorSequence ?? '?'}: ${run.errorMessage ?? '(no message)'}`;
  const value = (sequence: number) => run.steps.find((s) => s.sequence === sequence)?.value;
  const scalar = (sequence: number) => {
    const found = value(sequence);
    return found?.kind === 'text' || found?.kind === 'number' ? found.value : undefined;
  };
  const table = value(80);
  const got = {
    welcome: scalar(60),
    firstAmount: scalar(90),
    rows: table?.kind === 'table' ? table.rows.length : undefined,
    indicator: scalar(100),
  };
  if (run.steps.length !== 10 || JSON.stringify(got) !== JSON.stringify(EXPECTED))
    return `SUCCESS with unexpected values (${run.steps.length} steps): ${JSON.stringify(got)}`;
  return undefined;
}

async function plainFlow(browser: Browser, siteUrl: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(`${siteUrl}/pages/login.html`);
    await page.fill('#username', 'ops-user');
    await page.fill('#password', FIXTURE_PASSWORD);
    await page.click('#login-submit');
    await page.locator('#welcome').waitFor({ state: 'visible', timeout: 10_000 });
    const welcome = await page.textContent('#welcome');
    await page.goto(`${siteUrl}/pages/table.html`);
    const rows = await page.$$eval('#statement-rows tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent)),
    );
    const amount = await page.textContent('#statement-rows tr:first-child td:nth-child(2)');
    const indicator = await page.textContent('#page-indicator');
    const got = {
      welcome,
      firstAmount: Number(amount?.replace(/[$,]/g, '')),
      rows: rows.length,
      indicator,
    };
    if (JSON.stringify(got) !== JSON.stringify(EXPECTED))
      throw new Error(`plain flow read ${JSON.stringify(got)}`);
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Figures.

interface Figure {
  name: string;
  runs: number;
  wallMs: number;
  durations: number[];
  failures: string[];
  memory?: MemoryPeaks;
  warnings?: string[];
  /** The product's runs measured. */
  runIds?: string[];
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const perMinute = (f: Figure) => (f.runs / f.wallMs) * 60_000;
const mb = (kb: number | undefined) => (kb === undefined ? 'n/a' : (kb / 1024).toFixed(0));

// ---------------------------------------------------------------------------------------------

ensureBuild();
const loadBefore = os.loadavg()[0]!;
const site = await startFixtureSite();
const stack = await startStack({
  nodeArgs: benchNodeArgs('runs'),
  useBuild,
  logDirectory: 'bench-logs',
  env: {
    // BENCH_LOG_LEVEL=info keeps the worker's per-step timings in .pagewright/bench-logs/.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
    // The benchmark runs longer than the default 15-minute access token on a slow machine.
    ACCESS_TOKEN_TTL_SECONDS: '7200',
    ...(process.env.BENCH_RUN_CONCURRENCY
      ? { WORKER_RUN_CONCURRENCY: process.env.BENCH_RUN_CONCURRENCY }
      : {}),
  },
});
const db = createPrismaClient(stack.databaseUrl);
try {
  // One confirmed user owning FLOWS extractors, each with the same 10-step flow.
  const account = await createConfirmedUser(stack.apiUrl, stack.mailUrl, 'bench-runs');
  const userId = (await db.user.findUniqueOrThrow({ where: { email: account.username.toLowerCase() } })).id;
  const encryptionKey = process.env.PW_TEST_ENCRYPTION_KEY;
  if (!encryptionKey) throw new Error('PW_TEST_ENCRYPTION_KEY is not set by startStack');
  const secrets = createSecretBox(encryptionKey);
  const extractorIds: string[] = [];
  for (let i = 1; i <= FLOWS; i++) {
    const extractor = await db.extractor.create({
      data: { userId, name: `Bench ${i}`, description: 'runs benchmark', extractorType: 'EXTRACTOR' },
    });
    for (const { secret, ...action } of storedFlow(site.url)) {
      const created = await db.extractorAction.create({
        data: { ...action, extractor: { connect: { id: extractor.id } } },
      });
      if (secret === undefined) continue;
      const sealed = secrets.seal(secret, actionSecretContext(userId, created.id));
      await db.extractorAction.update({
        where: { id: created.id },
        data: {
          secretCiphertext: new Uint8Array(sealed.ciphertext),
          secretIv: new Uint8Array(sealed.iv),
          secretAuthTag: new Uint8Array(sealed.authTag),
        },
      });
    }
    extractorIds.push(extractor.id);
  }

  const headers = { authorization: `Bearer ${account.accessToken}` };
  const getJson = async <T>(url: string): Promise<T> => {
    const response = await fetch(`${stack.apiUrl}${url}`, { headers });
    if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const execute = async (extractorId: string) =>
    (await getJson<{ runId: string }>(`/api/extractor/execute/${extractorId}`)).runId;
  const waitForRun = async (runId: string, pollMs: number): Promise<RunDetail> => {
    const deadline = Date.now() + RUN_TIMEOUT_MS;
    for (;;) {
      const run = await getJson<RunDetail>(`/api/extractor/run/${runId}`);
      if (run.status !== 'EXECUTING') return run;
      if (Date.now() > deadline)
        return { ...run, errorMessage: `still EXECUTING after ${RUN_TIMEOUT_MS} ms` };
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
  /** Executes and waits for one extractor; the run's own timestamps give its duration. */
  const productRun = async (extractorId: string, pollMs: number) => {
    const run = await waitForRun(await execute(extractorId), pollMs);
    const finishedAt = run.finishedAt ? Date.parse(run.finishedAt) : Date.now();
    return { run, finishedAt, durationMs: finishedAt - Date.parse(run.startedAt) };
  };
  const productFigure = async (
    name: string,
    runAll: () => Promise<Awaited<ReturnType<typeof productRun>>[]>,
    otherWorkers: readonly RunningProcess[] = [],
  ) => {
    const workers = [stack.worker, ...otherWorkers];
    const workerTree = sampleMemory(() => workers.map((worker) => worker.child.pid!));
    const startedAt = Date.now();
    const results = await runAll();
    const memory = workerTree.stop();
    const warnings = workers.flatMap((worker, index) => {
      const { exitCode, signalCode } = worker.child;
      return (index === 0 && stack.worker !== worker) || exitCode !== null || signalCode !== null
        ? [
            `the worker (pid ${worker.child.pid}) ended during the measurement (${signalCode ?? `exit ${exitCode}`})` +
              ': the figures are not valid',
          ]
        : [];
    });
    return {
      runIds: results.map(({ run }) => run.id),
      warnings,
      name,
      runs: results.length,
      wallMs: Math.max(...results.map((r) => r.finishedAt)) - startedAt,
      durations: results.map((r) => r.durationMs),
      failures: results.flatMap(({ run }) => {
        const problem = problemOf(run);
        return problem ? [`run ${run.id}: ${problem}`] : [];
      }),
      memory,
    } satisfies Figure;
  };

  // 1. Baseline: the same 10 steps as a plain Playwright script in one browser, a context per flow:
  //    FLOWS at once (the acceptance's baseline), then FLOWS one after another.
  const stackProcesses = parentsByPid().get(process.pid) ?? [];
  const browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
  const plainFigure = async (name: string, atOnce: boolean): Promise<Figure> => {
    const browserTree = sampleMemory(() =>
      (parentsByPid().get(process.pid) ?? []).filter((pid) => !stackProcesses.includes(pid)),
    );
    const timed = async () => {
      const started = performance.now();
      await plainFlow(browser, site.url);
      return performance.now() - started;
    };
    const startedAt = performance.now();
    const results: PromiseSettledResult<number>[] = [];
    if (atOnce) results.push(...(await Promise.allSettled(extractorIds.map(timed))));
    else for (const _ of extractorIds) results.push(...(await Promise.allSettled([timed()])));
    const wallMs = performance.now() - startedAt;
    return {
      name,
      runs: FLOWS,
      wallMs,
      durations: results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])),
      failures: results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : [])),
      memory: browserTree.stop(),
    };
  };
  let plainAtOnce: Figure;
  let plainInTurn: Figure;
  try {
    await plainFlow(browser, site.url); // warm-up
    plainAtOnce = await plainFigure(`plain Playwright script, ${FLOWS} at once (baseline)`, true);
    plainInTurn = await plainFigure(`plain Playwright script, ${FLOWS} one after another`, false);
  } finally {
    await browser.close();
  }

  // 2. The product, warmed up by one run, then FLOWS at once, then FLOWS one after another.
  const warmUp = await productRun(extractorIds[0]!, 100);
  const warmUpProblem = problemOf(warmUp.run);
  // Read once the worker surely runs: startStack can return on a stale "worker ready" line of a
  // previous run's log, before the new log stream has truncated the file.
  const runConcurrency = readyWorkers(stack.worker.logFile).find(
    (w) => w.pid === stack.worker.child.pid,
  )?.runConcurrency;
  const concurrent = await productFigure(`product, ${FLOWS} executions at once`, () =>
    Promise.all(extractorIds.map((id) => productRun(id, 250))),
  );
  const sequential = await productFigure(`product, ${FLOWS} executions one after another`, async () => {
    const results = [];
    for (const id of extractorIds) results.push(await productRun(id, 100));
    return results;
  });

  // 4. A second worker on the same Redis and Postgres (warmed up by a few runs at once), then the
  //    FLOWS executions at once again.
  const secondWorker = await stack.startWorker();
  await Promise.all(extractorIds.slice(0, 4).map((id) => productRun(id, 100)));
  const twoWorkers = await productFigure(
    `product, ${FLOWS} executions at once, 2 workers`,
    () => Promise.all(extractorIds.map((id) => productRun(id, 250))),
    [secondWorker],
  );
  const twoWorkerRunIds = new Set(twoWorkers.runIds);
  const runsPerWorker = [stack.worker, secondWorker].map((worker) =>
    runsStartedIn(worker.logFile, twoWorkerRunIds),
  );

  const fmtS = (ms: number) => (ms / 1000).toFixed(1);
  const rows: [Figure, Figure][] = [
    [plainAtOnce, plainAtOnce],
    [concurrent, plainAtOnce],
    [twoWorkers, plainAtOnce],
    [plainInTurn, plainInTurn],
    [sequential, plainInTurn],
  ];
  console.log(
    `\nPagewright runs benchmark: ${FLOWS} × a 10-step flow, ${useBuild ? 'build' : 'sources'}, ` +
      `worker run concurrency ${runConcurrency ?? '?'}, ${os.cpus().length} cores, ` +
      `1-min load average ${loadBefore.toFixed(1)} at start / ${os.loadavg()[0]!.toFixed(1)} at end, ` +
      new Date().toISOString(),
  );
  console.log(
    '| what | runs/min | vs plain, same mode | failures | run p50 s | run p95 s | wall s | peak RSS MB | peak PSS MB |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [f, plain] of rows) {
    console.log(
      `| ${f.name} | ${perMinute(f).toFixed(1)} | ${(perMinute(f) / perMinute(plain)).toFixed(2)} | ` +
        `${f.failures.length}/${f.runs} | ${fmtS(quantile(f.durations, 0.5))} | ${fmtS(quantile(f.durations, 0.95))} | ` +
        `${fmtS(f.wallMs)} | ${mb(f.memory?.peakRssKb)} | ${mb(f.memory?.peakPssKb)} |`,
    );
  }
  console.log(
    '\nRun durations: a plain script is timed with its context; a product run goes from its startedAt ' +
      '(the execute request) to its finishedAt, queue wait included. Memory, sampled every ' +
      `${SAMPLE_EVERY_MS} ms: the plain script's Chromium tree; for the product the worker process and ` +
      `its Chromium processes (up to ${concurrent.memory.peakProcesses} processes; ` +
      `${concurrent.memory.samples} samples at once, ${concurrent.memory.samplesWithoutPss} without PSS); ` +
      `with 2 workers, both worker trees summed (up to ${twoWorkers.memory.peakProcesses} processes), ` +
      `runs per worker ${runsPerWorker.join(' + ')}.`,
  );
  // What a run keeps in PostgreSQL: its steps' pictures (StoredFile rows) and normalized HTML.
  const [kept] = await db.$queryRaw<
    { runs: bigint; files: bigint; fileBytes: bigint | null; htmlBytes: bigint | null }[]
  >`
    SELECT (SELECT count(*) FROM "Run" r JOIN "Extractor" e ON e.id = r."extractorId" WHERE e."userId" = ${userId}::uuid) AS runs,
           (SELECT count(*) FROM "StoredFile" WHERE "userId" = ${userId}::uuid) AS files,
           (SELECT sum(size) FROM "StoredFile" WHERE "userId" = ${userId}::uuid) AS "fileBytes",
           (SELECT sum(octet_length(s."normalizedHtml")) FROM "RunStep" s JOIN "Run" r ON r.id = s."runId"
              JOIN "Extractor" e ON e.id = r."extractorId" WHERE e."userId" = ${userId}::uuid) AS "htmlBytes"`;
  if (kept && kept.runs > 0n) {
    const perRun = (value: bigint | null) => Number(value ?? 0n) / Number(kept.runs);
    console.log(
      `Kept per run (${kept.runs} runs): ${perRun(kept.files).toFixed(1)} picture files, ` +
        `${(perRun(kept.fileBytes) / 1024).toFixed(0)} KiB of pictures, ${(perRun(kept.htmlBytes) / 1024).toFixed(0)} KiB of normalized HTML.`,
    );
  }
  if (warmUpProblem) console.log(`warm-up run failed: ${warmUpProblem}`);
  for (const [f] of rows) {
    for (const failure of f.failures) console.log(`failure (${f.name}): ${failure}`);
    for (const warning of f.warnings ?? []) console.log(`warning (${f.name}): ${warning}`);
  }
} finally {
  await db.$disconnect();
  await stack.stop();
  await site.close();
}
