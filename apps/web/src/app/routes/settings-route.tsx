import { Stack } from '@mui/material';
import { useLocation, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../components/page-heading';
import { ChangePasswordCard } from '../../features/password/components/change-password-card';
import { UserSettingsCard } from '../../features/user-settings/components/user-settings-card';
import { ApiKeysCard } from '../../features/api-keys/components/api-keys-card';
import { BrowserHostsCard } from '../../features/browser-hosts/components/browser-hosts-card';
import { useSession } from '../../lib/session';

function isNeedPasswordState(state: unknown): boolean {
  return (
    typeof state === 'object' && state !== null && 'needPassword' in state && state.needPassword === true
  );
}

/**
 * /settings: the change-password card opens by itself when the need-password flag is passed. Until
 * the password is changed the API refuses the other settings, so only the card shows.
 */
export function SettingsRoute() {
  const { t } = useTranslation();
  const { isTempPasswordSet } = useSession();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const isPasswordNeeded = searchParams.get('needPassword') !== null || isNeedPasswordState(location.state);

  return (
    <>
      <PageHeading>{t('settings.title')}</PageHeading>
      <Stack spacing={3}>
        <ChangePasswordCard key={String(isPasswordNeeded)} isInitiallyOpen={isPasswordNeeded} />
        {!isPasswordNeeded && !isTempPasswordSet && <UserSettingsCard />}
        {!isPasswordNeeded && !isTempPasswordSet && <ApiKeysCard />}
        {!isPasswordNeeded && !isTempPasswordSet && <BrowserHostsCard />}
      </Stack>
    </>
  );
}
