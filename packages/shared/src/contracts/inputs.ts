import * as z from './zod.js';
import { TEXT_FIELD_MAX_LENGTH } from '../constants.js';
import type { FlowAction } from './automation.js';

/**
 * Inputs of an extractor (issue 26, item 3): a text a TYPE_TEXT types or a URL a NAVIGATE opens
 * can be `{{input.name}}`; a run gives each input a value (its default when none is given).
 * Substitution is plain text, never evaluated: the value replaces the placeholder as it is.
 */

/** How an input's value is checked before a run starts (TEXT: anything that fits a field). */
export const INPUT_TYPES = ['TEXT', 'NUMBER', 'URL', 'EMAIL', 'DATE'] as const;
export type InputType = (typeof INPUT_TYPES)[number];

/** The actions whose text may hold an input: what TYPE_TEXT types, the URL NAVIGATE opens. */
export const INPUT_ACTION_TYPES = ['TYPE_TEXT', 'NAVIGATE'] as const;

export const INPUT_MESSAGES = {
  nameFormat: 'An input name starts with a letter and holds letters, digits and _ (at most 40).',
  unknown: 'This extractor has no input named {{name}}.',
  invalid: 'The input {{name}} must be {{expected}}.',
  tooLong: 'The input {{name}} is too long.',
  notHttp: 'The URL of step {{sequence}} is not an http(s) address once its inputs are filled in.',
  notInputAction: 'Only a text that is typed or a URL that is opened can be an input.',
} as const;

const EXPECTED: Record<InputType, string> = {
  TEXT: 'a text',
  NUMBER: 'a number (such as 12 or -3.5)',
  URL: 'an http(s) URL',
  EMAIL: 'an e-mail address',
  DATE: 'a date as YYYY-MM-DD',
};

export const INPUT_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
export const inputNameSchema = z.string().regex(INPUT_NAME_PATTERN, INPUT_MESSAGES.nameFormat);

/** One declared input; `defaultValue` is what the builder recorded (scheduled runs use it). */
export const extractorInputSchema = z.object({
  name: inputNameSchema,
  type: z.enum(INPUT_TYPES),
  defaultValue: z.string().max(TEXT_FIELD_MAX_LENGTH),
});
export type ExtractorInput = z.infer<typeof extractorInputSchema>;
export const extractorInputsSchema = z.array(extractorInputSchema).max(50);

/** "Make this an input" in an action dialog: the action's text becomes `{{input.name}}`. */
export const makeInputSchema = z.object({ name: inputNameSchema, type: z.enum(INPUT_TYPES) });
export type MakeInput = z.infer<typeof makeInputSchema>;

/** The values a run is started with, by input name (numbers are taken as their text). */
export const runInputValuesSchema = z
  .record(z.string().max(64), z.union([z.string(), z.number()]).transform(String))
  .default({});
export type RunInputValues = Record<string, string>;

/** POST /extractor/execute/:id and POST /api/v1/extractors/:id/runs */
export const startRunRequestSchema = z.object({ inputs: runInputValuesSchema }).default({ inputs: {} });
export type StartRunRequest = z.infer<typeof startRunRequestSchema>;

export const inputPlaceholder = (name: string) => `{{input.${name}}}`;

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** Whether `value` reads as `type` (the rule a run's values and the defaults are held to). */
export function isInputValueValid(type: InputType, value: string): boolean {
  switch (type) {
    case 'TEXT':
      return true;
    case 'NUMBER':
      return /^-?\d+(\.\d+)?$/.test(value.trim());
    case 'URL':
      return isHttpUrl(value);
    case 'EMAIL':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
    case 'DATE': {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
    }
  }
}

export const inputValueMessage = (name: string, type: InputType) =>
  INPUT_MESSAGES.invalid.replace('{{name}}', name).replace('{{expected}}', EXPECTED[type]);

export type ResolvedInputs =
  { ok: true; values: RunInputValues } | { ok: false; name: string; message: string };

/**
 * A run's values: the given ones checked against their declared type, the missing ones taken
 * from the defaults. An unknown name or a value of the wrong type refuses the run, naming the input.
 */
export function resolveInputValues(
  declared: readonly ExtractorInput[],
  given: RunInputValues,
): ResolvedInputs {
  const byName = new Map(declared.map((input) => [input.name, input]));
  for (const name of Object.keys(given))
    if (!byName.has(name))
      return { ok: false, name, message: INPUT_MESSAGES.unknown.replace('{{name}}', name) };
  const values: RunInputValues = {};
  for (const input of declared) {
    const value = given[input.name] ?? input.defaultValue;
    if (value.length > TEXT_FIELD_MAX_LENGTH)
      return { ok: false, name: input.name, message: INPUT_MESSAGES.tooLong.replace('{{name}}', input.name) };
    if (!isInputValueValid(input.type, value))
      return { ok: false, name: input.name, message: inputValueMessage(input.name, input.type) };
    values[input.name] = value;
  }
  return { ok: true, values };
}

const PLACEHOLDER = /\{\{input\.([A-Za-z][A-Za-z0-9_]{0,39})\}\}/g;

/** The input names a text refers to, in order of appearance. */
export function inputNamesIn(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
}

/** The text with each `{{input.name}}` replaced by its value as it is (unknown names stay). */
export function fillInputs(text: string, values: RunInputValues): string {
  return text.replace(PLACEHOLDER, (placeholder, name: string) => values[name] ?? placeholder);
}

/**
 * The flow with its inputs filled in (TYPE_TEXT's text, NAVIGATE's URL); other actions as they
 * are. A NAVIGATE that no longer reads as http(s) throws, naming its step: the run fails before
 * the browser opens, and the URL it does open passes the egress policy like any navigation.
 */
export function fillFlowInputs(actions: readonly FlowAction[], values: RunInputValues): FlowAction[] {
  return actions.map((action) => {
    const text = action.options.text;
    if (text === undefined || !(INPUT_ACTION_TYPES as readonly string[]).includes(action.type)) return action;
    if (inputNamesIn(text).length === 0) return action;
    const filled = fillInputs(text, values);
    if (action.type === 'NAVIGATE' && !isHttpUrl(filled))
      throw new InputSubstitutionError(
        INPUT_MESSAGES.notHttp.replace('{{sequence}}', String(action.sequence)),
        action.sequence,
      );
    return { ...action, options: { ...action.options, text: filled } };
  });
}

/** Inputs as stored (Extractor.inputs Json); a column that does not read declares none. */
export function declaredInputsOf(stored: unknown): ExtractorInput[] {
  const parsed = extractorInputsSchema.safeParse(stored);
  return parsed.success ? parsed.data : [];
}

/** A run's values as stored (Run.inputs Json). */
export function runInputValuesOf(stored: unknown): RunInputValues {
  const parsed = z.record(z.string(), z.string()).safeParse(stored);
  return parsed.success ? parsed.data : {};
}

/** The defaults as values (the builder runs the recorded flow with them). */
export const defaultInputValues = (declared: readonly ExtractorInput[]): RunInputValues =>
  Object.fromEntries(declared.map((input) => [input.name, input.defaultValue]));

export class InputSubstitutionError extends Error {
  constructor(
    message: string,
    readonly sequence: number,
  ) {
    super(message);
    this.name = 'InputSubstitutionError';
  }
}
