import { automationErrorName } from '@pagewright/shared';

/**
 * A failed step: the automation code (100000 + WebDriver status, shared/notes/error-codes.md), its
 * name, and the original message kept for the operator. `details` holds what the operator is not
 * shown (Playwright's call log, stack frames) for the worker's log.
 */
export class AutomationError extends Error {
  readonly codeName: string;

  constructor(
    readonly code: number,
    readonly originalMessage: string,
    readonly sequence?: number,
    readonly details?: string,
  ) {
    super(`${automationErrorName(code)}: ${originalMessage}`);
    this.name = 'AutomationError';
    this.codeName = automationErrorName(code);
  }
}
