import { Box, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageHeading } from './page-heading';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Box sx={{ p: 4, textAlign: 'center' }} data-testid="not-found-page">
      <PageHeading>{t('notfound.title')}</PageHeading>
      <Typography sx={{ mb: 2 }}>{t('notfound.text')}</Typography>
      <Link component={RouterLink} to="/">
        {t('notfound.link')}
      </Link>
    </Box>
  );
}
