import type { ChangeEvent } from 'react';
import { Box, Checkbox, FormControlLabel, MenuItem, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  INPUT_TYPES,
  MESSAGES,
  TEXT_FIELD_MAX_LENGTH,
  clampWaitSeconds,
  digitsOnly,
  type ExtractorType,
} from '@pagewright/shared';
import { PasswordField } from '../../../../components/password-field';
import type { MaskPreviewElement } from '../../api/mask-calls';
import type { ActionForm, ActionFormContext, ActionFormErrors, ActionFormField } from './action-dialog-state';
import type { ActionField } from './action-fields';
import { DateMaskFields } from './date-mask-fields';
import { IfConditionFields, NextSequenceField } from './if-condition-fields';
import { NumberMaskFields } from './number-mask-fields';
import { ScriptEditor } from './script-editor';

/** What every field of the dialog reads and writes. */
export interface ActionFieldView {
  form: ActionForm;
  set: <K extends keyof ActionForm>(part: K, value: ActionForm[K]) => void;
  context: ActionFormContext;
  /** The errors to show: none until the user first confirms. */
  shown: ActionFormErrors;
  showErrors: boolean;
  /** The part of the form that gets the focus when the dialog opens. */
  firstField: keyof ActionForm;
  /** The element the masks preview their value on. */
  previewElement: MaskPreviewElement | null;
  extractorType: ExtractorType;
}

/** One field of the registry (action-fields.ts) as the dialog shows it. */
export function ActionFieldInput({ field, view }: { field: ActionField; view: ActionFieldView }) {
  const { t } = useTranslation();
  const { form, set, context, shown, showErrors, firstField } = view;
  const limited = (part: ActionFormField) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    set(part, event.target.value.slice(0, TEXT_FIELD_MAX_LENGTH));
  const requiredText = (part: ActionFormField, label: string) => (
    <Box>
      <TextField
        label={label}
        value={form[part]}
        required
        autoFocus={firstField === part}
        onChange={limited(part)}
        error={shown[part] !== undefined}
        helperText={shown[part]}
      />
    </Box>
  );

  switch (field.kind) {
    case 'url':
      return requiredText('text', t('dialogs.field.url'));
    case 'text':
      return requiredText('text', t(field.label));
    case 'tableName':
      return requiredText('tableName', t('dialogs.field.table.name'));
    case 'password': {
      const hasCredentials = context.action?.hasCredentials ?? false;
      return (
        <PasswordField
          label={t('dialogs.field.password')}
          autoComplete="off"
          value={form.password}
          required={!hasCredentials}
          autoFocus={firstField === 'password'}
          onChange={limited('password')}
          error={shown.password !== undefined}
          helperText={shown.password ?? (hasCredentials ? t('dialogs.field.password.keep') : undefined)}
        />
      );
    }
    case 'option':
      if (context.listOptions.length === 0) return requiredText('option', t('dialogs.field.option'));
      return (
        <TextField
          select
          label={t('dialogs.field.option')}
          value={form.option}
          required
          autoFocus={firstField === 'option'}
          onChange={(event) => set('option', event.target.value)}
          error={shown.option !== undefined}
          helperText={shown.option}
        >
          {context.listOptions.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      );
    case 'seconds':
      return (
        <TextField
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
        />
      );
    case 'condition':
      return (
        <IfConditionFields
          value={form.condition}
          onChange={(condition) => set('condition', condition)}
          actions={context.actions}
          sequence={context.sequence}
          showErrors={showErrors}
          autoFocus={firstField === 'condition'}
        />
      );
    case 'numberMask':
      return (
        <NumberMaskFields
          value={form.numberMask}
          onChange={(mask) => set('numberMask', mask)}
          element={view.previewElement}
          extractorType={view.extractorType}
          showErrors={showErrors}
          autoFocus={firstField === 'numberMask'}
        />
      );
    case 'dateMask':
      return (
        <DateMaskFields
          value={form.dateMask}
          onChange={(mask) => set('dateMask', mask)}
          element={view.previewElement}
          extractorType={view.extractorType}
          showErrors={showErrors}
          autoFocus={firstField === 'dateMask'}
        />
      );
    case 'script':
      return (
        <ScriptEditor
          value={form.script}
          onChange={(script) => set('script', script)}
          requiredError={showErrors && !form.script.script.trim() ? MESSAGES['error.required'] : undefined}
          autoFocus={firstField === 'script'}
        />
      );
    case 'question':
      return (
        <TextField
          label={t('dialogs.field.question')}
          value={form.text}
          required={field.isRequired}
          autoFocus={firstField === 'text'}
          onChange={limited('text')}
          error={shown.text !== undefined}
          helperText={shown.text}
        />
      );
    case 'answer': {
      // Only while adding: typed into the picked element as the action is recorded, or (sign-in
      // asks, no element) used to sign the builder in to the F-engine.
      if (context.isEdit || (field.isTypedIntoPage && !context.target)) return null;
      const answerProps = {
        label: t('dialogs.field.answer'),
        value: form.answer,
        autoComplete: 'off',
        onChange: limited('answer'),
        error: shown.answer !== undefined,
        helperText:
          shown.answer ??
          t(field.isTypedIntoPage ? 'dialogs.field.answer.help' : 'dialogs.field.answer.engine.help'),
      };
      if (field.input === 'secret') return <PasswordField {...answerProps} />;
      return (
        <TextField
          {...answerProps}
          {...(field.input === 'url'
            ? { placeholder: 'https://', slotProps: { htmlInput: { inputMode: 'url' as const } } }
            : {})}
        />
      );
    }
    case 'saveForNextTime':
      return (
        <FormControlLabel
          control={
            <Checkbox
              checked={form.saveForNextTime}
              onChange={(event) => set('saveForNextTime', event.target.checked)}
            />
          }
          label={t('dialogs.field.save.next.time')}
        />
      );
    case 'makeInput':
      return (
        <Box>
          <FormControlLabel
            control={
              <Checkbox checked={form.isInput} onChange={(event) => set('isInput', event.target.checked)} />
            }
            label={t('dialogs.field.make.input')}
          />
          {form.isInput && (
            <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 180px', gap: 2, mt: 1 }}>
              <TextField
                label={t('dialogs.field.input.name')}
                value={form.inputName}
                required
                onChange={(event) => set('inputName', event.target.value.slice(0, 40))}
                error={shown.inputName !== undefined}
                helperText={shown.inputName ?? t('dialogs.field.make.input.help')}
              />
              <TextField
                select
                label={t('dialogs.field.input.type')}
                value={form.inputType}
                onChange={(event) => set('inputType', event.target.value as ActionForm['inputType'])}
              >
                {INPUT_TYPES.map((inputType) => (
                  <MenuItem key={inputType} value={inputType}>
                    {t(`inputs.type.${inputType}`)}
                  </MenuItem>
                ))}
              </TextField>
            </Box>
          )}
        </Box>
      );
    case 'nextSequence':
      return (
        <NextSequenceField
          value={form.nextSequence}
          onChange={(value) => set('nextSequence', value)}
          sequence={context.sequence}
          showErrors={showErrors}
          autoFocus={firstField === 'nextSequence'}
        />
      );
    case 'timeout':
      return (
        <TextField
          label={t('dialogs.field.timeout')}
          value={form.timeout}
          autoFocus={firstField === 'timeout'}
          onChange={(event) => set('timeout', digitsOnly(event.target.value, 3))}
          error={shown.timeout !== undefined}
          helperText={shown.timeout ?? t('dialogs.field.timeout.help')}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      );
  }
}
