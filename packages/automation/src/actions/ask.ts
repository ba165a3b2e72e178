import type { Frame, Locator } from 'playwright-core';
import {
  ASK_CANCELED,
  ASK_MESSAGES,
  RECAPTCHA_DONE,
  RECAPTCHA_MAX_ROUNDS,
  type ActionType,
  type PageElementArea,
} from '@pagewright/shared';
import { runPageProbe } from '../page/page-probe.js';
import { AUTOMATION_CODES } from '../flow/classify-error.js';
import { typeInto } from './element-actions.js';
import {
  type ActionContext,
  type ActionOutcome,
  NONE,
  cssTarget,
  elementTimeoutOf,
  fail,
  requireElement,
  sleep,
} from './action-context.js';

/** Asks whose answers are secrets: typed, never kept in the step value. */
const SECRET_ASKS: readonly ActionType[] = ['ASK_PASSWORD', 'ASK_CODE'];
/** The question text read from a question area is capped like any recorded text. */
const QUESTION_TEXT_MAX_LENGTH = 1024;
/** Lets a captcha widget react to a click (tile fade, new challenge) before its next picture. */
const RECAPTCHA_SETTLE_MS = 400;

async function pngOf(element: Locator, context: ActionContext): Promise<Buffer | undefined> {
  return element.screenshot({ type: 'png', timeout: elementTimeoutOf(context) }).catch(() => undefined);
}

/**
 * ASK_*: sends the question (and a PNG of what it is about) through hooks.ask; 'CANCELED' stops the
 * flow. A multi-step ask (options.askMultiStepDto) shows the picture and text of its question area
 * and types the answer into its target; the other asks type into their target when they have one.
 * ASK_RECAPTCHA is a loop of its own (askRecaptcha).
 */
export async function ask(context: ActionContext): Promise<ActionOutcome> {
  const { action, hooks } = context;
  if (action.type === 'ASK_RECAPTCHA') return askRecaptcha(context);

  // An asked secret with no field (saved before asks were tied to one) would be typed nowhere.
  if (!action.target && SECRET_ASKS.includes(action.type))
    fail(
      AUTOMATION_CODES.INVALID_ARGUMENT,
      `${action.type === 'ASK_PASSWORD' ? 'Ask password' : 'Ask code'} has no field to type the answer into: record it again, picking the field first`,
    );
  const element = action.target ? await requireElement(context) : undefined;
  const questionSelector = action.options.askMultiStepDto?.askDataContentSelector;
  const questionArea = questionSelector
    ? await requireElement(context, cssTarget(context, questionSelector))
    : undefined;
  const questionText = questionArea
    ? (await questionArea.innerText({ timeout: elementTimeoutOf(context) }))
        .trim()
        .slice(0, QUESTION_TEXT_MAX_LENGTH)
    : undefined;
  const pictured = questionArea ?? element;

  const answer = await hooks.ask({
    action,
    sequence: action.sequence,
    type: action.type,
    label: action.label,
    question: action.options.text || questionText || undefined,
    elementScreenshot: pictured ? await pngOf(pictured, context) : undefined,
    askDataContentSelector: questionSelector,
  });
  if (answer === ASK_CANCELED) return { value: NONE, stop: 'CANCELED' };

  const isSecret = SECRET_ASKS.includes(action.type);
  if (element) await typeInto(element, answer, elementTimeoutOf(context), isSecret);
  return { value: isSecret ? NONE : { kind: 'text', value: answer }, ...(element ? { element } : {}) };
}

interface RecaptchaView {
  /** The document the areas belong to, where a picked selector is clicked. */
  frame: Frame;
  picture: Buffer | undefined;
  areas: PageElementArea[];
}

/**
 * What the operator sees of a captcha widget: a PNG of the target and the visible areas inside it,
 * moved into the PNG's coordinates. When the target is an iframe (reCAPTCHA's challenge is one) the
 * areas are those of the document inside it.
 */
async function recaptchaView(widget: Locator, context: ActionContext): Promise<RecaptchaView> {
  const handle = await widget.elementHandle({ timeout: elementTimeoutOf(context) });
  if (!handle) fail(AUTOMATION_CODES.NO_SUCH_ELEMENT, 'The reCAPTCHA area is gone');
  try {
    const inner = await handle.contentFrame();
    const frame = inner ?? (await handle.ownerFrame());
    if (!frame) fail(AUTOMATION_CODES.NO_SUCH_ELEMENT, 'The reCAPTCHA area is not in a frame');
    // The widget's box in the viewport of `frame`. An iframe's document starts inside its border
    // and padding, which its picture includes: the box starts that far before the document.
    const box = await handle.evaluate((element, isFrame) => {
      // Through the prototype: a form's controls shadow its properties by name.
      const rect = Element.prototype.getBoundingClientRect.call(element);
      if (!isFrame) return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
      const style = getComputedStyle(element);
      const clientLeft: unknown = Object.getOwnPropertyDescriptor(Element.prototype, 'clientLeft')?.get?.call(
        element,
      );
      const clientTop: unknown = Object.getOwnPropertyDescriptor(Element.prototype, 'clientTop')?.get?.call(
        element,
      );
      const left = Number(clientLeft) + parseFloat(style.paddingLeft);
      const top = Number(clientTop) + parseFloat(style.paddingTop);
      return { x: -left, y: -top, width: rect.width, height: rect.height };
    }, inner !== null);
    const all = JSON.parse(await runPageProbe(frame, { mode: 'areas' })) as PageElementArea[];
    const areas = all
      .filter(
        (area) =>
          area.width > 0 &&
          area.height > 0 &&
          area.x < box.x + box.width &&
          area.y < box.y + box.height &&
          area.x + area.width > box.x &&
          area.y + area.height > box.y,
      )
      .map((area) => ({ ...area, x: area.x - box.x, y: area.y - box.y }));
    return { frame, picture: await pngOf(widget, context), areas };
  } finally {
    await handle.dispose();
  }
}

/**
 * ASK_RECAPTCHA: offers the widget's picture and areas; each answer is the selector of an area,
 * which is clicked before the widget is offered again with a fresh picture, until the operator
 * confirms with RECAPTCHA_DONE (or cancels). An answer that is not an offered area is ignored, and
 * after RECAPTCHA_MAX_ROUNDS clicks the step fails rather than loop for ever.
 */
async function askRecaptcha(context: ActionContext): Promise<ActionOutcome> {
  const { action, hooks } = context;
  for (let round = 0; round <= RECAPTCHA_MAX_ROUNDS; round += 1) {
    const widget = await requireElement(context);
    const view = await recaptchaView(widget, context);
    const answer = await hooks.ask({
      action,
      sequence: action.sequence,
      type: action.type,
      label: action.label,
      question: action.options.text,
      elementScreenshot: view.picture,
      areas: view.areas,
      round,
    });
    if (answer === ASK_CANCELED) return { value: NONE, stop: 'CANCELED' };
    if (answer === RECAPTCHA_DONE) return { value: NONE, element: widget };
    if (!view.areas.some((area) => area.selector === answer)) continue;
    await view.frame
      .locator(`css=${answer}`)
      .first()
      .click({ timeout: elementTimeoutOf(context) });
    await sleep(RECAPTCHA_SETTLE_MS);
  }
  fail(AUTOMATION_CODES.TIMEOUT, `${ASK_MESSAGES.recaptchaRoundsExceeded} (${RECAPTCHA_MAX_ROUNDS})`);
}
