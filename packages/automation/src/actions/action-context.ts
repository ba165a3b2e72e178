import type { Locator, Page } from 'playwright-core';
import type { ElementLocatedBy, ElementTarget, FlowAction, StepValue } from '@pagewright/shared';
import { locateElementWithSource } from '../page/locate-element.js';
import { locatedByFallback } from '../page/located-by.js';
import { AutomationError } from '../flow/automation-error.js';
import { AUTOMATION_CODES } from '../flow/classify-error.js';
import type { DialogWatch } from '../flow/dialog-watch.js';
import type { ActionLimits, FlowHooks } from '../flow/flow-types.js';
import type { NavigationPolicy } from '../safety/navigation-guard.js';

export interface ActionContext {
  page: Page;
  action: FlowAction;
  /** Values of the steps already run, by sequence. */
  previousValues: ReadonlyMap<number, StepValue>;
  hooks: FlowHooks;
  limits: ActionLimits;
  /**
   * Who NAVIGATE and file fetches may reach. The worker also installs the same policy on the
   * browser context; the engine checks it itself for its own requests.
   */
  navigationPolicy: NavigationPolicy;
  /** The proxy the page's browser goes through (when the worker runs one); downloads use it too. */
  egressProxyUrl?: string | undefined;
  /** The whole flow, so IF_CONDITION can read the source step's masks. */
  flow?: readonly FlowAction[];
  /** The page's JavaScript dialogs: ANSWER_DIALOG reads the one its recorded answer was given to. */
  dialogs?: DialogWatch;
  /** Told when a fallback, not the recorded selector, found the step's element. */
  onLocatedByFallback?: (locatedBy: ElementLocatedBy) => void;
}

export interface ActionOutcome {
  value: StepValue;
  /** Set by IF_* and IF_CONDITION: false makes the flow jump to options.sequenceDestination. */
  conditionHeld?: boolean;
  /** END stops the flow with SUCCESS, CANCELED (an ask answered CANCELED) with STOPPED. */
  stop?: 'END' | 'CANCELED';
  /** The element the step acted on, for the step record's box and screenshot. */
  element?: Locator;
}

export type ActionExecutor = (context: ActionContext) => Promise<ActionOutcome>;

export const NONE: StepValue = { kind: 'none' };

export function fail(code: number, message: string): never {
  throw new AutomationError(code, message);
}

export function targetOf(context: ActionContext): ElementTarget {
  const { target } = context.action;
  if (!target) fail(AUTOMATION_CODES.INVALID_ARGUMENT, `${context.action.type} needs an element`);
  return { ...target, framePath: target.framePath ?? [], fallbackLocators: target.fallbackLocators ?? [] };
}

/** A CSS selector recorded as text (tables, reCAPTCHA answers) in the frames of the action's target. */
export function cssTarget(context: ActionContext, selector: string): ElementTarget {
  return {
    selectorType: 'CSS',
    selectorValue: selector,
    framePath: context.action.target?.framePath ?? [],
    fallbackLocators: [],
  };
}

export function elementTimeoutOf(context: ActionContext): number {
  return context.action.options?.timeoutMs ?? context.limits.elementTimeoutMs;
}

/** The action's element, or 100007 No Such Element when it does not appear in time. */
export async function requireElement(context: ActionContext, target = targetOf(context)): Promise<Locator> {
  const timeoutMs = elementTimeoutOf(context);
  const located = await locateElementWithSource(context.page, target, { timeoutMs });
  const locator = located?.locator;
  if (located?.fallback && context.onLocatedByFallback) {
    const locatedBy = await locatedByFallback(located.locator, located.fallback);
    if (locatedBy) context.onLocatedByFallback(locatedBy);
  }
  if (!locator) {
    fail(
      AUTOMATION_CODES.NO_SUCH_ELEMENT,
      `No element matches ${target.selectorType} "${target.selectorValue || target.xpathValue || ''}" within ${timeoutMs} ms`,
    );
  }
  return locator;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
