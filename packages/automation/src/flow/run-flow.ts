import { assertValueWithinLimit } from './value-limit.js';
import type { Page } from 'playwright-core';
import type { FlowAction, StepValue } from '@pagewright/shared';
import type { ActionOutcome } from '../actions/action-context.js';
import { executorFor } from '../actions/executors.js';
import { normalizedHtml } from '../page/normalized-page.js';
import { pagePicture, stepPictures } from '../page/step-pictures.js';
import { type NavigationPolicy, PUBLIC_ONLY_POLICY } from '../safety/navigation-guard.js';
import { watchNavigations } from '../safety/navigation-watch.js';
import { AutomationError } from './automation-error.js';
import { watchBrowserLoss } from './browser-loss.js';
import { AUTOMATION_CODES, classifyError } from './classify-error.js';
import {
  type ActionLimits,
  DEFAULT_LIMITS,
  type FlowHooks,
  type FlowResult,
  type StepRecord,
} from './flow-types.js';

export interface RunFlowOptions {
  /** Keep a JPEG (q70) of the viewport after every step (default true). */
  capturePageScreenshots?: boolean;
  /** Keep a JPEG of the element of element steps (default true). */
  captureElementScreenshots?: boolean;
  /** Keep the page's normalized HTML after every step (default true). */
  captureNormalizedHtml?: boolean;
  limits?: Partial<ActionLimits>;
  /** Who NAVIGATE and file fetches may reach (default: public addresses only). */
  navigationPolicy?: NavigationPolicy;
  /** Values of steps run before this call (the builder runs one step at a time), by sequence. */
  previousValues?: ReadonlyMap<number, StepValue>;
  /**
   * The egress proxy the page's browser sends its traffic through, if any: the engine's own
   * downloads (GET_FILE, FILE cells) go through it too.
   */
  egressProxyUrl?: string | undefined;
}

const NONE: StepValue = { kind: 'none' };

/**
 * Where a step whose condition did not hold goes: the first action whose sequence is at or after
 * the destination. A destination past the last action ends the flow (returns the length); one at
 * or before the current step would loop and is refused with 100061.
 */
export function jumpIndex(actions: readonly FlowAction[], current: FlowAction): number {
  const destination = current.options?.sequenceDestination;
  if (destination === undefined) {
    throw new AutomationError(
      AUTOMATION_CODES.INVALID_ARGUMENT,
      `${current.type} has no sequenceDestination`,
    );
  }
  if (destination <= current.sequence) {
    throw new AutomationError(
      AUTOMATION_CODES.INVALID_ARGUMENT,
      `${current.type} at sequence ${current.sequence} jumps back to ${destination}; only forward jumps are allowed`,
    );
  }
  const index = actions.findIndex((action) => action.sequence >= destination);
  return index === -1 ? actions.length : index;
}

async function normalizedHtmlOf(page: Page): Promise<string | undefined> {
  if (page.isClosed()) return undefined;
  return normalizedHtml(page).catch(() => undefined);
}

/**
 * Runs a flow on a page (automation spec §3–§5; rules in docs/automation-engine.md): actions in
 * ascending sequence; IF_* / IF_CONDITION jump forward when their condition does not hold; END ends
 * with SUCCESS; a failure or RAISE_ERROR ends with ERROR and the classified AutomationError; an ask
 * answered CANCELED or an aborted signal ends with STOPPED. Never throws for a step's failure.
 */
export async function runFlow(
  page: Page,
  actions: readonly FlowAction[],
  hooks: FlowHooks,
  options: RunFlowOptions = {},
): Promise<FlowResult> {
  const ordered = [...actions].sort((a, b) => a.sequence - b.sequence);
  const limits: ActionLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const capturePageScreenshots = options.capturePageScreenshots ?? true;
  const captureElementScreenshots = options.captureElementScreenshots ?? true;
  const captureNormalizedHtml = options.captureNormalizedHtml ?? true;
  const navigationPolicy = options.navigationPolicy ?? PUBLIC_ONLY_POLICY;
  const previousValues = new Map<number, StepValue>(options.previousValues ?? []);
  const steps: StepRecord[] = [];
  const total = ordered.length;
  const navigations = watchNavigations(page, navigationPolicy);
  const browserLoss = watchBrowserLoss(page);
  try {
    return await runSteps();
  } finally {
    navigations.stop();
    browserLoss.stop();
  }

  async function runSteps(): Promise<FlowResult> {
    const record = (step: StepRecord): void => {
      steps.push(step);
      hooks.onStepDone?.(step);
    };
    const finish = (status: FlowResult['status'], error?: AutomationError): FlowResult => ({
      status,
      steps,
      values: Object.fromEntries(previousValues),
      ...(error ? { error } : {}),
    });

    let index = 0;
    while (index < total) {
      if (hooks.signal?.aborted) return finish('STOPPED');
      const action = ordered[index] as FlowAction;
      hooks.onStepStart?.(action, index, total);
      const startedAt = Date.now();
      const timestamp = new Date(startedAt).toISOString();

      let outcome: ActionOutcome;
      let nextIndex = index + 1;
      try {
        const executor = executorFor(action.type);
        if (!executor) {
          throw new AutomationError(
            AUTOMATION_CODES.INVALID_ARGUMENT,
            `${action.type} is not run by the extractor engine`,
          );
        }
        outcome = await Promise.race([
          executor({
            page,
            action,
            previousValues,
            hooks,
            limits,
            navigationPolicy,
            egressProxyUrl: options.egressProxyUrl,
            flow: ordered,
          }),
          browserLoss.lost,
        ]);
        const refusal = await navigations.takeRefusal();
        if (refusal) throw refusal;
        assertValueWithinLimit(outcome.value, limits.stepValueMaxBytes);
        if (outcome.conditionHeld === false && action.type.startsWith('IF_'))
          nextIndex = jumpIndex(ordered, action);
      } catch (error) {
        // What ended the step may only be a symptom: a killed browser makes a locator find
        // nothing, a refused redirect makes a proxy error page fail to load.
        const refusal = await navigations.takeRefusal();
        const classified =
          browserLoss.error(action.sequence) ?? classifyError(refusal ?? error, action.sequence);
        record({
          sequence: action.sequence,
          type: action.type,
          status: 'ERROR',
          pageUrl: page.url(),
          timestamp,
          value: NONE,
          ...(capturePageScreenshots ? { pageScreenshot: await pagePicture(page) } : {}),
          ...(captureNormalizedHtml ? { normalizedHtml: await normalizedHtmlOf(page) } : {}),
          durationMs: Date.now() - startedAt,
          error: classified,
        });
        return finish('ERROR', classified);
      }

      previousValues.set(action.sequence, outcome.value);
      const pictures = await stepPictures(page, outcome.element, {
        withPage: capturePageScreenshots,
        withElement: captureElementScreenshots,
        elementMaxBytes: limits.elementScreenshotMaxBytes,
      });
      record({
        sequence: action.sequence,
        type: action.type,
        status: 'SUCCESS',
        pageUrl: page.url(),
        timestamp,
        value: outcome.value,
        ...pictures,
        ...(captureNormalizedHtml ? { normalizedHtml: await normalizedHtmlOf(page) } : {}),
        durationMs: Date.now() - startedAt,
      });
      if (outcome.stop === 'END') return finish('SUCCESS');
      if (outcome.stop === 'CANCELED') return finish('STOPPED');

      for (let skipped = index + 1; skipped < nextIndex && skipped < total; skipped += 1) {
        const jumpedOver = ordered[skipped] as FlowAction;
        record({
          sequence: jumpedOver.sequence,
          type: jumpedOver.type,
          status: 'SKIPPED',
          pageUrl: page.url(),
          timestamp: new Date().toISOString(),
          value: NONE,
          durationMs: 0,
        });
      }
      index = nextIndex;
    }
    return finish('SUCCESS');
  }
}
