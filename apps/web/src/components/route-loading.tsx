import { Box, CircularProgress, Fade } from '@mui/material';
import { useNavigation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { SpinnerBackdrop } from './loading-overlay';

/** After this long a wait for code shows, so a chunk that arrives at once never flashes a spinner. */
const SHOW_AFTER_MS = 200;

/**
 * A screen whose code is still loading when the tab opens on it: a spinner in the middle of the
 * empty page, which the screen then replaces whole (nothing on the page moves).
 */
export function ScreenLoading() {
  const { t } = useTranslation();
  return (
    <Fade in style={{ transitionDelay: `${SHOW_AFTER_MS}ms` }}>
      <Box
        data-testid="screen-loading"
        sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      >
        <CircularProgress aria-label={t('app.loading')} />
      </Box>
    </Fade>
  );
}

/**
 * Code being fetched for what the user just opened: the page dims under a spinner, as for an API
 * call (the loading overlay), laid over the page so nothing under it moves, and takes no clicks.
 */
function CodeLoadingBackdrop({ open, testId }: { open: boolean; testId: string }) {
  return <SpinnerBackdrop open={open} testId={testId} showAfterMs={SHOW_AFTER_MS} />;
}

/** A move to a screen whose code is not loaded yet keeps the current screen on show until it is. */
export function NavigationLoading() {
  return <CodeLoadingBackdrop open={useNavigation().state === 'loading'} testId="navigation-loading" />;
}

/** The Suspense fallback of a dialog whose code loads when it is first opened. */
export function DialogLoading() {
  return <CodeLoadingBackdrop open testId="dialog-loading" />;
}
