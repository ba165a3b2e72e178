import { useState, type FormEvent } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@pagewright/shared';
import { ApiError, errorText } from '../../../lib/api-client';
import { hasErrors } from '../../../lib/form-errors';
import { toast } from '../../../lib/toast';
import { itemFieldErrors, type ItemFieldErrors, type ItemFields } from '../item-rules';
import type { ListKind } from '../list-kinds';

export interface ItemDialogProps {
  kind: ListKind;
  /** Create asks a navigator's viewer e-mail; rename keeps it (spec §5). */
  mode: 'create' | 'rename';
  initial?: { name: string; description: string };
  /** Saves the trimmed fields; a rejection with the API's NAME_EXISTS shows under the name. */
  onSubmit: (fields: ItemFields) => Promise<void>;
  onClose: () => void;
}

/**
 * The name/description dialog of the dashboard lists (Add and Rename). Enter submits from the
 * one-line fields; the rules show after the first attempt and follow each change from then on.
 */
export function ItemDialog({ kind, mode, initial, onSubmit, onClose }: ItemDialogProps) {
  const { t } = useTranslation();
  const isViewerEmailAsked = mode === 'create' && kind.hasViewerEmail;
  const [fields, setFields] = useState<ItemFields>({
    name: initial?.name ?? '',
    description: initial?.description ?? '',
    viewerEmail: '',
  });
  const [isSubmitted, setIsSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<ItemFieldErrors>({});
  const [isSaving, setIsSaving] = useState(false);

  const ruleErrors = itemFieldErrors(kind, fields, isViewerEmailAsked);
  const shown: ItemFieldErrors = { ...serverErrors, ...(isSubmitted ? ruleErrors : {}) };
  const textOf = (field: keyof ItemFields) => shown[field];

  const change = (field: keyof ItemFields) => (event: { target: { value: string } }) => {
    setFields((current) => ({ ...current, [field]: event.target.value }));
    setServerErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setIsSubmitted(true);
    if (hasErrors(ruleErrors) || isSaving) return;
    setIsSaving(true);
    try {
      await onSubmit({
        name: fields.name.trim(),
        description: fields.description.trim(),
        viewerEmail: fields.viewerEmail.trim(),
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setServerErrors({ name: MESSAGES[kind.messages.unique] });
      } else if (error instanceof ApiError && error.status === 400 && error.field && error.field in fields) {
        setServerErrors({ [error.field]: error.message });
      } else {
        toast.error(errorText(error));
      }
    } finally {
      setIsSaving(false);
    }
  };

  const title = t(mode === 'create' ? kind.labels.create : kind.labels.rename);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="item-dialog-title">
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id="item-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="normal"
            label={t('extractors.field.name')}
            value={fields.name}
            onChange={change('name')}
            error={textOf('name') !== undefined}
            helperText={textOf('name')}
          />
          <TextField
            fullWidth
            margin="normal"
            multiline
            minRows={3}
            maxRows={4}
            label={t('extractors.field.description')}
            value={fields.description}
            onChange={change('description')}
            error={textOf('description') !== undefined}
            helperText={textOf('description')}
          />
          {isViewerEmailAsked && (
            <TextField
              fullWidth
              margin="normal"
              type="email"
              label={t('extractors.field.viewer.email')}
              value={fields.viewerEmail}
              onChange={change('viewerEmail')}
              error={textOf('viewerEmail') !== undefined}
              helperText={textOf('viewerEmail') ?? t('extractors.field.viewer.email.help')}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('extractors.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isSaving}>
            {t(mode === 'create' ? 'extractors.create' : 'extractors.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
