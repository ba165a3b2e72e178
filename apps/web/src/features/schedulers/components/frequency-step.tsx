import {
  Autocomplete,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DAYS_OF_WEEK, SCHEDULE_TYPES, type DayOfWeek, type ScheduleType } from '@pagewright/shared';
import {
  BLOCKED_NUMBER_KEYS,
  NUMBER_RANGES,
  typedNumber,
  type NumberField,
  type TimetableErrors,
  type TimetableForm,
} from '../timetable-form';

/**
 * One of the step's numbers (spec §5): digits only, clamped to the maximum, 4 characters, no minus,
 * plus or 'e'. A number below the minimum is not raised (a 0 interval would save as "Every minute"
 * unseen): Next refuses it with the spec's text.
 */
function NumberInput({
  field,
  label,
  form,
  errors,
  helperText,
  onChange,
}: {
  field: NumberField;
  label: string;
  form: TimetableForm;
  errors: TimetableErrors;
  helperText?: string;
  onChange: (form: TimetableForm) => void;
}) {
  const { t } = useTranslation();
  const range = NUMBER_RANGES[field];
  const error = errors[field];
  return (
    <TextField
      type="number"
      label={label}
      value={form[field]}
      onKeyDown={(event) => {
        if (BLOCKED_NUMBER_KEYS.has(event.key)) event.preventDefault();
      }}
      onChange={(event) => onChange({ ...form, [field]: typedNumber(event.target.value, field) })}
      error={error !== undefined}
      helperText={error ?? helperText ?? t('schedulers.field.range', range)}
      slotProps={{ htmlInput: { min: range.min, max: range.max, step: 1, inputMode: 'numeric' } }}
      sx={{ width: 180 }}
    />
  );
}

/**
 * The wizard's frequency step (data spec §4, §5): Interval (minutes), Daily (hour and minute),
 * Weekly (and days of the week) or Monthly (and day of the month), in a time zone. `errors` show
 * under their fields (the wizard passes them once Next was pressed).
 */
export function FrequencyStep({
  form,
  errors,
  timeZones,
  onChange,
}: {
  form: TimetableForm;
  errors: TimetableErrors;
  timeZones: readonly string[];
  onChange: (form: TimetableForm) => void;
}) {
  const { t } = useTranslation();
  const type = form.scheduleType;
  const hasTime = type !== null && type !== 'MINUTE_INTERVAL';
  const number = (field: NumberField, label: string, helperText?: string) => (
    <NumberInput
      field={field}
      label={label}
      form={form}
      errors={errors}
      helperText={helperText}
      onChange={onChange}
    />
  );
  const toggleDay = (day: DayOfWeek, isChecked: boolean) =>
    onChange({
      ...form,
      daysOfWeek: DAYS_OF_WEEK.filter((candidate) =>
        candidate === day ? isChecked : form.daysOfWeek.includes(candidate),
      ),
    });
  // The saved or default zone stays choosable while the list loads (or lacks it).
  const zoneOptions = timeZones.includes(form.timeZone) ? timeZones : [form.timeZone, ...timeZones];

  return (
    <Stack spacing={2.5} sx={{ maxWidth: 560 }}>
      <TextField
        select
        label={t('schedulers.field.frequency')}
        value={type ?? ''}
        onChange={(event) => onChange({ ...form, scheduleType: event.target.value as ScheduleType })}
        error={errors.scheduleType !== undefined}
        helperText={errors.scheduleType}
        sx={{ width: 260 }}
      >
        {SCHEDULE_TYPES.map((option) => (
          <MenuItem key={option} value={option}>
            {t(`schedulers.type.${option}`)}
          </MenuItem>
        ))}
      </TextField>

      {type === 'MINUTE_INTERVAL' && number('minuteInterval', t('schedulers.field.interval'))}

      {hasTime && (
        <Stack direction="row" spacing={2}>
          {number('hour', t('schedulers.field.hour'))}
          {number('minute', t('schedulers.field.minute'))}
        </Stack>
      )}

      {type === 'WEEKLY' && (
        <FormControl component="fieldset" error={errors.daysOfWeek !== undefined}>
          <FormLabel component="legend">{t('schedulers.field.days')}</FormLabel>
          <FormGroup row>
            {DAYS_OF_WEEK.map((day) => (
              <FormControlLabel
                key={day}
                label={t(`schedulers.day.${day}`)}
                control={
                  <Checkbox
                    checked={form.daysOfWeek.includes(day)}
                    onChange={(event) => toggleDay(day, event.target.checked)}
                  />
                }
              />
            ))}
          </FormGroup>
          {errors.daysOfWeek && <FormHelperText>{errors.daysOfWeek}</FormHelperText>}
        </FormControl>
      )}

      {type === 'MONTHLY' &&
        number(
          'dayOfMonth',
          t('schedulers.field.day.of.month'),
          t('schedulers.day.of.month.hint', NUMBER_RANGES.dayOfMonth),
        )}

      {hasTime && (
        <Autocomplete
          options={zoneOptions}
          value={form.timeZone}
          disableClearable
          onChange={(_event, timeZone) => onChange({ ...form, timeZone })}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('schedulers.field.time.zone')}
              helperText={t('schedulers.time.zone.hint')}
            />
          )}
          sx={{ width: 360 }}
        />
      )}
    </Stack>
  );
}
