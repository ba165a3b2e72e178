import { Box, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_DECIMAL_SEPARATOR,
  DEFAULT_GROUP_SEPARATOR,
  NUMBER_MASK_AFFIX_MAX_LENGTH,
  numberMaskRuleError,
  type ExtractorType,
  type NumberMask,
  type NumberMaskField,
} from '@pagewright/shared';
import type { MaskPreviewElement } from '../../api/mask-calls';
import { useMaskPreview } from '../../hooks/use-mask-preview';
import { MaskPreviewLine } from './mask-preview';

export type NumberMaskValue = NumberMask;

export const DEFAULT_NUMBER_MASK: NumberMaskValue = {
  beforePositive: '',
  afterPositive: '',
  beforeNegative: '-',
  afterNegative: '',
  decimalSeparator: DEFAULT_DECIMAL_SEPARATOR,
  groupSeparator: DEFAULT_GROUP_SEPARATOR,
};

/** The first broken number-mask rule (spec §5) by field, for the form to show under that field. */
export function numberMaskErrors(value: NumberMaskValue): Partial<Record<NumberMaskField, string>> {
  const broken = numberMaskRuleError(value);
  return broken ? { [broken.field]: broken.message } : {};
}

/** Each prefix/suffix pair: only one of the two can hold a character (spec §5). */
const AFFIX_PAIRS = [
  ['beforePositive', 'afterPositive'],
  ['beforeNegative', 'afterNegative'],
] as const;

const LABEL_KEYS = {
  beforePositive: 'dialogs.mask.before.positive',
  afterPositive: 'dialogs.mask.after.positive',
  beforeNegative: 'dialogs.mask.before.negative',
  afterNegative: 'dialogs.mask.after.negative',
  decimalSeparator: 'dialogs.mask.decimal.separator',
  groupSeparator: 'dialogs.mask.group.separator',
} as const;

export interface NumberMaskFieldsProps {
  value: NumberMaskValue;
  onChange: (value: NumberMaskValue) => void;
  /** The element the preview reads; null shows no preview. */
  element: MaskPreviewElement | null;
  extractorType?: ExtractorType;
  /** Show rule errors (after a first Confirm). */
  showErrors: boolean;
  autoFocus?: boolean;
}

/**
 * GET_NUMBER's mask: one-character prefix or suffix per sign, decimal and group separators, and a
 * live preview of the picked element read with the mask.
 */
export function NumberMaskFields({
  value,
  onChange,
  element,
  extractorType = 'EXTRACTOR',
  showErrors,
  autoFocus = false,
}: NumberMaskFieldsProps) {
  const { t } = useTranslation();
  const errors = numberMaskErrors(value);
  const isValid = Object.keys(errors).length === 0;
  const preview = useMaskPreview(
    extractorType,
    element && isValid ? { kind: 'number', element, mask: value } : null,
  );

  const field = (name: NumberMaskField, isDisabled: boolean, isFirst: boolean) => {
    const isAffix = name !== 'decimalSeparator' && name !== 'groupSeparator';
    const error = showErrors ? errors[name] : undefined;
    return (
      <TextField
        key={name}
        label={t(LABEL_KEYS[name])}
        value={value[name]}
        disabled={isDisabled}
        required={!isAffix}
        autoFocus={autoFocus && isFirst}
        onChange={(event) =>
          onChange({ ...value, [name]: event.target.value.slice(0, NUMBER_MASK_AFFIX_MAX_LENGTH) })
        }
        error={error !== undefined}
        helperText={error}
        slotProps={{ htmlInput: { maxLength: NUMBER_MASK_AFFIX_MAX_LENGTH } }}
      />
    );
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {AFFIX_PAIRS.map(([prefix, suffix], index) => (
        <Box key={prefix} sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 2 }}>
          {field(prefix, value[suffix] !== '', index === 0)}
          {field(suffix, value[prefix] !== '', false)}
        </Box>
      ))}
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 2 }}>
        {field('decimalSeparator', false, false)}
        {field('groupSeparator', false, false)}
      </Box>
      <MaskPreviewLine preview={preview} hasElement={element !== null} />
    </Box>
  );
}
