import { Backdrop, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useIsLoading } from '../lib/loading';

/**
 * The page dimmed under a spinner, above dialogs, taking no clicks: an API call or code being
 * fetched. `showAfterMs` keeps a wait that ends at once from flashing it.
 */
export function SpinnerBackdrop({
  open,
  testId,
  showAfterMs = 0,
}: {
  open: boolean;
  testId: string;
  showAfterMs?: number;
}) {
  const { t } = useTranslation();
  return (
    <Backdrop
      open={open}
      data-testid={testId}
      style={showAfterMs > 0 ? { transitionDelay: open ? `${showAfterMs}ms` : '0ms' } : undefined}
      sx={{
        zIndex: (theme) => theme.zIndex.modal + 1,
        color: 'primary.main',
        backgroundColor: 'rgba(255, 255, 255, 0.6)',
      }}
    >
      <CircularProgress color="inherit" aria-label={t('app.loading')} />
    </Backdrop>
  );
}

/** Full-screen overlay shown while a non-quiet API call runs. */
export function LoadingOverlay() {
  return <SpinnerBackdrop open={useIsLoading()} testId="loading-overlay" />;
}
