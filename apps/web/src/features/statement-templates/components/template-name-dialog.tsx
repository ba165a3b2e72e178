import { useState, type FormEvent } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { templateNameSchema } from '@pagewright/shared';
import { isApiError } from '../../../lib/api-client';

/** Add or rename a template (data spec §4 'Template dialog'): the name's errors show under it. */
export function TemplateNameDialog({
  title,
  initialName = '',
  onSubmit,
  onClose,
}: {
  title: string;
  initialName?: string;
  onSubmit: (templateName: string) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = templateNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setIsBusy(true);
    try {
      await onSubmit(parsed.data);
    } catch (failure) {
      setError(isApiError(failure) && failure.hasServerMessage ? failure.message : String(failure));
      setIsBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="template-name-title">
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id="template-name-title">{title}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={t('templates.name')}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setError(null);
            }}
            error={error !== null}
            helperText={error}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('templates.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isBusy}>
            {t('templates.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
