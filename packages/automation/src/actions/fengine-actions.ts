import type { ElementHandle, Locator } from 'playwright-core';
import {
  ASK_CANCELED,
  ENGINE_MESSAGES,
  findEngineField,
  type ActionType,
  type EngineField,
} from '@pagewright/shared';
import { AutomationError } from '../flow/automation-error.js';
import { AUTOMATION_CODES, classifyError } from '../flow/classify-error.js';
import type { EngineHooks, EngineSignInPart } from '../flow/flow-types.js';
import {
  type ActionContext,
  type ActionOutcome,
  NONE,
  elementTimeoutOf,
  fail,
  requireElement,
} from './action-context.js';

/**
 * The F-engine steps (docs/f-engine.md). The sign-in asks and the investor ask talk to the engine
 * through hooks.engine (the worker's connector); TYPE_F_ENGINE_FIELD types the chosen investor's
 * value of one field into the page and checks that the page took it: a select gets the option, a
 * radio group the radio, a checkbox its state, a text or date field the text.
 */

const SIGN_IN_PARTS: Partial<Record<ActionType, EngineSignInPart>> = {
  ASK_F_ENGINE_URL: 'url',
  ASK_F_ENGINE_USER: 'user',
  ASK_F_ENGINE_PASSWORD: 'password',
};

function engineOf(context: ActionContext): EngineHooks {
  const { engine } = context.hooks;
  if (!engine) fail(AUTOMATION_CODES.INVALID_ARGUMENT, ENGINE_MESSAGES.signInRequired);
  return engine;
}

/** Runs an engine call; its sentence becomes the step's error as it is. */
async function engineCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AutomationError) throw error;
    fail(AUTOMATION_CODES.UNKNOWN_ERROR, error instanceof Error ? error.message : String(error));
  }
}

/** ASK_F_ENGINE_URL / USER / PASSWORD: the answer signs the run in to the engine (no page field). */
export async function askEngineSignIn(context: ActionContext): Promise<ActionOutcome> {
  const { action, hooks } = context;
  const part = SIGN_IN_PARTS[action.type];
  if (!part) fail(AUTOMATION_CODES.INVALID_ARGUMENT, `${action.type} is not an F-engine sign-in ask`);
  const engine = engineOf(context);
  const answer = await hooks.ask({
    action,
    sequence: action.sequence,
    type: action.type,
    label: action.label,
    question: action.options.text || undefined,
  });
  if (answer === ASK_CANCELED) return { value: NONE, stop: 'CANCELED' };
  await engineCall(() => engine.setSignIn(part, answer));
  return { value: part === 'password' ? NONE : { kind: 'text', value: answer } };
}

/** ASK_F_ENGINE_INVESTOR: the operator picks one of the engine's investors; its sections are read. */
export async function askEngineInvestor(context: ActionContext): Promise<ActionOutcome> {
  const { action, hooks } = context;
  const engine = engineOf(context);
  const investors = await engineCall(() => engine.investors());
  const answer = await hooks.ask({
    action,
    sequence: action.sequence,
    type: action.type,
    label: action.label,
    question: action.options.text || undefined,
    investors,
  });
  if (answer === ASK_CANCELED) return { value: NONE, stop: 'CANCELED' };
  if (!investors.some((investor) => investor.portfolioid === answer))
    fail(AUTOMATION_CODES.INVALID_ARGUMENT, ENGINE_MESSAGES.investorNotOffered);
  const { investor } = await engineCall(() => engine.chooseInvestor(answer));
  return { value: { kind: 'text', value: `${investor.name} (${investor.portfolioid})` } };
}

/** TYPE_F_ENGINE_FIELD: types the chosen investor's value of `textValue` ("section.field"). */
export async function typeEngineField(context: ActionContext): Promise<ActionOutcome> {
  const { action } = context;
  const path = action.options.text ?? '';
  if (!path) fail(AUTOMATION_CODES.INVALID_ARGUMENT, ENGINE_MESSAGES.noFieldChosen);
  const chosen = engineOf(context).chosen();
  if (!chosen) fail(AUTOMATION_CODES.INVALID_ARGUMENT, ENGINE_MESSAGES.noInvestorChosen);
  const found = findEngineField(chosen.sections, path);
  const who = `${chosen.investor.name} (${chosen.investor.portfolioid})`;
  if (!found) fail(AUTOMATION_CODES.INVALID_ARGUMENT, ENGINE_MESSAGES.fieldMissing(who, path));
  const value = found.field.value;
  if (value === null || value === '')
    fail(AUTOMATION_CODES.INVALID_ARGUMENT, ENGINE_MESSAGES.fieldEmpty(who, found.field.label || path));
  const element = await requireElement(context);
  const typed = await fillControl(element, found.field, value, elementTimeoutOf(context));
  return { value: { kind: 'text', value: typed }, element };
}

/** What kind of form control the picked element is (or holds: a radio group's container). */
type ControlKind = 'select' | 'radio' | 'checkbox' | 'date' | 'number' | 'text' | 'editable' | 'none';

interface ControlInfo {
  kind: ControlKind;
  /** select: its options; radio: the group's radios (value and label). */
  choices: { value: string; label: string }[];
}

/** Words a yes/no engine value may take in a form. */
const YES = ['true', 'yes', 'y', 'oui', 'ja', 'si', '1'];
const NO = ['false', 'no', 'n', 'non', 'nein', '0'];

function matchChoice(choices: ControlInfo['choices'], field: EngineField, value: string): number {
  const norm = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');
  const wanted = norm(value);
  const exact = choices.findIndex((choice) => choice.value === value || choice.label.trim() === value.trim());
  if (exact !== -1) return exact;
  const loose = choices.findIndex((choice) => norm(choice.value) === wanted || norm(choice.label) === wanted);
  if (loose !== -1 || field.type !== 'BOOLEAN') return loose;
  const words = wanted === 'true' ? YES : wanted === 'false' ? NO : [];
  return choices.findIndex(
    (choice) => words.includes(norm(choice.value)) || words.includes(norm(choice.label)),
  );
}

/** Reads the control in the page; the radios of a group come in document order. */
async function controlInfo(element: Locator, timeout: number): Promise<ControlInfo> {
  // No named functions inside: runners with esbuild's keepNames wrap them in a __name the page lacks.
  return element.evaluate(
    (node: Element) => {
      const tag = node.localName;
      if (tag === 'select')
        return {
          kind: 'select' as const,
          choices: Array.from((node as HTMLSelectElement).options).map((option) => ({
            value: option.value,
            label: option.text,
          })),
        };
      const input = node as HTMLInputElement;
      if (tag === 'input' && input.type === 'checkbox') return { kind: 'checkbox' as const, choices: [] };
      if (tag === 'input' && input.type === 'date') return { kind: 'date' as const, choices: [] };
      if (tag === 'input' && input.type === 'number') return { kind: 'number' as const, choices: [] };
      if ((tag === 'input' && input.type !== 'radio') || tag === 'textarea')
        return { kind: 'text' as const, choices: [] };
      if (tag !== 'input' && (node as HTMLElement).isContentEditable)
        return { kind: 'editable' as const, choices: [] };
      // A radio, or an element holding radios of one name (the label around the option text an
      // operator clicks, a radio group's box): that name's whole group in its form.
      const inner = tag === 'input' ? input : node.querySelector<HTMLInputElement>('input[type="radio"]');
      const named = inner?.name ?? '';
      const scope: ParentNode =
        inner && named ? (inner.form ?? inner.ownerDocument) : tag === 'input' ? input.ownerDocument : node;
      const radios = Array.from(scope.querySelectorAll<HTMLInputElement>('input[type="radio"]')).filter(
        (radio) => !named || radio.name === named,
      );
      if (radios.length === 0) return { kind: 'none' as const, choices: [] };
      const labels = Array.from(node.ownerDocument.querySelectorAll('label'));
      return {
        kind: 'radio' as const,
        choices: radios.map((radio) => {
          const label =
            (radio.id ? labels.find((candidate) => candidate.htmlFor === radio.id) : undefined) ??
            radio.closest('label');
          return {
            value: radio.value,
            label: (label?.textContent ?? radio.getAttribute('aria-label') ?? '').trim(),
          };
        }),
      };
    },
    undefined,
    { timeout },
  );
}

/** The nth radio of the group the element is (or holds), as a handle to check. */
async function radioAt(element: Locator, index: number): Promise<ElementHandle> {
  const handle = await element.evaluateHandle((node: Element, at: number) => {
    // The same group as controlInfo found (kept in step with it).
    const inner =
      node.localName === 'input'
        ? (node as HTMLInputElement)
        : node.querySelector<HTMLInputElement>('input[type="radio"]');
    const named = inner?.name ?? '';
    const scope: ParentNode =
      inner && named
        ? (inner.form ?? inner.ownerDocument)
        : node.localName === 'input'
          ? node.ownerDocument
          : node;
    const radios = Array.from(scope.querySelectorAll<HTMLInputElement>('input[type="radio"]')).filter(
      (radio) => !named || radio.name === named,
    );
    return radios[at] ?? null;
  }, index);
  const radio = handle.asElement();
  if (!radio) fail(AUTOMATION_CODES.NO_SUCH_ELEMENT, 'The radio button to check is gone');
  return radio;
}

function listOf(choices: ControlInfo['choices']): string {
  const shown = choices
    .map((choice) => choice.label || choice.value)
    .filter(Boolean)
    .slice(0, 12);
  return shown.map((text) => `"${text}"`).join(', ');
}

/** Puts `value` into the control and returns what the page now holds; fails when it did not take. */
async function fillControl(
  element: Locator,
  field: EngineField,
  value: string,
  timeout: number,
): Promise<string> {
  const info = await controlInfo(element, timeout);
  try {
    switch (info.kind) {
      case 'select': {
        const index = matchChoice(info.choices, field, value);
        if (index === -1)
          fail(
            AUTOMATION_CODES.INVALID_ARGUMENT,
            `The list has no option "${value}" for ${field.label || field.key} (it offers ${listOf(info.choices)})`,
          );
        await element.selectOption({ index }, { timeout });
        const selected = await element.evaluate((node: Element) => (node as HTMLSelectElement).selectedIndex);
        if (selected !== index)
          fail(AUTOMATION_CODES.INVALID_ELEMENT_STATE, `The list did not keep the option "${value}"`);
        return info.choices[index]?.label.trim() || value;
      }
      case 'radio': {
        const index = matchChoice(info.choices, field, value);
        if (index === -1)
          fail(
            AUTOMATION_CODES.INVALID_ARGUMENT,
            `No radio button stands for "${value}" (${field.label || field.key}; the group offers ${listOf(info.choices)})`,
          );
        const radio = await radioAt(element, index);
        try {
          await radio.check({ timeout });
        } finally {
          await radio.dispose();
        }
        return info.choices[index]?.label || info.choices[index]?.value || value;
      }
      case 'checkbox': {
        const norm = value.trim().toLowerCase();
        const isOn = YES.includes(norm);
        if (!isOn && !NO.includes(norm))
          fail(
            AUTOMATION_CODES.INVALID_ARGUMENT,
            `A checkbox cannot take "${value}" (${field.label || field.key})`,
          );
        await element.setChecked(isOn, { timeout });
        return isOn ? 'true' : 'false';
      }
      case 'date': {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(value))
          fail(
            AUTOMATION_CODES.INVALID_ARGUMENT,
            `A date field needs YYYY-MM-DD; the engine gave "${value}"`,
          );
        await element.fill(value, { timeout });
        break;
      }
      case 'number': {
        // A yes/no kept as a number (a MySQL TINYINT(1) in an admin tool's form): 1 or 0.
        const norm = value.trim().toLowerCase();
        const number =
          field.type === 'BOOLEAN' && (YES.includes(norm) || NO.includes(norm))
            ? YES.includes(norm)
              ? '1'
              : '0'
            : value.trim();
        if (!/^-?\d+(\.\d+)?$/.test(number))
          fail(
            AUTOMATION_CODES.INVALID_ARGUMENT,
            `A number field cannot take "${value}" (${field.label || field.key})`,
          );
        await element.fill(number, { timeout });
        return verifyHeld(element, number, field);
      }
      case 'text':
      case 'editable':
        await element.fill(value, { timeout });
        break;
      case 'none':
        fail(
          AUTOMATION_CODES.INVALID_ELEMENT_STATE,
          'The picked element is not a form field (text, date, list, radio group or checkbox): record the step again on the field',
        );
    }
  } catch (error) {
    if (error instanceof AutomationError) throw error;
    throw classifyError(error);
  }
  return verifyHeld(element, value, field);
}

/** A field that refused or reformatted the value (maxlength, a masked input) did not get it. */
async function verifyHeld(element: Locator, value: string, field: EngineField): Promise<string> {
  const now = await element.evaluate((node: Element) =>
    'value' in node ? String((node as HTMLInputElement).value) : (node.textContent ?? ''),
  );
  if (now.trim() !== value.trim())
    fail(
      AUTOMATION_CODES.INVALID_ELEMENT_STATE,
      `The field holds "${now}" after typing "${value}" (${field.label || field.key}): it did not take the value`,
    );
  return value;
}
