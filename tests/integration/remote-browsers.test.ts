import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { chromium } from 'playwright-core';
import { createPrismaClient } from '@pagewright/db';
import { chromiumLaunchOptions } from '@pagewright/automation';
import {
  BROWSER_HOST_PLAYWRIGHT_PATH,
  type BrowserTargetState,
  type BrowserTier,
  type RunDetail,
} from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { insertExtractorRows, type ActionRow } from '../support/extractor-rows.js';
import { fromRoot } from '../support/paths.js';
import { freePort, waitFor } from '../support/ports.js';
import { startProcess, type RunningProcess } from '../support/processes.js';
import { readRun, waitForRun } from '../support/runs-api.js';
import { startFileStack } from '../support/stack.js';

/**
 * Browsers on other machines (issue 27): two browser hosts on 127.0.0.1 (`./pagewright
 * browser-host`'s program) beside the worker's own Chromium, and a third host whose egress policy
 * is looser than the worker's. The worker's policy here allows 127.0.0.1 only (not `localhost`),
 * and so do the two good hosts.
 */
const FIXTURE_HOSTS = '127.0.0.1';

interface BrowserHostProcess {
  name: string;
  port: number;
  token: string;
  process: RunningProcess;
  chromiumPid: number;
}

async function startBrowserHost(name: string, policy: Record<string, string>): Promise<BrowserHostProcess> {
  const port = await freePort();
  const token = randomBytes(24).toString('hex');
  const useBuild = process.env.PW_TEST_USE_BUILD === '1';
  const started = startProcess(
    `browser-host-${name}`,
    process.execPath,
    useBuild
      ? [fromRoot('apps/worker/dist/browser-host.js')]
      : ['--import', 'tsx', fromRoot('apps/worker/src/browser-host/main.ts')],
    {
      ...process.env,
      LOG_LEVEL: 'info',
      BROWSER_HOST_PORT: String(port),
      BROWSER_HOST_TOKEN: token,
      CHROMIUM_PATH: chromiumLaunchOptions(process.env.CHROMIUM_PATH).executablePath,
      ...policy,
    },
  );
  const chromiumPid = await waitFor(
    async () => {
      if (started.child.exitCode !== null)
        throw new Error(`browser host ${name} exited; see ${started.logFile}`);
      const line = readFileSync(started.logFile, 'utf8')
        .split('\n')
        .find((entry) => entry.includes('browser host listening'));
      return line ? (JSON.parse(line) as { chromiumPid: number }).chromiumPid : undefined;
    },
    `browser host ${name} listening (log: ${started.logFile})`,
    60_000,
  );
  return { name, port, token, process: started, chromiumPid };
}

const endpointOf = (host: BrowserHostProcess) =>
  `${host.name}=ws://:${host.token}@127.0.0.1:${host.port}${BROWSER_HOST_PLAYWRIGHT_PATH}`;

const strictPolicy = { NAVIGATION_ALLOW_PRIVATE_NETWORKS: 'false', NAVIGATION_ALLOWED_HOSTS: FIXTURE_HOSTS };
const [hostOne, hostTwo, looseHost] = await Promise.all([
  startBrowserHost('browsers-1', strictPolicy),
  startBrowserHost('browsers-2', strictPolicy),
  startBrowserHost('browsers-loose', { NAVIGATION_ALLOW_PRIVATE_NETWORKS: 'true' }),
]);
afterAll(async () => {
  await Promise.all([hostOne, hostTwo, looseHost].map((host) => host.process.stop()));
}, 60_000);

const stack = await startFileStack({
  env: {
    BROWSER_ENDPOINTS: [hostOne, hostTwo, looseHost].map(endpointOf).join(','),
    BROWSER_HEALTH_SECONDS: '2',
    NAVIGATION_ALLOWED_HOSTS: FIXTURE_HOSTS,
    WORKER_RUN_CONCURRENCY: '4',
  },
});
const db = createPrismaClient(stack.databaseUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

let site: FixtureSite;
let users: SignedInUser[];

beforeAll(async () => {
  site = await startFixtureSite();
  users = await Promise.all(
    ['tier-a', 'tier-b'].map((label) => createSignedInUser(db, stack.apiUrl, stack.mailUrl, label)),
  );
});
afterAll(async () => {
  await site.close();
  await db.$disconnect();
});

async function browserTier(user: SignedInUser): Promise<BrowserTier> {
  const answer = await request(stack.apiUrl).get('/api/browser-hosts').set(bearer(user.token)).expect(200);
  return answer.body as BrowserTier;
}

const stateOf = (tier: BrowserTier, name: string) =>
  tier.workers.flatMap((worker) => worker.browsers).find((browser) => browser.name === name);

/** The tier once `name` shows `state`: workers publish their browsers with each heartbeat (every 5 s). */
const tierWhen = (name: string, state: BrowserTargetState) =>
  waitFor(async () => {
    const seen = await browserTier(users[0]!);
    return stateOf(seen, name)?.state === state ? seen : undefined;
  }, `${name} shown ${state}`);

/** A flow that holds its page a few seconds (so that a host can be killed under it), then reads. */
const slowEcho = (url: string): ActionRow[] => [
  { sequence: 10, type: 'NAVIGATE', textValue: url },
  { sequence: 20, type: 'WAIT', options: { number: 4 } },
  { sequence: 30, type: 'GET_TEXT', label: 'Query', selectorValue: '#query-value' },
];

async function startRun(user: SignedInUser, extractorId: string): Promise<string> {
  const started = await request(stack.apiUrl)
    .post(`/api/extractor/execute/${extractorId}`)
    .set(bearer(user.token))
    .send({});
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return (started.body as { runId: string }).runId;
}

async function healthOf(host: BrowserHostProcess): Promise<{ renderers: number } | undefined> {
  const answer = await fetch(`http://127.0.0.1:${host.port}/health`, {
    headers: { Authorization: `Bearer ${host.token}` },
  }).catch(() => undefined);
  return answer?.ok ? ((await answer.json()) as { renderers: number }) : undefined;
}

const queryValueOf = (run: RunDetail) => {
  const value = run.steps.find((step) => step.sequence === 30)?.value;
  return value?.kind === 'text' ? value.value : undefined;
};

describe('the browser tier (issue 27)', () => {
  it("lists the worker's own Chromium and both hosts UP, and refuses the host with a looser policy", async () => {
    const tier = await tierWhen('browsers-2', 'UP');
    expect(stateOf(tier, 'local')).toMatchObject({ state: 'UP', url: null });
    expect(stateOf(tier, 'browsers-1')).toMatchObject({
      state: 'UP',
      url: `ws://127.0.0.1:${hostOne.port}${BROWSER_HOST_PLAYWRIGHT_PATH}`,
    });
    expect(stateOf(tier, 'browsers-loose')?.state).toBe('REFUSED');
    expect(stateOf(tier, 'browsers-loose')?.reason).toMatch(
      /may reach private networks and this worker forbids them/,
    );
    // Nobody is shown a host's token.
    expect(JSON.stringify(tier)).not.toContain(hostOne.token);
    expect(readFileSync(stack.worker.logFile, 'utf8')).not.toContain(hostOne.token);
  });

  it('spreads 12 runs over the three browsers; a host killed mid-run ends its runs ERROR naming it, within 60 s, and the next runs go elsewhere', async () => {
    const extractorIds = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        insertExtractorRows(db, {
          userId: users[index % 2]!.id,
          name: `Spread ${index}`,
          actions: slowEcho(`${site.url}/pages/echo.html?q=run-${index}`),
        }),
      ),
    );
    const runIds = await Promise.all(extractorIds.map((id, index) => startRun(users[index % 2]!, id)));

    // Kill the second host (its program and its Chromium) while it holds a page of a run.
    await waitFor(
      async () => ((await healthOf(hostTwo))?.renderers ?? 0) > 0 || undefined,
      'a page on browsers-2',
      60_000,
    );
    const killedAt = Date.now();
    process.kill(hostTwo.chromiumPid, 'SIGKILL');
    hostTwo.process.child.kill('SIGKILL');

    const runs = await Promise.all(
      runIds.map((runId, index) =>
        waitForRun(stack.apiUrl, users[index % 2]!.token, runId, undefined, 180_000),
      ),
    );
    const on = (name: string) => runs.filter((run) => run.browserName === name);
    expect(on('local').length).toBeGreaterThan(0);
    expect(on('browsers-1').length).toBeGreaterThan(0);
    expect(on('browsers-2').length).toBeGreaterThan(0);
    expect(on('browsers-loose')).toHaveLength(0);
    expect(on('local').length + on('browsers-1').length + on('browsers-2').length).toBe(12);

    // Every run on the killed host was cut short by it: ERROR, the host named, well within a minute.
    for (const run of on('browsers-2')) {
      expect(run.status).toBe('ERROR');
      expect(run.errorMessage).toContain('The browser host "browsers-2"');
      expect(new Date(run.finishedAt!).getTime() - killedAt).toBeLessThan(60_000);
    }
    // The others read what their page said.
    for (const run of [...on('local'), ...on('browsers-1')]) {
      expect(run.status, JSON.stringify(run)).toBe('SUCCESS');
      expect(queryValueOf(run)).toBe(`run-${runIds.indexOf(run.id)}`);
    }

    const tier = await tierWhen('browsers-2', 'DOWN');
    expect(stateOf(tier, 'browsers-2')?.reason).toMatch(/browsers-2/);

    // The next runs go to the browsers that are left.
    const again = await Promise.all(
      extractorIds.slice(0, 4).map((id, index) => startRun(users[index % 2]!, id)),
    );
    const ended = await Promise.all(
      again.map((runId, index) =>
        waitForRun(stack.apiUrl, users[index % 2]!.token, runId, undefined, 120_000),
      ),
    );
    for (const run of ended) {
      expect(run.status, JSON.stringify(run)).toBe('SUCCESS');
      expect(['local', 'browsers-1']).toContain(run.browserName);
    }
  });

  it('refuses a private address through a remote browser: in a run, and for anyone driving the host directly', async () => {
    // Straight to the host, as any holder of its token: its Chromium goes through the host's own
    // egress proxy, which refuses `localhost` (a private address not in its allowed hosts).
    expect(
      await chromium
        .connect(`ws://127.0.0.1:${hostOne.port}${BROWSER_HOST_PLAYWRIGHT_PATH}`, { timeout: 10_000 })
        .then(
          async (browser) => {
            await browser.close();
            return 'connected without the token';
          },
          (error: Error) => error.message,
        ),
    ).toMatch(/401/);
    const browser = await chromium.connect(`ws://127.0.0.1:${hostOne.port}${BROWSER_HOST_PLAYWRIGHT_PATH}`, {
      headers: { Authorization: `Bearer ${hostOne.token}` },
    });
    try {
      const page = await browser.newPage();
      const allowed = await page.goto(`${site.url}/pages/echo.html?q=allowed`);
      expect(allowed?.status()).toBe(200);
      expect(await page.locator('#query-value').textContent()).toBe('allowed');
      const privateUrl = `http://localhost:${new URL(site.url).port}/pages/echo.html?q=private`;
      const refused = await page.goto(privateUrl).catch(() => null);
      expect(refused?.ok() ?? false).toBe(false);
      expect(await page.locator('#query-value').count()).toBe(0);
    } finally {
      await browser.close();
    }

    // In runs: three at once land on different browsers, the remaining host among them.
    const privateUrl = `http://localhost:${new URL(site.url).port}/pages/echo.html?q=private`;
    const ids = await Promise.all(
      [0, 1, 2].map((index) =>
        insertExtractorRows(db, {
          userId: users[index % 2]!.id,
          name: `Private ${index}`,
          actions: slowEcho(privateUrl),
        }),
      ),
    );
    const runIds = await Promise.all(ids.map((id, index) => startRun(users[index % 2]!, id)));
    const runs = await Promise.all(
      runIds.map((runId, index) =>
        waitForRun(stack.apiUrl, users[index % 2]!.token, runId, undefined, 120_000),
      ),
    );
    expect(runs.some((run) => run.browserName === 'browsers-1')).toBe(true);
    for (const run of runs) {
      expect(run.status).toBe('ERROR');
      expect(run.errorSequence).toBe(10);
      expect(run.errorMessage).toMatch(/localhost.*non-public address|not a public address/);
      expect(
        queryValueOf(await readRun(stack.apiUrl, users[runIds.indexOf(run.id) % 2]!.token, run.id)),
      ).toBeUndefined();
    }
  });

  it('takes out a host that stops answering (hung, its connection still open): its run ends ERROR naming it within 60 s', async () => {
    const ids = await Promise.all(
      [0, 1, 2].map((index) =>
        insertExtractorRows(db, {
          userId: users[index % 2]!.id,
          name: `Hung ${index}`,
          actions: slowEcho(`${site.url}/pages/echo.html?q=hung-${index}`),
        }),
      ),
    );
    const runIds = await Promise.all(ids.map((id, index) => startRun(users[index % 2]!, id)));
    await waitFor(
      async () => ((await healthOf(hostOne))?.renderers ?? 0) > 0 || undefined,
      'a page on browsers-1',
      60_000,
    );
    // The front door stops: the worker's connection stays open, nothing answers on it any more.
    process.kill(hostOne.process.child.pid!, 'SIGSTOP');
    const stoppedAt = Date.now();
    try {
      const runs = await Promise.all(
        runIds.map((runId, index) =>
          waitForRun(stack.apiUrl, users[index % 2]!.token, runId, undefined, 120_000),
        ),
      );
      const onHung = runs.filter((run) => run.browserName === 'browsers-1');
      expect(onHung.length).toBeGreaterThan(0);
      for (const run of onHung) {
        expect(run.status).toBe('ERROR');
        expect(run.errorMessage).toContain('The browser host "browsers-1"');
        expect(new Date(run.finishedAt!).getTime() - stoppedAt).toBeLessThan(60_000);
      }
      for (const run of runs.filter((run) => run.browserName !== 'browsers-1'))
        expect(run.status, JSON.stringify(run)).toBe('SUCCESS');
      const tier = await tierWhen('browsers-1', 'DOWN');
      expect(stateOf(tier, 'browsers-1')?.reason).toMatch(/did not answer within|cannot be reached/);
    } finally {
      process.kill(hostOne.process.child.pid!, 'SIGCONT');
    }
  });
});
