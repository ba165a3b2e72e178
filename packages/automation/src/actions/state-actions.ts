import type { Locator } from 'playwright-core';
import type { ActionType, StepValue } from '@pagewright/shared';
import { locateElement } from '../page/locate-element.js';
import { AUTOMATION_CODES } from '../flow/classify-error.js';
import { evaluateCondition } from '../values/conditions.js';
import { clickElement } from './element-actions.js';
import { type ActionContext, type ActionOutcome, NONE, fail, sleep, targetOf } from './action-context.js';

export type ElementState = 'EXISTS' | 'DISPLAYED' | 'ENABLED';

const POLL_MS = 100;
const PROBE_MS = 250;

async function stateHolds(locator: Locator | null, state: ElementState): Promise<boolean> {
  if (!locator) return false;
  try {
    if (state === 'DISPLAYED') return await locator.isVisible();
    if (state === 'ENABLED') return await locator.isEnabled({ timeout: PROBE_MS });
    return true;
  } catch {
    // The element went away between finding it and asking about it.
    return false;
  }
}

/**
 * Waits until the target's state equals `expected` (e.g. DISPLAYED true, EXISTS false) within
 * timeoutMs. Checks at least once. Returns the element when it was found in the last check.
 */
export async function waitForState(
  context: ActionContext,
  state: ElementState,
  expected: boolean,
  timeoutMs: number,
): Promise<{ held: boolean; element: Locator | null }> {
  const target = targetOf(context);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const remaining = deadline - Date.now();
    // Waiting for presence can use the whole bound in one call; otherwise probe and poll.
    const probeMs = expected
      ? Math.max(1, Math.min(remaining, state === 'EXISTS' ? remaining : PROBE_MS))
      : PROBE_MS;
    const element = await locateElement(context.page, target, { timeoutMs: probeMs });
    if ((await stateHolds(element, state)) === expected) return { held: true, element };
    if (Date.now() >= deadline) return { held: false, element };
    await sleep(POLL_MS);
  }
}

function parseStateType(type: ActionType, prefix: string): { state: ElementState; expected: boolean } {
  const rest = type.slice(prefix.length);
  const expected = !rest.startsWith('NOT_');
  const state = (expected ? rest : rest.slice('NOT_'.length)) as ElementState;
  return { state, expected };
}

export async function waitUntil(context: ActionContext): Promise<ActionOutcome> {
  const { state, expected } = parseStateType(context.action.type, 'WAIT_UNTIL_');
  const timeoutMs = context.action.options?.timeoutMs ?? context.limits.waitUntilTimeoutMs;
  const { held, element } = await waitForState(context, state, expected, timeoutMs);
  if (!held) {
    fail(
      AUTOMATION_CODES.TIMEOUT,
      `The element did not become ${expected ? '' : 'NOT '}${state} within ${timeoutMs} ms`,
    );
  }
  return { value: NONE, ...(element && expected ? { element } : {}) };
}

export async function clickIf(context: ActionContext): Promise<ActionOutcome> {
  const { state } = parseStateType(context.action.type, 'CLICK_IF_');
  const timeoutMs = context.action.options?.timeoutMs ?? context.limits.conditionalTimeoutMs;
  const { held, element } = await waitForState(context, state, true, timeoutMs);
  if (!held || !element) return { value: NONE, conditionHeld: false };
  await clickElement(element, context.limits.elementTimeoutMs);
  return { value: NONE, conditionHeld: true, element };
}

export async function ifState(context: ActionContext): Promise<ActionOutcome> {
  const { state, expected } = parseStateType(context.action.type, 'IF_');
  const timeoutMs = context.action.options?.timeoutMs ?? context.limits.conditionalTimeoutMs;
  const { held } = await waitForState(context, state, expected, timeoutMs);
  return { value: NONE, conditionHeld: held };
}

export async function ifCondition(context: ActionContext): Promise<ActionOutcome> {
  const condition = context.action.options?.condition;
  if (!condition) fail(AUTOMATION_CODES.INVALID_ARGUMENT, 'IF_CONDITION needs options.condition');
  const left: StepValue | undefined = context.previousValues.get(condition.sequenceSource);
  if (!left) {
    fail(
      AUTOMATION_CODES.INVALID_ARGUMENT,
      `IF_CONDITION reads step ${condition.sequenceSource}, which has not run`,
    );
  }
  const source = context.flow?.find((action) => action.sequence === condition.sequenceSource);
  const held = evaluateCondition(left, condition.condition, condition.value, {
    numberFormat: source?.options?.numberFormat,
    datetimeFormat: source?.options?.datetimeFormat,
  });
  return { value: NONE, conditionHeld: held };
}
