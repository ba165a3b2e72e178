import { Alert, Paper } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PageHeading } from './page-heading';

/** Stands in for a screen whose feature ships with a later issue; each route passes its title. */
export function PlaceholderPage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Paper sx={{ p: 3 }} data-testid="placeholder-page">
      <PageHeading>{title}</PageHeading>
      <Alert severity="info">{t('placeholder.text')}</Alert>
    </Paper>
  );
}
