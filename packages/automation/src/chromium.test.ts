import { describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from './chromium.js';

describe('chromium launch options', () => {
  it('start the configured Chromium headless and render a page', async () => {
    const browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
    try {
      const page = await browser.newPage();
      await page.setContent('<h1 id="t">Pagewright</h1>');
      expect(await page.textContent('#t')).toBe('Pagewright');
      expect(browser.version()).toMatch(/^\d+\./);
    } finally {
      await browser.close();
    }
  });
});
