import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { overlapArea, type PageBox } from './pdf.js';

/** A fillable PDF's field on a page, where its widget sits (page fractions) and what it holds. */
export interface FormField extends PageBox {
  kind: 'text' | 'checkbox';
  /** A text or choice field's value ('' when empty); '' for a checkbox. */
  value: string;
  isChecked: boolean;
}

interface WidgetAnnotation {
  subtype?: string;
  fieldType?: string;
  checkBox?: boolean;
  fieldValue?: unknown;
  rect?: number[];
}

const valueText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Array.isArray(value)
      ? value.filter((v) => typeof v === 'string').join(', ')
      : '';

/**
 * The page's form fields and their values: a fillable PDF says in so many words what was typed or
 * ticked, where the text layer only holds the printed form. XFA forms are read through the
 * AcroForm fields they carry for readers without XFA (PDF.js is opened with XFA off).
 */
export async function formFieldsOf(page: PDFPageProxy): Promise<FormField[]> {
  const viewport = page.getViewport({ scale: 1 });
  const annotations = (await page.getAnnotations({ intent: 'display' })) as WidgetAnnotation[];
  const fields: FormField[] = [];
  for (const annotation of annotations) {
    if (annotation.subtype !== 'Widget') continue;
    const isCheckbox = annotation.fieldType === 'Btn' && annotation.checkBox === true;
    const isText = annotation.fieldType === 'Tx' || annotation.fieldType === 'Ch';
    if (!isCheckbox && !isText) continue;
    // PDF.js types the rectangle it returns as any: four numbers.
    const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = viewport.convertToViewportRectangle(
      annotation.rect ?? [0, 0, 0, 0],
    ) as number[];
    const value = valueText(annotation.fieldValue);
    fields.push({
      kind: isCheckbox ? 'checkbox' : 'text',
      x: Math.min(x1, x2) / viewport.width,
      y: Math.min(y1, y2) / viewport.height,
      w: Math.abs(x2 - x1) / viewport.width,
      h: Math.abs(y2 - y1) / viewport.height,
      value: isCheckbox ? '' : value,
      isChecked: isCheckbox && value !== '' && value !== 'Off',
    });
  }
  return fields;
}

/** The fields of a kind lying at least half inside a box (a box drawn around a field holds it). */
export const fieldsInBox = (
  fields: readonly FormField[],
  box: PageBox,
  kind: FormField['kind'],
): FormField[] =>
  fields.filter(
    (field) =>
      field.kind === kind && field.w * field.h > 0 && overlapArea(field, box) >= 0.5 * field.w * field.h,
  );

/**
 * A text box's value from the text fields inside it, in reading order (top to bottom, left to
 * right); null when no text field lies in the box (the text layer is read instead). An empty field
 * reads as '': the printed form around it is not its value.
 */
export function textFieldValue(fields: readonly FormField[], box: PageBox): string | null {
  const inBox = fieldsInBox(fields, box, 'text');
  if (inBox.length === 0) return null;
  return inBox
    .sort((a, b) => (Math.abs(a.y - b.y) < Math.min(a.h, b.h) * 0.5 ? a.x - b.x : a.y - b.y))
    .map((field) => field.value.trim())
    .filter((value) => value !== '')
    .join(' ');
}
