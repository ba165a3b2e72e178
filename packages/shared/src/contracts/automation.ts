import * as z from './zod.js';
import {
  ACTION_LABEL_MAX_LENGTH,
  ACTION_TIMEOUT_MAX_MS,
  NUMBER_MASK_AFFIX_MAX_LENGTH,
  TEXT_FIELD_MAX_LENGTH,
} from '../constants.js';
import {
  ACTION_TYPES,
  ASK_MULTI_STEP_PHASES,
  CONDITIONS,
  PAGE_DIALOG_TYPES,
  ELEMENT_TYPES,
  SCRIPT_RETURN_TYPES,
  SELECTOR_TYPES,
  VALUE_TYPES,
} from '../enums.js';

/**
 * The automation contracts (automation spec §3): what an action is, how it finds its element, and
 * what the engine reads from a page. The API validates with these, the worker runs them, the SPA
 * edits them.
 */

/** One way to find an element again, tried in order when the recorded selector no longer matches. */
export const fallbackLocatorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('testId'), value: z.string() }),
  z.object({ kind: z.literal('id'), value: z.string() }),
  z.object({ kind: z.literal('role'), role: z.string(), name: z.string() }),
  z.object({ kind: z.literal('label'), value: z.string() }),
  z.object({ kind: z.literal('text'), value: z.string(), tagName: z.string().optional() }),
  z.object({
    kind: z.literal('attributes'),
    tagName: z.string(),
    attributes: z.record(z.string(), z.string()),
  }),
  z.object({ kind: z.literal('css'), value: z.string() }),
  z.object({ kind: z.literal('xpath'), value: z.string() }),
]);
export type FallbackLocator = z.infer<typeof fallbackLocatorSchema>;

/**
 * A step whose recorded selector no longer matched, found by a fallback (issue 22): which one,
 * and the selector the builder would record for that element now ("use it from now on").
 */
export const elementLocatedBySchema = z.object({
  fallback: fallbackLocatorSchema,
  selectorValue: z.string(),
  xpathValue: z.string().nullable(),
});
export type ElementLocatedBy = z.infer<typeof elementLocatedBySchema>;

/**
 * Where an element lives: the recorded selector, its XPath, the frames to enter first (each a CSS
 * selector of an iframe, outermost first; shadow roots are pierced by CSS automatically) and the
 * fallbacks.
 */
export const elementTargetSchema = z.object({
  selectorType: z.enum(SELECTOR_TYPES).default('CSS'),
  selectorValue: z.string().max(TEXT_FIELD_MAX_LENGTH),
  xpathValue: z.string().max(TEXT_FIELD_MAX_LENGTH).optional(),
  framePath: z.array(z.string()).default([]),
  fallbackLocators: z.array(fallbackLocatorSchema).default([]),
});
export type ElementTarget = z.infer<typeof elementTargetSchema>;

export const pointSchema = z.object({ x: z.number(), y: z.number() });
export type Point = z.infer<typeof pointSchema>;

/** Element-at-point answer (automation spec §3), plus what the engine keeps to find it again. */
export const elementAtPointSchema = elementTargetSchema.extend({
  type: z.enum(ELEMENT_TYPES),
  tagName: z.string(),
  textContent: z.string(),
  box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  isDownloadLink: z.boolean(),
  /** SELECT only: its options (at most 500), offered by the CLICK_SELECT dialog. */
  selectOptions: z
    .array(z.object({ label: z.string(), value: z.string().max(TEXT_FIELD_MAX_LENGTH) }))
    .max(500)
    .optional(),
});
export type ElementAtPoint = z.infer<typeof elementAtPointSchema>;

/** Page element area (automation spec §3) for overlays and table picking. */
export const pageElementAreaSchema = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  selector: z.string(),
  xpath: z.string(),
  textContent: z.string(),
  hasText: z.boolean(),
  containsHref: z.boolean(),
  tagName: z.string(),
});
export type PageElementArea = z.infer<typeof pageElementAreaSchema>;

/** Number mask (automation spec §3): one-character affixes, one of prefix/suffix active. */
export const numberMaskSchema = z.object({
  beforePositive: z.string().max(NUMBER_MASK_AFFIX_MAX_LENGTH).default(''),
  afterPositive: z.string().max(NUMBER_MASK_AFFIX_MAX_LENGTH).default(''),
  beforeNegative: z.string().max(NUMBER_MASK_AFFIX_MAX_LENGTH).default('-'),
  afterNegative: z.string().max(NUMBER_MASK_AFFIX_MAX_LENGTH).default(''),
  decimalSeparator: z.string().min(1).max(1).default('.'),
  groupSeparator: z.string().max(1).default(','),
});
export type NumberMask = z.infer<typeof numberMaskSchema>;

/** Date mask (automation spec §3): a mask such as MM/dd/yyyy and an IANA time zone. */
export const dateMaskSchema = z.object({
  mask: z.string().min(1).max(64),
  gmt: z.string().min(1).max(64).default('Etc/GMT0'),
});
export type DateMask = z.infer<typeof dateMaskSchema>;

export const tableColumnSchema = z.object({
  label: z.string().min(1).max(128),
  /** CSS selector relative to the row. */
  selector: z.string().max(TEXT_FIELD_MAX_LENGTH),
  type: z.enum(VALUE_TYPES),
  numberMask: numberMaskSchema.optional(),
  dateMask: dateMaskSchema.optional(),
});
export type TableColumn = z.infer<typeof tableColumnSchema>;

/** GET_TABLE definition: table and row selectors, typed columns, and how to reach the next page. */
export const tableDefinitionSchema = z.object({
  name: z.string().min(1).max(128),
  tableSelector: z.string().max(TEXT_FIELD_MAX_LENGTH),
  rowSelector: z.string().max(TEXT_FIELD_MAX_LENGTH),
  columns: z.array(tableColumnSchema).min(1),
  /** Optional "next page" element clicked until it is gone or disabled, up to maxPages. */
  nextPageSelector: z.string().max(TEXT_FIELD_MAX_LENGTH).optional(),
  maxPages: z.number().int().min(1).max(1000).default(1),
  /** Rows the table showed when it was picked (the card says it; runs read what is there). */
  rowsSeen: z.number().int().min(0).optional(),
});
export type TableDefinition = z.infer<typeof tableDefinitionSchema>;

export const scriptOptionsSchema = z.object({
  script: z.string().max(100_000),
  returnType: z.enum(SCRIPT_RETURN_TYPES),
});

export const ifConditionSchema = z.object({
  sequenceSource: z.number().int(),
  condition: z.enum(CONDITIONS),
  value: z.string().max(TEXT_FIELD_MAX_LENGTH),
});

/**
 * Multi-step asks (ASK_QUESTION, ASK_CAPTCHA; automation spec §3 askMultiStepDto, §4 phases): the
 * builder first picks the area showing the question or captcha (GET_ASK_DATA), then the field the
 * answer goes into, which is the action's target (USER_RESPONSE). At run time the area's picture
 * and text are what the operator is asked about.
 */
export const askMultiStepSchema = z.object({
  builderStep: z.enum(ASK_MULTI_STEP_PHASES),
  /** CSS selector of the question/captcha area, in the frames of the action's target. */
  askDataContentSelector: z.string().min(1).max(TEXT_FIELD_MAX_LENGTH).optional(),
});
export type AskMultiStep = z.infer<typeof askMultiStepSchema>;

/** A JavaScript dialog a page opened (alert, confirm, prompt, beforeunload). */
export const pageDialogSchema = z.object({
  type: z.enum(PAGE_DIALOG_TYPES),
  message: z.string().max(TEXT_FIELD_MAX_LENGTH),
  /** What a prompt() offered as its answer. */
  defaultValue: z.string().max(TEXT_FIELD_MAX_LENGTH).optional(),
});
export type PageDialog = z.infer<typeof pageDialogSchema>;

/** How the operator answered a dialog: OK (accept, with a prompt's text) or Cancel. */
export const dialogAnswerSchema = z.object({
  accept: z.boolean(),
  promptText: z.string().max(TEXT_FIELD_MAX_LENGTH).optional(),
});
export type DialogAnswer = z.infer<typeof dialogAnswerSchema>;

export const pageDialogAnswerSchema = pageDialogSchema.extend(dialogAnswerSchema.shape);
export type PageDialogAnswer = z.infer<typeof pageDialogAnswerSchema>;

export const actionOptionsSchema = z.object({
  text: z.string().max(TEXT_FIELD_MAX_LENGTH).optional(),
  /** WAIT seconds, clamped 0–60. */
  number: z.number().optional(),
  numberFormat: numberMaskSchema.optional(),
  datetimeFormat: dateMaskSchema.optional(),
  point: pointSchema.optional(),
  script: scriptOptionsSchema.optional(),
  select: z
    .object({ option: z.string(), options: z.array(z.object({ label: z.string(), value: z.string() })) })
    .optional(),
  condition: ifConditionSchema.optional(),
  table: tableDefinitionSchema.optional(),
  /** Where IF_* and IF_CONDITION jump when their condition does not hold. */
  sequenceDestination: z.number().int().optional(),
  /** Bounded wait for WAIT_UNTIL_*, CLICK_IF_*, IF_* (ms). */
  timeoutMs: z.number().int().min(0).max(ACTION_TIMEOUT_MAX_MS).optional(),
  askMultiStepDto: askMultiStepSchema.optional(),
  /** ANSWER_DIALOG: the dialog as the page showed it while recording, and the operator's answer. */
  dialog: pageDialogAnswerSchema.optional(),
});
export type ActionOptions = z.infer<typeof actionOptionsSchema>;

/** One step of a flow as the engine runs it. */
export const flowActionSchema = z.object({
  sequence: z.number().int().min(0),
  type: z.enum(ACTION_TYPES),
  label: z.string().max(ACTION_LABEL_MAX_LENGTH).optional(),
  target: elementTargetSchema.optional(),
  options: actionOptionsSchema.default({}),
});
export type FlowAction = z.infer<typeof flowActionSchema>;

/** What a step produced: GET_* values, a table, a downloaded file, a script result. */
export const stepValueSchema = z.union([
  z.object({ kind: z.literal('text'), value: z.string() }),
  z.object({ kind: z.literal('number'), value: z.number() }),
  z.object({ kind: z.literal('datetime'), value: z.string() }),
  z.object({
    kind: z.literal('table'),
    columns: z.array(z.object({ label: z.string(), type: z.enum(VALUE_TYPES) })),
    rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
  }),
  z.object({ kind: z.literal('file'), fileName: z.string(), mimeType: z.string(), size: z.number() }),
  z.object({ kind: z.literal('image'), mimeType: z.string(), size: z.number() }),
  z.object({ kind: z.literal('none') }),
]);
export type StepValue = z.infer<typeof stepValueSchema>;
