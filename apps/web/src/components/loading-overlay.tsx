import { Backdrop, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useIsLoading } from '../lib/loading';

/** Full-screen overlay shown while a non-quiet API call runs. */
export function LoadingOverlay() {
  const { t } = useTranslation();
  const isLoading = useIsLoading();
  return (
    <Backdrop
      open={isLoading}
      data-testid="loading-overlay"
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
