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

export interface PlainTextDialogProps {
  title: string;
  /** The text; null while it loads. */
  text: string | null;
  errorText?: string | null;
  onClose: () => void;
}

/**
 * Text to read, such as a page's normalized HTML recorded from another site: React writes it
 * into a <pre> as a text node, so it is never parsed or rendered as HTML.
 */
export function PlainTextDialog({ title, text, errorText = null, onClose }: PlainTextDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth scroll="paper" aria-labelledby="text-dialog-title">
      <DialogTitle id="text-dialog-title">{title}</DialogTitle>
      <DialogContent dividers>
        {errorText !== null ? (
          <Alert severity="error">{errorText}</Alert>
        ) : text === null ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress aria-label={t('app.loading')} />
          </Box>
        ) : (
          <Box
            component="pre"
            tabIndex={0}
            aria-label={title}
            sx={{
              m: 0,
              fontFamily: 'monospace',
              fontSize: 13,
              whiteSpace: 'pre-wrap',
              overflowWrap: 'anywhere',
            }}
          >
            {text}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" autoFocus>
          {t('dialog.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
