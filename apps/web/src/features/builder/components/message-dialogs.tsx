import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** Builder errors show in a modal titled Error (spec §8). */
export function ErrorDialog({ message, onClose }: { message: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={message !== null}
      onClose={onClose}
      aria-labelledby="builder-error-title"
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id="builder-error-title">{t('builder.error.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ wordBreak: 'break-word', whiteSpace: 'pre-line' }}>
          {message}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" autoFocus>
          {t('builder.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Finishing a navigator in remote-engine mode (spec §4 "Screen-share view"). */
export function ScreenShareEndedDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="builder-share-ended-title">
      <DialogTitle id="builder-share-ended-title">{t('builder.share.ended.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('builder.share.ended.text')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" autoFocus>
          {t('builder.share.ended.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
