import { AUTOMATION_CODES } from '../flow/classify-error.js';
import { type ActionContext, type ActionOutcome, elementTimeoutOf, fail } from './action-context.js';

/**
 * ANSWER_DIALOG: the recorded answer was given to the dialog the step before it raised (the flow
 * arms it before that step runs); its value is the dialog's text, so an alert's message can fill a
 * dataset field. A dialog that never opens fails the step: the work it guarded did not happen.
 */
export async function answerDialog(context: ActionContext): Promise<ActionOutcome> {
  const recorded = context.action.options?.dialog;
  if (!recorded || !context.dialogs)
    fail(AUTOMATION_CODES.INVALID_ARGUMENT, 'ANSWER_DIALOG needs the recorded dialog in options.dialog');
  const timeoutMs = elementTimeoutOf(context);
  const seen = await context.dialogs.answered(
    { sequence: context.action.sequence, answer: recorded },
    timeoutMs,
  );
  if (!seen)
    fail(
      AUTOMATION_CODES.NO_ALERT_OPEN,
      `The page did not ask '${recorded.message.trim()}' within ${Math.round(timeoutMs / 1000)} s`,
    );
  return { value: { kind: 'text', value: seen.message } };
}
