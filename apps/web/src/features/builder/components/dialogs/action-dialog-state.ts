import {
  ACTION_TIMEOUT_MAX_MS,
  MESSAGES,
  INPUT_MESSAGES,
  INPUT_NAME_PATTERN,
  clampWaitSeconds,
  inputNamesIn,
  isHttpUrl,
  isInputValueValid,
  inputValueMessage,
  nextSequence,
  numberMaskRuleError,
  type ActionType,
  type AddActionInput,
  type BuilderAction,
  type ElementTarget,
  type InputType,
} from '@pagewright/shared';
import { ACTION_FIELDS, type ActionField } from './action-fields';
import { DEFAULT_DATE_MASK, dateMaskErrors, type DateMaskValue } from './date-mask-fields';
import {
  EMPTY_IF_CONDITION,
  ifConditionErrors,
  nextSequenceError,
  type IfConditionValue,
} from './if-condition-fields';
import { DEFAULT_NUMBER_MASK, type NumberMaskValue } from './number-mask-fields';
import { SCRIPT_TEMPLATES, scriptSyntaxError, type ScriptValue } from './script-rules';
import { sequenceError } from './sequence-field';

const TIMEOUT_MAX_SECONDS = ACTION_TIMEOUT_MAX_MS / 1000;

/** What the Add/Edit Action dialog holds as typed; each field of action-fields.ts owns one part. */
export interface ActionForm {
  sequence: string;
  label: string;
  /** NAVIGATE's URL, TYPE_TEXT's text, RAISE_ERROR's message, CHECK_TEXT's text, an ask's question. */
  text: string;
  password: string;
  option: string;
  seconds: string;
  tableName: string;
  nextSequence: string;
  timeout: string;
  answer: string;
  saveForNextTime: boolean;
  condition: IfConditionValue;
  numberMask: NumberMaskValue;
  dateMask: DateMaskValue;
  script: ScriptValue;
  /** "Make this an input" is ticked: the text is sent as the input's default. */
  isInput: boolean;
  inputName: string;
  inputType: InputType;
}

/** The parts of the form checked here; the others check themselves (their components show why). */
export type ActionFormField = Exclude<
  keyof ActionForm,
  'condition' | 'numberMask' | 'dateMask' | 'script' | 'saveForNextTime' | 'isInput' | 'inputType'
>;

export type ActionFormErrors = Partial<Record<ActionFormField, string>>;

/** The dialog's props the form reads (ActionDialogProps tells what each one is). */
export interface ActionFormProps {
  mode: 'add' | 'edit';
  actionType: ActionType;
  actions: readonly BuilderAction[];
  target: ElementTarget | null;
  action?: BuilderAction | undefined;
  selectOptions?: readonly { label: string; value: string }[] | undefined;
}

/** What the rules read besides the form: the dialog's props and what follows from them. */
export interface ActionFormContext {
  type: ActionType;
  fields: readonly ActionField[];
  /** Edit mode with its action: the sequence is the action's own and cannot change. */
  isEdit: boolean;
  /** The draft is empty: the sequence is fixed and the action must be Navigate. */
  isFirstAction: boolean;
  /** The sequence of the action being added or changed. */
  sequence: number;
  /** The other actions' sequences. */
  others: readonly number[];
  actions: readonly BuilderAction[];
  action: BuilderAction | undefined;
  /** The element picked on the page (add mode). */
  target: ElementTarget | null;
  /** CLICK_SELECT: the options of the picked list, or those stored with the action. */
  listOptions: readonly { label: string; value: string }[];
}

export function initialActionForm(props: ActionFormProps): ActionForm {
  const { mode, actions, action } = props;
  const options = action?.options ?? {};
  const condition = options.condition;
  return {
    sequence: String(
      mode === 'edit' && action ? action.sequence : nextSequence(actions.map((a) => a.sequence)),
    ),
    label: action?.label ?? '',
    text: action?.textValue ?? '',
    password: '',
    option: options.select?.option ?? '',
    seconds: options.number !== undefined ? String(options.number) : '',
    tableName: options.table?.name ?? '',
    nextSequence: options.sequenceDestination !== undefined ? String(options.sequenceDestination) : '',
    timeout: options.timeoutMs !== undefined ? String(Math.round(options.timeoutMs / 1000)) : '',
    answer: '',
    saveForNextTime: action?.saveOptionsFlag ?? false,
    condition: condition
      ? { sequenceSource: condition.sequenceSource, condition: condition.condition, value: condition.value }
      : EMPTY_IF_CONDITION,
    numberMask: { ...DEFAULT_NUMBER_MASK, ...options.numberFormat },
    dateMask: options.datetimeFormat ?? DEFAULT_DATE_MASK,
    script: options.script ?? { script: SCRIPT_TEMPLATES.TEXT, returnType: 'TEXT' },
    isInput: false,
    inputName: '',
    inputType: mode === 'add' && props.actionType === 'NAVIGATE' ? 'URL' : 'TEXT',
  };
}

export function actionFormContext(props: ActionFormProps, form: ActionForm): ActionFormContext {
  const { mode, actionType: type, actions, action, target, selectOptions } = props;
  const isEdit = mode === 'edit' && action !== undefined;
  return {
    type,
    fields: ACTION_FIELDS[type],
    isEdit,
    isFirstAction: !isEdit && actions.length === 0,
    sequence: isEdit ? action.sequence : Number(form.sequence),
    others: actions.filter((other) => other.id !== action?.id).map((other) => other.sequence),
    actions,
    action,
    target,
    listOptions: selectOptions ?? action?.options.select?.options ?? [],
  };
}

/** The element the action is about: the one picked now, else the one stored with the edited action. */
export function actionElement(
  target: ElementTarget | null,
  action: BuilderAction | undefined,
): ElementTarget | null {
  if (target) return target;
  if (!action?.selectorValue) return null;
  return {
    selectorType: action.selectorType,
    selectorValue: action.selectorValue,
    xpathValue: action.xpathValue ?? undefined,
    framePath: action.framePath,
    fallbackLocators: action.fallbackLocators,
  };
}

/** The part of the form a field edits, which gets the focus when the field comes first. */
const PART_OF = {
  url: 'text',
  text: 'text',
  password: 'password',
  option: 'option',
  seconds: 'seconds',
  tableName: 'tableName',
  condition: 'condition',
  numberMask: 'numberMask',
  dateMask: 'dateMask',
  script: 'script',
  question: 'text',
  answer: 'answer',
  saveForNextTime: 'saveForNextTime',
  nextSequence: 'nextSequence',
  timeout: 'timeout',
  makeInput: 'inputName',
} as const satisfies Record<ActionField['kind'], keyof ActionForm>;

/** The part that gets the focus when the dialog opens: the type's first field, else the sequence or label. */
export function firstFieldOf(fields: readonly ActionField[], isSequenceEditable: boolean): keyof ActionForm {
  const [first] = fields;
  if (first) return PART_OF[first.kind];
  return isSequenceEditable ? 'sequence' : 'label';
}

/** Checks a field that shows its error under it, writing the error into `errors`. */
function checkField(
  field: ActionField,
  form: ActionForm,
  context: ActionFormContext,
  errors: ActionFormErrors,
) {
  const required = MESSAGES['error.required'];
  switch (field.kind) {
    case 'url':
      // A URL that already holds an input is checked with the input's default, by the builder.
      if (!isHttpUrl(form.text.trim()) && inputNamesIn(form.text).length === 0)
        errors.text = MESSAGES['error.invalid.url'];
      break;
    case 'text':
      if (!form.text.trim()) errors.text = required;
      break;
    case 'question':
      if (field.isRequired && !form.text.trim()) errors.text = required;
      break;
    case 'answer':
      if (field.input === 'url' && form.answer.trim() && !isHttpUrl(form.answer.trim()))
        errors.answer = MESSAGES['error.invalid.url'];
      break;
    case 'password':
      if (!form.password && !context.action?.hasCredentials) errors.password = required;
      break;
    case 'option':
      if (!form.option) errors.option = required;
      break;
    case 'tableName':
      if (!form.tableName.trim()) errors.tableName = required;
      break;
    case 'nextSequence':
      errors.nextSequence = nextSequenceError(form.nextSequence, context.sequence);
      break;
    case 'timeout':
      if (form.timeout !== '' && Number(form.timeout) > TIMEOUT_MAX_SECONDS)
        errors.timeout = MESSAGES['error.invalid.value'];
      break;
    case 'makeInput':
      if (!form.isInput) break;
      if (!INPUT_NAME_PATTERN.test(form.inputName)) errors.inputName = INPUT_MESSAGES.nameFormat;
      else if (inputNamesIn(form.text).length === 0 && !isInputValueValid(form.inputType, form.text.trim()))
        errors.inputName = inputValueMessage(form.inputName, form.inputType);
      break;
    // Nothing to check, or checked where the field shows its own errors (hasOwnError).
    case 'seconds':
    case 'condition':
    case 'numberMask':
    case 'dateMask':
    case 'script':
    case 'saveForNextTime':
      break;
  }
}

/** Whether a field that shows its own errors (condition, masks, script) holds one. */
function hasOwnError(field: ActionField, form: ActionForm, context: ActionFormContext): boolean {
  switch (field.kind) {
    case 'condition':
      return Object.keys(ifConditionErrors(form.condition, context.actions, context.sequence)).length > 0;
    case 'numberMask':
      return numberMaskRuleError(form.numberMask) !== null;
    case 'dateMask':
      return Object.keys(dateMaskErrors(form.dateMask)).length > 0;
    case 'script':
      return !form.script.script.trim() || scriptSyntaxError(form.script.script) !== null;
    case 'url':
    case 'text':
    case 'password':
    case 'option':
    case 'seconds':
    case 'tableName':
    case 'question':
    case 'answer':
    case 'saveForNextTime':
    case 'nextSequence':
    case 'timeout':
    case 'makeInput':
      return false;
  }
}

/** The spec's rules on the form (§5): the errors to show under the fields, and whether any holds. */
export function actionFormErrors(
  form: ActionForm,
  context: ActionFormContext,
): { errors: ActionFormErrors; hasErrors: boolean } {
  const errors: ActionFormErrors = {};
  if (!context.isEdit && !context.isFirstAction)
    errors.sequence = sequenceError(form.sequence, context.others);
  for (const field of context.fields) checkField(field, form, context, errors);
  const hasErrors =
    Object.values(errors).some((error) => error !== undefined) ||
    context.fields.some((field) => hasOwnError(field, form, context));
  return { errors, hasErrors };
}

/** Writes what one field holds into the action as POST /extractor/ takes it. */
function writeField(
  field: ActionField,
  form: ActionForm,
  context: ActionFormContext,
  input: AddActionInput,
  options: NonNullable<AddActionInput['options']>,
) {
  switch (field.kind) {
    case 'url':
      input.textValue = form.text.trim();
      break;
    case 'text':
      input.textValue = field.isTrimmed ? form.text.trim() : form.text;
      break;
    case 'password':
      if (form.password) input.credentials = form.password;
      break;
    case 'option':
      options.select = { option: form.option, options: [...context.listOptions] };
      break;
    case 'seconds': {
      const seconds = clampWaitSeconds(form.seconds);
      options.number = seconds;
      input.textValue = String(seconds);
      break;
    }
    case 'tableName': {
      const table = context.action?.options.table;
      options.table = {
        name: form.tableName.trim(),
        tableSelector: table?.tableSelector ?? '',
        rowSelector: table?.rowSelector ?? '',
        columns: table?.columns ?? [],
        ...(table?.nextPageSelector ? { nextPageSelector: table.nextPageSelector } : {}),
        ...(table?.maxPages ? { maxPages: table.maxPages } : {}),
      };
      break;
    }
    case 'condition':
      if (form.condition.sequenceSource !== null && form.condition.condition)
        options.condition = {
          sequenceSource: form.condition.sequenceSource,
          condition: form.condition.condition,
          value: form.condition.value.trim(),
        };
      break;
    case 'numberMask':
      options.numberFormat = form.numberMask;
      break;
    case 'dateMask':
      options.datetimeFormat = { mask: form.dateMask.mask.trim(), gmt: form.dateMask.gmt };
      break;
    case 'script':
      options.script = form.script;
      break;
    case 'question': {
      const question = form.text.trim();
      if (question) input.textValue = question;
      break;
    }
    case 'answer':
      // Given while recording only; an edit never sends one.
      if (!context.isEdit && form.answer)
        input.credentials = field.input === 'url' ? form.answer.trim() : form.answer;
      break;
    case 'saveForNextTime':
      input.saveOptionsFlag = form.saveForNextTime;
      break;
    case 'nextSequence':
      options.sequenceDestination = Number(form.nextSequence);
      break;
    case 'timeout':
      if (form.timeout !== '') options.timeoutMs = Number(form.timeout) * 1000;
      break;
    case 'makeInput':
      if (form.isInput) input.makeInput = { name: form.inputName, type: form.inputType };
      break;
  }
}

/**
 * The action as POST /extractor/ takes it. GET_TABLE's `options.table` holds only the name (and
 * what the edited action had): the builder completes it with GetTablePanel's result.
 */
export function toActionInput(form: ActionForm, context: ActionFormContext): AddActionInput {
  const options: NonNullable<AddActionInput['options']> = {};
  const input: AddActionInput = { type: context.type, sequence: context.sequence, options };
  const label = form.label.trim();
  if (label) input.label = label;
  if (context.target) input.target = context.target;
  for (const field of context.fields) writeField(field, form, context, input, options);
  return input;
}
