import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DIALOG_CONFIRM_COOLDOWN_MS } from '@pagewright/shared';

interface DialogFrameProps {
  open: boolean;
  title: string;
  /**
   * Confirm: false when the form refused it (its errors show); else the builder's call, during
   * which the frame shows a spinner, staying open if it rejects.
   */
  onSubmit: () => false | void | Promise<void>;
  onCancel: () => void;
  isConfirmDisabled?: boolean;
  confirmLabel?: string;
  /** Dialogs with only a message and a Close button. */
  hasConfirm?: boolean;
  maxWidth?: 'xs' | 'sm' | 'md';
  children: ReactNode;
}

/**
 * The frame every builder dialog shares: a form (Enter submits), Cancel and Confirm, a spinner on
 * Confirm while the builder's call runs, and the spec's 500 ms confirm cooldown after each click.
 */
export function DialogFrame({
  open,
  title,
  onSubmit,
  onCancel,
  isConfirmDisabled = false,
  confirmLabel,
  hasConfirm = true,
  maxWidth = 'sm',
  children,
}: DialogFrameProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const [isSubmitting, setIsSubmitting] = useState(false);
  const [isCoolingDown, setIsCoolingDown] = useState(false);
  const isMounted = useRef(true);

  useEffect(() => {
    isMounted.current = true;
    return () => {
      isMounted.current = false;
    };
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isSubmitting || isCoolingDown || isConfirmDisabled) return;
    const pending = onSubmit();
    if (pending === false) return;
    // A confirmed click holds the button for the spec's cooldown, so a double click sends once.
    setIsCoolingDown(true);
    setTimeout(() => isMounted.current && setIsCoolingDown(false), DIALOG_CONFIRM_COOLDOWN_MS);
    if (!pending) return;
    setIsSubmitting(true);
    try {
      await pending;
    } catch {
      // The builder shows the failure (Error modal or toast); the dialog stays open to fix and retry.
    } finally {
      if (isMounted.current) setIsSubmitting(false);
    }
  };

  return (
    <Dialog
      open={open}
      // Escape cancels; a stray click beside the dialog must not throw away what was typed.
      onClose={(_, reason) => reason !== 'backdropClick' && !isSubmitting && onCancel()}
      maxWidth={maxWidth}
      fullWidth
      aria-labelledby={titleId}
    >
      <Box component="form" noValidate onSubmit={(event: FormEvent) => void submit(event)}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
          {children}
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel} disabled={isSubmitting}>
            {hasConfirm ? t('dialogs.cancel') : t('dialogs.close')}
          </Button>
          {hasConfirm && (
            <Button
              type="submit"
              variant="contained"
              disabled={isSubmitting || isCoolingDown || isConfirmDisabled}
              startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
            >
              {confirmLabel ?? t('dialogs.confirm')}
            </Button>
          )}
        </DialogActions>
      </Box>
    </Dialog>
  );
}
