import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ListKind } from '../list-kinds';

/** Confirms a delete; the list row stays until the server has deleted it. */
export function DeleteDialog({
  kind,
  name,
  isDeleting,
  onConfirm,
  onClose,
}: {
  kind: ListKind;
  name: string;
  isDeleting: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby="delete-dialog-title"
      aria-describedby="delete-dialog-text"
    >
      <DialogTitle id="delete-dialog-title">{t(kind.labels.delete)}</DialogTitle>
      <DialogContent>
        <DialogContentText id="delete-dialog-text">{t('extractors.delete.text', { name })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          {t('extractors.cancel')}
        </Button>
        <Button onClick={onConfirm} color="error" variant="contained" disabled={isDeleting}>
          {t('extractors.delete')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
