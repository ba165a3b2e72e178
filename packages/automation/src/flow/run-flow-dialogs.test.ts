import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page, chromium } from 'playwright-core';
import type { FlowAction } from '@pagewright/shared';
import { chromiumLaunchOptions } from '../chromium.js';
import { AUTOMATION_CODES } from './classify-error.js';
import type { FlowHooks } from './flow-types.js';
import { runFlow } from './run-flow.js';

const LOCAL = { allowPrivateNetworks: false, allowedHosts: ['127.0.0.1'] };

/** A shop form as real ones are: the submit asks confirm(), a rename asks prompt(), Save alerts. */
const SHOP_PAGE = `<!doctype html><title>shop</title>
<form id="order"><select id="item"><option>Widget</option><option>Gadget</option></select>
<button id="place" type="submit">Place order</button></form>
<button id="rename" type="button">Rename</button><button id="save" type="button">Save</button>
<button id="plain" type="button">Plain</button>
<p id="result">Nothing yet</p>
<script>
  const result = document.getElementById('result');
  document.getElementById('order').addEventListener('submit', (event) => {
    event.preventDefault();
    if (!confirm('Place order?')) return;
    result.textContent = 'Order placed';
  });
  document.getElementById('rename').addEventListener('click', () => {
    const name = prompt('New name?', 'Widget');
    if (name) result.textContent = 'Renamed to ' + name;
  });
  document.getElementById('save').addEventListener('click', () => alert('Item has been updated.'));
  document.getElementById('plain').addEventListener('click', () => (result.textContent = 'Clicked'));
</script>`;

let server: Server;
let base: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(SHOP_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const css = (selectorValue: string) => ({
  selectorType: 'CSS' as const,
  selectorValue,
  framePath: [],
  fallbackLocators: [],
});
const hooks: FlowHooks = { ask: () => Promise.resolve(''), keepFile: async () => undefined };
const fast = {
  capturePageScreenshots: false,
  captureElementScreenshots: false,
  captureNormalizedHtml: false,
};

const clickFlow = (selector: string): FlowAction[] => [
  { sequence: 10, type: 'NAVIGATE', options: { text: `${base}/shop` } },
  { sequence: 20, type: 'CLICK', target: css(selector), options: {} },
  { sequence: 30, type: 'GET_TEXT', target: css('#result'), options: {} },
];

describe('JavaScript dialogs in a flow', () => {
  it.each([
    ['#place', "The page asked: 'Place order?' — no answer was recorded"],
    ['#rename', "The page asked: 'New name?' — no answer was recorded"],
    ['#save', "The page asked: 'Item has been updated.' — no answer was recorded"],
  ])(
    'fails the step whose click opened a dialog (%s) with its text, never SUCCESS',
    async (selector, message) => {
      const result = await runFlow(page, clickFlow(selector), hooks, {
        ...fast,
        navigationPolicy: LOCAL,
      });
      expect(result.status).toBe('ERROR');
      expect(result.error).toMatchObject({
        code: AUTOMATION_CODES.UNEXPECTED_ALERT_OPEN,
        originalMessage: message,
        sequence: 20,
      });
      expect(result.steps.map((step) => [step.sequence, step.status])).toEqual([
        [10, 'SUCCESS'],
        [20, 'ERROR'],
      ]);
      // Dismissed, so the page did not do what the dialog guarded; and it did not hang on it.
      expect(await page.textContent('#result')).toBe('Nothing yet');
    },
  );

  it('leaves a flow without dialogs alone, on the same page after a dialog failed one', async () => {
    await runFlow(page, clickFlow('#place'), hooks, { ...fast, navigationPolicy: LOCAL });
    const result = await runFlow(page, clickFlow('#plain'), hooks, { ...fast, navigationPolicy: LOCAL });
    expect(result.status).toBe('SUCCESS');
    expect(result.values[30]).toEqual({ kind: 'text', value: 'Clicked' });
  });
});
