import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { PAGE_PIXELS_MAX, REGION_PIXELS_MAX, clampScale } from './limits.js';
import type { PageBox } from './pdf.js';

/**
 * A page, or a part of it, painted on a white canvas: at `asked` scale, or a lower one that keeps
 * it within `pixelsMax` pixels (a huge page's box must not take gigabytes).
 */
async function paint(
  page: PDFPageProxy,
  asked: number,
  region: PageBox | null,
  pixelsMax: number,
): Promise<Canvas> {
  const base = page.getViewport({ scale: 1 });
  const scale = clampScale(
    region ? region.w * base.width : base.width,
    region ? region.h * base.height : base.height,
    asked,
    pixelsMax,
  );
  const full = page.getViewport({ scale });
  const width = Math.max(1, Math.round(region ? region.w * full.width : full.width));
  const height = Math.max(1, Math.round(region ? region.h * full.height : full.height));
  const viewport = region
    ? page.getViewport({ scale, offsetX: -region.x * full.width, offsetY: -region.y * full.height })
    : full;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  // PDF.js types its canvas as the DOM's; @napi-rs/canvas implements the 2D API it uses. The
  // worker compiles this with the DOM's types, where the casts are needed; this package has no DOM
  // lib, where the types are open and the linter sees idle casts of unresolved types.
  type RenderParameters = Parameters<PDFPageProxy['render']>[0];
  /* eslint-disable @typescript-eslint/no-unnecessary-type-assertion, @typescript-eslint/no-unsafe-assignment */
  await page.render({
    canvas: canvas as unknown as RenderParameters['canvas'],
    canvasContext: context as unknown as RenderParameters['canvasContext'],
    viewport,
    background: '#ffffff',
  }).promise;
  /* eslint-enable @typescript-eslint/no-unnecessary-type-assertion, @typescript-eslint/no-unsafe-assignment */
  return canvas;
}

/** RGBA pixels of a canvas. */
function pixelsOf(canvas: Canvas) {
  return canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
}

export interface PageImage {
  jpeg: Buffer;
  width: number;
  height: number;
}

/** A page as the template editor shows it: its longest edge `longEdge` pixels, JPEG (sharp). */
export async function renderPageImage(page: PDFPageProxy, longEdge: number): Promise<PageImage> {
  const base = page.getViewport({ scale: 1 });
  const scale = longEdge / Math.max(base.width, base.height);
  const canvas = await paint(page, scale, null, PAGE_PIXELS_MAX);
  const { data, width, height } = pixelsOf(canvas);
  const jpeg = await sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
    raw: { width, height, channels: 4 },
  })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 85, mozjpeg: false })
    .toBuffer();
  return { jpeg, width, height };
}

/** A box of a page at `scale` (1 = 72 dpi), within REGION_PIXELS_MAX: its RGBA pixels and size. */
export async function renderRegion(page: PDFPageProxy, region: PageBox, scale: number) {
  return pixelsOf(await paint(page, scale, region, REGION_PIXELS_MAX));
}

/** A box of a page as PNG, for OCR, within REGION_PIXELS_MAX. */
export async function renderRegionPng(page: PDFPageProxy, region: PageBox, scale: number): Promise<Buffer> {
  return (await paint(page, scale, region, REGION_PIXELS_MAX)).encode('png');
}
