import {
  INPUT_ACTION_TYPES,
  INPUT_MESSAGES,
  InputSubstitutionError,
  defaultInputValues,
  fillFlowInputs,
  fillInputs,
  inputNamesIn,
  inputPlaceholder,
  inputValueMessage,
  isInputValueValid,
  type ActionType,
  type BuilderRecord,
  type ExtractorInput,
  type FlowAction,
  type MakeInput,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';

/**
 * Inputs in the builder (issue 26, item 3): "Make this an input" turns an action's text into
 * `{{input.name}}` and declares the input with the recorded text as its default; the draft
 * carries the inputs until save, and the live page always runs an action with the defaults.
 */

const canHoldInput = (type: ActionType) => (INPUT_ACTION_TYPES as readonly string[]).includes(type);

/**
 * The text an action keeps once `makeInput` made it an input: the placeholder. The input is
 * declared (or redeclared, same name) in the draft with the recorded text, defaults filled in,
 * as its default, which must read as the chosen type.
 */
export function makeActionInput(
  record: BuilderRecord,
  type: ActionType,
  recordedText: string | undefined,
  makeInput: MakeInput,
): string {
  if (!canHoldInput(type)) throw AppError.validation(INPUT_MESSAGES.notInputAction, 'makeInput');
  const defaultValue = fillInputs(recordedText ?? '', defaultInputValues(record.inputs));
  if (!isInputValueValid(makeInput.type, defaultValue))
    throw AppError.validation(inputValueMessage(makeInput.name, makeInput.type), 'makeInput');
  const input: ExtractorInput = { name: makeInput.name, type: makeInput.type, defaultValue };
  record.inputs = [...record.inputs.filter((declared) => declared.name !== input.name), input];
  return inputPlaceholder(input.name);
}

/** Refuses a text naming an input the draft does not declare (it could never be filled in). */
export function assertKnownInputs(record: BuilderRecord, type: ActionType, text: string | undefined): void {
  if (text === undefined) return;
  const names = inputNamesIn(text);
  if (names.length === 0) return;
  if (!canHoldInput(type)) throw AppError.validation(INPUT_MESSAGES.notInputAction, 'textValue');
  const declared = new Set(record.inputs.map((input) => input.name));
  const unknown = names.find((name) => !declared.has(name));
  if (unknown !== undefined)
    throw AppError.validation(INPUT_MESSAGES.unknown.replace('{{name}}', unknown), 'textValue');
}

/** The text as the builder's rules and the live page see it: with the defaults. */
export const withDefaultsText = (record: BuilderRecord, text: string | undefined) =>
  text === undefined ? undefined : fillInputs(text, defaultInputValues(record.inputs));

/** The step as the live page runs it while recording: its inputs take their defaults. */
export function stepWithDefaults(record: BuilderRecord, step: FlowAction): FlowAction {
  try {
    return fillFlowInputs([step], defaultInputValues(record.inputs))[0] ?? step;
  } catch (error) {
    if (error instanceof InputSubstitutionError) throw AppError.validation(error.message, 'textValue');
    throw error;
  }
}

/** The inputs the saved flow keeps: those one of its actions still refers to. */
export function referencedInputs(record: BuilderRecord): ExtractorInput[] {
  const used = new Set(
    record.actions.flatMap((action) =>
      canHoldInput(action.step.type) ? inputNamesIn(action.step.options.text ?? '') : [],
    ),
  );
  return record.inputs.filter((input) => used.has(input.name));
}
