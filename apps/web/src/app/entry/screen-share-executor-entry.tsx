import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { loginByToken } from '../../features/auth/api/login-by-token';
import { ApiError } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { storeLogin } from '../../lib/session';
import { toast } from '../../lib/toast';

/**
 * /screen-share-executor/:token: signs in with the one-time token, starts a screen-share navigator
 * named with a timestamp (description Screen Share, spec §2), then opens its builder. The viewer is
 * the e-mail the token carries, else the signed-in user.
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
      .then(async (login) => {
        storeLogin(login);
        // The builder's contracts stay out of the first download (the login page's).
        const { startBuilder } = await import('../../features/builder/api/start-builder');
        const started = await startBuilder({
          name: new Date().toISOString().replace('T', ' ').slice(0, 19),
          description: 'Screen Share',
          extractorType: 'NAVIGATOR',
          viewerEmail: login.viewerEmail ?? login.username,
        });
        navigate(`${PATHS.screenShareExecutor}?id=${encodeURIComponent(started.id)}`, {
          replace: true,
          state: { id: started.id },
        });
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
