import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import type { DialogAnswer, ExtractorType, PageDialog } from '@pagewright/shared';
import { useLiveEvents } from '../../../lib/live-events';
import { answerPageDialog } from '../api/page-calls';

export interface PageDialogPromptProps {
  extractorType: ExtractorType;
  /** An action of this builder is running on the page: only then can its dialog be this page's. */
  isActionRunning: boolean;
  onError: (error: unknown) => void;
}

/**
 * The JavaScript dialog (alert, confirm, prompt, leave-page) the live page opened while an action
 * ran, shown over the page view as the page would show it. The operator's answer is given to the
 * page and recorded as an "Answer dialog" step after the action (issue 22).
 */
export function PageDialogPrompt({ extractorType, isActionRunning, onError }: PageDialogPromptProps) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<PageDialog | null>(null);
  const [promptText, setPromptText] = useState('');
  const [isAnswering, setAnswering] = useState(false);

  useLiveEvents(
    ['page-dialog'],
    (event) => {
      setDialog(event.dialog);
      setPromptText(event.dialog.defaultValue ?? '');
    },
    isActionRunning,
  );

  const open = dialog !== null && isActionRunning;
  const answer = async (given: DialogAnswer) => {
    setAnswering(true);
    try {
      await answerPageDialog(extractorType, given);
    } catch (error) {
      onError(error);
    } finally {
      setAnswering(false);
      setDialog(null);
    }
  };

  if (!open) return null;
  const isLeaving = dialog.type === 'beforeunload';
  const titleId = 'page-dialog-title';
  return (
    <Dialog open aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{t(`builder.pageDialog.title.${dialog.type}`)}</DialogTitle>
      <DialogContent>
        {!isLeaving && (
          <DialogContentText sx={{ whiteSpace: 'pre-wrap', color: 'text.primary', mb: 1 }}>
            {dialog.message}
          </DialogContentText>
        )}
        {dialog.type === 'prompt' && (
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={t('builder.pageDialog.answer')}
            value={promptText}
            onChange={(event) => setPromptText(event.target.value)}
          />
        )}
        <DialogContentText variant="caption">{t('builder.pageDialog.hint')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        {dialog.type !== 'alert' && (
          <Button disabled={isAnswering} onClick={() => void answer({ accept: false })}>
            {t(isLeaving ? 'builder.pageDialog.stay' : 'builder.pageDialog.cancel')}
          </Button>
        )}
        <Button
          variant="contained"
          disabled={isAnswering}
          onClick={() =>
            void answer(dialog.type === 'prompt' ? { accept: true, promptText } : { accept: true })
          }
        >
          {t(isLeaving ? 'builder.pageDialog.leave' : 'builder.pageDialog.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
