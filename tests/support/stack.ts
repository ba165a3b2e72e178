import { randomBytes } from 'node:crypto';
import { afterAll } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromRoot } from './paths.js';
import { freePort, waitFor } from './ports.js';
import { waitUntil } from './wait.js';
import { startProcess, useLogDirectory, type RunningProcess } from './processes.js';
import { deleteStackKeys } from './redis-keys.js';
import { createTestDatabase, dropTestDatabase } from './test-database.js';

/** An API process of a stack: its base URL and log. */
export interface RunningApi {
  url: string;
  logFile: string;
  process: RunningProcess;
}

export interface TestStack {
  apiUrl: string;
  redisKeyPrefix: string;
  mailUrl: string;
  /** maildev's SMTP port (a test may put a proxy it can close between the product and it). */
  smtpPort: number;
  databaseUrl: string;
  databaseName: string;
  /** The API's log (its stdout and stderr, one JSON line per entry). */
  apiLogFile: string;
  /** The first API process (benchmarks read its memory). */
  apiProcess: RunningProcess;
  /** The worker running now (a replacement once the first one died). */
  readonly worker: RunningProcess;
  /** Starts one more worker process on the same database and queues, stopped with the stack. */
  startWorker(): Promise<RunningProcess>;
  /**
   * Starts one more API process on the same database, Redis prefix and secrets, stopped with the
   * stack; `env` adds or overrides settings of that process alone.
   */
  startApi(env?: Record<string, string>): Promise<RunningApi>;
  stop(): Promise<void>;
}

/** Where a test reads which process the stack's first worker is (its log names its pid). */
export const STACK_WORKER_LOG = 'worker';
/** The test worker's ASK_TIMEOUT_SECONDS. */
export const STACK_ASK_TIMEOUT_SECONDS = 12;
/** The test stack's RUN_LOCK_SECONDS: how soon a killed worker's run is noticed. */
export const STACK_RUN_LOCK_SECONDS = 10;
/** The test stack's QUERY_EXPORTS_MAX_RUNNING: exports one API process runs at once. */
export const STACK_QUERY_EXPORTS_MAX_RUNNING = 2;
/** ...and one user at a time, so a test can fill a user's share without filling the process. */
export const STACK_QUERY_EXPORTS_MAX_PER_USER = 1;
/** An export whose reader reads nothing this long is ended (60 s by default). */
export const STACK_QUERY_EXPORT_STALL_SECONDS = 4;
/** The suite's shared stack (global-setup.ts): a failing webhook receiver is given up after this many calls. */
export const SHARED_STACK_WEBHOOK_MAX_ATTEMPTS = 3;
/**
 * The suite's shared stack's API_KEY_RATE_LIMIT_PER_MINUTE, the product's default: room for the
 * files that run by key, few enough calls for api-keys.test.ts to spend a key's minute.
 */
export const SHARED_STACK_API_KEY_RATE_LIMIT_PER_MINUTE = 120;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The pid of the test stack's running worker, read from the workers' logs (the first worker and
 * the replacements started after a test killed one), once it is ready. Tests kill it to prove a
 * dead worker is handled, on a stack of their file's own (startFileStack), so no other file is using
 * it then.
 */
export async function currentWorkerPid(timeoutMs = 60_000): Promise<number> {
  const logDir = fromRoot('.pagewright', process.env.PW_TEST_LOG_DIRECTORY ?? 'test-logs');
  // A replacement for a killed worker may still be starting: wait until exactly one is ready.
  return waitUntil(
    () => {
      const pids = readdirSync(logDir)
        .filter((name) => name === `${STACK_WORKER_LOG}.log` || name.startsWith(`${STACK_WORKER_LOG}-`))
        .flatMap((name) => readFileSync(path.join(logDir, name), 'utf8').split('\n'))
        .filter((line) => line.includes('"worker ready"'))
        .map((line) => (JSON.parse(line) as { pid: number }).pid)
        .filter(isAlive);
      if (pids.length > 1) throw new Error(`expected one running test worker, found ${pids.length}`);
      return pids[0];
    },
    { timeoutMs, intervalMs: 250, message: 'one ready test worker' },
  );
}

/**
 * Starts a worker process (TypeScript source, or the build) with `env`, and waits until it is
 * ready. Its log is .pagewright/test-logs/<name>.log.
 */
export async function startWorker(
  name: string,
  env: NodeJS.ProcessEnv,
  useBuild = false,
  nodeArgs: readonly string[] = [],
): Promise<RunningProcess> {
  const worker = startProcess(
    name,
    process.execPath,
    [
      ...nodeArgs,
      ...(useBuild
        ? [fromRoot('apps/worker/dist/main.js')]
        : ['--import', 'tsx', fromRoot('apps/worker/src/main.ts')]),
    ],
    env,
  );
  try {
    await waitFor(
      async () => {
        if (worker.child.exitCode !== null)
          throw new Error(`worker exited (${worker.child.exitCode}); see ${worker.logFile}`);
        return readFileSync(worker.logFile, 'utf8').includes('worker ready') ? true : undefined;
      },
      `worker ready (log: ${worker.logFile})`,
      60_000,
    );
  } catch (error) {
    await worker.stop();
    throw error;
  }
  return worker;
}

export interface StackOptions {
  /** Run the built API (apps/api/dist) with the built SPA, as users get it; else the TypeScript source. */
  useBuild: boolean;
  env?: Record<string, string>;
  /** Log directory under .pagewright/ (default test-logs; benchmarks use their own). */
  logDirectory?: string;
  /**
   * Start another worker when a test kills the running one (default), as a supervisor would. Fault
   * tests that watch the product without any worker turn it off.
   */
  replaceKilledWorker?: boolean;
  /** Node flags for the API and worker processes (benchmarks: `--cpu-prof`). */
  nodeArgs?: readonly string[];
}

/** Logs of stacks whose test run has ended (their process is gone) are removed. */
function removeLogsOfEndedStacks(): void {
  const root = fromRoot('.pagewright', 'test-logs');
  if (!existsSync(root)) return;
  for (const name of readdirSync(root)) {
    const pid = /^stack-(\d+)$/u.exec(name)?.[1];
    if (pid && !isAlive(Number(pid))) rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

/**
 * The real product for tests: a fresh PostgreSQL database with all migrations, the local Redis, a
 * maildev SMTP catcher with its inbox API, and the API over HTTP on free ports.
 */
export async function startStack({
  useBuild,
  env = {},
  logDirectory,
  replaceKilledWorker = true,
  nodeArgs = [],
}: StackOptions): Promise<TestStack> {
  // Each stack logs into a folder of its own: two test runs at once (a developer's and CI's, or
  // the integration and e2e suites) must never read, or kill by pid, each other's worker.
  const ownLogDirectory = logDirectory ?? `test-logs/stack-${process.pid}`;
  removeLogsOfEndedStacks();
  useLogDirectory(ownLogDirectory);
  // Forked test workers inherit this environment: currentWorkerPid looks only here.
  process.env.PW_TEST_LOG_DIRECTORY = ownLogDirectory;
  const database = await createTestDatabase();
  const [apiPort, smtpPort, mailWebPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const processes: RunningProcess[] = [];
  let isStopping = false;

  const redisKeyPrefix = `pagewright-test:${database.name}:`;
  const redisUrl = env.REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const stop = async () => {
    isStopping = true;
    await Promise.all(processes.map((p) => p.stop()));
    if (!process.env.PW_TEST_KEEP_DATABASE)
      await Promise.all([dropTestDatabase(database.name), deleteStackKeys(redisUrl, redisKeyPrefix)]);
  };

  try {
    const mailDir = mkdtempSync(path.join(os.tmpdir(), 'pagewright-mail-'));
    processes.push(
      startProcess(
        'maildev',
        process.execPath,
        [
          fromRoot('node_modules/maildev/bin/maildev'),
          '--smtp',
          String(smtpPort),
          '--web',
          String(mailWebPort),
          '--ip',
          '127.0.0.1',
          '--mail-directory',
          mailDir,
          '--silent',
        ],
        process.env,
      ),
    );
    const mailUrl = `http://127.0.0.1:${mailWebPort}`;
    // maildev, the API and the worker start side by side: none needs another to boot.
    const mailReady = waitFor(
      async () => ((await fetch(`${mailUrl}/email`)).ok ? true : undefined),
      'maildev',
    );

    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const apiEnv: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      PUBLIC_URL: apiUrl,
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: redisKeyPrefix,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtpPort),
      LOG_LEVEL: 'warn',
      // PW_TEST_WEB_DIST lets a developer test an SPA build of their own beside apps/web/dist.
      WEB_DIST: process.env.PW_TEST_WEB_DIST ?? fromRoot('apps/web/dist'),
      BUILD_HASH: 'test',
      // Every test signs up its own users from 127.0.0.1; the login limit stays at its default. So
      // does every test's failed sign-in: the ceiling across accounts is tested on its own stack.
      ACCOUNT_EMAIL_RATE_LIMIT_MAX: '10000',
      LOGIN_ADDRESS_FAILURE_MAX: '10000',
      // A socket of an ended session closes within one beat: tests wait seconds, not half a minute.
      LIVE_SOCKET_HEARTBEAT_SECONDS: '5',
      // A killed worker's run ends ERROR about 12 s later instead of 40: tests that kill one wait
      // for that. 10 s stays far above any pause of a busy worker's event loop (renewed every 5 s).
      RUN_LOCK_SECONDS: String(STACK_RUN_LOCK_SECONDS),
      STOPPED_RUN_SWEEP_SECONDS: '2',
      // Few enough export slots for a test to fill them all.
      QUERY_EXPORTS_MAX_RUNNING: String(STACK_QUERY_EXPORTS_MAX_RUNNING),
      QUERY_EXPORTS_MAX_PER_USER: String(STACK_QUERY_EXPORTS_MAX_PER_USER),
      QUERY_EXPORT_STALL_SECONDS: String(STACK_QUERY_EXPORT_STALL_SECONDS),
      ...env,
    };
    const builtServer = fromRoot('apps/api/dist/server.js');
    if (useBuild && !existsSync(builtServer))
      throw new Error('apps/api/dist is missing: run `pnpm build` first');
    const args = [
      ...nodeArgs,
      ...(useBuild ? [builtServer] : ['--import', 'tsx', fromRoot('apps/api/src/server.ts')]),
    ];
    // More API processes share the first one's database, Redis prefix and secrets: a token signed
    // by one is good on every other, as behind a load balancer.
    let apiCount = 0;
    const addApi = async (
      port: number,
      attempt = 1,
      extraEnv: Record<string, string> = {},
    ): Promise<RunningApi> => {
      apiCount += 1;
      const url = `http://127.0.0.1:${port}`;
      const name = apiCount === 1 ? 'api' : `api-${apiCount}`;
      const started = startProcess(
        name,
        process.execPath,
        args,
        port === apiPort ? apiEnv : { ...apiEnv, PORT: String(port), ...extraEnv },
      );
      processes.push(started);
      try {
        await waitFor(
          async () => {
            if (started.child.exitCode !== null) {
              // The log goes with the stack: say why here.
              const tail = readFileSync(started.logFile, 'utf8').slice(-1500);
              throw new Error(`API exited (${started.child.exitCode}); its log ends: ${tail}`);
            }
            return (await fetch(`${url}/api/health`)).ok ? true : undefined;
          },
          `API health (log: ${started.logFile})`,
          60_000,
        );
      } catch (error) {
        // One more start for a process that died at boot on a loaded host (several suites start
        // their stacks at once); a second death is the product's.
        if (attempt > 1 || started.child.exitCode === null) throw error;
        apiCount -= 1;
        return addApi(port, attempt + 1, extraEnv);
      }
      return { url, logFile: started.logFile, process: started };
    };
    const apiStarting = addApi(apiPort);

    // The worker runs flows; test flows reach the fixture site on this machine.
    const workerEnv: NodeJS.ProcessEnv = {
      ...apiEnv,
      NAVIGATION_ALLOWED_HOSTS: env.NAVIGATION_ALLOWED_HOSTS ?? '127.0.0.1,localhost',
      // Long enough for a test to answer, short enough to watch an unanswered ask expire.
      ASK_TIMEOUT_SECONDS: String(STACK_ASK_TIMEOUT_SECONDS),
      // Readiness is read from the log; the file also keeps every step a run took.
      LOG_LEVEL: 'info',
    };
    let workerCount = 0;
    const addWorker = async () => {
      workerCount += 1;
      const started = await startWorker(
        workerCount === 1 ? STACK_WORKER_LOG : `${STACK_WORKER_LOG}-${workerCount}`,
        workerEnv,
        useBuild,
        nodeArgs,
      );
      processes.push(started);
      return started;
    };
    // Every start settles before a failure is thrown, so the stop that follows finds them all.
    const starting = [apiStarting, addWorker(), mailReady] as const;
    const failure = (await Promise.allSettled(starting)).find((start) => start.status === 'rejected');
    if (failure) throw failure.reason;
    const [api, firstWorker] = await Promise.all(starting);
    let worker = firstWorker;
    // A test may kill the worker (a worker dying mid-run); another one takes over, as a process
    // supervisor would restart it, so later test files still have a worker.
    const replaceWhenKilled = (running: RunningProcess) => {
      running.child.once('exit', () => {
        if (isStopping) return;
        addWorker()
          .then((replacement) => {
            worker = replacement;
            replaceWhenKilled(replacement);
          })
          // A replacement that cannot start shows as runs that never end; its log says why.
          .catch(() => undefined);
      });
    };
    if (replaceKilledWorker) replaceWhenKilled(worker);
    // Test files seal action secrets (TYPE_PASSWORD) the way the API does; forked test workers
    // inherit this process's environment.
    process.env.PW_TEST_ENCRYPTION_KEY = apiEnv.ENCRYPTION_KEY;

    return {
      apiUrl,
      redisKeyPrefix,
      mailUrl,
      smtpPort,
      databaseUrl: database.url,
      databaseName: database.name,
      apiLogFile: api.logFile,
      apiProcess: api.process,
      startApi: async (extraEnv) => addApi(await freePort(), 1, extraEnv),
      get worker() {
        return worker;
      },
      startWorker: addWorker,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * A stack for one test file alone, stopped after it: for files that kill its worker, or read every
 * Redis key it holds, which must not happen under the files sharing the suite's stack (they run
 * at the same time). Call it at the top of the file, before anything reads the stack's settings.
 */
export async function startFileStack(options: Partial<StackOptions> = {}): Promise<TestStack> {
  const stack = await startStack({ useBuild: process.env.PW_TEST_USE_BUILD === '1', ...options });
  afterAll(() => stack.stop(), 60_000);
  return stack;
}
