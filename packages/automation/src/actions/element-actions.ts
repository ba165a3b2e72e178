/// <reference lib="dom" />
import type { Locator } from 'playwright-core';
import { AutomationError } from '../flow/automation-error.js';
import { AUTOMATION_CODES, classifyError } from '../flow/classify-error.js';
import { parseDate } from '../values/date-mask.js';
import { parseNumber } from '../values/number-mask.js';
import {
  type ActionContext,
  type ActionOutcome,
  NONE,
  elementTimeoutOf,
  fail,
  requireElement,
} from './action-context.js';

/** Replaces a secret (raw and as Playwright quotes it in call logs) in an error message. */
export function redact(message: string, secret: string): string {
  if (!secret) return message;
  const quoted = JSON.stringify(secret).slice(1, -1);
  return message.split(secret).join('***').split(quoted).join('***');
}

/** Types a value; for secrets the failure message never carries the value. */
export async function typeInto(
  locator: Locator,
  text: string,
  timeout: number,
  isSecret: boolean,
): Promise<void> {
  try {
    await locator.fill(text, { timeout });
  } catch (error) {
    if (!isSecret) throw error;
    const classified = classifyError(error);
    throw new AutomationError(classified.code, redact(classified.originalMessage, text));
  }
}

/** The visible text of an element, or the value of a form field, trimmed. */
export async function textOfElement(locator: Locator, timeout: number): Promise<string> {
  const text = await locator.evaluate(
    (element: Element) => {
      // Through the prototypes: a form's controls shadow its properties by name.
      const localName: unknown = Object.getOwnPropertyDescriptor(Element.prototype, 'localName')?.get?.call(
        element,
      );
      const namespace: unknown = Object.getOwnPropertyDescriptor(
        Element.prototype,
        'namespaceURI',
      )?.get?.call(element);
      const isHtml = namespace === 'http://www.w3.org/1999/xhtml';
      if (isHtml && (localName === 'input' || localName === 'textarea' || localName === 'select'))
        return String((element as HTMLInputElement).value ?? '');
      const text: unknown = isHtml
        ? Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'innerText')?.get?.call(element)
        : Object.getOwnPropertyDescriptor(Node.prototype, 'textContent')?.get?.call(element);
      return String(text ?? '');
    },
    undefined,
    { timeout },
  );
  return text.trim();
}

export async function click(context: ActionContext): Promise<ActionOutcome> {
  const element = await requireElement(context);
  await element.click({ timeout: elementTimeoutOf(context) });
  return { value: NONE, element };
}

export async function move(context: ActionContext): Promise<ActionOutcome> {
  const element = await requireElement(context);
  await element.hover({ timeout: elementTimeoutOf(context) });
  return { value: NONE, element };
}

/** Typing into a native list failed with Playwright's "Element is not an <input>": say what to use. */
async function refuseList(element: Locator, timeout: number): Promise<void> {
  const tag = await element
    .evaluate((node: Element) => node.localName, undefined, { timeout })
    .catch(() => undefined);
  if (tag === 'select')
    fail(
      AUTOMATION_CODES.INVALID_ELEMENT_STATE,
      'This element is a list (a <select>): text cannot be typed into it; record Select option to choose one of its options',
    );
}

export async function typeText(context: ActionContext): Promise<ActionOutcome> {
  const element = await requireElement(context);
  const text = context.action.options?.text ?? '';
  await typeInto(element, text, elementTimeoutOf(context), false).catch(async (error: unknown) => {
    await refuseList(element, elementTimeoutOf(context));
    throw error;
  });
  return { value: { kind: 'text', value: text }, element };
}

export async function typePassword(context: ActionContext): Promise<ActionOutcome> {
  const element = await requireElement(context);
  await typeInto(element, context.action.options?.text ?? '', elementTimeoutOf(context), true).catch(
    async (error: unknown) => {
      await refuseList(element, elementTimeoutOf(context));
      throw error;
    },
  );
  return { value: NONE, element };
}

export async function clickSelect(context: ActionContext): Promise<ActionOutcome> {
  const option = context.action.options?.select?.option;
  if (option === undefined)
    fail(AUTOMATION_CODES.INVALID_ARGUMENT, 'CLICK_SELECT needs options.select.option');
  const element = await requireElement(context);
  // A plain string matches an option by value or by label.
  const [selected] = await element.selectOption(option, { timeout: elementTimeoutOf(context) });
  return { value: { kind: 'text', value: selected ?? option }, element };
}

export async function getText(context: ActionContext): Promise<ActionOutcome> {
  const element = await requireElement(context);
  return { value: { kind: 'text', value: await textOfElement(element, elementTimeoutOf(context)) }, element };
}

export async function getNumber(context: ActionContext): Promise<ActionOutcome> {
  const element = await requireElement(context);
  const text = await textOfElement(element, elementTimeoutOf(context));
  return {
    value: { kind: 'number', value: parseNumber(text, context.action.options?.numberFormat ?? {}) },
    element,
  };
}

export async function getDate(context: ActionContext): Promise<ActionOutcome> {
  const mask = context.action.options?.datetimeFormat;
  if (!mask) fail(AUTOMATION_CODES.INVALID_ARGUMENT, 'GET_DATE needs options.datetimeFormat');
  const element = await requireElement(context);
  const text = await textOfElement(element, elementTimeoutOf(context));
  return { value: { kind: 'datetime', value: parseDate(text, mask) }, element };
}

export async function getImage(context: ActionContext): Promise<ActionOutcome> {
  const element = await requireElement(context);
  const content = await element.screenshot({ type: 'png', timeout: elementTimeoutOf(context) });
  await context.hooks.keepFile?.({
    fileName: `${context.action.label || `step-${context.action.sequence}`}.png`,
    mimeType: 'image/png',
    content,
  });
  return { value: { kind: 'image', mimeType: 'image/png', size: content.length }, element };
}
