import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFForm, type PDFPage } from 'pdf-lib';
import { openPdf, renderPageImage } from '@pagewright/recognition';
import type { TemplateBox } from '@pagewright/shared';

/**
 * Statement PDFs with known values for the recognition tests and benchmark: a two-page "KYC form"
 * whose labels and values sit at fixed places, in four variants: as printed (a text layer),
 * shifted (the whole layout moved, so only anchored boxes read right), with fillable checkboxes
 * (form fields), and scanned (each page one picture, no text layer: OCR).
 */

const PAGE = { width: 595, height: 842 };
const FONT_SIZE = 11;
const VALUE_X = 200;
const VALUE_WIDTH = 330;
const BOX_SIZE = 12;

export type StatementVariant = 'printed' | 'shifted' | 'form' | 'scanned';

interface FieldSpot {
  label: string;
  kind: 'TEXT' | 'CHECKBOX';
  /** Lines the value may take (a multi-line value is written one line under the other). */
  lines?: number;
  /** Baseline of the label and its value, points from the page's bottom (as PDF counts). */
  baseline: number;
}

/** Where each field is on the two pages (the template's boxes are drawn from the same list). */
export const STATEMENT_LAYOUT: readonly (readonly FieldSpot[])[] = [
  [
    { label: 'Account holder', kind: 'TEXT', baseline: 720 },
    { label: 'Account number', kind: 'TEXT', baseline: 690 },
    { label: 'Address', kind: 'TEXT', baseline: 660, lines: 2 },
    { label: 'Balance', kind: 'TEXT', baseline: 610 },
    { label: 'Resident', kind: 'CHECKBOX', baseline: 575 },
    { label: 'Politically exposed', kind: 'CHECKBOX', baseline: 545 },
  ],
  [
    { label: 'Statement date', kind: 'TEXT', baseline: 720 },
    { label: 'Closing balance', kind: 'TEXT', baseline: 690 },
    { label: 'Note', kind: 'TEXT', baseline: 660 },
    { label: 'Signed', kind: 'CHECKBOX', baseline: 620 },
  ],
];

/** How far the shifted variant moves everything (points right, points down). */
export const SHIFT = { dx: 20, dy: 37 };

export type StatementValues = Record<string, string>;

const HOLDERS = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Edsger Dijkstra', 'Barbara Liskov'];
const STREETS = [
  '12 High Street, Flat 3\nLondon',
  '4 Mill Lane, Unit 7\nLeeds',
  '89 Quay Road, Suite 2\nBristol',
];
const LINE_GAP = 14;

/** The values of statement number `index` (the same index gives the same values). */
export function statementValues(index: number): StatementValues {
  const pick = <T>(list: readonly T[]) => list[index % list.length] as T;
  const amount = (seed: number) =>
    `${(1000 + ((index * 7919 + seed) % 90000)).toLocaleString('en-US')}.${String((index * 31 + seed) % 100).padStart(2, '0')}`;
  return {
    'Account holder': pick(HOLDERS),
    'Account number': `GB${String(10_000_000 + index * 7_331).padStart(8, '0')}`,
    Address: pick(STREETS),
    Balance: amount(17),
    Resident: index % 2 === 0 ? 'checked' : 'unchecked',
    'Politically exposed': index % 3 === 0 ? 'checked' : 'unchecked',
    'Statement date': `2026-${String((index % 12) + 1).padStart(2, '0')}-${String((index % 28) + 1).padStart(2, '0')}`,
    'Closing balance': amount(53),
    Note: `Paid "in full", ref ${index}`,
    Signed: index % 4 === 1 ? 'unchecked' : 'checked',
  };
}

function drawPage(
  page: PDFPage,
  spots: readonly FieldSpot[],
  values: StatementValues,
  variant: StatementVariant,
  font: PDFFont,
  form?: PDFForm,
) {
  const dx = variant === 'shifted' ? SHIFT.dx : 0;
  const dy = variant === 'shifted' ? -SHIFT.dy : 0;
  page.drawText('KYC form', { x: 60 + dx, y: 780 + dy, size: 18, font });
  for (const spot of spots) {
    const y = spot.baseline + dy;
    page.drawText(`${spot.label}:`, { x: 60 + dx, y, size: FONT_SIZE, font });
    const value = values[spot.label] ?? '';
    if (spot.kind === 'TEXT') {
      value.split('\n').forEach((line, index) => {
        page.drawText(line, { x: VALUE_X + dx, y: y - index * LINE_GAP, size: FONT_SIZE, font });
      });
      continue;
    }
    const box = { x: VALUE_X + dx, y: y - 2, width: BOX_SIZE, height: BOX_SIZE };
    if (variant === 'form' && form) {
      const field = form.createCheckBox(`${spot.label}-${page.ref.objectNumber}`);
      field.addToPage(page, { ...box, borderWidth: 1, borderColor: rgb(0, 0, 0) });
      if (value === 'checked') field.check();
      continue;
    }
    page.drawRectangle({ ...box, borderWidth: 1, borderColor: rgb(0, 0, 0) });
    if (value === 'checked') {
      const inset = 2;
      const line = { thickness: 1.8, color: rgb(0, 0, 0) };
      page.drawLine({
        start: { x: box.x + inset, y: box.y + inset },
        end: { x: box.x + box.width - inset, y: box.y + box.height - inset },
        ...line,
      });
      page.drawLine({
        start: { x: box.x + inset, y: box.y + box.height - inset },
        end: { x: box.x + box.width - inset, y: box.y + inset },
        ...line,
      });
    }
  }
}

/** A printed statement (a text layer); `scanned` turns each page into one picture. */
export async function statementPdf(
  values: StatementValues,
  variant: StatementVariant = 'printed',
): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const form = variant === 'form' ? document.getForm() : undefined;
  for (const spots of STATEMENT_LAYOUT) {
    const page = document.addPage([PAGE.width, PAGE.height]);
    drawPage(page, spots, values, variant === 'scanned' ? 'printed' : variant, font, form);
  }
  const bytes = await document.save();
  return variant === 'scanned' ? scanned(bytes) : bytes;
}

/** The same pages as pictures only (what a scanner gives): rendered at 200 dpi, one JPEG a page. */
async function scanned(bytes: Uint8Array): Promise<Uint8Array> {
  const source = await openPdf(bytes);
  const document = await PDFDocument.create();
  try {
    for (let pageNumber = 1; pageNumber <= source.numPages; pageNumber += 1) {
      const page = await source.getPage(pageNumber);
      const { jpeg } = await renderPageImage(page, Math.round((PAGE.height * 200) / 72));
      const picture = await document.embedJpg(jpeg);
      document
        .addPage([PAGE.width, PAGE.height])
        .drawImage(picture, { x: 0, y: 0, width: PAGE.width, height: PAGE.height });
    }
  } finally {
    await source.destroy();
  }
  return document.save();
}

/**
 * The template's boxes for page `index` (0-based), drawn where the printed variant has its values
 * (a little taller than the text), each anchored to its label when `anchored`.
 */
export function templateBoxes(index: number, anchored = true): TemplateBox[] {
  const imageWidth = 1131;
  const imageHeight = 1600;
  return (STATEMENT_LAYOUT[index] ?? []).map((spot) => {
    const isBox = spot.kind === 'CHECKBOX';
    const top = PAGE.height - spot.baseline - (isBox ? BOX_SIZE - 2 : FONT_SIZE) - 4;
    const height = (isBox ? BOX_SIZE : FONT_SIZE) + 8 + ((spot.lines ?? 1) - 1) * LINE_GAP;
    const left = VALUE_X - 4;
    const width = isBox ? BOX_SIZE + 8 : VALUE_WIDTH;
    return {
      x: left / PAGE.width,
      y: top / PAGE.height,
      w: width / PAGE.width,
      h: height / PAGE.height,
      pixel_width: imageWidth,
      pixel_height: imageHeight,
      mapping_type: spot.kind,
      mapping_label: spot.label,
      anchor_text: anchored ? `${spot.label}:` : null,
    };
  });
}
