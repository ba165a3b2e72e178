import { Util, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PageBox } from './pdf.js';

/** A run of text on a page, its box in page fractions (top-left origin). */
export interface PageText extends PageBox {
  str: string;
}

/** The page's text layer in page fractions (empty for a scanned page). */
export async function pageTextOf(page: PDFPageProxy): Promise<PageText[]> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const texts: PageText[] = [];
  for (const item of content.items) {
    if (!('str' in item) || item.str.trim() === '') continue;
    const { str, transform, width } = item;
    const [, , c, d, e, f] = Util.transform(viewport.transform, transform) as number[];
    const height = Math.hypot(c ?? 0, d ?? 0);
    if (height <= 0 || width <= 0) continue;
    texts.push({
      str,
      x: (e ?? 0) / viewport.width,
      y: ((f ?? 0) - height) / viewport.height,
      w: (width * viewport.scale) / viewport.width,
      h: height / viewport.height,
    });
  }
  return texts;
}

/** Whether a page has a text layer worth reading (else it is a scan: OCR). */
export const hasTextLayer = (texts: readonly PageText[]): boolean =>
  texts.reduce((count, text) => count + text.str.replace(/\s/gu, '').length, 0) >= 3;

interface Fragment {
  text: string;
  x: number;
  right: number;
  y: number;
  h: number;
}

/**
 * The text inside a box: the characters whose middle lies across the box and whose run sits at
 * least half inside it vertically (a run holding "Label: value" gives only the part in the box;
 * PDF.js gives runs, not characters, so a character's place is its share of the run's width).
 * Read line by line, top to bottom, left to right.
 */
export function textInBox(texts: readonly PageText[], box: PageBox): string {
  const fragments: Fragment[] = [];
  for (const text of texts) {
    const vertical = Math.min(text.y + text.h, box.y + box.h) - Math.max(text.y, box.y);
    if (vertical < text.h * 0.5) continue;
    const characters = [...text.str];
    const advance = text.w / characters.length;
    let picked = '';
    let first = -1;
    let last = -1;
    characters.forEach((character, index) => {
      const middle = text.x + advance * (index + 0.5);
      if (middle >= box.x && middle <= box.x + box.w) {
        if (first < 0) first = index;
        last = index;
        picked += character;
      }
    });
    if (picked.trim() === '') continue;
    fragments.push({
      text: picked,
      x: text.x + advance * first,
      right: text.x + advance * (last + 1),
      y: text.y,
      h: text.h,
    });
  }
  fragments.sort((a, b) => a.y - b.y || a.x - b.x);
  const lines: Fragment[][] = [];
  for (const fragment of fragments) {
    const line = lines.find((candidate) => Math.abs((candidate[0]?.y ?? 0) - fragment.y) < fragment.h * 0.5);
    if (line) line.push(fragment);
    else lines.push([fragment]);
  }
  return lines
    .map((line) => {
      line.sort((a, b) => a.x - b.x);
      let out = '';
      let previous: Fragment | undefined;
      for (const fragment of line) {
        // A gap wider than a quarter of the text's height is a space the PDF did not write.
        const gap = previous ? fragment.x - previous.right : 0;
        out +=
          previous && gap > fragment.h * 0.25 && !out.endsWith(' ') && !fragment.text.startsWith(' ')
            ? ' '
            : '';
        out += fragment.text;
        previous = fragment;
      }
      return out.replace(/\s+/gu, ' ').trim();
    })
    .filter((line) => line.length > 0)
    .join('\n');
}

const normalise = (text: string) => text.replace(/\s+/gu, ' ').trim().toLowerCase();

/**
 * Where a label starts on a page (top-left, page fractions), the occurrence nearest to `near`; null
 * when the page does not have it. Runs are searched one by one, then with their neighbours on the
 * same line (a label may be split over runs).
 */
export function findLabel(texts: readonly PageText[], label: string, near: { x: number; y: number }) {
  const wanted = normalise(label);
  if (wanted === '') return null;
  let best: { x: number; y: number; distance: number } | null = null;
  for (const text of texts) {
    const index = normalise(text.str).indexOf(wanted);
    if (index < 0) continue;
    const advance = text.w / Math.max(1, [...text.str].length);
    // Leading spaces dropped by normalise shift the index: count them back.
    const leading = text.str.length - text.str.trimStart().length;
    const x = text.x + advance * (index + leading);
    const distance = Math.hypot(x - near.x, text.y - near.y);
    if (!best || distance < best.distance) best = { x, y: text.y, distance };
  }
  return best ? { x: best.x, y: best.y } : null;
}
