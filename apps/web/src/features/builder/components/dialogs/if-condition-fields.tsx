import { Alert, Box, MenuItem, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  IF_SEQUENCE_MAX_DIGITS,
  MESSAGES,
  conditionSources,
  digitsOnly,
  offeredConditions,
  type BuilderAction,
  type Condition,
} from '@pagewright/shared';

export interface IfConditionValue {
  /** Sequence of the GET_* or SCRIPT action whose result is compared; null until chosen. */
  sequenceSource: number | null;
  condition: Condition | '';
  value: string;
}

export const EMPTY_IF_CONDITION: IfConditionValue = { sequenceSource: null, condition: '', value: '' };

type IfConditionField = keyof IfConditionValue;

/** The IF_CONDITION rules (spec §5): an earlier get or script action, an offered condition, a value. */
export function ifConditionErrors(
  value: IfConditionValue,
  actions: readonly BuilderAction[],
  sequence: number,
): Partial<Record<IfConditionField, string>> {
  const errors: Partial<Record<IfConditionField, string>> = {};
  const source = conditionSources(actions, sequence).find(
    (action) => action.sequence === value.sequenceSource,
  );
  if (!source) errors.sequenceSource = MESSAGES['error.required'];
  if (!value.condition) errors.condition = MESSAGES['error.required'];
  else if (!offeredConditions(source).includes(value.condition))
    errors.condition = MESSAGES['error.invalid.value'];
  if (!value.value.trim()) errors.value = MESSAGES['error.required'];
  return errors;
}

/**
 * The next-action sequence of IF_* and IF_CONDITION: digits only, at most 10 (spec §9), and after
 * the action itself (the API refuses a jump backwards).
 */
export function nextSequenceError(text: string, sequence: number): string | undefined {
  if (!text) return MESSAGES['error.required'];
  if (text.length > IF_SEQUENCE_MAX_DIGITS || Number(text) <= sequence)
    return MESSAGES['error.invalid.value'];
  return undefined;
}

export interface NextSequenceFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** The sequence of the action being added or changed. */
  sequence: number;
  showErrors: boolean;
  autoFocus?: boolean;
}

/** Where IF_* and IF_CONDITION go when their condition does not hold. */
export function NextSequenceField({
  value,
  onChange,
  sequence,
  showErrors,
  autoFocus,
}: NextSequenceFieldProps) {
  const { t } = useTranslation();
  const error = showErrors ? nextSequenceError(value, sequence) : undefined;
  return (
    <TextField
      label={t('dialogs.field.next.sequence')}
      value={value}
      required
      autoFocus={autoFocus}
      onChange={(event) => onChange(digitsOnly(event.target.value, IF_SEQUENCE_MAX_DIGITS))}
      error={error !== undefined}
      helperText={error ?? t('dialogs.field.next.sequence.help')}
      slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: IF_SEQUENCE_MAX_DIGITS } }}
    />
  );
}

export interface IfConditionFieldsProps {
  value: IfConditionValue;
  onChange: (value: IfConditionValue) => void;
  /** The current draft: the sources are its GET_* and SCRIPT actions before `sequence`. */
  actions: readonly BuilderAction[];
  /** The sequence of the IF_CONDITION being added or changed. */
  sequence: number;
  showErrors: boolean;
  autoFocus?: boolean;
}

/**
 * IF_CONDITION's comparison: the source action, a condition (the ordering ones only for number and
 * date results, scripts returning NUMBER or DATETIME included) and the value to compare with.
 */
export function IfConditionFields({
  value,
  onChange,
  actions,
  sequence,
  showErrors,
  autoFocus,
}: IfConditionFieldsProps) {
  const { t } = useTranslation();
  const sources = conditionSources(actions, sequence);
  const source = sources.find((action) => action.sequence === value.sequenceSource);
  const conditions = offeredConditions(source);
  const errors = showErrors ? ifConditionErrors(value, actions, sequence) : {};

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {sources.length === 0 && <Alert severity="warning">{t('dialogs.condition.no.sources')}</Alert>}
      <TextField
        select
        label={t('dialogs.condition.source')}
        value={source ? String(source.sequence) : ''}
        required
        autoFocus={autoFocus}
        disabled={sources.length === 0}
        onChange={(event) => {
          const sequenceSource = Number(event.target.value);
          const next = sources.find((action) => action.sequence === sequenceSource);
          // An ordering condition does not survive a switch to a text source.
          const condition =
            value.condition && offeredConditions(next).includes(value.condition) ? value.condition : '';
          onChange({ ...value, sequenceSource, condition });
        }}
        error={errors.sequenceSource !== undefined}
        helperText={errors.sequenceSource}
      >
        {sources.map((action) => (
          <MenuItem key={action.id} value={String(action.sequence)}>
            {t('dialogs.condition.source.option', {
              sequence: action.sequence,
              label: action.label || t(`dialogs.action.type.${action.type}`),
            })}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={t('dialogs.condition.condition')}
        value={value.condition}
        required
        onChange={(event) => onChange({ ...value, condition: event.target.value as Condition })}
        error={errors.condition !== undefined}
        helperText={errors.condition}
      >
        {conditions.map((condition) => (
          <MenuItem key={condition} value={condition}>
            {t(`dialogs.condition.${condition}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label={t('dialogs.condition.value')}
        value={value.value}
        required
        onChange={(event) => onChange({ ...value, value: event.target.value.slice(0, 1024) })}
        error={errors.value !== undefined}
        helperText={errors.value}
      />
    </Box>
  );
}
