import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

const require = createRequire(import.meta.url);
const pdfjsRoot = path.dirname(require.resolve('pdfjs-dist/package.json'));

/**
 * Opens a PDF someone uploaded: hostile by assumption, so PDF.js never compiles its fonts into
 * functions (`isEvalSupported: false`), never runs its scripts (PDF.js has no JavaScript engine
 * here) and ignores XFA forms; fonts and character maps come from the package, never the network.
 */
export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  return getDocument({
    // PDF.js takes ownership of (and detaches) the buffer it is given: it gets a copy.
    data: new Uint8Array(bytes),
    standardFontDataUrl: `${path.join(pdfjsRoot, 'standard_fonts')}/`,
    cMapUrl: `${path.join(pdfjsRoot, 'cmaps')}/`,
    cMapPacked: true,
    isEvalSupported: false,
    enableXfa: false,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
}

/** A rectangle as fractions (0-1) of its page, from the top-left corner. */
export interface PageBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export const overlapArea = (a: PageBox, b: PageBox): number =>
  Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
