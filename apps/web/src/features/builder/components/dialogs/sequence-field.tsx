import { TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { IF_SEQUENCE_MAX_DIGITS, MESSAGES, isSequenceAllowed } from '@pagewright/shared';

/**
 * What a sequence field keeps of typed text: digits and a leading minus, so that a negative number
 * shows the spec's 'Invalid Value' rather than silently losing its sign.
 */
export function sequenceText(typed: string): string {
  const isNegative = typed.trimStart().startsWith('-');
  const digits = typed.replace(/\D/g, '').slice(0, IF_SEQUENCE_MAX_DIGITS);
  return isNegative ? `-${digits}` : digits;
}

/** The spec §5 sequence rule on typed text; `others` are the other actions' sequences. */
export function sequenceError(text: string, others: readonly number[]): string | undefined {
  if (text === '' || text === '-') return MESSAGES['error.required'];
  return isSequenceAllowed(Number(text), others) ? undefined : MESSAGES['error.invalid.value'];
}

export interface SequenceFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The other actions' sequences (the rule's "first" and "used"). */
  others: readonly number[];
  showErrors: boolean;
  disabled?: boolean;
  helperText?: string;
  autoFocus?: boolean;
}

export function SequenceField({
  label,
  value,
  onChange,
  others,
  showErrors,
  disabled = false,
  helperText,
  autoFocus,
}: SequenceFieldProps) {
  const { t } = useTranslation();
  const error = showErrors && !disabled ? sequenceError(value, others) : undefined;
  return (
    <TextField
      label={label}
      value={value}
      required={!disabled}
      disabled={disabled}
      autoFocus={autoFocus}
      onChange={(event) => onChange(sequenceText(event.target.value))}
      error={error !== undefined}
      helperText={error ?? helperText ?? (disabled ? undefined : t('extractor.sequence.change.warning'))}
      slotProps={{ htmlInput: { inputMode: 'numeric' } }}
    />
  );
}
