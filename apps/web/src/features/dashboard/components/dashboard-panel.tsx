import { Card, CardContent, CardHeader, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** One dashboard panel; its list arrives with the feature's own issue, until then an empty state. */
export function DashboardPanel({ id, title }: { id: string; title: string }) {
  const { t } = useTranslation();
  return (
    <Card data-testid={`panel-${id}`} sx={{ height: '100%', borderTop: 3, borderTopColor: 'primary.main' }}>
      <CardHeader title={title} slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
      <CardContent sx={{ pt: 0 }}>
        <Typography color="text.secondary">{t('dashboard.empty')}</Typography>
      </CardContent>
    </Card>
  );
}
