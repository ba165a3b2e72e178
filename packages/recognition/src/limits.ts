import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PDF_PAGE_SIDE_MAX_POINTS, PDF_PAGE_SIDE_MIN_POINTS, formatMessage } from '@pagewright/shared';

/**
 * The most pixels a page image is painted on (issue 24). A canvas is native memory, 4 bytes a
 * pixel, outside any V8 heap limit, and reading its pixels copies it: these caps are what bound a
 * recognition process. Template images (1600 px on their long edge) never come near it.
 */
export const PAGE_PIXELS_MAX = 40_000_000;

/**
 * The most pixels a box is painted on, for its ink (checkboxes, at 216 dpi) or for OCR (at 300
 * dpi), where Tesseract keeps several copies of the image: a whole Letter or A4 page at 300 dpi
 * (8.4-8.7 Mpx) still fits; a larger box is drawn at a lower scale.
 */
export const REGION_PIXELS_MAX = 10_000_000;

/** A PDF refused before it is read: its message is the sentence the user is shown. */
export class PdfRefusedError extends Error {
  override name = 'PdfRefusedError';
}

/** `scale`, or the lower one at which an area of `widthPt` × `heightPt` points fits `pixelsMax`. */
export function clampScale(widthPt: number, heightPt: number, scale: number, pixelsMax: number): number {
  const pixels = widthPt * scale * heightPt * scale;
  return pixels <= pixelsMax ? scale : Math.sqrt(pixelsMax / (widthPt * heightPt));
}

/** Refuses a PDF with more pages than `max` (a page is some 60 bytes: 20 MB holds 300,000). */
export function assertPageCount(pageCount: number, max: number): void {
  if (pageCount > max)
    throw new PdfRefusedError(formatMessage('recognition.pdf.too.many.pages', { pageCount, max }));
}

const points = (side: number) => (Number.isFinite(side) ? Math.round(side).toLocaleString('en-US') : '?');

/** Refuses a page smaller than a point or larger than 200 inches on a side (its UserUnit counted). */
export function assertPageSize(page: PDFPageProxy, pageNumber: number): void {
  const { width, height } = page.getViewport({ scale: 1 });
  const isAllowed = (side: number) => side >= PDF_PAGE_SIDE_MIN_POINTS && side <= PDF_PAGE_SIDE_MAX_POINTS;
  if (!isAllowed(width) || !isAllowed(height))
    throw new PdfRefusedError(
      formatMessage('recognition.pdf.page.size', {
        page: pageNumber,
        width: points(width),
        height: points(height),
      }),
    );
}
