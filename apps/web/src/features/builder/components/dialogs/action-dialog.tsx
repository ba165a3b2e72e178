import { useState, type ChangeEvent, type ReactNode } from 'react';
import { Alert, Box, Checkbox, FormControlLabel, MenuItem, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  ASK_ACTION_TYPES,
  ACTION_LABEL_MAX_LENGTH,
  ACTION_TIMEOUT_MAX_MS,
  ELEMENT_ACTION_TYPES,
  IF_ELEMENT_ACTION_TYPES,
  JUMP_ACTION_TYPES,
  MESSAGES,
  TIMED_ACTION_TYPES,
  TEXT_FIELD_MAX_LENGTH,
  clampWaitSeconds,
  digitsOnly,
  isAnswerSavable,
  isHttpUrl,
  nextSequence,
  numberMaskRuleError,
  type ActionType,
  type AddActionInput,
  type BuilderAction,
  type ElementTarget,
  type ExtractorType,
} from '@pagewright/shared';
import { PasswordField } from '../../../../components/password-field';
import type { MaskPreviewElement } from '../../api/mask-calls';
import { DateMaskFields, DEFAULT_DATE_MASK, dateMaskErrors, type DateMaskValue } from './date-mask-fields';
import { DialogFrame } from './dialog-frame';
import { FieldSelectionDialog } from './field-selection-dialog';
import {
  EMPTY_IF_CONDITION,
  IfConditionFields,
  NextSequenceField,
  ifConditionErrors,
  nextSequenceError,
  type IfConditionValue,
} from './if-condition-fields';
import { InvestorDialog } from './investor-dialog';
import { DEFAULT_NUMBER_MASK, NumberMaskFields, type NumberMaskValue } from './number-mask-fields';
import { ScriptEditor } from './script-editor';
import { SCRIPT_TEMPLATES, scriptSyntaxError, type ScriptValue } from './script-rules';
import { SequenceField, sequenceError } from './sequence-field';

const ASK_TYPES: readonly ActionType[] = [
  ...ASK_ACTION_TYPES,
  'ASK_F_ENGINE_USER',
  'ASK_F_ENGINE_URL',
  'ASK_F_ENGINE_PASSWORD',
];
/** Asks whose picked area can stand in for the question text (the engine reads the area's text). */
const QUESTION_OPTIONAL_ASKS: readonly ActionType[] = ['ASK_QUESTION', 'ASK_CAPTCHA', 'ASK_RECAPTCHA'];
const SECRET_ASKS: readonly ActionType[] = ['ASK_PASSWORD', 'ASK_CODE', 'ASK_F_ENGINE_PASSWORD'];
const TIMEOUT_MAX_SECONDS = ACTION_TIMEOUT_MAX_MS / 1000;

interface FormState {
  sequence: string;
  label: string;
  /** NAVIGATE's URL, TYPE_TEXT's text, RAISE_ERROR's message, an ask's question. */
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
}

type FormField = Exclude<
  keyof FormState,
  'condition' | 'numberMask' | 'dateMask' | 'script' | 'saveForNextTime'
>;

export interface ActionDialogProps {
  open: boolean;
  mode: 'add' | 'edit';
  actionType: ActionType;
  extractorType: ExtractorType;
  /** The current draft: sequence rules and IF_CONDITION sources. */
  actions: readonly BuilderAction[];
  /** The element picked on the page for element actions; null otherwise (and when editing). */
  target: ElementTarget | null;
  /** Edit mode: the action being changed. */
  action?: BuilderAction | undefined;
  /** CLICK_SELECT: the options of the picked list, when the builder knows them (else a text field). */
  selectOptions?: readonly { label: string; value: string }[] | undefined;
  /** TYPE_F_ENGINE_FIELD: fserviceDTO.sections of the page. */
  fserviceSections?: readonly unknown[] | undefined;
  onCancel(): void;
  /**
   * The action as POST /extractor/ takes it. In edit mode `sequence` is the action's own (send it as
   * a ChangeActionRequest). GET_TABLE's `options.table` holds only the name (selectors empty, no
   * columns): the builder completes it with GetTablePanel's result. The dialog shows a spinner while
   * the promise runs and stays open if it rejects.
   */
  onConfirm(input: AddActionInput): void | Promise<void>;
}

/** Actions that wait a bounded time: element waits and conditions, and Check text (no element). */
const isTimed = (type: ActionType): boolean => TIMED_ACTION_TYPES.includes(type) || type === 'CHECK_TEXT';

/** The field that gets the focus when the dialog opens: the one the type is about. */
function firstFieldOf(type: ActionType, isSequenceEditable: boolean): keyof FormState {
  switch (type) {
    case 'NAVIGATE':
    case 'TYPE_TEXT':
    case 'RAISE_ERROR':
    case 'CHECK_TEXT':
      return 'text';
    case 'GET_TABLE':
      return 'tableName';
    case 'TYPE_PASSWORD':
      return 'password';
    case 'CLICK_SELECT':
      return 'option';
    case 'WAIT':
      return 'seconds';
    case 'IF_CONDITION':
      return 'condition';
    case 'GET_NUMBER':
      return 'numberMask';
    case 'GET_DATE':
      return 'dateMask';
    case 'SCRIPT':
      return 'script';
    default:
      if (ASK_TYPES.includes(type)) return 'text';
      if (IF_ELEMENT_ACTION_TYPES.includes(type)) return 'nextSequence';
      if (TIMED_ACTION_TYPES.includes(type)) return 'timeout';
      return isSequenceEditable ? 'sequence' : 'label';
  }
}

function initialForm({ mode, actions, action }: ActionDialogProps): FormState {
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
  };
}

/**
 * The Add Action / Edit Action dialog (spec §2, §5): the sequence and label of every action plus
 * the fields of its type, checked by the spec's rules as the user confirms. ASK_F_ENGINE_INVESTOR
 * and TYPE_F_ENGINE_FIELD open their own selection dialogs. Fresh state on each open.
 */
export function ActionDialog(props: ActionDialogProps) {
  if (!props.open) return null;
  if (props.actionType === 'ASK_F_ENGINE_INVESTOR') return <InvestorDialog open onCancel={props.onCancel} />;
  if (props.actionType === 'TYPE_F_ENGINE_FIELD') {
    const { mode, action, actions, target, onConfirm } = props;
    return (
      <FieldSelectionDialog
        open
        sections={props.fserviceSections ?? []}
        onCancel={props.onCancel}
        onConfirm={(field) =>
          onConfirm({
            type: 'TYPE_F_ENGINE_FIELD',
            sequence:
              mode === 'edit' && action ? action.sequence : nextSequence(actions.map((a) => a.sequence)),
            textValue: field,
            ...(target ? { target } : {}),
          })
        }
      />
    );
  }
  return <OpenActionDialog {...props} />;
}

function OpenActionDialog(props: ActionDialogProps) {
  const {
    mode,
    actionType: type,
    extractorType,
    actions,
    target,
    action,
    selectOptions,
    onCancel,
    onConfirm,
  } = props;
  const { t } = useTranslation();
  const [form, setForm] = useState(() => initialForm(props));
  const [showErrors, setShowErrors] = useState(false);
  const set = <K extends keyof FormState>(field: K, value: FormState[K]) =>
    setForm((current) => ({ ...current, [field]: value }));

  const isEdit = mode === 'edit' && action !== undefined;
  const isFirstAction = !isEdit && actions.length === 0;
  const others = actions.filter((other) => other.id !== action?.id).map((other) => other.sequence);
  const sequence = isEdit ? action.sequence : Number(form.sequence);
  const element: ElementTarget | null =
    target ??
    (action?.selectorValue
      ? {
          selectorType: action.selectorType,
          selectorValue: action.selectorValue,
          xpathValue: action.xpathValue ?? undefined,
          framePath: action.framePath,
          fallbackLocators: action.fallbackLocators,
        }
      : null);
  const previewElement: MaskPreviewElement | null = element
    ? { selectorValue: element.selectorValue, xpathValue: element.xpathValue }
    : null;
  const isElementMissing = ELEMENT_ACTION_TYPES.includes(type) && element === null;
  const isWrongFirst = isFirstAction && type !== 'NAVIGATE';
  const isAsk = ASK_TYPES.includes(type);
  const listOptions = selectOptions ?? action?.options.select?.options ?? [];

  const errors: Partial<Record<FormField, string>> = {};
  const required = MESSAGES['error.required'];
  if (!isEdit && !isFirstAction) errors.sequence = sequenceError(form.sequence, others);
  switch (type) {
    case 'NAVIGATE':
      if (!isHttpUrl(form.text.trim())) errors.text = MESSAGES['error.invalid.url'];
      break;
    case 'TYPE_TEXT':
    case 'RAISE_ERROR':
    case 'CHECK_TEXT':
      if (!form.text.trim()) errors.text = required;
      break;
    case 'TYPE_PASSWORD':
      if (!form.password && !action?.hasCredentials) errors.password = required;
      break;
    case 'CLICK_SELECT':
      if (!form.option) errors.option = required;
      break;
    case 'GET_TABLE':
      if (!form.tableName.trim()) errors.tableName = required;
      break;
    default:
      if (isAsk && !QUESTION_OPTIONAL_ASKS.includes(type) && !form.text.trim()) errors.text = required;
  }
  if (JUMP_ACTION_TYPES.includes(type)) errors.nextSequence = nextSequenceError(form.nextSequence, sequence);
  if (isTimed(type) && form.timeout !== '' && Number(form.timeout) > TIMEOUT_MAX_SECONDS)
    errors.timeout = MESSAGES['error.invalid.value'];
  const hasNestedErrors =
    (type === 'IF_CONDITION' &&
      Object.keys(ifConditionErrors(form.condition, actions, sequence)).length > 0) ||
    (type === 'GET_NUMBER' && numberMaskRuleError(form.numberMask) !== null) ||
    (type === 'GET_DATE' && Object.keys(dateMaskErrors(form.dateMask)).length > 0) ||
    (type === 'SCRIPT' && (!form.script.script.trim() || scriptSyntaxError(form.script.script) !== null));
  const hasErrors = Object.values(errors).some((error) => error !== undefined) || hasNestedErrors;
  const shown = showErrors ? errors : {};

  const toInput = (): AddActionInput => {
    const options: NonNullable<AddActionInput['options']> = {};
    const input: AddActionInput = { type, sequence, options };
    const label = form.label.trim();
    if (label) input.label = label;
    if (target) input.target = target;
    switch (type) {
      case 'NAVIGATE':
        input.textValue = form.text.trim();
        break;
      case 'TYPE_TEXT':
        input.textValue = form.text;
        break;
      case 'RAISE_ERROR':
      case 'CHECK_TEXT':
        input.textValue = form.text.trim();
        break;
      case 'TYPE_PASSWORD':
        if (form.password) input.credentials = form.password;
        break;
      case 'CLICK_SELECT':
        options.select = { option: form.option, options: [...listOptions] };
        break;
      case 'WAIT': {
        const seconds = clampWaitSeconds(form.seconds);
        options.number = seconds;
        input.textValue = String(seconds);
        break;
      }
      case 'GET_TABLE': {
        const table = action?.options.table;
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
      case 'IF_CONDITION':
        if (form.condition.sequenceSource !== null && form.condition.condition)
          options.condition = {
            sequenceSource: form.condition.sequenceSource,
            condition: form.condition.condition,
            value: form.condition.value.trim(),
          };
        break;
      case 'GET_NUMBER':
        options.numberFormat = form.numberMask;
        break;
      case 'GET_DATE':
        options.datetimeFormat = { mask: form.dateMask.mask.trim(), gmt: form.dateMask.gmt };
        break;
      case 'SCRIPT':
        options.script = form.script;
        break;
      default:
        break;
    }
    if (JUMP_ACTION_TYPES.includes(type)) options.sequenceDestination = Number(form.nextSequence);
    if (isTimed(type) && form.timeout !== '') options.timeoutMs = Number(form.timeout) * 1000;
    if (isAsk) {
      const question = form.text.trim();
      if (question) input.textValue = question;
      if (!isEdit && form.answer) input.credentials = form.answer;
      if (isAnswerSavable(type)) input.saveOptionsFlag = form.saveForNextTime;
    }
    return input;
  };

  const firstField = firstFieldOf(type, !isEdit && !isFirstAction);
  const textField = (field: FormField, label: string) => (
    <TextField
      label={label}
      value={form[field]}
      required
      autoFocus={firstField === field}
      onChange={(event) => set(field, event.target.value.slice(0, TEXT_FIELD_MAX_LENGTH))}
      error={shown[field] !== undefined}
      helperText={shown[field]}
    />
  );

  const typeFields: ReactNode[] = [];
  switch (type) {
    case 'NAVIGATE':
      typeFields.push(<Box key="url">{textField('text', t('dialogs.field.url'))}</Box>);
      break;
    case 'TYPE_TEXT':
      typeFields.push(<Box key="text">{textField('text', t('dialogs.field.text'))}</Box>);
      break;
    case 'RAISE_ERROR':
      typeFields.push(<Box key="message">{textField('text', t('dialogs.field.error.message'))}</Box>);
      break;
    case 'CHECK_TEXT':
      typeFields.push(<Box key="expected">{textField('text', t('dialogs.field.expected.text'))}</Box>);
      break;
    case 'GET_TABLE':
      typeFields.push(<Box key="table">{textField('tableName', t('dialogs.field.table.name'))}</Box>);
      break;
    case 'TYPE_PASSWORD':
      typeFields.push(
        <PasswordField
          key="password"
          label={t('dialogs.field.password')}
          autoComplete="off"
          value={form.password}
          required={!action?.hasCredentials}
          autoFocus={firstField === 'password'}
          onChange={(event) => set('password', event.target.value.slice(0, TEXT_FIELD_MAX_LENGTH))}
          error={shown.password !== undefined}
          helperText={
            shown.password ?? (action?.hasCredentials ? t('dialogs.field.password.keep') : undefined)
          }
        />,
      );
      break;
    case 'CLICK_SELECT':
      typeFields.push(
        listOptions.length > 0 ? (
          <TextField
            key="option"
            select
            label={t('dialogs.field.option')}
            value={form.option}
            required
            autoFocus={firstField === 'option'}
            onChange={(event) => set('option', event.target.value)}
            error={shown.option !== undefined}
            helperText={shown.option}
          >
            {listOptions.map((option) => (
              <MenuItem key={option.value} value={option.value}>
                {option.label}
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <Box key="option">{textField('option', t('dialogs.field.option'))}</Box>
        ),
      );
      break;
    case 'WAIT':
      typeFields.push(
        <TextField
          key="seconds"
          label={t('dialogs.field.seconds')}
          value={form.seconds}
          placeholder="0"
          autoFocus={firstField === 'seconds'}
          // Digits only, clamped to 0–60 as typed; empty counts as 0.
          onChange={(event) => {
            const digits = digitsOnly(event.target.value, 3);
            set('seconds', digits === '' ? '' : String(clampWaitSeconds(digits)));
          }}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />,
      );
      break;
    case 'IF_CONDITION':
      typeFields.push(
        <IfConditionFields
          key="condition"
          value={form.condition}
          onChange={(condition) => set('condition', condition)}
          actions={actions}
          sequence={sequence}
          showErrors={showErrors}
          autoFocus={firstField === 'condition'}
        />,
      );
      break;
    case 'GET_NUMBER':
      typeFields.push(
        <NumberMaskFields
          key="number"
          value={form.numberMask}
          onChange={(mask) => set('numberMask', mask)}
          element={previewElement}
          extractorType={extractorType}
          showErrors={showErrors}
          autoFocus={firstField === 'numberMask'}
        />,
      );
      break;
    case 'GET_DATE':
      typeFields.push(
        <DateMaskFields
          key="date"
          value={form.dateMask}
          onChange={(mask) => set('dateMask', mask)}
          element={previewElement}
          extractorType={extractorType}
          showErrors={showErrors}
          autoFocus={firstField === 'dateMask'}
        />,
      );
      break;
    case 'SCRIPT':
      typeFields.push(
        <ScriptEditor
          key="script"
          value={form.script}
          onChange={(script) => set('script', script)}
          requiredError={showErrors && !form.script.script.trim() ? MESSAGES['error.required'] : undefined}
          autoFocus={firstField === 'script'}
        />,
      );
      break;
    default:
      break;
  }
  if (isAsk) {
    typeFields.push(
      <TextField
        key="question"
        label={t('dialogs.field.question')}
        value={form.text}
        required={!QUESTION_OPTIONAL_ASKS.includes(type)}
        autoFocus={firstField === 'text'}
        onChange={(event) => set('text', event.target.value.slice(0, TEXT_FIELD_MAX_LENGTH))}
        error={shown.text !== undefined}
        helperText={shown.text}
      />,
    );
    if (!isEdit && target && type !== 'ASK_RECAPTCHA') {
      const answerProps = {
        label: t('dialogs.field.answer'),
        value: form.answer,
        autoComplete: 'off',
        onChange: (event: ChangeEvent<HTMLInputElement>) =>
          set('answer', event.target.value.slice(0, TEXT_FIELD_MAX_LENGTH)),
        helperText: t('dialogs.field.answer.help'),
      };
      typeFields.push(
        SECRET_ASKS.includes(type) ? (
          <PasswordField key="answer" {...answerProps} />
        ) : (
          <TextField key="answer" {...answerProps} />
        ),
      );
    }
    if (isAnswerSavable(type))
      typeFields.push(
        <FormControlLabel
          key="save"
          control={
            <Checkbox
              checked={form.saveForNextTime}
              onChange={(event) => set('saveForNextTime', event.target.checked)}
            />
          }
          label={t('dialogs.field.save.next.time')}
        />,
      );
  }
  if (JUMP_ACTION_TYPES.includes(type))
    typeFields.push(
      <NextSequenceField
        key="next"
        value={form.nextSequence}
        onChange={(value) => set('nextSequence', value)}
        sequence={sequence}
        showErrors={showErrors}
        autoFocus={firstField === 'nextSequence'}
      />,
    );
  if (isTimed(type))
    typeFields.push(
      <TextField
        key="timeout"
        label={t('dialogs.field.timeout')}
        value={form.timeout}
        autoFocus={firstField === 'timeout'}
        onChange={(event) => set('timeout', digitsOnly(event.target.value, 3))}
        error={shown.timeout !== undefined}
        helperText={shown.timeout ?? t('dialogs.field.timeout.help')}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      />,
    );

  const typeName = t(`dialogs.action.type.${type}`);
  return (
    <DialogFrame
      open
      title={t(isEdit ? 'dialogs.edit.title' : 'dialogs.add.title', { type: typeName })}
      onCancel={onCancel}
      isConfirmDisabled={isWrongFirst || isElementMissing}
      maxWidth={type === 'SCRIPT' ? 'md' : 'sm'}
      onSubmit={() => {
        setShowErrors(true);
        if (hasErrors) return false;
        return onConfirm(toInput());
      }}
    >
      {isWrongFirst && <Alert severity="warning">{t('extractor.first.action.navigate')}</Alert>}
      {isElementMissing && <Alert severity="warning">{t('dialogs.target.missing')}</Alert>}
      {element && (
        <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
          {t('dialogs.target.element', { selector: element.selectorValue })}
        </Typography>
      )}
      {typeFields}
      <Box sx={{ display: 'grid', gridTemplateColumns: '160px 1fr', gap: 2 }}>
        <SequenceField
          label={t('dialogs.field.sequence')}
          value={form.sequence}
          onChange={(value) => set('sequence', value)}
          others={others}
          showErrors={showErrors}
          disabled={isEdit || isFirstAction}
          helperText={isFirstAction ? t('dialogs.first.action') : isEdit ? undefined : ' '}
          autoFocus={firstField === 'sequence'}
        />
        <TextField
          label={t('dialogs.field.label')}
          value={form.label}
          autoFocus={firstField === 'label'}
          onChange={(event) => set('label', event.target.value.slice(0, ACTION_LABEL_MAX_LENGTH))}
        />
      </Box>
    </DialogFrame>
  );
}
