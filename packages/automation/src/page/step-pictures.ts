import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import type { StepRecord } from '../flow/flow-types.js';
import { cdpSessionOf, forgetCdpSession } from './cdp-session.js';
import type { PageFrame } from './page-frames.js';

/**
 * A frame's JPEG; without a frame (the screencast could not start, or was restarting) the page is
 * captured now, the usual way.
 */
export async function pictureFromFrame(
  page: Page,
  frame: PageFrame | undefined,
): Promise<Buffer | undefined> {
  return frame ? Buffer.from(frame.data, 'base64') : pagePicture(page);
}

/** JPEG quality of step pictures: small enough to keep for every step, clear enough to read. */
const JPEG_QUALITY = 70;
const PAGE_CAPTURE_TIMEOUT_MS = 5_000;
const ELEMENT_CAPTURE_TIMEOUT_MS = 2_000;

type Box = NonNullable<StepRecord['elementBox']>;

export interface StepPictureOptions {
  withPage: boolean;
  withElement: boolean;
  /** An element picture larger than this is not kept (its box still is). */
  elementMaxBytes: number;
}

export type StepPictures = Pick<StepRecord, 'pageScreenshot' | 'elementBox' | 'elementScreenshot'>;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * A JPEG of the viewport, straight from CDP: about 34 ms here against 60 ms for page.screenshot,
 * which also waits for fonts and hides the caret (performance-floor.md). When the DevTools call
 * fails or stalls (a navigation swapping the renderer, a busy page) the session is dropped and
 * Playwright's own screenshot is tried, so a step is not left without its picture. Undefined only
 * when the page cannot be pictured at all (closed, crashed).
 */
export async function pagePicture(page: Page): Promise<Buffer | undefined> {
  if (page.isClosed()) return undefined;
  const fast = await captureThroughCdp(page);
  if (fast) return fast;
  forgetCdpSession(page);
  if (page.isClosed()) return undefined;
  return page
    .screenshot({ type: 'jpeg', quality: JPEG_QUALITY, timeout: PAGE_CAPTURE_TIMEOUT_MS })
    .catch(() => undefined);
}

async function captureThroughCdp(page: Page): Promise<Buffer | undefined> {
  try {
    const session = await cdpSessionOf(page);
    const answer = await withTimeout(
      session.send('Page.captureScreenshot', {
        format: 'jpeg',
        quality: JPEG_QUALITY,
        optimizeForSpeed: true,
      }),
      PAGE_CAPTURE_TIMEOUT_MS,
    );
    return answer?.data ? Buffer.from(answer.data, 'base64') : undefined;
  } catch {
    return undefined;
  }
}

/** The part of the element a viewport picture shows. */
async function cropped(picture: Buffer, box: Box, page: Page): Promise<Buffer | undefined> {
  const viewport = page.viewportSize();
  if (!viewport) return undefined;
  const left = Math.max(0, box.x);
  const top = Math.max(0, box.y);
  const right = Math.min(viewport.width, box.x + box.width);
  const bottom = Math.min(viewport.height, box.y + box.height);
  if (right - left < 1 || bottom - top < 1) return undefined;
  const { width = viewport.width, height = viewport.height } = await sharp(picture).metadata();
  // The picture is in device pixels; boxes are in CSS pixels.
  const scale = width / viewport.width;
  const x = Math.min(width - 1, Math.floor(left * scale));
  const y = Math.min(height - 1, Math.floor(top * scale));
  const region = {
    left: x,
    top: y,
    width: Math.max(1, Math.min(width - x, Math.ceil((right - left) * scale))),
    height: Math.max(1, Math.min(height - y, Math.ceil((bottom - top) * scale))),
  };
  return sharp(picture).extract(region).jpeg({ quality: JPEG_QUALITY }).toBuffer();
}

/**
 * The element's box when it is still on the page, in one round trip that does not wait: a step
 * often takes its element away (a submit button navigates, a menu item closes its menu), and
 * boundingBox would wait for it to come back. Elements inside frames go through boundingBox,
 * which adds the frames' offsets.
 */
export async function elementBoxOf(element: Locator | undefined): Promise<Box | null> {
  if (!element) return null;
  const found = await element
    .evaluateAll((elements: Element[]) => {
      const first = elements[0];
      if (!first) return null;
      if (window !== window.top) return 'in-frame' as const;
      const rect = first.getBoundingClientRect();
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
    })
    .catch(() => null);
  if (found !== 'in-frame') return found;
  return element.boundingBox({ timeout: ELEMENT_CAPTURE_TIMEOUT_MS }).catch(() => null);
}

function kept(
  options: StepPictureOptions,
  box: Box | null,
  picture: Buffer | undefined,
  elementScreenshot: Buffer | undefined,
): StepPictures {
  return {
    ...(options.withPage && picture ? { pageScreenshot: picture } : {}),
    ...(box ? { elementBox: box } : {}),
    ...(elementScreenshot && elementScreenshot.length <= options.elementMaxBytes
      ? { elementScreenshot }
      : {}),
  };
}

const wantsElementOf = (options: StepPictureOptions, box: Box | null): box is Box =>
  options.withElement && box !== null && box.width > 0 && box.height > 0;

/**
 * A step's pictures from a frame Chromium painted anyway (the page's screencast), so the flow goes
 * on at once while they are made: the page picture is the frame (see pictureFromFrame), the
 * element is cut out of it by the box measured when the step ended (only what shows: the flow has
 * gone on, nothing may scroll now).
 */
export async function framePictures(
  page: Page,
  frame: Promise<Buffer | undefined>,
  boxRead: Promise<Box | null>,
  options: StepPictureOptions,
): Promise<StepPictures> {
  const box = await boxRead;
  const wantsElement = wantsElementOf(options, box);
  if (!options.withPage && !wantsElement) return kept(options, box, undefined, undefined);
  const picture = await frame;
  const elementScreenshot =
    wantsElement && picture ? await cropped(picture, box, page).catch(() => undefined) : undefined;
  return kept(options, box, picture, elementScreenshot);
}
