import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Faults } from '@pagewright/fengine-sandbox';
import { ADMIN_HEADER, DEFAULT_PASSWORD, DEFAULT_USERNAME } from '@pagewright/fengine-sandbox/constants';
import {
  ENGINE_PATHS,
  engineSignInResponseSchema,
  type EngineEntity,
  type EngineImportRow,
} from '@pagewright/shared';
import { fromRoot } from './paths.js';
import { freePort, waitFor } from './ports.js';
import { startProcess, type RunningProcess } from './processes.js';
import { databaseUrl, dropTestDatabase } from './test-database.js';

export type { Faults } from '@pagewright/fengine-sandbox';

export interface ImportedRow {
  externalId: string;
  values: EngineImportRow['values'];
  importedAt: string;
}

/** The reference F-engine as a test sees it: a remote service on a port of its own. */
export interface RunningFengineSandbox {
  /** Base URL (no trailing slash): what an operator types for ASK_F_ENGINE_URL. */
  url: string;
  username: string;
  password: string;
  adminToken: string;
  databaseName: string;
  process: RunningProcess;
  /** Switches faults on for the next connector calls (replaces the faults switched on before). */
  setFaults(faults: Faults): Promise<void>;
  clearFaults(): Promise<void>;
  /** Back to the seed: no session, no imported row, no fault. */
  reset(): Promise<void>;
  /** The rows the engine holds for an entity (signs in with the seed's user). */
  importedRows(entity: EngineEntity): Promise<ImportedRow[]>;
  /** A fresh bearer token of the seed's user. */
  signIn(): Promise<string>;
  close(): Promise<void>;
}

export interface FengineSandboxOptions {
  /** FENGINE_SANDBOX_SESSION_TTL_SECONDS (default 900). */
  sessionTtlSeconds?: number;
  /** Log file name under .pagewright/test-logs (default fengine-sandbox-<database suffix>). */
  logName?: string;
}

const START_ATTEMPTS = 3;

/**
 * Starts the reference F-engine (apps/fengine-sandbox) as a child process, on a free port, with a
 * database of its own (created by the sandbox, dropped by close()) and an admin token for the
 * fault switches. PW_TEST_USE_BUILD=1 runs the build (apps/fengine-sandbox/dist), as the other
 * processes of the test stack do.
 */
export async function startFengineSandbox(
  options: FengineSandboxOptions = {},
): Promise<RunningFengineSandbox> {
  const suffix = `${Date.now()}_${randomBytes(3).toString('hex')}`;
  const databaseName = `pagewright_fengine_test_${suffix}`;
  const adminToken = randomBytes(24).toString('hex');
  const useBuild = process.env.PW_TEST_USE_BUILD === '1';
  const built = fromRoot('apps/fengine-sandbox/dist/main.js');
  if (useBuild && !existsSync(built))
    throw new Error('apps/fengine-sandbox/dist is missing: run `pnpm build` first');
  const args = useBuild ? [built] : ['--import', 'tsx', fromRoot('apps/fengine-sandbox/src/main.ts')];

  let sandbox: { url: string; process: RunningProcess } | undefined;
  let lastError: unknown;
  // A free port can be taken by another process before the sandbox binds it: try another one.
  for (let attempt = 1; attempt <= START_ATTEMPTS && !sandbox; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = startProcess(options.logName ?? `fengine-sandbox-${suffix}`, process.execPath, args, {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      FENGINE_SANDBOX_HOST: '127.0.0.1',
      FENGINE_SANDBOX_PORT: String(port),
      FENGINE_SANDBOX_DATABASE_URL: databaseUrl(databaseName),
      FENGINE_SANDBOX_ADMIN_TOKEN: adminToken,
      FENGINE_SANDBOX_SESSION_TTL_SECONDS: String(options.sessionTtlSeconds ?? 900),
      FENGINE_SANDBOX_USER: DEFAULT_USERNAME,
      FENGINE_SANDBOX_PASSWORD: DEFAULT_PASSWORD,
    });
    try {
      await waitFor(
        async () => {
          if (child.child.exitCode !== null) {
            throw new Error(
              `fengine sandbox exited (${child.child.exitCode}): ${readFileSync(child.logFile, 'utf8')}`,
            );
          }
          const response = await fetch(`${url}/health`).catch(() => undefined);
          return response?.ok ? true : undefined;
        },
        `the fengine sandbox at ${url} (log: ${child.logFile})`,
        60_000,
      );
      sandbox = { url, process: child };
    } catch (error) {
      lastError = error;
      await child.stop();
      if (!String(error).includes('EADDRINUSE')) break;
    }
  }
  if (!sandbox) {
    await dropTestDatabase(databaseName);
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }
  const { url } = sandbox;
  // A test process that ends without close() (a killed Playwright worker) takes its engine along.
  const child = sandbox.process.child;
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const admin = async (method: 'POST' | 'DELETE', path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        [ADMIN_HEADER]: adminToken,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  };

  const signIn = async () => {
    const response = await fetch(`${url}${ENGINE_PATHS.sessions}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: DEFAULT_USERNAME, password: DEFAULT_PASSWORD }),
    });
    if (!response.ok) throw new Error(`sign-in to the fengine sandbox answered ${response.status}`);
    return engineSignInResponseSchema.parse(await response.json()).token;
  };

  return {
    url,
    username: DEFAULT_USERNAME,
    password: DEFAULT_PASSWORD,
    adminToken,
    databaseName,
    process: sandbox.process,
    setFaults: (faults) => admin('POST', '/sandbox/faults', faults),
    clearFaults: () => admin('DELETE', '/sandbox/faults'),
    reset: () => admin('POST', '/sandbox/reset'),
    signIn,
    importedRows: async (entity) => {
      const response = await fetch(`${url}${ENGINE_PATHS.imports(entity)}`, {
        headers: { authorization: `Bearer ${await signIn()}` },
      });
      if (!response.ok) throw new Error(`reading imported ${entity} answered ${response.status}`);
      return ((await response.json()) as { rows: ImportedRow[] }).rows;
    },
    close: async () => {
      process.off('exit', killOnExit);
      await sandbox.process.stop();
      if (!process.env.PW_TEST_KEEP_DATABASE) await dropTestDatabase(databaseName);
    },
  };
}
