import type { Condition, DateMask, NumberMask, StepValue } from '@pagewright/shared';
import { AutomationError } from '../flow/automation-error.js';
import { parseDate, parseIsoInstant } from './date-mask.js';
import { parseNumber } from './number-mask.js';

const INVALID_ARGUMENT = 100061;
const ORDERING_CONDITIONS: readonly Condition[] = [
  'GREATER_THAN',
  'LESS_THAN',
  'GREATER_EQUAL_THAN',
  'LESS_EQUAL_THAN',
];

/** The masks of the step that produced the left value, used to read the right value the same way. */
export interface ConditionMasks {
  numberFormat?: Partial<NumberMask> | undefined;
  datetimeFormat?: (Partial<DateMask> & { mask: string }) | undefined;
}

/** The text a value compares as under EQUAL/CONTAINS when it is not a number or date. */
export function textOf(value: StepValue): string {
  switch (value.kind) {
    case 'text':
    case 'datetime':
      return value.value;
    case 'number':
      return String(value.value);
    case 'file':
      return value.fileName;
    case 'table':
      return value.rows
        .map((row) => row.map((cell) => (cell === null ? '' : String(cell))).join('\t'))
        .join('\n');
    case 'image':
    case 'none':
      return '';
  }
}

function readNumber(right: string, masks: ConditionMasks): number {
  const plain = Number(right.trim());
  if (right.trim() !== '' && Number.isFinite(plain)) return plain;
  return parseNumber(right, masks.numberFormat ?? {});
}

function readInstant(right: string, masks: ConditionMasks): number {
  const iso = parseIsoInstant(right);
  if (iso) return iso.toMillis();
  if (masks.datetimeFormat) return Date.parse(parseDate(right, masks.datetimeFormat));
  throw new AutomationError(INVALID_ARGUMENT, `"${right}" is not an ISO 8601 date`);
}

function compare(order: number, condition: Condition): boolean {
  switch (condition) {
    case 'EQUAL':
      return order === 0;
    case 'NOT_EQUAL':
      return order !== 0;
    case 'GREATER_THAN':
      return order > 0;
    case 'LESS_THAN':
      return order < 0;
    case 'GREATER_EQUAL_THAN':
      return order >= 0;
    case 'LESS_EQUAL_THAN':
      return order <= 0;
    case 'CONTAINS':
    case 'NOT_CONTAINS':
      throw new AutomationError(INVALID_ARGUMENT, `${condition} compares text only`);
  }
}

/**
 * Evaluates an IF_CONDITION (automation spec §3/§5): numbers compare as numbers and dates as
 * instants (the right side read as a plain number / ISO 8601, else with the source step's mask);
 * CONTAINS/NOT_CONTAINS always compare text. Ordering conditions on a value that is neither a
 * number nor a date are refused with 100061.
 */
export function evaluateCondition(
  left: StepValue,
  condition: Condition,
  right: string,
  masks: ConditionMasks = {},
): boolean {
  if (condition === 'CONTAINS') return textOf(left).includes(right);
  if (condition === 'NOT_CONTAINS') return !textOf(left).includes(right);
  if (left.kind === 'number') return compare(Math.sign(left.value - readNumber(right, masks)), condition);
  if (left.kind === 'datetime') {
    const leftInstant = Date.parse(left.value);
    return compare(Math.sign(leftInstant - readInstant(right, masks)), condition);
  }
  if (ORDERING_CONDITIONS.includes(condition)) {
    throw new AutomationError(
      INVALID_ARGUMENT,
      `${condition} needs a number or a date, the source value is ${left.kind}`,
    );
  }
  const isEqual = textOf(left) === right;
  return condition === 'EQUAL' ? isEqual : !isEqual;
}
