import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { formCheckboxesOf, isBoxChecked } from './checkbox.js';
import { ocrText } from './ocr.js';
import { openPdf, type PageBox } from './pdf.js';
import { renderPageImage, renderRegionPng } from './render.js';
import { findLabel, hasTextLayer, pageTextOf, textInBox, type PageText } from './text-layer.js';

/** 300 dpi: Tesseract reads printed text best at this size. */
const OCR_SCALE = 300 / 72;

export const CHECKED = 'checked';
export const UNCHECKED = 'unchecked';

/** A box of a template page, as the recognition reads it. */
export interface TemplateBoxSpec extends PageBox {
  label: string;
  type: 'TEXT' | 'CHECKBOX';
  /** Label text to read the box relative to; null: the box stays where it was drawn. */
  anchorText: string | null;
}

export interface TemplatePageSpec {
  pageNumber: number;
  boxes: TemplateBoxSpec[];
  /** The sample page's text layer (where anchors were); null when unknown. */
  sampleText: PageText[] | null;
}

/** How a value was read. */
export type ReadMethod = 'text' | 'ocr' | 'form' | 'ink';

export interface ReadValue {
  page: number;
  label: string;
  value: string;
  method: ReadMethod;
}

/** A box moved by as much as its anchor label moved between the sample and this page. */
function anchored(box: TemplateBoxSpec, sample: PageText[] | null, texts: PageText[]): PageBox {
  if (!box.anchorText || !sample) return box;
  const expected = findLabel(sample, box.anchorText, box);
  if (!expected) return box;
  const found = findLabel(texts, box.anchorText, expected);
  if (!found) return box;
  const x = Math.min(Math.max(box.x + found.x - expected.x, 0), 1 - box.w);
  const y = Math.min(Math.max(box.y + found.y - expected.y, 0), 1 - box.h);
  return { x, y, w: box.w, h: box.h };
}

async function readPage(
  page: PDFPageProxy,
  spec: TemplatePageSpec,
  pageNumber: number,
): Promise<ReadValue[]> {
  const texts = await pageTextOf(page);
  const isScanned = !hasTextLayer(texts);
  const fields = spec.boxes.some((box) => box.type === 'CHECKBOX') ? await formCheckboxesOf(page) : [];
  const values: ReadValue[] = [];
  for (const box of spec.boxes) {
    const where = isScanned ? box : anchored(box, spec.sampleText, texts);
    if (box.type === 'CHECKBOX') {
      const isField = fields.some((field) => field.x < where.x + where.w && where.x < field.x + field.w);
      const isChecked = await isBoxChecked(page, where, fields);
      values.push({
        page: pageNumber,
        label: box.label,
        value: isChecked ? CHECKED : UNCHECKED,
        method: isField ? 'form' : 'ink',
      });
    } else if (isScanned) {
      values.push({
        page: pageNumber,
        label: box.label,
        value: await ocrText(await renderRegionPng(page, where, OCR_SCALE)),
        method: 'ocr',
      });
    } else {
      values.push({ page: pageNumber, label: box.label, value: textInBox(texts, where), method: 'text' });
    }
  }
  return values;
}

/**
 * Reads a statement with a template: page n with the boxes of the template's page n (pages beyond
 * the template's are not read). Text from the PDF's text layer, or OCR on a page without one;
 * checkboxes from their form field, or the ink in them.
 */
export async function readStatement(
  bytes: Uint8Array,
  pages: readonly TemplatePageSpec[],
): Promise<{ pageCount: number; values: ReadValue[] }> {
  const document = await openPdf(bytes);
  try {
    const values: ReadValue[] = [];
    for (let pageNumber = 1; pageNumber <= document.numPages; pageNumber += 1) {
      const spec = pages.find((candidate) => candidate.pageNumber === pageNumber);
      if (!spec || spec.boxes.length === 0) continue;
      const page = await document.getPage(pageNumber);
      try {
        values.push(...(await readPage(page, spec, pageNumber)));
      } finally {
        page.cleanup();
      }
    }
    return { pageCount: document.numPages, values };
  } finally {
    await document.destroy();
  }
}

/** The text shown beside a processed file: a heading a page, then one "label: value" a line. */
export function statementText(values: readonly ReadValue[]): string {
  const pages = [...new Set(values.map((value) => value.page))].sort((a, b) => a - b);
  return pages
    .map((page) =>
      [
        `Page ${page}`,
        ...values.filter((value) => value.page === page).map(({ label, value }) => `${label}: ${value}`),
      ].join('\n'),
    )
    .join('\n\n');
}

export interface RenderedPage {
  pageNumber: number;
  jpeg: Buffer;
  width: number;
  height: number;
  texts: PageText[];
}

/**
 * A template's sample PDF as page images (longest edge `longEdge` px, JPEG) with each page's text
 * layer, one page at a time through `onPage` (so memory holds one page, and progress shows).
 */
export async function renderSample(
  bytes: Uint8Array,
  options: {
    longEdge: number;
    maxPages: number;
    onPage: (page: RenderedPage, pageCount: number) => Promise<void>;
  },
): Promise<number> {
  const document = await openPdf(bytes);
  try {
    const pageCount = Math.min(document.numPages, options.maxPages);
    for (let pageNumber = 1; pageNumber <= pageCount; pageNumber += 1) {
      const page = await document.getPage(pageNumber);
      try {
        const image = await renderPageImage(page, options.longEdge);
        await options.onPage({ pageNumber, ...image, texts: await pageTextOf(page) }, pageCount);
      } finally {
        page.cleanup();
      }
    }
    return pageCount;
  } finally {
    await document.destroy();
  }
}
