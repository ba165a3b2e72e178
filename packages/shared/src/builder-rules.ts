import {
  IF_SEQUENCE_MAX_DIGITS,
  NUMBER_MASK_AFFIX_MAX_LENGTH,
  SEQUENCE_STEP,
  WAIT_SECONDS_MAX,
  WAIT_SECONDS_MIN,
} from './constants.js';
import type { ActionOptions, ElementTarget, NumberMask, PageElementArea } from './contracts/automation.js';
import {
  EXTRACTOR_ACTION_TYPES,
  INSERTOR_ACTION_TYPES,
  type ActionType,
  type Condition,
  type ExtractorType,
} from './enums.js';
import { MESSAGES } from './messages.js';

/**
 * The add-action rules of automation spec §5, shared by the API (which enforces them) and the
 * builder screens (which show them as the user types).
 */

/** IF_* actions on an element: they jump to sequenceDestination when their condition does not hold. */
export const IF_ELEMENT_ACTION_TYPES: readonly ActionType[] = [
  'IF_EXISTS',
  'IF_NOT_EXISTS',
  'IF_DISPLAYED',
  'IF_NOT_DISPLAYED',
  'IF_ENABLED',
  'IF_NOT_ENABLED',
];

/** Every action with a sequenceDestination: the element IF_* ones and IF_CONDITION. */
/** The questions a flow asks a person while it runs (automation spec §3, extractor set). */
export const ASK_ACTION_TYPES: readonly ActionType[] = [
  'ASK_ID',
  'ASK_PASSWORD',
  'ASK_CODE',
  'ASK_QUESTION',
  'ASK_CAPTCHA',
  'ASK_RECAPTCHA',
];

/**
 * Asks whose answer is typed into a field picked first (issue 22): without one, an asked password
 * or code was typed nowhere and the login still needed a Type password with the secret stored.
 */
export const FIELD_ASK_TYPES: readonly ActionType[] = ['ASK_ID', 'ASK_PASSWORD', 'ASK_CODE'];

/** Asks recorded in two picks: the area showing the question, then the answer field. */
export const MULTI_STEP_ASK_TYPES: readonly ActionType[] = ['ASK_QUESTION', 'ASK_CAPTCHA'];

export const JUMP_ACTION_TYPES: readonly ActionType[] = [...IF_ELEMENT_ACTION_TYPES, 'IF_CONDITION'];

/** WAIT_UNTIL_* actions: they wait for their element's state and change nothing. */
export const WAIT_UNTIL_ACTION_TYPES: readonly ActionType[] = [
  'WAIT_UNTIL_EXISTS',
  'WAIT_UNTIL_NOT_EXISTS',
  'WAIT_UNTIL_DISPLAYED',
  'WAIT_UNTIL_NOT_DISPLAYED',
  'WAIT_UNTIL_ENABLED',
  'WAIT_UNTIL_NOT_ENABLED',
];

/** Actions that wait a bounded time for their element (options.timeoutMs, ACTION_TIMEOUT_MAX_MS). */
export const TIMED_ACTION_TYPES: readonly ActionType[] = [
  ...WAIT_UNTIL_ACTION_TYPES,
  'CLICK_IF_EXISTS',
  'CLICK_IF_DISPLAYED',
  'CLICK_IF_ENABLED',
  ...IF_ELEMENT_ACTION_TYPES,
];

/** Actions that act on, or read, one element of the page: they need a target. */
export const ELEMENT_ACTION_TYPES: readonly ActionType[] = [
  'CLICK',
  'TYPE_TEXT',
  'CLICK_SELECT',
  'TYPE_PASSWORD',
  'GET_TEXT',
  'GET_NUMBER',
  'GET_DATE',
  'GET_IMAGE',
  'GET_FILE',
  'MOVE',
  ...TIMED_ACTION_TYPES,
  ...FIELD_ASK_TYPES,
  'ASK_CAPTCHA',
  'TYPE_F_ENGINE_FIELD',
];

/**
 * The F-engine's sign-in asks (docs/f-engine.md): their answers sign the run in to the engine and
 * are typed into no page field. ASK_F_ENGINE_PASSWORD's answer is a secret.
 */
export const ENGINE_SIGN_IN_ASK_TYPES: readonly ActionType[] = [
  'ASK_F_ENGINE_URL',
  'ASK_F_ENGINE_USER',
  'ASK_F_ENGINE_PASSWORD',
];

/** Results IF_CONDITION can compare: GET_* reads and scripts. */
export const CONDITION_SOURCE_TYPES: readonly ActionType[] = [
  'GET_TEXT',
  'GET_NUMBER',
  'GET_DATE',
  'GET_TABLE',
  'GET_IMAGE',
  'GET_FILE',
  'SCRIPT',
];

/** Conditions that order values: offered for number and date results only (spec §5). */
export const ORDERING_CONDITIONS: readonly Condition[] = [
  'GREATER_THAN',
  'LESS_THAN',
  'GREATER_EQUAL_THAN',
  'LESS_EQUAL_THAN',
];

/** Which actions a builder offers (automation spec §3): insertors add the F-engine group. */
export function offeredActionTypes(extractorType: ExtractorType): readonly ActionType[] {
  if (extractorType === 'INSERTOR' || extractorType === 'FENGINE_INSERTOR') return INSERTOR_ACTION_TYPES;
  return EXTRACTOR_ACTION_TYPES;
}

/** Default sequence of a new action: the next multiple of ten above the highest. */
export function nextSequence(sequences: readonly number[]): number {
  if (sequences.length === 0) return SEQUENCE_STEP;
  const highest = Math.max(...sequences);
  return (Math.floor(highest / SEQUENCE_STEP) + 1) * SEQUENCE_STEP;
}

/** WAIT seconds as the dialog takes them: digits only, clamped 0–60, empty is 0. */
export function clampWaitSeconds(value: string | number | undefined): number {
  const seconds = typeof value === 'number' ? value : Number((value ?? '').replace(/\D/g, '') || '0');
  if (!Number.isFinite(seconds)) return WAIT_SECONDS_MIN;
  return Math.min(WAIT_SECONDS_MAX, Math.max(WAIT_SECONDS_MIN, Math.trunc(seconds)));
}

/**
 * The sequence rule of the Add Action and Edit sequence dialogs (spec §5): not negative, above the
 * first action's sequence and not used. `others` are the sequences of the other actions.
 */
export function isSequenceAllowed(sequence: number, others: readonly number[]): boolean {
  if (!Number.isInteger(sequence) || sequence < 0) return false;
  if (others.length > 0 && sequence <= Math.min(...others)) return false;
  return !others.includes(sequence);
}

/** What a digits-only field keeps of typed text (sequences; the if-sequence allows 10 digits). */
export function digitsOnly(value: string, maxLength: number = IF_SEQUENCE_MAX_DIGITS): string {
  return value.replace(/\D/g, '').slice(0, maxLength);
}

export function isHttpUrl(value: string | undefined): boolean {
  if (!value) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export interface ActionRuleInput {
  type: ActionType;
  sequence: number;
  target?: ElementTarget | undefined;
  options: ActionOptions;
  textValue?: string | undefined;
  /** A secret is given now, or the action already has one. */
  hasCredentials: boolean;
}

export interface OtherAction {
  sequence: number;
  type: ActionType;
  options: ActionOptions;
}

export interface ActionRuleError {
  field: string;
  message: string;
}

/**
 * The first broken rule of an action about to be added or changed, or null. `others` are the
 * draft's other actions; `isNew` adds the sequence rules of the Add Action dialog.
 */
export function actionRuleError(
  input: ActionRuleInput,
  others: readonly OtherAction[],
  extractorType: ExtractorType,
  isNew: boolean,
): ActionRuleError | null {
  const required = (field: string): ActionRuleError => ({ field, message: MESSAGES['error.required'] });
  if (!offeredActionTypes(extractorType).includes(input.type))
    return { field: 'type', message: MESSAGES['extractor.action.not.offered'] };

  if (isNew) {
    if (input.type === 'ANSWER_DIALOG') return { field: 'type', message: MESSAGES['dialog.answer.recorded'] };
    if (others.length === 0 && input.type !== 'NAVIGATE')
      return { field: 'type', message: MESSAGES['extractor.first.action.navigate'] };
    if (
      !isSequenceAllowed(
        input.sequence,
        others.map((action) => action.sequence),
      )
    )
      return { field: 'sequence', message: MESSAGES['error.invalid.value'] };
  }

  const text = input.textValue?.trim();
  switch (input.type) {
    case 'NAVIGATE':
      if (!isHttpUrl(text)) return { field: 'textValue', message: MESSAGES['error.invalid.url'] };
      break;
    case 'RAISE_ERROR':
    case 'CHECK_TEXT':
    case 'ASK_F_ENGINE_URL':
    case 'ASK_F_ENGINE_USER':
    case 'ASK_F_ENGINE_PASSWORD':
    case 'ASK_F_ENGINE_INVESTOR':
      if (!text) return required('textValue');
      break;
    case 'TYPE_F_ENGINE_FIELD':
      // "section.field" of the engine's sections (fengine.ts engineFieldPath).
      if (!text || !/^[^.\s]+\.[^.\s]+$/u.test(text))
        return { field: 'textValue', message: MESSAGES['error.required'] };
      break;
    case 'TYPE_TEXT':
      if (input.textValue === undefined) return required('textValue');
      break;
    case 'TYPE_PASSWORD':
      if (!input.hasCredentials) return required('credentials');
      break;
    case 'CLICK_SELECT':
      if (!input.options.select?.option && !text) return required('options.select.option');
      break;
    case 'GET_TABLE':
      if (!input.options.table?.name?.trim()) return required('options.table.name');
      break;
    case 'SCRIPT':
      if (!input.options.script?.script.trim()) return required('options.script.script');
      break;
    case 'GET_NUMBER': {
      const maskError = input.options.numberFormat && numberMaskRuleError(input.options.numberFormat);
      if (maskError) return { ...maskError, field: `options.numberFormat.${maskError.field}` };
      break;
    }
    case 'MOUSE_CLICK':
    case 'MOUSE_MOVE':
      if (!input.options.point) return required('options.point');
      break;
    case 'ANSWER_DIALOG':
      if (!input.options.dialog) return required('options.dialog');
      break;
    case 'IF_CONDITION': {
      const condition = input.options.condition;
      if (!condition) return required('options.condition');
      const source = others.find((action) => action.sequence === condition.sequenceSource);
      if (!source || source.sequence >= input.sequence || !CONDITION_SOURCE_TYPES.includes(source.type))
        return { field: 'options.condition.sequenceSource', message: MESSAGES['error.invalid.value'] };
      if (ORDERING_CONDITIONS.includes(condition.condition) && !comparesAsNumberOrDate(source))
        return { field: 'options.condition.condition', message: MESSAGES['error.invalid.value'] };
      if (!condition.value.trim()) return required('options.condition.value');
      break;
    }
    // No value of their own to check: their target and jump are checked below.
    case 'CLICK':
    case 'GET_TEXT':
    case 'GET_DATE':
    case 'GET_IMAGE':
    case 'GET_FILE':
    case 'MOVE':
    case 'WAIT':
    case 'WAIT_UNTIL_EXISTS':
    case 'WAIT_UNTIL_NOT_EXISTS':
    case 'WAIT_UNTIL_DISPLAYED':
    case 'WAIT_UNTIL_NOT_DISPLAYED':
    case 'WAIT_UNTIL_ENABLED':
    case 'WAIT_UNTIL_NOT_ENABLED':
    case 'CLICK_IF_EXISTS':
    case 'CLICK_IF_DISPLAYED':
    case 'CLICK_IF_ENABLED':
    case 'IF_EXISTS':
    case 'IF_NOT_EXISTS':
    case 'IF_DISPLAYED':
    case 'IF_NOT_DISPLAYED':
    case 'IF_ENABLED':
    case 'IF_NOT_ENABLED':
    case 'END':
    case 'SCROLL_UP':
    case 'SCROLL_DOWN':
    case 'SCROLL_TOP':
    case 'SCROLL_BOTTOM':
    case 'GO_BACK':
    case 'GO_FORWARD':
    case 'ASK_ID':
    case 'ASK_PASSWORD':
    case 'ASK_CODE':
    case 'ASK_QUESTION':
    case 'ASK_CAPTCHA':
    case 'ASK_RECAPTCHA':
      break;
  }
  if (ELEMENT_ACTION_TYPES.includes(input.type) && !input.target?.selectorValue) return required('target');
  if (input.type === 'GET_TABLE' && !input.options.table?.tableSelector) return required('options.table');
  if (JUMP_ACTION_TYPES.includes(input.type)) {
    const destination = input.options.sequenceDestination;
    if (destination === undefined) return required('options.sequenceDestination');
    if (String(destination).length > IF_SEQUENCE_MAX_DIGITS || destination <= input.sequence)
      return { field: 'options.sequenceDestination', message: MESSAGES['error.invalid.value'] };
  }
  return null;
}

/** GREATER_THAN and the other orderings are offered for numbers and dates only (spec §5). */
export function comparesAsNumberOrDate(source: Pick<OtherAction, 'type' | 'options'>): boolean {
  if (source.type === 'GET_NUMBER' || source.type === 'GET_DATE') return true;
  const returnType = source.options.script?.returnType;
  return source.type === 'SCRIPT' && (returnType === 'NUMBER' || returnType === 'DATETIME');
}

/** The conditions IF_CONDITION offers for a source action (all of them once it is a number or date). */
export function offeredConditions(
  source: Pick<OtherAction, 'type' | 'options'> | undefined,
): readonly Condition[] {
  const equality: readonly Condition[] = ['EQUAL', 'NOT_EQUAL', 'CONTAINS', 'NOT_CONTAINS'];
  return source && comparesAsNumberOrDate(source) ? [...equality, ...ORDERING_CONDITIONS] : equality;
}

/** Actions IF_CONDITION may compare: earlier GET_* reads and scripts (spec §5). */
export function conditionSources<T extends Pick<OtherAction, 'type' | 'sequence'>>(
  actions: readonly T[],
  beforeSequence: number,
): T[] {
  return actions.filter(
    (action) => action.sequence < beforeSequence && CONDITION_SOURCE_TYPES.includes(action.type),
  );
}

export type NumberMaskField = keyof NumberMask;

/**
 * The number mask rule (spec §5): prefix and suffix one character each and only one of them per
 * sign; decimal and group separators required (one character).
 */
export function numberMaskRuleError(
  mask: Partial<Record<NumberMaskField, string>>,
): { field: NumberMaskField; message: string } | null {
  for (const field of ['beforePositive', 'afterPositive', 'beforeNegative', 'afterNegative'] as const)
    if ((mask[field] ?? '').length > NUMBER_MASK_AFFIX_MAX_LENGTH)
      return { field, message: MESSAGES['error.invalid.value'] };
  if (mask.beforePositive && mask.afterPositive)
    return { field: 'afterPositive', message: MESSAGES['error.invalid.value'] };
  if (mask.beforeNegative && mask.afterNegative)
    return { field: 'afterNegative', message: MESSAGES['error.invalid.value'] };
  for (const field of ['decimalSeparator', 'groupSeparator'] as const) {
    const separator = mask[field] ?? '';
    if (!separator) return { field, message: MESSAGES['error.required'] };
    if (separator.length > 1) return { field, message: MESSAGES['error.invalid.value'] };
  }
  if (mask.decimalSeparator === mask.groupSeparator)
    return { field: 'groupSeparator', message: MESSAGES['error.invalid.value'] };
  return null;
}

/** A FILE table column needs an anchor or an element holding a download link (spec §5). */
export function isFileColumnArea(area: Pick<PageElementArea, 'containsHref' | 'tagName'>): boolean {
  return area.containsHref || area.tagName.toLowerCase() === 'a';
}
