import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type Page, chromium } from 'playwright-core';
import type { ElementTarget } from '@pagewright/shared';
import { chromiumLaunchOptions } from '../chromium.js';
import type { FlowHooks } from '../flow/flow-types.js';

/** Set-up the engine's Chromium tests share: a local site, a browser and a page. */

/** A CSS target as the builder records one. */
export const css = (selectorValue: string): ElementTarget => ({
  selectorType: 'CSS',
  selectorValue,
  framePath: [],
  fallbackLocators: [],
});

/** Hooks of a flow nobody is asked anything in. */
export const quietHooks: FlowHooks = { ask: () => Promise.resolve(''), keepFile: async () => undefined };

/** Only the local site may be navigated to. */
export const LOCAL_POLICY = { allowPrivateNetworks: false, allowedHosts: ['127.0.0.1'] };

/** A flow without pictures or HTML: the tests here are about what the steps did. */
export const WITHOUT_PICTURES = {
  capturePageScreenshots: false,
  captureElementScreenshots: false,
  captureNormalizedHtml: false,
};

export interface FlowPage {
  base: string;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/** Serves `handle` on 127.0.0.1 and opens one page in Debian's Chromium (CHROMIUM_PATH). */
export async function openFlowPage(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<FlowPage> {
  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
  const page = await browser.newPage();
  return {
    base,
    browser,
    page,
    async close() {
      await browser.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
