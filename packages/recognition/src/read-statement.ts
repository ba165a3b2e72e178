import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { isBoxChecked } from './checkbox.js';
import { fieldsInBox, formFieldsOf, textFieldValue, type FormField } from './form-fields.js';
import { ocrText } from './ocr.js';
import { assertPageCount, assertPageSize } from './limits.js';
import { openPdf, type PageBox } from './pdf.js';
import { renderPageImage, renderRegionPng } from './render.js';
import {
  PDF_PAGES_MAX_DEFAULT,
  type BoxProblem,
  type PageSize,
  type TemplateMismatch,
} from '@pagewright/shared';
import { boxMismatches, isSameSize, looksLikeSample, type CheckedBox } from './template-match.js';
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
  /** The sample page's size in points; null for templates made before sizes were kept. */
  pageSize?: PageSize | null;
  /** The sample page's picture size: its sides' ratio stands in when `pageSize` is unknown. */
  pixelSize?: PageSize | null;
}

/** What the template knows of its sample as a whole. */
export interface TemplateSampleSpec {
  pageCount: number;
  /** Only a lower bound is known (the sample may have had more pages than the template keeps). */
  isPageCountCapped: boolean;
}

/** How a value was read. */
export type ReadMethod = 'text' | 'ocr' | 'form' | 'ink';

export interface ReadValue {
  page: number;
  label: string;
  value: string;
  method: ReadMethod;
  /** Why this box's value is doubtful; null when it read as the template expects. */
  problem: BoxProblem | null;
}

export interface ReadStatementResult {
  pageCount: number;
  values: ReadValue[];
  /** Why the file is not the template's kind of document; empty when it matches. */
  mismatches: TemplateMismatch[];
}

/**
 * Where a box is on this page: moved by as much as its anchor label moved between the sample and
 * this page. `isAnchorMissing` when the label was on the sample and is not on this page.
 */
function anchored(
  box: TemplateBoxSpec,
  sample: PageText[] | null,
  texts: PageText[],
): { where: PageBox; hasAnchor: boolean; isAnchorMissing: boolean } {
  const unmoved = { where: box, hasAnchor: false, isAnchorMissing: false };
  if (!box.anchorText || !sample) return unmoved;
  const expected = findLabel(sample, box.anchorText, box);
  if (!expected) return unmoved;
  const found = findLabel(texts, box.anchorText, expected);
  if (!found) return { where: box, hasAnchor: true, isAnchorMissing: true };
  const x = Math.min(Math.max(box.x + found.x - expected.x, 0), 1 - box.w);
  const y = Math.min(Math.max(box.y + found.y - expected.y, 0), 1 - box.h);
  return { where: { x, y, w: box.w, h: box.h }, hasAnchor: true, isAnchorMissing: false };
}

async function readPage(
  page: PDFPageProxy,
  spec: TemplatePageSpec,
  pageNumber: number,
): Promise<{ values: ReadValue[]; checked: CheckedBox[] }> {
  const texts = await pageTextOf(page);
  const isScanned = !hasTextLayer(texts);
  const fields: FormField[] = await formFieldsOf(page);
  const values: ReadValue[] = [];
  const checked: CheckedBox[] = [];
  for (const box of spec.boxes) {
    const { where, hasAnchor, isAnchorMissing } = isScanned
      ? { where: box, hasAnchor: false, isAnchorMissing: false }
      : anchored(box, spec.sampleText, texts);
    let value: string;
    let method: ReadMethod;
    if (box.type === 'CHECKBOX') {
      const isChecked = await isBoxChecked(page, where, fields);
      value = isChecked ? CHECKED : UNCHECKED;
      method = fieldsInBox(fields, where, 'checkbox').length > 0 ? 'form' : 'ink';
    } else {
      const fromField = textFieldValue(fields, where);
      if (fromField !== null) {
        value = fromField;
        method = 'form';
      } else if (isScanned) {
        value = await ocrText(await renderRegionPng(page, where, OCR_SCALE));
        method = 'ocr';
      } else {
        value = textInBox(texts, where);
        method = 'text';
      }
    }
    // Printed text is compared with the sample's in the same box; form values, ticks and OCR are not.
    const isCompared =
      method === 'text' && spec.sampleText !== null && textInBox(spec.sampleText, box) !== '';
    const problem: BoxProblem | null = isAnchorMissing
      ? 'anchor-missing'
      : isCompared && !looksLikeSample(value, textInBox(spec.sampleText ?? [], box))
        ? 'unlike-sample'
        : null;
    values.push({ page: pageNumber, label: box.label, value, method, problem });
    checked.push({ label: box.label, hasAnchor, isCompared, problem });
  }
  return { values, checked };
}

function pageSizeMismatch(
  page: PDFPageProxy,
  spec: TemplatePageSpec,
  pageNumber: number,
): TemplateMismatch | null {
  const viewport = page.getViewport({ scale: 1 });
  const size = { width: Math.round(viewport.width), height: Math.round(viewport.height) };
  const sample = spec.pageSize ?? spec.pixelSize ?? null;
  if (!sample || isSameSize(size, sample, !spec.pageSize)) return null;
  return { kind: 'page-size', page: pageNumber, size, sampleSize: spec.pageSize ?? null };
}

/**
 * Refuses the document before any of `pageNumbers` is drawn when one of them is absurdly large (or
 * has no area): a page is only looked up here, which costs no pixels.
 */
async function assertPageSizes(document: PDFDocumentProxy, pageNumbers: readonly number[]): Promise<void> {
  for (const pageNumber of pageNumbers) {
    const page = await document.getPage(pageNumber);
    try {
      assertPageSize(page, pageNumber);
    } finally {
      page.cleanup();
    }
  }
}

/**
 * Reads a statement with a template: page n with the boxes of the template's page n (pages beyond
 * the template's are not read). Text from a form field under the box, else the PDF's text layer,
 * or OCR on a page without one; checkboxes from their form field, or the ink in them. Says where
 * the file does not look like the template's sample (page count and size, anchors, values). A PDF
 * of more than `pagesMax` pages, or with a page to read that is absurdly large, is refused
 * (PdfRefusedError) before anything is drawn.
 */
export async function readStatement(
  bytes: Uint8Array,
  pages: readonly TemplatePageSpec[],
  sample?: TemplateSampleSpec,
  pagesMax = PDF_PAGES_MAX_DEFAULT,
): Promise<ReadStatementResult> {
  const document = await openPdf(bytes);
  try {
    const values: ReadValue[] = [];
    const checked: CheckedBox[] = [];
    const mismatches: TemplateMismatch[] = [];
    const pageCount = document.numPages;
    assertPageCount(pageCount, pagesMax);
    await assertPageSizes(
      document,
      pages.map((spec) => spec.pageNumber).filter((pageNumber) => pageNumber <= pageCount),
    );
    if (sample && (sample.isPageCountCapped ? pageCount < sample.pageCount : pageCount !== sample.pageCount))
      mismatches.push({ kind: 'page-count', pageCount, samplePageCount: sample.pageCount });
    for (let pageNumber = 1; pageNumber <= pageCount; pageNumber += 1) {
      const spec = pages.find((candidate) => candidate.pageNumber === pageNumber);
      if (!spec) continue;
      const page = await document.getPage(pageNumber);
      try {
        // The first page of another size says it; the rest would repeat it.
        const sizeMismatch = pageSizeMismatch(page, spec, pageNumber);
        if (sizeMismatch && !mismatches.some(({ kind }) => kind === 'page-size'))
          mismatches.push(sizeMismatch);
        if (spec.boxes.length === 0) continue;
        const read = await readPage(page, spec, pageNumber);
        values.push(...read.values);
        checked.push(...read.checked);
      } finally {
        page.cleanup();
      }
    }
    mismatches.push(...boxMismatches(checked));
    return { pageCount, values, mismatches };
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
  /** The page's size in points (what a statement's pages are compared with). */
  pageSize: PageSize;
  texts: PageText[];
}

/**
 * A template's sample PDF as page images (longest edge `longEdge` px, JPEG) with each page's text
 * layer, one page at a time through `onPage` (so memory holds one page, and progress shows). A PDF
 * of more than `pagesMax` pages, or with an absurdly large page among those drawn, is refused
 * (PdfRefusedError) before the first page is drawn.
 */
export async function renderSample(
  bytes: Uint8Array,
  options: {
    longEdge: number;
    /** Pages drawn at most (a longer sample's other pages are counted, not drawn). */
    maxPages: number;
    /** A PDF of more pages than this is refused (PDF_PAGES_MAX_DEFAULT when not given). */
    pagesMax?: number;
    onPage: (page: RenderedPage, pageCount: number) => Promise<void>;
  },
): Promise<{ renderedPages: number; documentPages: number }> {
  const document = await openPdf(bytes);
  try {
    assertPageCount(document.numPages, options.pagesMax ?? PDF_PAGES_MAX_DEFAULT);
    const pageCount = Math.min(document.numPages, options.maxPages);
    await assertPageSizes(
      document,
      Array.from({ length: pageCount }, (_, index) => index + 1),
    );
    for (let pageNumber = 1; pageNumber <= pageCount; pageNumber += 1) {
      const page = await document.getPage(pageNumber);
      try {
        const image = await renderPageImage(page, options.longEdge);
        const viewport = page.getViewport({ scale: 1 });
        const pageSize = { width: Math.round(viewport.width), height: Math.round(viewport.height) };
        await options.onPage({ pageNumber, ...image, pageSize, texts: await pageTextOf(page) }, pageCount);
      } finally {
        page.cleanup();
      }
    }
    return { renderedPages: pageCount, documentPages: document.numPages };
  } finally {
    await document.destroy();
  }
}
