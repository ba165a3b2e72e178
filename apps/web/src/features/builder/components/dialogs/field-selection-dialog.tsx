import { useState } from 'react';
import { Alert, MenuItem, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { MESSAGES } from '@pagewright/shared';
import { DialogFrame } from './dialog-frame';

/**
 * The part of an fserviceDTO section this dialog can use: a named group of named fields. The
 * contract keeps sections opaque until the F-engine exists; anything else is left out.
 */
const sectionSchema = z.object({
  name: z.string(),
  fields: z.array(z.object({ name: z.string(), label: z.string().optional() })),
});

interface FieldChoice {
  value: string;
  text: string;
}

function fieldChoices(sections: readonly unknown[]): FieldChoice[] {
  return sections.flatMap((section) => {
    const parsed = sectionSchema.safeParse(section);
    if (!parsed.success) return [];
    return parsed.data.fields.map((field) => ({
      value: `${parsed.data.name}.${field.name}`,
      text: `${parsed.data.name} · ${field.label ?? field.name}`,
    }));
  });
}

export interface FieldSelectionDialogProps {
  open: boolean;
  /** fserviceDTO.sections of the page (GET /extractor/normalized/reload). */
  sections: readonly unknown[];
  onCancel(): void;
  /** The chosen field as "section.field" (TYPE_F_ENGINE_FIELD's textValue). */
  onConfirm(field: string): void | Promise<void>;
}

/**
 * TYPE_F_ENGINE_FIELD's field selection: a field of the engine's sections. With no sections (the
 * engine is not connected) it says why the action cannot be used yet.
 */
export function FieldSelectionDialog(props: FieldSelectionDialogProps) {
  return props.open ? <OpenFieldSelectionDialog {...props} /> : null;
}

function OpenFieldSelectionDialog({ sections, onCancel, onConfirm }: FieldSelectionDialogProps) {
  const { t } = useTranslation();
  const choices = fieldChoices(sections);
  const [field, setField] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  const error = showErrors && !field ? MESSAGES['error.required'] : undefined;
  return (
    <DialogFrame
      open
      title={t('dialogs.field.selection.title')}
      onCancel={onCancel}
      hasConfirm={choices.length > 0}
      onSubmit={() => {
        setShowErrors(true);
        if (!field) return false;
        return onConfirm(field);
      }}
    >
      {choices.length === 0 ? (
        <Alert severity="info">{t('dialogs.field.selection.none')}</Alert>
      ) : (
        <TextField
          select
          autoFocus
          required
          label={t('dialogs.field.selection.field')}
          value={field}
          onChange={(event) => setField(event.target.value)}
          error={error !== undefined}
          helperText={error}
        >
          {choices.map((choice) => (
            <MenuItem key={choice.value} value={choice.value}>
              {choice.text}
            </MenuItem>
          ))}
        </TextField>
      )}
    </DialogFrame>
  );
}
