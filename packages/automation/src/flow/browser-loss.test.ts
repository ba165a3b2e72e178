import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../chromium.js';
import { browserLossBehind, describeBrowserLoss } from './browser-loss.js';

let host: ChildProcess | undefined;

/** A browser server in a process group of its own, as on another machine: SIGKILL drops its connection. */
async function startBrowserHost(): Promise<string> {
  const script = `const { chromium } = require('playwright-core');
    chromium.launchServer(${JSON.stringify(chromiumLaunchOptions(process.env.CHROMIUM_PATH))})
      .then((server) => console.log(server.wsEndpoint()));`;
  host = spawn(process.execPath, ['-e', script], {
    cwd: import.meta.dirname,
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: host.stdout! });
  for await (const line of lines) if (line.startsWith('ws://')) return line;
  throw new Error('the browser host did not start');
}

function killBrowserHost(): void {
  if (host?.pid) process.kill(-host.pid, 'SIGKILL');
  host = undefined;
}

afterEach(() => {
  try {
    killBrowserHost();
  } catch {
    // already gone
  }
});

describe('a browser host lost under a call', () => {
  // CI (ci-44) saw a run on a killed host end with Playwright's bare "Target page, context or
  // browser has been closed": the pending call rejects before the browser reports it disconnected.
  it('is told by the host message, though the browser still says it is connected when the call fails', async () => {
    const browser = await chromium.connect(await startBrowserHost());
    describeBrowserLoss(browser, 'The browser host "b2" went away while the step ran');
    const context = await browser.newContext();
    const page = await context.newPage();
    // A call under way when the host dies: it never answers, so only the lost connection ends it.
    const pending = page
      .evaluate(() => new Promise(() => undefined))
      .then(
        () => new Error('the call came back'),
        (thrown: unknown) => thrown,
      );
    killBrowserHost();
    const error = await pending;
    expect(String(error)).toMatch(/Target page, context or browser has been closed/u);
    // Here Playwright still counts the browser as connected (its disconnect comes a tick later).
    const loss = await browserLossBehind(context.browser(), error);
    expect(loss?.originalMessage).toBe('The browser host "b2" went away while the step ran');
  });

  it('leaves any other error alone, and does not wait on a browser that is still there', async () => {
    const browser = await chromium.connect(await startBrowserHost());
    const startedAt = Date.now();
    expect(
      await browserLossBehind(browser, new Error('locator.click: Timeout 5000ms exceeded')),
    ).toBeUndefined();
    expect(Date.now() - startedAt).toBeLessThan(100);
    await browser.close();
  });
});
