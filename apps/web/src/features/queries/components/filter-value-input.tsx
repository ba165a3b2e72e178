import { Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { OperatorValueType } from '@pagewright/shared';
import { joinRange, splitRange } from '../filter-rules';

/**
 * The value of a filter, as its operator wants it (data spec §5): a text, a number, a date
 * (YYYY-MM-DD, operators 13-18), two dates joined "from;to" (between), a ";"-separated list, or
 * nothing at all (operators 22-28).
 */
export function FilterValueInput({
  valueType,
  value,
  number,
  error,
  onChange,
}: {
  valueType: OperatorValueType;
  value: string;
  /** The filter row's number, for the inputs' accessible names. */
  number: number;
  error?: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const isError = error !== undefined;

  if (valueType === 'NONE') return null;

  if (valueType === 'DATE_RANGE') {
    const [from, to] = splitRange(value);
    return (
      <Stack direction="row" spacing={1}>
        <TextField
          size="small"
          type="date"
          label={t('queries.filters.from')}
          value={from}
          onChange={(event) => onChange(joinRange(event.target.value, to))}
          error={isError && from === ''}
          helperText={error}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { 'aria-label': t('queries.filters.from.of', { number }) },
          }}
        />
        <TextField
          size="small"
          type="date"
          label={t('queries.filters.to')}
          value={to}
          onChange={(event) => onChange(joinRange(from, event.target.value))}
          error={isError && to === ''}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { 'aria-label': t('queries.filters.to.of', { number }) },
          }}
        />
      </Stack>
    );
  }

  const inputType = valueType === 'NUMBER' ? 'number' : valueType === 'DATE' ? 'date' : 'text';
  return (
    <TextField
      size="small"
      fullWidth
      type={inputType}
      label={t('queries.filters.value')}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={isError}
      helperText={error ?? (valueType === 'LIST' ? t('queries.filters.list.hint') : undefined)}
      slotProps={{
        inputLabel: valueType === 'DATE' ? { shrink: true } : undefined,
        htmlInput: {
          'aria-label': t('queries.filters.value.of', { number }),
          ...(valueType === 'NUMBER' ? { inputMode: 'decimal', step: 'any' } : {}),
        },
      }}
    />
  );
}
