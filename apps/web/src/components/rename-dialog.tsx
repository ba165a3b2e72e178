import type { FormEvent } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import type { z } from 'zod';
import { useTranslation } from 'react-i18next';
import {
  NameDescriptionFields,
  useNameDescriptionForm,
  type NameDescription,
} from './name-description-fields';

/** Rename (name and description) of a dashboard item; Enter in the name submits. */
export function RenameDialog({
  title,
  initial,
  schema,
  uniqueText,
  onSubmit,
  onClose,
}: {
  title: string;
  initial: NameDescription;
  /** The API's request schema: its texts are the ones shown. */
  schema: z.ZodType;
  uniqueText: string;
  onSubmit: (values: NameDescription) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const form = useNameDescriptionForm({ schema, uniqueText, initial });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit(onSubmit);
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="rename-dialog-title">
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id="rename-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <NameDescriptionFields form={form} autoFocus />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('extractors.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={form.isSaving}>
            {t('extractors.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
