import { Alert, Box, Card, CardContent, CardHeader, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { defaultUserSettings } from '@pagewright/shared';
import { DashboardGrid } from '../../features/dashboard/components/dashboard-grid';
import { ChangePasswordForm } from '../../features/password/components/change-password-form';
import { useUserSettings } from '../../features/user-settings/api/get-user-settings';
import { errorText } from '../../lib/api-client';
import { useSession } from '../../lib/session';

/** /dashboard: while a temporary password is set only the change-password form shows. */
export function DashboardRoute() {
  const { t } = useTranslation();
  const { isTempPasswordSet, isRemoteEngine } = useSession();
  const settings = useUserSettings({ isEnabled: !isTempPasswordSet });

  if (isTempPasswordSet) {
    return (
      <Card data-testid="temporary-password" sx={{ maxWidth: 560, mx: 'auto' }}>
        <CardHeader
          title={t('settings.change.password')}
          slotProps={{ title: { variant: 'h6', component: 'h1' } }}
        />
        <CardContent sx={{ pt: 0 }}>
          <Alert severity="info">{t('password.change.required')}</Alert>
          <ChangePasswordForm />
        </CardContent>
      </Card>
    );
  }

  if (settings.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label={t('app.loading')} />
      </Box>
    );
  }

  return (
    <>
      {settings.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorText(settings.error)}
        </Alert>
      )}
      <DashboardGrid settings={settings.data ?? defaultUserSettings()} isRemoteEngine={isRemoteEngine} />
    </>
  );
}
