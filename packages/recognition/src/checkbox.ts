import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { fieldsInBox, type FormField } from './form-fields.js';
import type { PageBox } from './pdf.js';
import { renderRegion } from './render.js';

/** Share of dark pixels above which a box counts as ticked, once printed lines are taken out. */
const INK_THRESHOLD = 0.08;
/** The middle 80% of the drawn box is looked at (what is at its very edge belongs to neighbours). */
const INNER = 0.8;
/** A row or column this dark is a printed line (the checkbox's own border), not a tick. */
const LINE_SHARE = 0.6;

/**
 * Share of ink in a box's pixels, leaving out the rows and columns that are mostly dark: the
 * printed square around a checkbox (wherever it sits in the drawn box) is lines, a tick or a
 * cross never fills a whole row or column.
 */
export function inkShare(data: Uint8ClampedArray, width: number, height: number): number {
  const isDark = new Uint8Array(width * height);
  for (let pixel = 0; pixel < width * height; pixel += 1) {
    const index = pixel * 4;
    // Over white: a pixel PDF.js left transparent is paper, not ink.
    const alpha = (data[index + 3] ?? 0) / 255;
    const colour =
      0.299 * (data[index] ?? 255) + 0.587 * (data[index + 1] ?? 255) + 0.114 * (data[index + 2] ?? 255);
    isDark[pixel] = alpha * colour + (1 - alpha) * 255 < 128 ? 1 : 0;
  }
  const rowDark = new Array<number>(height).fill(0);
  const columnDark = new Array<number>(width).fill(0);
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1)
      if (isDark[y * width + x]) {
        rowDark[y] = (rowDark[y] ?? 0) + 1;
        columnDark[x] = (columnDark[x] ?? 0) + 1;
      }
  const isLineRow = rowDark.map((count) => count > width * LINE_SHARE);
  const isLineColumn = columnDark.map((count) => count > height * LINE_SHARE);
  let dark = 0;
  let counted = 0;
  for (let y = 0; y < height; y += 1) {
    if (isLineRow[y]) continue;
    for (let x = 0; x < width; x += 1) {
      if (isLineColumn[x]) continue;
      counted += 1;
      dark += isDark[y * width + x] ?? 0;
    }
  }
  return counted === 0 ? 0 : dark / counted;
}

/**
 * Whether a checkbox box is ticked: the form field's value when a field sits in the box, otherwise
 * the ink inside it, printed lines left out (a printed or scanned form).
 */
export async function isBoxChecked(
  page: PDFPageProxy,
  box: PageBox,
  fields: readonly FormField[],
): Promise<boolean> {
  const [field] = fieldsInBox(fields, box, 'checkbox');
  if (field) return field.isChecked;
  const inner: PageBox = {
    x: box.x + (box.w * (1 - INNER)) / 2,
    y: box.y + (box.h * (1 - INNER)) / 2,
    w: box.w * INNER,
    h: box.h * INNER,
  };
  const { data, width, height } = await renderRegion(page, inner, 3);
  return inkShare(data, width, height) > INK_THRESHOLD;
}
