import { useEffect } from 'react';
import { Alert, Snackbar } from '@mui/material';
import { clearShownErrors } from '../api/clear-shown-errors';
import { dismissRunErrorNotice, useRunErrorNotices } from '../hooks/run-error-notices';

const NOTICE_DURATION_MS = 10_000;

/**
 * The bottom-left notice of rows in ERROR (spec §4 "List status"): one error at a time, the first
 * unseen error of each row; once shown, the server marks the row's errors as seen.
 */
export function RunErrorNotices() {
  const notices = useRunErrorNotices();
  const notice = notices[0];

  useEffect(() => {
    if (!notice) return;
    // Not shown again on the next load; a failure here only means it may show once more later.
    clearShownErrors(notice.extractorId).catch(() => undefined);
  }, [notice]);

  if (!notice) return null;
  const close = () => dismissRunErrorNotice(notice.key);
  return (
    <Snackbar
      key={notice.key}
      open
      anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      autoHideDuration={NOTICE_DURATION_MS}
      onClose={(_, reason) => reason !== 'clickaway' && close()}
    >
      <Alert
        severity="error"
        variant="filled"
        onClose={close}
        data-testid="run-error-notice"
        sx={{ maxWidth: 560 }}
      >
        <strong>{notice.name}</strong>: {notice.text}
      </Alert>
    </Snackbar>
  );
}
