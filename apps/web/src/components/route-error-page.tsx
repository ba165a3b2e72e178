import { Box, Button, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../lib/paths';
import { PageHeading } from './page-heading';

/**
 * What a route shows instead of react-router's default error page when it fails to render, or its
 * code fails to load (a lazy chunk of the previous build, gone after a deploy): Reload fetches
 * the current build, the dashboard is the way back.
 */
export function RouteErrorPage() {
  const { t } = useTranslation();
  return (
    <Box sx={{ p: 4, textAlign: 'center' }} role="alert" data-testid="route-error-page">
      <PageHeading>{t('route.error.title')}</PageHeading>
      <Typography sx={{ mb: 3 }}>{t('route.error.text')}</Typography>
      <Stack direction="row" spacing={2} sx={{ justifyContent: 'center' }}>
        <Button variant="contained" onClick={() => window.location.reload()}>
          {t('route.error.reload')}
        </Button>
        <Button variant="outlined" component={RouterLink} to={PATHS.dashboard}>
          {t('route.error.dashboard')}
        </Button>
      </Stack>
    </Box>
  );
}
