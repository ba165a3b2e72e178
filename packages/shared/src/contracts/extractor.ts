import * as z from './zod.js';
import { DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH, VIEWER_EMAIL_MAX_LENGTH } from '../constants.js';
import { EXTRACTOR_TYPES, RUN_STATUSES } from '../enums.js';
import { MESSAGES } from '../messages.js';
import { VIEWER_EMAIL_PATTERN, isOneLine } from '../validation.js';
import { extractorInputsSchema } from './inputs.js';

/** Name and description rules shared by every named item (automation spec §5, §9). */
export const itemNameSchema = z
  .string({ error: MESSAGES['extractor.list.error.name'] })
  .trim()
  .min(1, MESSAGES['extractor.list.error.name'])
  .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters`)
  .refine(isOneLine, MESSAGES['error.name.line.break']);
export const itemDescriptionSchema = z
  .string({ error: MESSAGES['extractor.list.error.description'] })
  .trim()
  .min(1, MESSAGES['extractor.list.error.description'])
  .max(DESCRIPTION_MAX_LENGTH, `Description must be at most ${DESCRIPTION_MAX_LENGTH} characters`);

export const extractorTypeQuerySchema = z.object({
  extractorType: z.enum(EXTRACTOR_TYPES).default('EXTRACTOR'),
});

/** POST /extractor/start: a new extractor, insertor or navigator (navigators need a viewer e-mail). */
export const startExtractorRequestSchema = z
  .object({
    name: itemNameSchema,
    description: itemDescriptionSchema,
    extractorType: z.enum(EXTRACTOR_TYPES).default('EXTRACTOR'),
    viewerEmail: z
      .string()
      .trim()
      .max(VIEWER_EMAIL_MAX_LENGTH, `Viewer Email must be at most ${VIEWER_EMAIL_MAX_LENGTH} characters`)
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.extractorType !== 'NAVIGATOR' && value.extractorType !== 'FENGINE_NAVIGATOR') return;
    if (!value.viewerEmail) {
      ctx.addIssue({
        code: 'custom',
        path: ['viewerEmail'],
        message: MESSAGES['navigator.list.error.viewer.email'],
      });
    } else if (!VIEWER_EMAIL_PATTERN.test(value.viewerEmail)) {
      ctx.addIssue({ code: 'custom', path: ['viewerEmail'], message: MESSAGES['signup.email.invalid'] });
    }
  });
export type StartExtractorRequest = z.infer<typeof startExtractorRequestSchema>;

/** POST /extractor/rename: the named-item payload; the viewer e-mail cannot be changed. */
export const renameExtractorRequestSchema = z.object({
  id: z.string().uuid(),
  name: itemNameSchema,
  description: itemDescriptionSchema,
});
export type RenameExtractorRequest = z.infer<typeof renameExtractorRequestSchema>;

export const extractorListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  extractorType: z.enum(EXTRACTOR_TYPES),
  viewerEmail: z.string().nullable(),
  status: z.enum(RUN_STATUSES).nullable(),
  /** Errors not yet shown to the user, newest first; the list shows the first and clears them. */
  errorMessages: z.array(
    z.object({
      id: z.string(),
      errorMessage: z.string(),
      /** The automation code of the failure (the notice words it "Name (code): message"). */
      errorCode: z.number().int().nullable(),
      createdAt: z.string(),
    }),
  ),
  errorMessage: z.string().nullable(),
  /** The latest MANUAL or SCHEDULED run (GET /extractor/run/:runId); null before the first one. */
  lastRunId: z.string().uuid().nullable(),
  createdAt: z.string(),
  /** The inputs a run of it takes (Execute asks for them first). */
  inputs: extractorInputsSchema,
});
export type ExtractorListItem = z.infer<typeof extractorListItemSchema>;

/** What POST /extractor/start (201) and POST /extractor/rename (200) answer: the saved item. */
export const savedExtractorSchema = extractorListItemSchema.pick({
  id: true,
  name: true,
  description: true,
  extractorType: true,
  viewerEmail: true,
  status: true,
});
export type SavedExtractor = z.infer<typeof savedExtractorSchema>;

/**
 * POST /extractor/copy/:id answers the new item (201). Its name is the original's with " (copy)",
 * then " (copy 2)", " (copy 3)"…, the first one free among the caller's items of that type, the
 * original's part shortened when needed so the whole stays within NAME_MAX_LENGTH.
 */
export const copyExtractorResponseSchema = extractorListItemSchema;

/** The suffix of the n-th copy of one name: " (copy)", " (copy 2)"… */
export function copyNameSuffix(n: number): string {
  return n <= 1 ? ' (copy)' : ` (copy ${n})`;
}

/** "Prices (copy 2)" → "Prices": copying a copy numbers it beside the first copies. */
export function copyBaseName(name: string): string {
  return name.replace(/ \(copy(?: \d+)?\)$/, '');
}

/** The first "<name> (copy[ n])" not in `takenNames`, at most NAME_MAX_LENGTH characters long. */
export function nextCopyName(name: string, takenNames: ReadonlySet<string>): string {
  const base = copyBaseName(name);
  for (let n = 1; ; n += 1) {
    const suffix = copyNameSuffix(n);
    const candidate = `${base.slice(0, NAME_MAX_LENGTH - suffix.length).trimEnd()}${suffix}`;
    if (!takenNames.has(candidate)) return candidate;
  }
}
