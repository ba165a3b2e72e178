import { useState } from 'react';
import { Autocomplete, Box, MenuItem, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DATE_MASKS,
  DEFAULT_TIME_ZONE,
  MESSAGES,
  type DateMask,
  type ExtractorType,
} from '@pagewright/shared';
import { timeZonesQuery, type MaskPreviewElement } from '../../api/mask-calls';
import { useMaskPreview } from '../../hooks/use-mask-preview';
import { MaskPreviewLine } from './mask-preview';

export type DateMaskValue = DateMask;

export const DEFAULT_DATE_MASK: DateMaskValue = { mask: DATE_MASKS[0], gmt: DEFAULT_TIME_ZONE };

/** The select's value for a mask typed by hand. */
const CUSTOM = 'custom';

export function dateMaskErrors(value: DateMaskValue): Partial<Record<keyof DateMaskValue, string>> {
  const errors: Partial<Record<keyof DateMaskValue, string>> = {};
  if (!value.mask.trim()) errors.mask = MESSAGES['error.required'];
  if (!value.gmt.trim()) errors.gmt = MESSAGES['error.required'];
  return errors;
}

export interface DateMaskFieldsProps {
  value: DateMaskValue;
  onChange: (value: DateMaskValue) => void;
  /** The element the preview reads; null shows no preview. */
  element: MaskPreviewElement | null;
  extractorType?: ExtractorType;
  showErrors: boolean;
  autoFocus?: boolean;
}

/**
 * GET_DATE's mask: one of the spec's masks or a custom one, a time zone (GET
 * /extractor/dateTime/timezones, Etc/GMT0 by default) and a live preview on the picked element.
 */
export function DateMaskFields({
  value,
  onChange,
  element,
  extractorType = 'EXTRACTOR',
  showErrors,
  autoFocus = false,
}: DateMaskFieldsProps) {
  const { t } = useTranslation();
  const [isCustom, setIsCustom] = useState(!(DATE_MASKS as readonly string[]).includes(value.mask));
  const timeZones = useQuery(timeZonesQuery);
  const errors = showErrors ? dateMaskErrors(value) : {};
  const isValid = Object.keys(dateMaskErrors(value)).length === 0;
  const preview = useMaskPreview(
    extractorType,
    element && isValid ? { kind: 'date', element, mask: { mask: value.mask.trim(), gmt: value.gmt } } : null,
  );
  // Until the list arrives (or when it cannot), the chosen zone stays selectable.
  const zoneOptions = timeZones.data ?? [value.gmt];

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <TextField
        select
        label={t('dialogs.date.mask')}
        value={isCustom ? CUSTOM : value.mask}
        autoFocus={autoFocus}
        onChange={(event) => {
          const choice = event.target.value;
          setIsCustom(choice === CUSTOM);
          onChange({ ...value, mask: choice === CUSTOM ? '' : choice });
        }}
      >
        {DATE_MASKS.map((mask) => (
          <MenuItem key={mask} value={mask}>
            {mask}
          </MenuItem>
        ))}
        <MenuItem value={CUSTOM}>{t('dialogs.date.custom')}</MenuItem>
      </TextField>
      {isCustom && (
        <TextField
          label={t('dialogs.date.custom.mask')}
          value={value.mask}
          required
          autoFocus
          onChange={(event) => onChange({ ...value, mask: event.target.value.slice(0, 64) })}
          error={errors.mask !== undefined}
          helperText={errors.mask ?? t('dialogs.date.custom.help')}
        />
      )}
      <Autocomplete
        options={zoneOptions}
        value={value.gmt || null}
        loading={timeZones.isPending}
        onChange={(_, zone) => onChange({ ...value, gmt: zone ?? '' })}
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('dialogs.date.timezone')}
            required
            error={timeZones.isError || errors.gmt !== undefined}
            helperText={timeZones.isError ? t('extractor.timezones.error') : errors.gmt}
          />
        )}
      />
      <MaskPreviewLine preview={preview} hasElement={element !== null} />
    </Box>
  );
}
