import { assertValueWithinLimit } from './value-limit.js';
import type { Page } from 'playwright-core';
import {
  type ActionType,
  type ElementLocatedBy,
  type FlowAction,
  JUMP_ACTION_TYPES,
  type StepValue,
  WAIT_UNTIL_ACTION_TYPES,
} from '@pagewright/shared';
import type { ActionOutcome } from '../actions/action-context.js';
import { executorFor } from '../actions/executors.js';
import { normalizedHtml } from '../page/normalized-page.js';
import { pageFrames } from '../page/page-frames.js';
import { watchPageActivity } from '../page/page-settle.js';
import {
  type StepPictures,
  elementBoxOf,
  framePictures,
  pagePicture,
  pictureFromFrame,
} from '../page/step-pictures.js';
import { type NavigationPolicy, PUBLIC_ONLY_POLICY } from '../safety/navigation-guard.js';
import { watchNavigations } from '../safety/navigation-watch.js';
import { AutomationError } from './automation-error.js';
import { watchBrowserLoss } from './browser-loss.js';
import { AUTOMATION_CODES, classifyError } from './classify-error.js';
import { type ArmedAnswer, watchDialogs } from './dialog-watch.js';
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
  /**
   * Keep the viewport's JPEG of a step that failed even when the others are not pictured (default:
   * as capturePageScreenshots). A bulk run's item is pictured only where it failed.
   */
  captureFailedStepScreenshot?: boolean;
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
 * A step that acts on the page is pictured by the first frame Chromium paints after the page's
 * next animation frame has begun (by then the step's doing is committed; earlier frames may still
 * be in the pipeline). No frame in time means the page did not change: the newest one is it. In
 * time: a few times what this page's frames took to arrive, 12–60 ms (page-frames.ts).
 */
const PICTURE_FRAME_WAIT = { minMs: 12, maxMs: 60 };

/**
 * When the page's next animation frame begins (Date.now() time): frames received from then on
 * show everything done before. Never longer than the picture wait, whatever the page does.
 */
async function nextAnimationFrame(page: Page): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, PICTURE_FRAME_WAIT.maxMs)));
  await Promise.race([
    page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(0)))').catch(() => undefined),
    late,
  ]);
  clearTimeout(timer);
  return Date.now();
}

/** Steps that only read the page: they change nothing a picture would show. */
const READING_TYPES = new Set<ActionType>([
  'GET_TEXT',
  'GET_NUMBER',
  'GET_DATE',
  'GET_IMAGE',
  'WAIT',
  ...WAIT_UNTIL_ACTION_TYPES,
  'CHECK_TEXT',
  ...JUMP_ACTION_TYPES,
  'END',
  'RAISE_ERROR',
]);

function onlyReads(action: FlowAction): boolean {
  if (action.type === 'GET_TABLE') return (action.options?.table?.maxPages ?? 1) <= 1;
  return READING_TYPES.has(action.type);
}

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

/**
 * The recorded answers for the dialogs a step may raise: those of the ANSWER_DIALOG steps right
 * after it, in order.
 */
function recordedAnswersAfter(actions: readonly FlowAction[], index: number): ArmedAnswer[] {
  const answers: ArmedAnswer[] = [];
  for (let next = index + 1; next < actions.length; next += 1) {
    const action = actions[next] as FlowAction;
    const dialog = action.options?.dialog;
    if (action.type !== 'ANSWER_DIALOG' || !dialog) break;
    answers.push({
      sequence: action.sequence,
      answer: {
        accept: dialog.accept,
        ...(dialog.promptText !== undefined ? { promptText: dialog.promptText } : {}),
      },
    });
  }
  return answers;
}

/** The origin of a URL ('' for about:blank and the like): a new one means a new renderer. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
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
  const captureFailedStepScreenshot = options.captureFailedStepScreenshot ?? capturePageScreenshots;
  const navigationPolicy = options.navigationPolicy ?? PUBLIC_ONLY_POLICY;
  const previousValues = new Map<number, StepValue>(options.previousValues ?? []);
  const steps: StepRecord[] = [];
  const total = ordered.length;
  const navigations = watchNavigations(page, navigationPolicy);
  const browserLoss = watchBrowserLoss(page);
  const dialogs = watchDialogs(page, { askOperator: hooks.onDialog?.bind(hooks) });
  const activity = watchPageActivity(page);
  // Step pictures come from the frames Chromium paints (docs/performance.md): held for the flow.
  const frames = capturePageScreenshots || captureElementScreenshots ? pageFrames(page) : undefined;
  const releaseFrames = frames?.hold();
  try {
    return await runSteps();
  } finally {
    navigations.stop();
    browserLoss.stop();
    dialogs.stop();
    activity.stop();
    await releaseFrames?.();
  }

  async function runSteps(): Promise<FlowResult> {
    // Steps are recorded in order once their pictures are made, while the flow goes on.
    let recording: Promise<void> = Promise.resolve();
    const record = (
      step: StepRecord,
      pictures?: Promise<StepPictures>,
      html?: Promise<string | undefined>,
    ): void => {
      const previous = recording;
      recording = (async () => {
        const taken = pictures ? await pictures.catch(() => ({})) : {};
        const normalized = html ? { normalizedHtml: await html } : {};
        await previous;
        const recorded = { ...step, ...taken, ...normalized };
        steps.push(recorded);
        hooks.onStepDone?.(recorded);
      })();
    };
    /** The frame of the last step that acted on the page, until it came. */
    let pendingFrame: Promise<Buffer | undefined> | undefined;
    const finish = async (status: FlowResult['status'], error?: AutomationError): Promise<FlowResult> => {
      await recording;
      return {
        status,
        steps,
        values: Object.fromEntries(previousValues),
        ...(error ? { error } : {}),
      };
    };

    const dialogsAnswered = () => {
      const answered = dialogs.takeOperatorAnswers();
      return answered.length > 0 ? { dialogs: answered } : {};
    };

    let index = 0;
    while (index < total) {
      if (hooks.signal?.aborted) return finish('STOPPED');
      const action = ordered[index] as FlowAction;
      // The last acting step's picture must show its doing, not this step's: wait for its frame.
      if (pendingFrame && !onlyReads(action)) await pendingFrame;
      hooks.onStepStart?.(action, index, total);
      const startedAt = Date.now();
      const timestamp = new Date(startedAt).toISOString();

      let outcome: ActionOutcome;
      let nextIndex = index + 1;
      // An ANSWER_DIALOG step keeps what its raising step armed: its dialog may still be to come.
      if (action.type !== 'ANSWER_DIALOG') dialogs.arm(recordedAnswersAfter(ordered, index));
      const acts = !onlyReads(action);
      const originBefore = originOf(page.url());
      let locatedBy: ElementLocatedBy | undefined;
      if (acts) activity.begin();
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
            dialogs,
            onLocatedByFallback: (found) => {
              locatedBy = found;
            },
          }),
          browserLoss.lost,
        ]);
        // What the step started (a save's request, a navigation) lands before the step is done:
        // its picture shows the outcome, and the next step starts from it.
        if (acts) await activity.settle();
        const refusal = await navigations.takeRefusal();
        if (refusal) throw refusal;
        // A confirm() or alert() the step raised was dismissed: whatever it guarded did not happen.
        const unanswered = dialogs.takeUnanswered(action.sequence);
        if (unanswered) throw unanswered;
        assertValueWithinLimit(outcome.value, limits.stepValueMaxBytes);
        if (outcome.conditionHeld === false && action.type.startsWith('IF_'))
          nextIndex = jumpIndex(ordered, action);
      } catch (error) {
        // What ended the step may only be a symptom: a killed browser makes a locator find
        // nothing, a refused redirect makes a proxy error page fail to load.
        const refusal = await navigations.takeRefusal();
        // A dialog the step raised (and that was dismissed) is why the page did not go on.
        const classified =
          browserLoss.error(action.sequence) ??
          dialogs.takeUnanswered(action.sequence) ??
          classifyError(refusal ?? error, action.sequence);
        record({
          sequence: action.sequence,
          type: action.type,
          status: 'ERROR',
          pageUrl: page.url(),
          timestamp,
          value: NONE,
          ...(captureFailedStepScreenshot ? { pageScreenshot: await pagePicture(page) } : {}),
          ...(captureNormalizedHtml ? { normalizedHtml: await normalizedHtmlOf(page) } : {}),
          durationMs: Date.now() - startedAt,
          error: classified,
        });
        return finish('ERROR', classified);
      }

      previousValues.set(action.sequence, outcome.value);
      const endedAt = Date.now();
      let pictures: Promise<StepPictures> | undefined;
      if (frames) {
        // Sent now, so the page answers before the next step's commands; awaited off the path.
        const box = captureElementScreenshots ? elementBoxOf(outcome.element) : Promise.resolve(null);
        let frame: Promise<Buffer | undefined>;
        if (onlyReads(action)) {
          // Unchanged since the last step that acted: its frame, or the newest one.
          frame = pendingFrame ?? pictureFromFrame(page, frames.latestFrame());
        } else {
          // The next acting step waits for this, a capture in place of a missing frame included.
          // Another site is another renderer: the screencast may still hand over a frame of the
          // page left behind, so that step is captured instead.
          const awaited =
            originOf(page.url()) !== originBefore
              ? pagePicture(page)
              : nextAnimationFrame(page)
                  .then((after) => frames.frameAfter(after, PICTURE_FRAME_WAIT))
                  .then((painted) => pictureFromFrame(page, painted));
          pendingFrame = awaited;
          void awaited.then(() => {
            if (pendingFrame === awaited) pendingFrame = undefined;
          });
          frame = awaited;
        }
        pictures = framePictures(page, frame, box, {
          withPage: capturePageScreenshots,
          withElement: captureElementScreenshots,
          elementMaxBytes: limits.elementScreenshotMaxBytes,
        });
      }
      record(
        {
          sequence: action.sequence,
          type: action.type,
          status: 'SUCCESS',
          pageUrl: page.url(),
          timestamp,
          value: outcome.value,
          durationMs: endedAt - startedAt,
          ...dialogsAnswered(),
          ...(locatedBy ? { locatedBy } : {}),
        },
        pictures,
        // Sent now, so the page reads itself before the next step's commands; awaited with the
        // record, off the flow's path.
        captureNormalizedHtml ? normalizedHtmlOf(page) : undefined,
      );
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
