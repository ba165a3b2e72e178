import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import type { StepRecord } from '../flow/flow-types.js';
import { cdpSessionOf, forgetCdpSession } from './cdp-session.js';

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

/** The element's part of a viewport picture, when the element lies wholly inside the viewport. */
async function cropped(picture: Buffer, box: Box, page: Page): Promise<Buffer | undefined> {
  const viewport = page.viewportSize();
  if (!viewport) return undefined;
  const inside =
    box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height;
  if (!inside) return undefined;
  const { width = viewport.width, height = viewport.height } = await sharp(picture).metadata();
  // The picture is in device pixels; boxes are in CSS pixels.
  const scale = width / viewport.width;
  const left = Math.min(width - 1, Math.floor(box.x * scale));
  const top = Math.min(height - 1, Math.floor(box.y * scale));
  const region = {
    left,
    top,
    width: Math.max(1, Math.min(width - left, Math.ceil(box.width * scale))),
    height: Math.max(1, Math.min(height - top, Math.ceil(box.height * scale))),
  };
  return sharp(picture).extract(region).jpeg({ quality: JPEG_QUALITY }).toBuffer();
}

/**
 * The element's box when it is still on the page. A step often takes its element away (a submit
 * button navigates, a menu item closes its menu): boundingBox would wait for it to come back, so
 * its absence is checked first without waiting (2 s saved on every such step).
 */
async function boxIfPresent(element: Locator): Promise<Box | null> {
  const isPresent = (await element.count().catch(() => 0)) > 0;
  if (!isPresent) return null;
  return element.boundingBox({ timeout: ELEMENT_CAPTURE_TIMEOUT_MS }).catch(() => null);
}

/**
 * The pictures kept with a step: the viewport, and the element the step acted on cut out of that
 * same picture (≈ 14 ms on a worker thread instead of ≈ 80 ms for locator.screenshot). An element
 * that is not wholly in view falls back to locator.screenshot, which scrolls it into view.
 */
export async function stepPictures(
  page: Page,
  element: Locator | undefined,
  options: StepPictureOptions,
): Promise<StepPictures> {
  const box = element ? await boxIfPresent(element) : null;
  const wantsElement = options.withElement && box !== null && box.width > 0 && box.height > 0;
  const picture = options.withPage || wantsElement ? await pagePicture(page) : undefined;

  let elementScreenshot: Buffer | undefined;
  if (wantsElement && element) {
    elementScreenshot =
      (picture && (await cropped(picture, box, page).catch(() => undefined))) ??
      (await element
        .screenshot({ type: 'jpeg', quality: JPEG_QUALITY, timeout: ELEMENT_CAPTURE_TIMEOUT_MS })
        .catch(() => undefined));
  }
  return {
    ...(options.withPage && picture ? { pageScreenshot: picture } : {}),
    ...(box ? { elementBox: box } : {}),
    ...(elementScreenshot && elementScreenshot.length <= options.elementMaxBytes
      ? { elementScreenshot }
      : {}),
  };
}
