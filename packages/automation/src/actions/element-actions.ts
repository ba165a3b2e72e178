/// <reference lib="dom" />
import type { Locator } from 'playwright-core';
import { AutomationError } from '../flow/automation-error.js';
import { AUTOMATION_CODES, classifyError, plainMessage } from '../flow/classify-error.js';
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

/**
 * The visible text of an element, or the value of a form field, trimmed. Read in Playwright's
 * utility world, which locating the element has already prepared: a main-world evaluate injects
 * Playwright's script a second time into every new document (50–100 ms here, the largest part of
 * a short read-only run). The main world is only the fallback for what the utility calls cannot
 * read as they are (a form, whose controls shadow the properties a read uses).
 */
export async function textOfElement(locator: Locator, timeout: number): Promise<string> {
  const [fields, forms] = await Promise.all([
    locator.locator(':scope:is(input, textarea, select)').count(),
    locator.locator(':scope:is(form)').count(),
  ]);
  // A form's controls shadow its properties by name (an input named innerText), in every world.
  if (forms > 0) return (await textInMainWorld(locator, timeout)).trim();
  const text = fields > 0 ? await locator.inputValue({ timeout }) : await shownText(locator, timeout);
  return (text ?? '').trim();
}

/** innerText for HTML elements; textContent for the rest (SVG, MathML), as a person reads them. */
async function shownText(locator: Locator, timeout: number): Promise<string | null> {
  try {
    return await locator.innerText({ timeout });
  } catch (error) {
    if (!plainMessage(error).includes('Node is not an HTMLElement')) throw error;
    return locator.textContent({ timeout });
  }
}

async function textInMainWorld(locator: Locator, timeout: number): Promise<string> {
  return locator.evaluate(
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
      return typeof text === 'string' ? text : '';
    },
    undefined,
    { timeout },
  );
}

/**
 * What a person calls the element that takes clicks at the centre of `element` (in its own frame):
 * the nearest element up from it with a role or an accessible label, by role and name, and where
 * it is (`#id` or its tag). Undefined when the element itself is there after all.
 */
async function elementCovering(element: Locator): Promise<string | undefined> {
  const cover = await element
    .evaluate(
      (target: Element) => {
        const box = target.getBoundingClientRect();
        const hit = target.ownerDocument.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        if (!hit || hit === target || target.contains(hit)) return null;
        const IMPLICIT: Record<string, string> = {
          button: 'button',
          a: 'link',
          dialog: 'dialog',
          img: 'img',
        };
        let named: Element | null = hit;
        while (named) {
          const role = named.getAttribute('role') ?? IMPLICIT[named.localName];
          const name = (named.getAttribute('aria-label') ?? (role ? (named.textContent ?? '') : '')).trim();
          if (role && name)
            return { role, name: name.replace(/\s+/g, ' ').slice(0, 60), id: named.id, tag: named.localName };
          named = named.parentElement;
        }
        const text = (hit.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
        return { role: '', name: text, id: hit.id, tag: hit.localName };
      },
      undefined,
      { timeout: 1_000 },
    )
    .catch(() => null);
  if (!cover) return undefined;
  const where = cover.id ? `#${cover.id}` : `<${cover.tag}>`;
  if (cover.role) return `${cover.role} "${cover.name}" (${where})`;
  return cover.name ? `${where} "${cover.name}"` : where;
}

/**
 * Clicks an element; when another element covers it (a cookie banner, a modal's backdrop), the
 * error names that element instead of Playwright's "intercepts pointer events" call log.
 */
export async function clickElement(element: Locator, timeout: number): Promise<void> {
  try {
    await element.click({ timeout });
  } catch (error) {
    if (!/intercepts pointer events/u.test(plainMessage(error))) throw error;
    const cover = await elementCovering(element);
    if (!cover) throw error;
    throw new AutomationError(
      AUTOMATION_CODES.ELEMENT_CLICK_INTERCEPTED,
      `Another element covers it and would take the click: ${cover}`,
      undefined,
      plainMessage(error),
    );
  }
}

export async function click(context: ActionContext): Promise<ActionOutcome> {
  const element = await requireElement(context);
  await clickElement(element, elementTimeoutOf(context));
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
