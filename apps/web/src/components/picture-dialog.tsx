import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
} from '@mui/material';
import { useTranslation } from 'react-i18next';

export interface PictureDialogProps {
  title: string;
  /** The picture's URL; null while it loads (or when it could not be loaded: see errorText). */
  src: string | null;
  /** Shown instead of the picture when it could not be loaded. */
  errorText?: string | null;
  onClose: () => void;
}

/**
 * A screenshot to look at: fitted to the window, or at its own size (scrollable) for reading
 * small print. Used for run steps, screen-share steps and builder cards alike.
 */
export function PictureDialog({ title, src, errorText = null, onClose }: PictureDialogProps) {
  const { t } = useTranslation();
  const [isEnlarged, setIsEnlarged] = useState(false);
  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={isEnlarged}
      maxWidth="lg"
      fullWidth
      aria-labelledby="picture-dialog-title"
    >
      <DialogTitle id="picture-dialog-title">{title}</DialogTitle>
      <DialogContent dividers sx={{ p: isEnlarged ? 0 : 2, overflow: 'auto' }}>
        {errorText !== null ? (
          <Alert severity="warning">{errorText}</Alert>
        ) : src === null ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress aria-label={t('app.loading')} />
          </Box>
        ) : (
          <Box
            component="img"
            src={src}
            alt={title}
            sx={
              isEnlarged
                ? { display: 'block', maxWidth: 'none' }
                : { display: 'block', width: '100%', height: 'auto' }
            }
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setIsEnlarged((value) => !value)} disabled={src === null}>
          {isEnlarged ? t('picture.fit') : t('picture.enlarge')}
        </Button>
        <Button onClick={onClose} variant="contained" autoFocus>
          {t('dialog.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
