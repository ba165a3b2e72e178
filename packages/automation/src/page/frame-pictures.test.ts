import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, chromium } from 'playwright-core';
import sharp from 'sharp';
import type { FlowAction } from '@pagewright/shared';
import { chromiumLaunchOptions } from '../chromium.js';
import { runFlow } from '../flow/run-flow.js';
import { pageFrames } from './page-frames.js';

const POLICY = { allowPrivateNetworks: false, allowedHosts: ['127.0.0.1', 'localhost'] };
const css = (selectorValue: string) => ({
  selectorType: 'CSS' as const,
  selectorValue,
  framePath: [],
  fallbackLocators: [],
});

/** A white page whose buttons paint it red, open a green modal, or paint it blue at once. */
const PAGE = `<!doctype html><body style="margin:0;background:#fff">
<p id="label">Colours</p>
<button id="red" onclick="document.body.style.background = '#f00'">Red</button>
<button id="modal" onclick="document.getElementById('box').style.display = 'block'">Open</button>
<div id="box" style="display:none;position:fixed;left:200px;top:200px;width:300px;height:200px;background:#0f0">
  <input id="in-box" style="margin:20px">
</div>
<button id="blue" onclick="document.body.style.background = '#00f'">Blue</button>
</body>`;

let server: Server;
let port: number;
let browser: Browser;

beforeAll(async () => {
  server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      request.url === '/other'
        ? '<!doctype html><body style="margin:0;background:#ff0"><h1 id="title">Other site</h1></body>'
        : PAGE,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

/** The colour at a point of a JPEG, as [r, g, b]. */
async function colourAt(jpeg: Buffer | undefined, x: number, y: number): Promise<number[]> {
  if (!jpeg) throw new Error('no picture');
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [data[offset] ?? 0, data[offset + 1] ?? 0, data[offset + 2] ?? 0];
}

const isColour = (rgb: number[], expected: number[]) =>
  rgb.every((channel, i) => Math.abs(channel - (expected[i] ?? 0)) < 40);
const WHITE = [255, 255, 255];
const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const BLUE = [0, 0, 255];
const YELLOW = [255, 255, 0];

describe('step pictures from the painted frames', () => {
  it('show the page after each step, never what the next step did', async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    const page = await context.newPage();
    const flow: FlowAction[] = [
      { sequence: 10, type: 'NAVIGATE', options: { text: `http://127.0.0.1:${port}/` } },
      { sequence: 20, type: 'GET_TEXT', target: css('#label'), options: {} },
      { sequence: 30, type: 'CLICK', target: css('#red'), options: {} },
      { sequence: 40, type: 'CLICK', target: css('#modal'), options: {} },
      { sequence: 50, type: 'TYPE_TEXT', target: css('#in-box'), options: { text: 'typed' } },
      { sequence: 60, type: 'GET_TEXT', target: css('#label'), options: {} },
      { sequence: 70, type: 'NAVIGATE', options: { text: `http://localhost:${port}/other` } },
    ];
    const result = await runFlow(
      page,
      flow,
      { ask: () => Promise.resolve('') },
      { navigationPolicy: POLICY },
    );
    expect(result.status).toBe('SUCCESS');
    const picture = (sequence: number) => result.steps.find((s) => s.sequence === sequence)?.pageScreenshot;

    // A corner of the body, and the middle of the modal.
    expect(isColour(await colourAt(picture(10), 790, 590), WHITE)).toBe(true);
    // A step that only reads shows the page as it was, not the red the next click paints.
    expect(isColour(await colourAt(picture(20), 790, 590), WHITE)).toBe(true);
    expect(isColour(await colourAt(picture(30), 790, 590), RED)).toBe(true);
    // …and an acting step's picture is not the next one's either: no modal yet where it opens.
    expect(isColour(await colourAt(picture(30), 350, 350), RED)).toBe(true);
    // The click that opens the modal shows it, although the next step types at once.
    expect(isColour(await colourAt(picture(40), 350, 350), GREEN)).toBe(true);
    expect(isColour(await colourAt(picture(60), 350, 350), GREEN)).toBe(true);
    // Another site (another renderer process): the frames keep coming.
    expect(isColour(await colourAt(picture(70), 790, 590), YELLOW)).toBe(true);

    // The element is cut out of the same frame: the modal's input on green.
    const typed = result.steps.find((s) => s.sequence === 50);
    expect(typed?.elementBox?.x).toBeTypeOf('number');
    expect(typed?.elementBox?.width).toBeTypeOf('number');
    const element = await sharp(typed?.elementScreenshot).metadata();
    expect(element.width).toBe(Math.ceil(typed?.elementBox?.width ?? 0));

    // Nobody else held the page's frames: the screencast stopped with the flow.
    expect(pageFrames(page).isRunning).toBe(false);
    await context.close();
  });

  it('keep the screencast running for another holder (a watched live view) after the flow', async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    const page = await context.newPage();
    const release = pageFrames(page).hold();
    const flow: FlowAction[] = [
      { sequence: 10, type: 'NAVIGATE', options: { text: `http://127.0.0.1:${port}/` } },
      { sequence: 20, type: 'CLICK', target: css('#blue'), options: {} },
    ];
    const result = await runFlow(
      page,
      flow,
      { ask: () => Promise.resolve('') },
      { navigationPolicy: POLICY },
    );
    expect(isColour(await colourAt(result.steps[1]?.pageScreenshot, 790, 590), BLUE)).toBe(true);
    expect(pageFrames(page).isRunning).toBe(true);
    await release();
    expect(pageFrames(page).isRunning).toBe(false);
    await context.close();
  });
});
