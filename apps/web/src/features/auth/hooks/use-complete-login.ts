import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PASSWORD_EXPIRY_WARNING_DAYS, type LoginResponse } from '@pagewright/shared';
import { isApiError } from '../../../lib/api-client';
import { clearSession, getSession, setNavigatorToken, storeLogin, storeUserId } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { NEED_PASSWORD_PATH, PATHS, pathTo } from '../../../lib/paths';
import { getCurrentUser } from '../api/get-current-user';

/** The login outcomes of data spec §4, applied to a successful POST /api/auth answer. */
export function useCompleteLogin(): (login: LoginResponse) => Promise<void> {
  const navigate = useNavigate();
  const { t } = useTranslation();

  return async (login) => {
    if (!login.enabled) {
      toast.error(t('login.error.disabled'));
      return;
    }
    storeLogin(login);

    if (login.daysToExpire === 0) {
      toast.warning(t('login.error.password.expired'));
      navigate(NEED_PASSWORD_PATH, { replace: true, state: { needPassword: true } });
      return;
    }

    // While a temporary password is set the API answers little else; the id is fetched later.
    if (!login.tempPasswordSet) {
      try {
        storeUserId((await getCurrentUser()).id);
      } catch (error) {
        clearSession();
        toast.error(isApiError(error, 404) ? t('login.user.not.found') : t('error.user.info'));
        return;
      }
    }

    if (login.daysToExpire > 0 && login.daysToExpire <= PASSWORD_EXPIRY_WARNING_DAYS) {
      toast.warning(t('login.warning.password.expiring', { days: login.daysToExpire }));
      navigate(PATHS.root, { replace: true });
      return;
    }

    const { navigatorToken } = getSession();
    if (navigatorToken) {
      setNavigatorToken(null);
      navigate(pathTo(PATHS.screenShareViewerEntry, { token: navigatorToken }), { replace: true });
      return;
    }
    navigate(PATHS.root, { replace: true });
  };
}
