import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { chromiumLaunchOptions } from '../chromium.js';
import { cdpSessionOf } from './cdp-session.js';
import { pagePicture } from './step-pictures.js';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
  page = await browser.newPage({ viewport: { width: 800, height: 600 } });
});

afterAll(async () => {
  await browser?.close();
});

/** Mean colour of a JPEG, to tell what it shows. */
async function meanColour(jpeg: Buffer): Promise<[number, number, number]> {
  const { channels } = await sharp(jpeg).stats();
  return [channels[0]?.mean ?? 0, channels[1]?.mean ?? 0, channels[2]?.mean ?? 0];
}

describe('pagePicture', () => {
  it('still pictures the page after its DevTools session died', async () => {
    await page.setContent(`<body style="margin:0;background:#00ff00"></body>`);
    // A renderer swap (cross-site navigation) or crash detaches the cached session like this.
    await (await cdpSessionOf(page)).detach();

    const picture = await pagePicture(page);
    expect((await sharp(picture).metadata()).format).toBe('jpeg');
    const [red, green] = await meanColour(picture as Buffer);
    expect(green).toBeGreaterThan(200);
    expect(red).toBeLessThan(40);
    // The next picture goes through a fresh session again.
    expect(await pagePicture(page)).toBeInstanceOf(Buffer);
  });
});
