import { useState } from 'react';
import { TextField } from '@mui/material';
import type { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../lib/api-client';
import { fieldErrorsOf, hasErrors, type FieldErrors } from '../lib/form-errors';
import { toast } from '../lib/toast';

export interface NameDescription {
  name: string;
  description: string;
}
type NameDescriptionErrors = FieldErrors<keyof NameDescription>;

/**
 * The state of a name/description form (new dataset, new query, their rename dialogs), checked with
 * the API's own schema so both show the same texts. The rules show after the first attempt and
 * follow each change from then on; a 409 from the server (or `isNameTaken`) shows `uniqueText` under
 * the name.
 */
export function useNameDescriptionForm(options: {
  schema: z.ZodType;
  uniqueText: string;
  initial?: NameDescription;
  /** A check against names already known here (for a wizard that stores nothing before its end). */
  isNameTaken?: (name: string) => boolean;
}) {
  const [values, setValues] = useState<NameDescription>(options.initial ?? { name: '', description: '' });
  const [isSubmitted, setIsSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<NameDescriptionErrors>({});
  const [isSaving, setIsSaving] = useState(false);
  const ruleErrors = fieldErrorsOf<keyof NameDescription>(options.schema, { ...values });
  const errors: NameDescriptionErrors = { ...serverErrors, ...(isSubmitted ? ruleErrors : {}) };

  const change = (field: keyof NameDescription, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setServerErrors((current) => ({ ...current, [field]: undefined }));
  };

  /** Checks the rules, then runs `save` with the trimmed values; its API errors land on the fields. */
  const submit = async (save: (trimmed: NameDescription) => Promise<void>) => {
    setIsSubmitted(true);
    if (hasErrors(ruleErrors) || isSaving) return;
    if (options.isNameTaken?.(values.name.trim())) {
      setServerErrors({ name: options.uniqueText });
      return;
    }
    setIsSaving(true);
    try {
      await save({ name: values.name.trim(), description: values.description.trim() });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && error.code === 'NAME_EXISTS') {
        setServerErrors({ name: options.uniqueText });
      } else if (
        error instanceof ApiError &&
        error.status === 400 &&
        (error.field === 'name' || error.field === 'description')
      ) {
        setServerErrors({ [error.field]: error.message });
      } else {
        toast.error(errorText(error));
      }
    } finally {
      setIsSaving(false);
    }
  };

  return { values, errors, change, submit, isSaving };
}

/** The name and description fields: max 128 and 1024 characters (spec §9), 3-4 description rows. */
export function NameDescriptionFields({
  form,
  autoFocus = false,
}: {
  form: Pick<ReturnType<typeof useNameDescriptionForm>, 'values' | 'errors' | 'change'>;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        autoFocus={autoFocus}
        fullWidth
        margin="normal"
        label={t('extractors.field.name')}
        value={form.values.name}
        onChange={(event) => form.change('name', event.target.value)}
        error={form.errors.name !== undefined}
        helperText={form.errors.name}
      />
      <TextField
        fullWidth
        margin="normal"
        multiline
        minRows={3}
        maxRows={4}
        label={t('extractors.field.description')}
        value={form.values.description}
        onChange={(event) => form.change('description', event.target.value)}
        error={form.errors.description !== undefined}
        helperText={form.errors.description}
      />
    </>
  );
}
