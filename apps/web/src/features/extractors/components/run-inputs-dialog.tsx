import { useState, type FormEvent } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  TEXT_FIELD_MAX_LENGTH,
  inputValueMessage,
  isInputValueValid,
  type ExtractorInput,
  type RunInputValues,
} from '@pagewright/shared';

export interface RunInputsDialogProps {
  name: string;
  inputs: readonly ExtractorInput[];
  /** Starts the run with these values (every input, defaults where left as they were). */
  onSubmit: (values: RunInputValues) => void;
  onClose: () => void;
}

const HTML_TYPES = { TEXT: 'text', NUMBER: 'text', URL: 'url', EMAIL: 'email', DATE: 'date' } as const;

/**
 * Execute of an extractor with inputs: one field per input, prefilled with its default (the value
 * recorded in the builder), each checked against its type before the run starts.
 */
export function RunInputsDialog({ name, inputs, onSubmit, onClose }: RunInputsDialogProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<RunInputValues>(() =>
    Object.fromEntries(inputs.map((input) => [input.name, input.defaultValue])),
  );
  const [isSubmitted, setIsSubmitted] = useState(false);
  const errorOf = (input: ExtractorInput) => {
    const value = values[input.name] ?? '';
    return isInputValueValid(input.type, value) ? undefined : inputValueMessage(input.name, input.type);
  };
  const hasErrors = inputs.some((input) => errorOf(input) !== undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setIsSubmitted(true);
    if (!hasErrors) onSubmit(values);
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="run-inputs-title">
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id="run-inputs-title">{t('inputs.dialog.title', { name })}</DialogTitle>
        <DialogContent>
          <DialogContentText variant="body2">{t('inputs.dialog.help')}</DialogContentText>
          {inputs.map((input, index) => {
            const error = isSubmitted ? errorOf(input) : undefined;
            return (
              <TextField
                key={input.name}
                autoFocus={index === 0}
                fullWidth
                margin="normal"
                label={`${input.name} (${t(`inputs.type.${input.type}`)})`}
                type={HTML_TYPES[input.type]}
                value={values[input.name] ?? ''}
                onChange={(event) =>
                  setValues((current) => ({
                    ...current,
                    [input.name]: event.target.value.slice(0, TEXT_FIELD_MAX_LENGTH),
                  }))
                }
                error={error !== undefined}
                helperText={error}
                slotProps={{ inputLabel: { shrink: true } }}
              />
            );
          })}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('extractors.cancel')}</Button>
          <Button type="submit" variant="contained">
            {t('inputs.dialog.run')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
