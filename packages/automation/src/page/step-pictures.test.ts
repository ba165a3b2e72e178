import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { chromiumLaunchOptions } from '../chromium.js';
import { cdpSessionOf } from './cdp-session.js';
import { pagePicture, stepPictures } from './step-pictures.js';

let browser: Browser;
let page: Page;

const OPTIONS = { withPage: true, withElement: true, elementMaxBytes: 512 * 1024 };

beforeAll(async () => {
  browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
  page = await browser.newPage({ viewport: { width: 800, height: 600 } });
});

afterAll(async () => {
  await browser?.close();
});

/** Mean colour of a JPEG, to tell which part of the page a crop shows. */
async function meanColour(jpeg: Buffer): Promise<[number, number, number]> {
  const { channels } = await sharp(jpeg).stats();
  return [channels[0]?.mean ?? 0, channels[1]?.mean ?? 0, channels[2]?.mean ?? 0];
}

describe('stepPictures', () => {
  it('cuts the element out of the page picture at its box', async () => {
    await page.setContent(`<body style="margin:0;background:#fff">
      <div style="position:absolute;left:120px;top:80px;width:200px;height:100px;background:#0000ff"></div>
      <div id="target" style="position:absolute;left:400px;top:300px;width:160px;height:60px;background:#ff0000"></div>
    </body>`);
    const pictures = await stepPictures(page, page.locator('#target'), OPTIONS);

    expect(pictures.elementBox).toEqual({ x: 400, y: 300, width: 160, height: 60 });
    const pageMeta = await sharp(pictures.pageScreenshot).metadata();
    expect([pageMeta.format, pageMeta.width, pageMeta.height]).toEqual(['jpeg', 800, 600]);

    const element = pictures.elementScreenshot as Buffer;
    const elementMeta = await sharp(element).metadata();
    expect([elementMeta.format, elementMeta.width, elementMeta.height]).toEqual(['jpeg', 160, 60]);
    const [red, green, blue] = await meanColour(element);
    expect(red).toBeGreaterThan(200);
    expect(green).toBeLessThan(40);
    expect(blue).toBeLessThan(40);
  });

  it('scrolls an element below the fold into its own picture', async () => {
    await page.setContent(`<body style="margin:0;height:3000px">
      <div id="far" style="position:absolute;left:10px;top:2000px;width:100px;height:40px;background:#00ff00"></div>
    </body>`);
    const pictures = await stepPictures(page, page.locator('#far'), OPTIONS);
    const element = pictures.elementScreenshot as Buffer;
    const [red, green, blue] = await meanColour(element);
    expect(green).toBeGreaterThan(200);
    expect(red).toBeLessThan(40);
    expect(blue).toBeLessThan(40);
  });

  it('keeps the box but not a picture larger than the cap', async () => {
    await page.setContent(`<div id="target" style="width:300px;height:200px;background:#123456"></div>`);
    const pictures = await stepPictures(page, page.locator('#target'), { ...OPTIONS, elementMaxBytes: 10 });
    expect(pictures.elementBox?.width).toBe(300);
    expect(pictures.elementScreenshot).toBeUndefined();
  });

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
