import * as z from './zod.js';
import {
  CONSOLIDATED_COLUMNS_PER_RECORD,
  CSV_NEWLINE_MARKER,
  NAME_MAX_LENGTH,
  RECOGNITION_MAX_FILES,
} from '../constants.js';
import { MAPPING_TYPES } from '../enums.js';
import { MESSAGES, formatMessage } from '../messages.js';
import { isOneLine } from '../validation.js';

/**
 * Statement recognition (data spec §2-§9, issue 15): templates are boxes drawn on the page images
 * of a sample PDF; recognition reads each box of each page of other PDFs (text layer, checkbox ink,
 * OCR for scanned pages) and answers text and a token, which turns into CSV. Mapping fields keep
 * the spec's snake_case names.
 */

/** Largest PDF accepted (a template's sample, or a statement to read). */
export const RECOGNITION_PDF_MAX_BYTES = 20 * 1024 * 1024;
/** Pages of a template's sample PDF rendered at most. */
export const TEMPLATE_PAGES_MAX = 50;
/** Longest edge of a rendered page image, in pixels. */
export const TEMPLATE_IMAGE_LONG_EDGE = 1600;
/**
 * A page's sides, in points, a PDF may have (issue 24): 14,400 pt (200 in) is the most a PDF page
 * has per the PDF specification's own implementation limits; a larger one is refused, not drawn.
 */
export const PDF_PAGE_SIDE_MIN_POINTS = 1;
export const PDF_PAGE_SIDE_MAX_POINTS = 14_400;
/** Pages a PDF may have to be read at all (the worker's RECOGNITION_PDF_PAGES_MAX by default). */
export const PDF_PAGES_MAX_DEFAULT = 1000;

/** The sentences a PDF is refused with before it is read; the worker fails the job with one. */
const PDF_REFUSALS = [MESSAGES['recognition.pdf.page.size'], MESSAGES['recognition.pdf.too.many.pages']].map(
  (text) =>
    new RegExp(`^${text.replace(/[.*+?^$()|[\]\\]/gu, '\\$&').replace(/\{\{\w+\}\}/gu, '[^:]+?')}$`, 'u'),
);

/** Whether a failed job's reason is one of those sentences (the user is told it as it is). */
export function isPdfRefusal(reason: string): boolean {
  return PDF_REFUSALS.some((pattern) => pattern.test(reason));
}

/** Whether bytes are a PDF: its header within the first 1024 bytes (readers allow junk before it). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return new TextDecoder('latin1').decode(bytes.subarray(0, 1024)).includes('%PDF-');
}

export const templateNameSchema = z
  .string({ error: MESSAGES['template.name.required'] })
  .trim()
  .min(1, MESSAGES['template.name.required'])
  .max(NAME_MAX_LENGTH, `Template name must be at most ${NAME_MAX_LENGTH} characters`)
  .refine(isOneLine, MESSAGES['error.name.line.break']);

/** PUT /statement-recognition-template/ */
export const createTemplateRequestSchema = z.object({ templateName: templateNameSchema });
/** POST /statement-recognition-template/ (rename) */
export const renameTemplateRequestSchema = z.object({
  id: z.string().uuid(),
  templateName: templateNameSchema,
});
export type CreateTemplateRequest = z.infer<typeof createTemplateRequestSchema>;
export type RenameTemplateRequest = z.infer<typeof renameTemplateRequestSchema>;

export const templateDtoSchema = z.object({
  id: z.string(),
  templateName: z.string(),
  /** Beyond the spec: page images the template has, and boxes drawn on them. */
  pageCount: z.number().int(),
  mappingCount: z.number().int(),
});
export type TemplateDto = z.infer<typeof templateDtoSchema>;

/**
 * A page image (spec: id, imageUuid, name). `url` is where an `<img>` loads it without the bearer
 * token: a signed address that works for a few minutes (the list is asked again for fresh ones).
 */
export const templateImageDtoSchema = z.object({
  id: z.string(),
  imageUuid: z.string(),
  name: z.string(),
  pageNumber: z.number().int(),
  pixelWidth: z.number().int(),
  pixelHeight: z.number().int(),
  url: z.string(),
});
export type TemplateImageDto = z.infer<typeof templateImageDtoSchema>;

/** A fraction of the page, 0 to 1. */
const fraction = z.number().min(0).max(1);

/** A box as GET .../mapping/image/{id} answers it. */
export const templateMappingDtoSchema = z.object({
  id: z.string(),
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  mapping_type: z.enum(MAPPING_TYPES),
  mapping_label: z.string(),
  /** Beyond the spec: label text the box is read relative to, so a shifted layout still reads right. */
  anchor_text: z.string().nullable(),
});
export type TemplateMappingDto = z.infer<typeof templateMappingDtoSchema>;

const mappingLabel = z
  .string()
  .trim()
  .min(1, MESSAGES['template.mapping.label.required'])
  .max(NAME_MAX_LENGTH, `Field name must be at most ${NAME_MAX_LENGTH} characters`)
  .refine(isOneLine, MESSAGES['error.name.line.break']);

/** One box as saved: position in fractions, the image size it was drawn on, its field. */
export const templateBoxSchema = z
  .object({
    x: fraction,
    y: fraction,
    w: fraction,
    h: fraction,
    pixel_width: z.number().int().min(1),
    pixel_height: z.number().int().min(1),
    mapping_type: z.enum(MAPPING_TYPES, { error: MESSAGES['template.mapping.type.invalid'] }).default('TEXT'),
    mapping_label: mappingLabel.default('EMPTY'),
    anchor_text: z.string().trim().max(NAME_MAX_LENGTH).nullish(),
  })
  .refine((box) => box.x + box.w <= 1.0001 && box.y + box.h <= 1.0001, {
    message: 'A box must lie inside its page',
    path: ['w'],
  });
export type TemplateBox = z.input<typeof templateBoxSchema>;

/** PUT /statement-recognition-template/mapping (the spec's one-box call). */
export const saveMappingRequestSchema = z.object({ imageId: z.string().uuid() }).and(templateBoxSchema);
export type SaveMappingRequest = z.input<typeof saveMappingRequestSchema>;

/**
 * PUT /statement-recognition-template/mappings/image/{id} (beyond the spec): the editor's save, all
 * boxes of a page at once, in one transaction, so a failed save leaves the old boxes as they were.
 */
export const replaceMappingsRequestSchema = z.object({ mappings: z.array(templateBoxSchema).max(500) });
export type ReplaceMappingsRequest = z.input<typeof replaceMappingsRequestSchema>;

// -------------------------------------------------------------------------------------------------
// Template match (issue 23): a statement of another layout still "reads" every box, so the reader
// says where the file does not look like the template's sample, and which boxes failed.
// -------------------------------------------------------------------------------------------------

export const BOX_PROBLEMS = ['anchor-missing', 'unlike-sample'] as const;
export type BoxProblem = (typeof BOX_PROBLEMS)[number];

const pageSizeSchema = z.object({ width: z.number(), height: z.number() });
export type PageSize = z.infer<typeof pageSizeSchema>;

/** Why a whole file does not match its template. */
export const templateMismatchSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('page-count'), pageCount: z.number().int(), samplePageCount: z.number().int() }),
  z.object({
    kind: z.literal('page-size'),
    page: z.number().int(),
    size: pageSizeSchema,
    sampleSize: pageSizeSchema.nullable(),
  }),
  z.object({ kind: z.literal('anchors-missing'), labels: z.array(z.string()) }),
  z.object({ kind: z.literal('unlike-sample'), labels: z.array(z.string()) }),
]);
export type TemplateMismatch = z.infer<typeof templateMismatchSchema>;

const sizeText = ({ width, height }: PageSize) => `${Math.round(width)} × ${Math.round(height)}`;

/** One reason a file does not match, as a sentence part ("it has 3 pages where the sample had 2"). */
export function templateMismatchText(mismatch: TemplateMismatch): string {
  switch (mismatch.kind) {
    case 'page-count':
      return formatMessage('recognition.mismatch.page.count', mismatch);
    case 'page-size':
      return formatMessage('recognition.mismatch.page.size', {
        page: mismatch.page,
        size: sizeText(mismatch.size),
        sampleSize: mismatch.sampleSize ? ` (${sizeText(mismatch.sampleSize)} pt)` : '',
      });
    case 'anchors-missing':
      return formatMessage('recognition.mismatch.anchors', { labels: mismatch.labels.join(', ') });
    case 'unlike-sample':
      return formatMessage('recognition.mismatch.unlike', { labels: mismatch.labels.join(', ') });
  }
}

/** "Does not match the template: reason; reason", or null for a file that matches. */
export function templateMismatchSummary(mismatches: readonly TemplateMismatch[]): string | null {
  if (mismatches.length === 0) return null;
  return `${MESSAGES['recognition.mismatch']}: ${mismatches.map(templateMismatchText).join('; ')}`;
}

export const boxProblemText = (problem: BoxProblem): string =>
  problem === 'anchor-missing'
    ? MESSAGES['recognition.box.anchor.missing']
    : MESSAGES['recognition.box.unlike.sample'];

/** A box whose value is doubtful, as the results show it. */
export const failedBoxSchema = z.object({
  page: z.number().int(),
  label: z.string(),
  problem: z.enum(BOX_PROBLEMS),
});
export type FailedBox = z.infer<typeof failedBoxSchema>;

/** POST /statement-recognition/pdf-to-text/{templateId}: spec's upload item and process result. */
export const recognitionResultSchema = z.object({
  file: z.string(),
  fileName: z.string(),
  /** Every box's value, page by page ("Page 1" headings, one "label: value" a line). */
  text: z.string(),
  /** What the CSV calls take. */
  token: z.string(),
  pageCount: z.number().int(),
  /** Beyond the spec: false when the file does not look like the template's sample. */
  matchesTemplate: z.boolean(),
  /** Why it does not (sentences); empty when it matches. */
  mismatches: z.array(z.string()),
  /** Boxes whose value is doubtful, even in a file that matches. */
  failedBoxes: z.array(failedBoxSchema),
});
export type RecognitionResult = z.infer<typeof recognitionResultSchema>;

export const textToCsvRequestSchema = z.object({ token: z.string().min(1).max(200) });
export const textToCsvConsolidatedRequestSchema = z.object({
  tokenList: z
    .array(z.string().min(1).max(200))
    .min(1, 'Choose at least one processed file')
    .max(RECOGNITION_MAX_FILES, MESSAGES['recognition.too.many.files']),
});

/** One value read: a record of the consolidated CSV and table. */
export const recognizedValueSchema = z.object({
  filename: z.string(),
  /** 0 on the record that says the file does not match its template. */
  page: z.number().int(),
  label: z.string(),
  value: z.string(),
  /** Beyond the spec: why this value is doubtful; absent or null when it read as expected. */
  problem: z.enum(BOX_PROBLEMS).nullish(),
});
export type RecognizedValue = z.infer<typeof recognizedValueSchema>;

/** POST /statement-recognition/find (beyond the spec's wording): the values of processed files. */
export const findRecognizedRequestSchema = textToCsvConsolidatedRequestSchema;
export const findRecognizedResponseSchema = z.array(recognizedValueSchema);

// -------------------------------------------------------------------------------------------------
// The consolidated CSV (data spec §3, §9): four columns a record, the first four cells a header,
// line breaks inside values written as __NL__. RFC 4180 quoting for commas and quotes.
// -------------------------------------------------------------------------------------------------

export const CSV_HEADER = ['filename', 'page', 'label', 'value'] as const;

/** What a spreadsheet reads as the start of a formula (OWASP, CSV injection): = + - @ tab CR. */
const FORMULA_START = /^[=+\-@\t\r]/u;
/** A signed plain number ("-12.50", "+1,234.00"): a spreadsheet reads a number, never a formula. */
const PLAIN_NUMBER = /^[+-]?\d[\d.,]*$/u;

/**
 * A cell as written. A cell that a spreadsheet would run as a formula (a statement's value, a box's
 * label or a file name starting with = + - @, tab or CR) is neutralised as OWASP advises: prefixed
 * with ' and quoted, so it opens as text. Signed plain numbers (amounts) are left as they are.
 */
function csvCell(value: string): string {
  const flat = value.replace(/\r\n|\r|\n/gu, CSV_NEWLINE_MARKER);
  if (FORMULA_START.test(flat) && !PLAIN_NUMBER.test(flat)) return `"'${flat.replaceAll('"', '""')}"`;
  return /[",]/u.test(flat) ? `"${flat.replaceAll('"', '""')}"` : flat;
}

/** The CSV of some values: header line, then one line a value. */
export function toRecognitionCsv(values: readonly RecognizedValue[]): string {
  const lines = [CSV_HEADER.join(',')];
  for (const { filename, page, label, value } of values) {
    lines.push([filename, String(page), label, value].map(csvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Cells of a CSV text (RFC 4180: quoted cells may hold commas, quotes and line breaks). */
export function parseCsvCells(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let isQuoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (isQuoted) {
      if (character === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (character === '"') isQuoted = false;
      else cell += character;
    } else if (character === '"') isQuoted = true;
    else if (character === ',') {
      row.push(cell);
      cell = '';
    } else if (character === '\n' || character === '\r') {
      if (character === '\r' && text[index + 1] === '\n') index += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += character;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/**
 * The records of a consolidated CSV as the table shows them: header skipped, __NL__ back to line
 * breaks. A cell neutralised against formulas keeps its ' : the table shows what the file holds.
 */
export function parseRecognitionCsv(text: string): RecognizedValue[] {
  const cells = parseCsvCells(text).flat().slice(CONSOLIDATED_COLUMNS_PER_RECORD);
  const values: RecognizedValue[] = [];
  for (
    let index = 0;
    index + CONSOLIDATED_COLUMNS_PER_RECORD <= cells.length;
    index += CONSOLIDATED_COLUMNS_PER_RECORD
  ) {
    const [filename = '', page = '', label = '', value = ''] = cells.slice(
      index,
      index + CONSOLIDATED_COLUMNS_PER_RECORD,
    );
    values.push({
      filename: filename.replaceAll(CSV_NEWLINE_MARKER, '\n'),
      page: Number(page),
      label: label.replaceAll(CSV_NEWLINE_MARKER, '\n'),
      value: value.replaceAll(CSV_NEWLINE_MARKER, '\n'),
    });
  }
  return values;
}

/** `statement.pdf` → `statement.csv` (data spec §9). */
export function csvFileName(pdfName: string): string {
  return `${pdfName.replace(/\.pdf$/iu, '')}.csv`;
}
