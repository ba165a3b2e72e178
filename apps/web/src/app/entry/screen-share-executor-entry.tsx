import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { loginByToken } from '../../features/auth/api/login-by-token';
import { ApiError } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { storeLogin } from '../../lib/session';
import { toast } from '../../lib/toast';

/**
 * /screen-share-executor/:token: signs in with the one-time token, then opens the screen-share
 * builder. Starting the NAVIGATOR extractor there comes with the builder's issue.
 */
export function ScreenShareExecutorEntry() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  // The token works once: a second mount (React strict mode) must not spend it again.
  const startedFor = useRef<string | null>(null);

  useEffect(() => {
    if (startedFor.current === token) return;
    startedFor.current = token;
    loginByToken(token)
      .then((login) => {
        storeLogin(login);
        navigate(PATHS.screenShareExecutor, { replace: true });
      })
      .catch((error: unknown) => {
        toast.error(
          error instanceof ApiError && error.hasServerMessage
            ? error.message
            : t('login.error.invalid.token'),
        );
        navigate(PATHS.login, { replace: true });
      });
  }, [token, navigate, t]);

  return null;
}
