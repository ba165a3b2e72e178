import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { exchangeEngineToken } from '../../features/auth/api/exchange-engine-token';
import { ApiError } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { storeRemoteEngineSession } from '../../lib/session';
import { toast } from '../../lib/toast';

/** A JWT: header, payload and signature separated by dots. */
function isThreePartToken(token: string): boolean {
  const parts = token.split('.');
  return parts.length === 3 && parts.every((part) => part.length > 0);
}

/**
 * /screen-share-fengine/:token and /messaging-fengine/:token: the F-engine hands over a token it
 * signed; the API exchanges it for a Pagewright session, which becomes remote-engine (and messaging
 * for the second path). A token of another shape is refused without asking the API (spec §2).
 */
export function RemoteEngineEntry({ isMessaging }: { isMessaging: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const handledToken = useRef<string | null>(null);

  useEffect(() => {
    if (handledToken.current === token) return;
    handledToken.current = token;
    const refuse = (message: string = t('error.invalid.token.parameter')) => {
      toast.error(message);
      navigate(PATHS.login, { replace: true });
    };
    if (!isThreePartToken(token)) {
      refuse();
      return;
    }
    exchangeEngineToken(token)
      .then((login) => {
        storeRemoteEngineSession(login, isMessaging);
        navigate(PATHS.dashboard, { replace: true });
      })
      .catch((error: unknown) => {
        // A disabled account says so; every refused token gets the invalid-token text.
        refuse(
          error instanceof ApiError && error.status === 403 && error.hasServerMessage
            ? error.message
            : undefined,
        );
      });
  }, [token, isMessaging, navigate, t]);

  return null;
}
