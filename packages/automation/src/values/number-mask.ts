import type { NumberMask } from '@pagewright/shared';
import { DEFAULT_DECIMAL_SEPARATOR, DEFAULT_GROUP_SEPARATOR } from '@pagewright/shared';
import { AutomationError } from '../flow/automation-error.js';

const INVALID_ARGUMENT = 100061;
const PLAIN_DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

function stripAffixes(text: string, before: string, after: string): string | null {
  if (!before && !after) return null;
  if (!text.startsWith(before) || !text.endsWith(after)) return null;
  if (text.length <= before.length + after.length) return null;
  return text.slice(before.length, text.length - after.length);
}

function stripOptionalAffixes(text: string, before: string, after: string): string {
  return stripAffixes(text, before, after) ?? text;
}

/**
 * Reads a number shown with a mask (automation spec §3): the negative prefix/suffix (e.g. "-" or
 * "(" and ")") marks a negative value, the positive ones (e.g. "$") are dropped, group separators
 * are removed and the decimal separator becomes the point. White space (including no-break spaces)
 * is ignored. A currency sign inside a negative form ("-$20.00") is accepted.
 * Throws AutomationError 100061 (Invalid Argument) when what is left is not a number.
 */
export function parseNumber(text: string, mask: Partial<NumberMask>): number {
  const beforePositive = mask.beforePositive ?? '';
  const afterPositive = mask.afterPositive ?? '';
  const beforeNegative = mask.beforeNegative ?? '-';
  const afterNegative = mask.afterNegative ?? '';
  const decimalSeparator = mask.decimalSeparator || DEFAULT_DECIMAL_SEPARATOR;
  const groupSeparator = mask.groupSeparator ?? DEFAULT_GROUP_SEPARATOR;

  const compact = text.replace(/\s+/gu, '');
  let isNegative = false;
  let body = stripAffixes(compact, beforeNegative, afterNegative);
  if (body !== null) {
    isNegative = true;
  } else if (compact.startsWith('-') && beforeNegative !== '-') {
    // A plain minus sign is understood whatever the mask's negative form is.
    isNegative = true;
    body = compact.slice(1);
  } else {
    body = compact;
  }
  body = stripOptionalAffixes(body, beforePositive, afterPositive);

  if (groupSeparator && groupSeparator !== decimalSeparator && !/\s/u.test(groupSeparator)) {
    body = body.split(groupSeparator).join('');
  }
  if (decimalSeparator !== '.') {
    if (body.includes('.')) throw invalidNumber(text);
    body = body.replace(decimalSeparator, '.');
  }
  if (!PLAIN_DECIMAL.test(body)) throw invalidNumber(text);
  const value = Number(body);
  return isNegative ? -value : value;
}

function invalidNumber(text: string): AutomationError {
  return new AutomationError(INVALID_ARGUMENT, `"${text}" is not a number in the given mask`);
}
