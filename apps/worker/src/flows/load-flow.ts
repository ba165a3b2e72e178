import { AUTOMATION_CODES, AutomationError } from '@pagewright/automation';
import {
  InvalidStoredActionError,
  toFlowAction as storedToFlowAction,
  type SecretBox,
  type StoredAction,
} from '@pagewright/db';
import type { FlowAction } from '@pagewright/shared';

export { flowActionInclude, type StoredAction } from '@pagewright/db';

/**
 * One stored action as the engine runs it (the conversion lives in @pagewright/db, shared with the
 * API's builder); an action that cannot be read fails the run with 100061 at its sequence.
 */
export function toFlowAction(row: StoredAction, userId: string, secrets: SecretBox | undefined): FlowAction {
  try {
    return storedToFlowAction(row, userId, secrets);
  } catch (error) {
    if (error instanceof InvalidStoredActionError)
      throw new AutomationError(AUTOMATION_CODES.INVALID_ARGUMENT, error.message, error.sequence);
    throw error;
  }
}
