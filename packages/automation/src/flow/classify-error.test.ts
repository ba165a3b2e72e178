import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page, chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../chromium.js';
import { AutomationError } from './automation-error.js';
import { classifyError } from './classify-error.js';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
  page = await browser.newPage();
  await page.setContent(`
    <button id="a">a</button><button id="b">b</button>
    <button id="hidden" style="display:none">h</button><button id="off" disabled>d</button>
    <div style="position:relative"><button id="covered">c</button>
      <div style="position:absolute;inset:0;z-index:9;background:red"></div></div>`);
});
afterAll(async () => {
  await browser?.close();
});

async function codeOf(run: () => Promise<unknown>, sequence?: number): Promise<AutomationError> {
  try {
    await run();
  } catch (error) {
    return classifyError(error, sequence);
  }
  throw new Error('expected a failure');
}

/** A net for calls that fail at their first look; and room for a retried one to find its element. */
const LOOK = 20_000;
const RETRY = 1_500;

describe('classifyError on real Playwright failures', () => {
  it('maps locator failures', async () => {
    const missing = await codeOf(() => page.locator('#nothing').click({ timeout: 200 }), 40);
    expect(missing.code).toBe(100007);
    expect(missing.codeName).toBe('No Such Element');
    expect(missing.sequence).toBe(40);
    expect(missing.originalMessage).toBe('Timeout 200ms exceeded.');
    expect(missing.details).toContain("waiting for locator('#nothing')");
    expect(missing.details).not.toContain('\u001b[');
    // These fail on the first look at the element; the timeout is only a net. A short one could
    // run out on a busy machine before Playwright has looked once, and read as No Such Element.
    expect((await codeOf(() => page.locator('button').click({ timeout: LOOK }))).code).toBe(100032);
    expect((await codeOf(() => page.locator('css=##a[').click({ timeout: LOOK }))).code).toBe(100032);
    expect((await codeOf(() => page.locator('xpath=//[@').click({ timeout: LOOK }))).code).toBe(100051);
    expect((await codeOf(() => page.locator('#a').fill('x', { timeout: LOOK }))).code).toBe(100012);
    // These retry until the timeout, which must leave room for the element to be found first.
    expect((await codeOf(() => page.locator('#hidden').click({ timeout: RETRY }))).code).toBe(100011);
    expect((await codeOf(() => page.locator('#off').click({ timeout: RETRY }))).code).toBe(100012);
    expect((await codeOf(() => page.locator('#covered').click({ timeout: RETRY }))).code).toBe(100064);
  });

  it('maps page script, network and session failures', async () => {
    const thrown = await codeOf(() => page.evaluate('(async () => { throw new Error("boom") })()'));
    expect(thrown.code).toBe(100017);
    expect(thrown.originalMessage).toContain('boom');
    expect((await codeOf(() => page.goto('http://127.0.0.1:1/'))).code).toBe(100013);
    const gone = await browser.newPage();
    await gone.close();
    expect((await codeOf(() => gone.goto('about:blank'))).code).toBe(100006);
  });

  it('shows the operator the message without call log or stack frames, and keeps them as details', async () => {
    const own = await browser.newPage();
    await own.setContent('<button id="off" disabled>d</button>');
    const timedOut = await codeOf(() => own.locator('#off').click({ timeout: RETRY }), 20);
    expect(timedOut.code).toBe(100012);
    expect(timedOut.originalMessage).toBe(`Timeout ${RETRY}ms exceeded (element is not enabled)`);
    expect(timedOut.message).toBe(
      `Invalid Element State: Timeout ${RETRY}ms exceeded (element is not enabled)`,
    );
    expect(timedOut.details).toContain('Call log:');
    expect(timedOut.details).toContain('element is not enabled');
    expect(timedOut.details).toMatch(/\n\s+at /u);

    const thrown = await codeOf(() =>
      own.evaluate('(() => { function deep() { throw new Error("boom") } deep() })()'),
    );
    expect(thrown.code).toBe(100017);
    expect(thrown.originalMessage).toBe('boom');
    expect(thrown.details).toMatch(/^\s+at deep/mu);
    for (const shown of [timedOut.originalMessage, thrown.originalMessage]) {
      expect(shown).not.toContain('Call log');
      expect(shown).not.toMatch(/^\s+at /mu);
    }
    await own.close();
  });

  it('maps plain errors and keeps AutomationErrors', () => {
    expect(classifyError(new Error('something odd')).code).toBe(100013);
    expect(classifyError('a string').originalMessage).toBe('a string');
    const timeout = Object.assign(new Error('page.waitForURL: Timeout 100ms exceeded.'), {
      name: 'TimeoutError',
    });
    expect(classifyError(timeout).code).toBe(100021);
    const screenshot = classifyError(new Error('page.screenshot: Protocol error: unable to capture'));
    expect(screenshot.code).toBe(100063);
    const kept = classifyError(new AutomationError(100028, 'slow'), 70);
    expect([kept.code, kept.sequence, kept.originalMessage]).toEqual([100028, 70, 'slow']);
  });
});
