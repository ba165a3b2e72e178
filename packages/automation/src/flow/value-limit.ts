import type { StepValue } from '@pagewright/shared';
import { AutomationError } from './automation-error.js';
import { AUTOMATION_CODES } from './classify-error.js';

/**
 * Fails a step whose value, `size` bytes as JSON (or at least that many, when `isLowerBound`), is
 * over the limit (100061, naming the limit).
 */
export function assertSizeWithinLimit(size: number, maxBytes: number, isLowerBound = false): void {
  if (size > maxBytes) {
    throw new AutomationError(
      AUTOMATION_CODES.INVALID_ARGUMENT,
      `The step's value is ${isLowerBound ? 'at least ' : ''}${size} bytes, over the limit of ${maxBytes} bytes for one step's value (STEP_VALUE_MAX_BYTES)`,
    );
  }
}

/** A step's value must fit the limit, measured as the JSON it is stored and sent as. */
export function assertValueWithinLimit(value: StepValue, maxBytes: number): void {
  assertSizeWithinLimit(Buffer.byteLength(JSON.stringify(value)), maxBytes);
}
