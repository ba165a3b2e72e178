import type { ActionType } from '@pagewright/shared';
import { ASK_CANCELED } from '../flow/flow-types.js';
import { typeInto } from './element-actions.js';
import {
  type ActionContext,
  type ActionOutcome,
  NONE,
  cssTarget,
  elementTimeoutOf,
  requireElement,
} from './action-context.js';

/** Asks whose answers are secrets: typed, never kept in the step value. */
const SECRET_ASKS: readonly ActionType[] = ['ASK_PASSWORD', 'ASK_CODE'];

/**
 * ASK_*: sends the question (and a PNG of the target element when there is one) through
 * hooks.ask. 'CANCELED' stops the flow. ASK_RECAPTCHA's answer is the CSS selector of the area the
 * operator picked, which is clicked; the other answers are typed into the target when there is one.
 */
export async function ask(context: ActionContext): Promise<ActionOutcome> {
  const { action, hooks } = context;
  const element = action.target ? await requireElement(context) : undefined;
  const elementScreenshot = element
    ? await element.screenshot({ type: 'png', timeout: elementTimeoutOf(context) }).catch(() => undefined)
    : undefined;
  const answer = await hooks.ask({
    action,
    sequence: action.sequence,
    type: action.type,
    label: action.label,
    question: action.options?.text,
    elementScreenshot,
  });
  if (answer === ASK_CANCELED) return { value: NONE, stop: 'CANCELED' };

  if (action.type === 'ASK_RECAPTCHA') {
    const picked = await requireElement(context, cssTarget(context, answer));
    await picked.click({ timeout: elementTimeoutOf(context) });
    return { value: NONE, element: picked };
  }
  const isSecret = SECRET_ASKS.includes(action.type);
  if (element) await typeInto(element, answer, elementTimeoutOf(context), isSecret);
  return { value: isSecret ? NONE : { kind: 'text', value: answer }, ...(element ? { element } : {}) };
}
